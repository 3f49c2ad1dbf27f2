"""How much room a resident block leaves beside it, counted by the SM's whole register file or by
its four quarters (closing-the-gap section 85). scripts/probes/register_quarters.cu holds one block
an SM (WARPS_A warps of REGS_A registers) for HOLD_A_NS, and launches as its programmatic dependent,
as 84ze launched its split tail, blocks of 64 registers that hold for HOLD_B_NS: one block an SM of
several warps, or many blocks of one warp. A second-grid block that starts before the first grid's
block on its SM has ended was placed beside it. CALLS calls a configuration; rows in
results/probes/register-quarters-<gpu>.csv (per call: the share of the second grid's blocks placed
beside, and for the one-warp blocks the most and the median an SM). From the repository root on a
GPU:
    python3 scripts/probes/register_quarters.py
    python3 scripts/probes/register_quarters.py waves

Written before any GPU ran it. If a block's warps are dealt to the four quarters in turn and each
quarter holds 16,384 registers (the reading 84zf was built on): beside 19 warps of 72 registers
(84q's ring block), blocks of 8 warps of 64 are placed beside, of 9 and 10 not, and at most 9
one-warp blocks an SM; beside 20 warps of 80, blocks of 4 warps beside, of 5 and 7 not, and at most
4 one-warp blocks; beside 19 warps of 80 (the rings' stamped builds), blocks of 8 not, and at most
6 one-warp blocks. If the whole file is counted: every one of those blocks beside, and 10, 7 and 8
one-warp blocks an SM. Falsifier of the quarters: blocks of 10 warps placed beside 19 of 72, or
more than 9 one-warp blocks an SM.

Measured first (H200, c32daf8), each kernel's carveout the driver's: the multi-warp blocks as the
quarters have it (8 and 9 beside 19 warps of 72, 10 not; 4 beside 20 of 80, 5 and 7 not; 8 not
beside 19 of 80), and no block of one or two warps beside any of them, though they were placed
beside a block of 4 warps of 64 (a diagnostic run, not recorded; the control below records it). Written before the
second run: if the small blocks wait for a shared-memory carveout of their own (the driver's choice
for a kernel that fits 16 or 32 blocks an SM, not the first grid's), then with both kernels'
carveouts set alike (100%) one-warp blocks are placed beside 19 warps of 72, at most 9 an SM (the
quarters), and beside a first grid with 84q's shared memory no block of the second grid is placed
beside it under the driver's carveouts and the multi-warp ones are under 100%.

With `waves` (results/probes/register-quarters-waves-<gpu>.csv): one grid alone, four waves of
blocks of 1, 2, 4 or 8 warps of 64 registers (32 warps an SM at once), each block holding
WAVE_HOLD_NS to twice that by a hash of its index, so that blocks end in an order of their own;
per SM, the warps resident on average between its first block's end and its last block's start
(while blocks wait). Written before it ran: if the SM deals warps to its quarters strictly in turn
and a block waits for its turn's quarter (the first run: one-warp blocks stopped at 5 beside 19
warps of 80 with a warp's room left in one quarter), blocks of one warp keep at most 30 of the 32
places filled on average and blocks of 4 (one a quarter) at least 31; if a block takes any
quarter with room, both at least 31. 93f's tiles in several waves on the H200 are blocks of one
warp.
"""
import ctypes
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import build, results, sol  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
# The first grid (warps, registers, dynamic shared memory bytes, both kernels' preferred carveout in
# percent or None: the driver's choice) and the second grid's warps a block beside it (1 = one-warp
# blocks). 19 warps of 80: the stamped builds of 84zd-84zg (76 registers, allocated as 80), whose
# spans (section 85) had 84zf's tail after its ring. RING_SHARED: 84q's ring's dynamic shared memory.
RING_SHARED = 3 * 45_312
CONFIGS = [((19, 72, 0, None), (8, 9, 10, 1)), ((19, 80, 0, None), (8, 1)), ((20, 80, 0, None), (4, 5, 7, 1)),
           ((19, 72, 0, 100), (1, 2, 8, 9, 10)), ((19, 80, 0, 100), (1, 8)), ((20, 80, 0, 100), (1, 4, 5)),
           ((19, 72, RING_SHARED, None), (1, 8, 10)), ((19, 72, RING_SHARED, 100), (1, 8, 10)),
           ((4, 64, 0, None), (1, 8))]
ONE_WARP_BLOCKS_PER_SM = 12  # more than either reading's room
HOLD_A_NS = 30_000
HOLD_B_NS = 40_000           # longer than the first grid's hold: a block placed beside stays
CALLS = 5
WORDS = 4                    # a block's record (register_quarters.cu)
WAVE_WARPS = (1, 2, 4, 8)
WAVES = 4
WAVE_HOLD_NS = 5_000
WAVE_SPREAD = 100            # percent: a block holds WAVE_HOLD_NS to twice that


def placed_beside(first, second):
    """Per second-grid block, whether it started before the first grid's block on its SM ended;
    records as from register_quarters.cu (SM + 1, start ns, end ns, ...)."""
    end_on_sm = dict(zip(first[:, 0], first[:, 2]))
    return pd.DataFrame({"sm": second[:, 0], "beside": [s < end_on_sm[sm] for sm, s in zip(second[:, 0], second[:, 1])]})


