"""How many warps of a scheduler multiply at once, on each GPU (closing-the-gap section 71): 93f's
H200 loop with each window stamped (scripts/probes/multiplying_warps.cu), one call at a time after
the L2 is cleared as the harness clears it. A window's products run from its arrival stamp (its
first word of A in) to its done stamp (its products in the sums); a scheduler is an SM's slots
modulo 4. Per shape and mode, over CALLS calls: the products' length in SM cycles (median and 90th
percentile), how many warps of the scheduler were multiplying at the middle of each window's
products (itself included: mean, median, 90th percentile), and the warps a scheduler ran in the
call (every wave). Rows in
results/probes/multiplying-warps-<gpu>.csv. The stamped build is first checked against the
reference. From the repository root on a GPU:
    python3 scripts/probes/multiplying_warps.py

The first run (H100, a18300d) stamped a window's arrival once row 0's A was in (the last row sent,
but not always the last to come), so its products' lengths held some waiting for the other rows;
the arrival is now stamped once every load of the window is in (ALL_BYTES_STAMPED=1), changed
before the next run.

Written before any GPU ran it. Section 69 read the products' cost on the H200 as several warps of a
scheduler multiplying at once (a sleep of several times their issue time costs as much). Prediction:
on the H200 the products of a window last several times their 344 instructions (over 1,000
cycles, median) with 3 or more warps of the scheduler multiplying at once (median); on the H100
with the same grids, shorter, and fewer at once. If on the H200 the median is 1 or 2, the products
are not shared out among many warps at once, and section 69's reading (and 93n's premise) is wrong.
"""
import ctypes
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, problem, results, sol  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402
from common.timing import MODES, L2Clearer  # noqa: E402
from scripts.probes.probe import check_builds, included_source  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (28672, 4096, 1)]
CHECK_SHAPES = [(7168, 2048, 4), (7168, 16384, 1)]
RECORD_WORDS, STAMPED_WINDOWS = 34, 16  # multiplying_warps.cu's record
CALLS = 3
STAMPED = "93f's H200 loop, stamped"  # the rows' strategy, for the docs' fragments


def build_defines() -> dict:
    return included_source("93f")


def windows_of_call(stamps: torch.Tensor) -> pd.DataFrame:
    """Every stamped window of the call: SM, scheduler, arrival and done (SM cycles)."""
    words = stamps.view(-1, RECORD_WORDS).cpu().numpy().astype("int64") & 0xFFFFFFFF
    words = words[words[:, 0] > 0]
    rows = []
    for i in range(STAMPED_WINDOWS):
        arrived, done = words[:, 2 + 2 * i], words[:, 3 + 2 * i]
        written = (arrived > 0) | (done > 0)
        rows.append(pd.DataFrame({"warp": np.flatnonzero(written), "sm": words[written, 0] - 1,
                                  "scheduler": words[written, 1] % 4, "arrived": arrived[written],
                                  "done": done[written]}))
    windows = pd.concat(rows, ignore_index=True)
    windows["cycles"] = (windows.done - windows.arrived) % (1 << 32)
    # arrivals as signed offsets from one window of the same SM: the clocks' low halves may wrap
    base = windows.groupby("sm").arrived.transform("first")
    windows["arrived"] = (windows.arrived - base + (1 << 31)) % (1 << 32) - (1 << 31)
    return windows


def at_once(windows: pd.DataFrame) -> np.ndarray:
    """For each window, the windows of its scheduler whose products were running at its middle."""
    counts = []
    for _, group in windows.groupby(["sm", "scheduler"]):
        start = group.arrived.to_numpy()
        end = start + group.cycles.to_numpy()   # unwrapped within an SM's call (far under 2^32 cycles)
        middle = (start + end) / 2
        counts.append(((start[None, :] <= middle[:, None]) & (end[None, :] >= middle[:, None])).sum(axis=1))
    return np.concatenate(counts)


def main():
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    kernel = attempts.load_library(SOURCE, build_defines(), "multiplying_warps")
    largest = max(m * l // 4 * (k // 1024) for m, k, l in SHAPES + CHECK_SHAPES)
    stamps = torch.zeros(largest * RECORD_WORDS, dtype=torch.int32, device="cuda")
    if err := kernel.library.multiplying_set(ctypes.c_void_p(stamps.data_ptr())):
        raise RuntimeError(f"multiplying_set failed with CUDA error {err}")
    check_builds({STAMPED: (SOURCE, build_defines())}, CHECK_SHAPES)
    rows = []
    for shape in SHAPES:
        data = problem.generate_input(*shape, seed=problem.TASK_SEED)
        for mode in MODES:
            calls = []
            for _ in range(CALLS):
                stamps.zero_()
                L2Clearer(mode)()
                kernel(data)
                torch.cuda.synchronize()
                calls.append(windows_of_call(stamps))
            together = np.concatenate([at_once(w) for w in calls])
            cycles = pd.concat(calls).cycles
            warps = calls[0].groupby(["sm", "scheduler"]).warp.nunique()  # over the call, every wave
            rows.append({"strategy": STAMPED, "m": shape[0], "k": shape[1], "l": shape[2], "mode": mode,
                         "products_cycles_median": cycles.median(), "products_cycles_p90": cycles.quantile(0.9),
                         "multiplying_mean": together.mean(), "multiplying_median": float(np.median(together)),
                         "multiplying_p90": float(np.percentile(together, 90)),
                         "warps_per_scheduler": float(warps.median()), "calls": CALLS,
                         **results.provenance()})
    df = pd.DataFrame(rows)
    out = RESULTS_DIR / "probes" / f"multiplying-warps-{gpu}.csv"
    df.to_csv(out, index=False, float_format="%.2f")
    print(df[["m", "k", "l", "mode", "products_cycles_median", "products_cycles_p90", "multiplying_mean",
              "multiplying_median", "multiplying_p90", "warps_per_scheduler"]].to_string(index=False))
    print(f"recorded {len(df)} rows in {out}")


if __name__ == "__main__":
    main()
