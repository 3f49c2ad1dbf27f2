"""The reference GEMV: exact dequantization, float64 accumulation.

`reference` runs on the CPU in float64 (the ground truth); `reference_gpu` is its twin on the
tensors' own device (float64 as well, TF32 irrelevant; used where the CPU is too slow). Both
also return the sum of |terms| per output, which the check's tolerance needs.
"""
import torch

from . import nvfp4


def _dequantized_rows(packed, scales):
    """(rows, K/2, L) e2m1 + (rows, K/16, L) e4m3 -> (L, rows, K) float64, exact."""
    values = nvfp4.dequantize_nvfp4(packed.view(torch.uint8).permute(2, 0, 1),
                                    scales.view(torch.uint8).permute(2, 0, 1))
    return values.double()


def _gemv(data, device):
    a, b, sfa, sfb, _, _, c = data
    a_vals = _dequantized_rows(a.to(device), sfa.to(device))               # (L, M, K)
    b_vals = _dequantized_rows(b[:1].to(device), sfb[:1].to(device))[:, 0]  # (L, K)
    out = torch.einsum("lmk,lk->lm", a_vals, b_vals)
    abs_sum = torch.einsum("lmk,lk->lm", a_vals.abs(), b_vals.abs())
    return out.permute(1, 0).unsqueeze(1), abs_sum.permute(1, 0).unsqueeze(1)   # (M, 1, L)


def reference(data):
    """float64 CPU result (M, 1, L) and the per-output sum of |a*sfa*b*sfb|."""
    return _gemv(data, "cpu")


def reference_gpu(data):
    """The same computation on the data's device, in float64 (TF32 never applies to float64)."""
    return _gemv(data, data[0].device)