def summary(first, second) -> dict:
    blocks = placed_beside(first, second)
    per_sm = blocks.groupby("sm")["beside"].sum()
    return {"beside_share": blocks["beside"].mean(), "beside_max_per_sm": int(per_sm.max()),
            "beside_median_per_sm": float(per_sm.median())}


def resident_warps(records, warps: int) -> pd.Series:
    """Per SM, the warps resident on average from its first block's end to its last block's start
    (records as from register_quarters.cu, each block `warps` warps)."""
    df = pd.DataFrame(records[:, :3], columns=["sm", "start", "end"])
    means = {}
    for sm, g in df.groupby("sm"):
        t0, t1 = g.end.min(), g.start.max()
        if t1 <= t0:
            continue
        events = sorted([(t, warps) for t in g.start] + [(t, -warps) for t in g.end])
        held, area, last = 0, 0, None
        for t, change in events:
            if last is not None and t > t0:
                area += held * (min(t, t1) - max(last, t0)) if min(t, t1) > max(last, t0) else 0
            held, last = held + change, t
        means[sm] = area / (t1 - t0)
    return pd.Series(means)


def waves(library, sms: int, stream) -> None:
    import torch
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    rows = []
    for warps in WAVE_WARPS:
        blocks = WAVES * 32 * sms // warps
        for call in range(CALLS + 1):
            records = torch.zeros(blocks * WORDS, dtype=torch.int64, device="cuda")
            status = library.register_quarters_waves(warps, blocks, ctypes.c_longlong(WAVE_HOLD_NS), WAVE_SPREAD,
                                                     ctypes.c_void_p(records.data_ptr()), stream)
            torch.cuda.synchronize()
            r = records.view(-1, WORDS).cpu().numpy()
            if status != 0 or (r[:, 0] == 0).any():
                raise SystemExit(f"status {status}, or a block left no record")
            if call:
                resident = resident_warps(r, warps)
                rows.append({"warps": warps, "blocks": blocks, "call": call, "resident_mean": resident.mean(),
                             "resident_lowest_sm": resident.min(), "sms": len(resident)})
    df = pd.DataFrame(rows).assign(**results.provenance())
    out = RESULTS_DIR / "probes" / f"register-quarters-waves-{gpu}.csv"
    df.to_csv(out, index=False, float_format="%.4f")
    print(df.groupby("warps")[["resident_mean", "resident_lowest_sm"]].median().to_string())
    print(f"recorded {len(df)} rows in {out}")


def main():
    import torch
    library = ctypes.CDLL(str(build.build(SOURCE)))
    registers = {u["kernel"]: u["registers"] for u in build.resource_usage(build.build(SOURCE)) if u["target"] == "sm_90a"}
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    if sys.argv[1:] == ["waves"]:
        return waves(library, sms, stream)
    rows = []
    for (warps_a, regs_a, smem_a, carveout), seconds in CONFIGS:
        for warps_b in seconds:
            blocks_b = sms * (ONE_WARP_BLOCKS_PER_SM if warps_b == 1 else 1)
            for call in range(CALLS + 1):   # the first call loads the module: not recorded
                first = torch.zeros(sms * WORDS, dtype=torch.int64, device="cuda")
                second = torch.zeros(blocks_b * WORDS, dtype=torch.int64, device="cuda")
                status = library.register_quarters(regs_a, warps_a, sms, smem_a, ctypes.c_longlong(HOLD_A_NS), warps_b,
                                                   blocks_b, ctypes.c_longlong(HOLD_B_NS), -1 if carveout is None else carveout,
                                                   ctypes.c_void_p(first.data_ptr()), ctypes.c_void_p(second.data_ptr()), stream)
                torch.cuda.synchronize()
                if status != 0:
                    raise SystemExit(f"status {status}")
                a, b = first.view(-1, WORDS).cpu().numpy(), second.view(-1, WORDS).cpu().numpy()
                if (a[:, 0] == 0).any() or (b[:, 0] == 0).any() or len(set(a[:, 0])) != sms:
                    raise SystemExit("a block left no record, or the first grid was not one block an SM")
                if call:
                    first_grid = f"{warps_a} warps x {regs_a} registers" + (f", {smem_a // 1024} KB shared" if smem_a else "")
                    rows.append({"first": first_grid, "carveout": "driver's" if carveout is None else f"{carveout}%",
                                 "second_warps": warps_b,
                                 "second_blocks": blocks_b, "call": call, **summary(a, b)})
    df = pd.DataFrame(rows).assign(registers=" ".join(f"{k}:{v}" for k, v in sorted(registers.items())),
                                   **results.provenance())
    out = RESULTS_DIR / "probes" / f"register-quarters-{gpu}.csv"
    df.to_csv(out, index=False, float_format="%.4f")
    print(df.groupby(["first", "carveout", "second_warps"], sort=False)[["beside_share", "beside_max_per_sm", "beside_median_per_sm"]]
          .median().to_string())
    print(f"recorded {len(df)} rows in {out}")


if __name__ == "__main__":
    main()
