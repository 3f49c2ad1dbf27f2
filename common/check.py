"""Correctness check of one kernel output against the float64 reference.

The tolerance is derived in docs/methodology.md:
- `gpumode` data uses GPU MODE's own check, |out - ref| <= 1e-3 + 1e-3 |ref|;
- `full` and `quantized` use the bound of an exact decode with fp32 accumulation,
  |out - ref| <= 2^-11 |ref| + 8 sqrt(K) 2^-24 S + 2^-24,
  where S is the sum of |terms| of that output: half an fp16 ulp for the final rounding,
  a probabilistic bound on K fp32 roundings (Higham, lambda = 8) and fp16's subnormal spacing.
Unwritten outputs (still holding the poison pattern) and NaN/inf mismatches always fail; an
exact result beyond fp16's range (|ref| >= 65520) must come out as an inf of its sign.
"""
from dataclasses import dataclass

import torch

POISON_BITS = 0x7E5A            # a NaN with a payload no fp16 arithmetic produces
FP16_OVERFLOW = 65520.0         # round-to-nearest sends |x| >= 65504 + half an ulp to inf
GPUMODE_RTOL = GPUMODE_ATOL = 1e-3


def poison(c: torch.Tensor) -> None:
    """Fill c with the poison pattern so that unwritten outputs are detectable."""
    c.view(torch.int16).fill_(POISON_BITS)


@dataclass
class CheckResult:
    ok: bool
    unwritten: int
    nonfinite_mismatch: int
    out_of_tolerance: int
    worst_error_over_tolerance: float
    message: str


def tolerance(ref: torch.Tensor, abs_sum: torch.Tensor, k: int, data: str) -> torch.Tensor:
    if data == "gpumode":
        return GPUMODE_ATOL + GPUMODE_RTOL * ref.abs()
    return 2.0 ** -11 * ref.abs() + 8.0 * k ** 0.5 * 2.0 ** -24 * abs_sum + 2.0 ** -24


def check_output(out: torch.Tensor, ref: torch.Tensor, abs_sum: torch.Tensor, k: int,
                 data: str) -> CheckResult:
    """Compare a kernel's fp16 output (M, 1, L) with the float64 reference."""
    if out.shape != ref.shape or out.dtype != torch.float16:
        return CheckResult(False, 0, 0, 0, float("inf"),
                           f"output is {tuple(out.shape)} {out.dtype}, expected "
                           f"{tuple(ref.shape)} torch.float16")
    out = out.detach().cpu()
    unwritten = int((out.view(torch.int16) == POISON_BITS).sum())
    got = out.double()
    ref = ref.double().cpu()
    tol = tolerance(ref, abs_sum.double().cpu(), k, data)
    # An exact result beyond fp16's range must come out as inf of its sign; one within the
    # tolerance of the overflow threshold may come out either way.
    must_be_inf = torch.isinf(ref) | (ref.abs() - tol >= FP16_OVERFLOW)
    may_be_inf = must_be_inf | (ref.abs() + tol >= FP16_OVERFLOW)
    nan_mismatch = torch.isnan(got) != torch.isnan(ref)
    inf_mismatch = (torch.isinf(got) & ~may_be_inf) | (must_be_inf & ~torch.isinf(got))
    inf_mismatch |= torch.isinf(got) & may_be_inf & (torch.sign(got) != torch.sign(ref))
    nonfinite = int((nan_mismatch | inf_mismatch).sum())
    finite = torch.isfinite(got) & torch.isfinite(ref) & ~may_be_inf
    ratio = torch.where(finite, (got - ref).abs() / tol, torch.zeros_like(ref))
    bad = int((ratio > 1).sum())
    worst = float(ratio.max()) if ratio.numel() else 0.0
    ok = unwritten == 0 and nonfinite == 0 and bad == 0
    if ok:
        message = f"ok (worst error {worst:.3f} of tolerance)"
    else:
        parts = []
        if unwritten:
            parts.append(f"{unwritten} outputs never written")
        if nonfinite:
            parts.append(f"{nonfinite} NaN/inf mismatches")
        if bad:
            idx = tuple(int(i) for i in (ratio == ratio.max()).nonzero()[0])
            parts.append(f"{bad} outputs out of tolerance (worst {worst:.3g}x the tolerance at "
                         f"{idx}: got {float(got[idx]):.6g}, expected {float(ref[idx]):.6g})")
        message = "FAILED: " + "; ".join(parts)
    return CheckResult(ok, unwritten, nonfinite, bad, worst, message)
