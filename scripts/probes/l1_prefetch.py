"""Where a prefetch leaves a line on Hopper (closing-the-gap section 89): 93x's `prefetch.global.L1`
raised L2's hit rate and not L1's. scripts/probes/l1_prefetch.cu has one warp send LINES lines of a
chain in one of six ways (nothing, prefetch.global.L1, prefetch.global.L2, a 4-byte load at CTA
scope, that load with the walk at GPU scope, a 4-byte copy through L1 under an L2 evict_first
policy), sleep SLEEP_NS, and walk the chain one dependent load
a line from lane 0: the SM cycles a load say which level held the lines. Each call takes lines no
call touched before, after the L2 is cleared as the harness clears it (clean mode); CALLS calls a
way, the ways in rotation. Rows in results/probes/l1-prefetch-<gpu>.csv. From the repository root
on a GPU:
    python3 scripts/probes/l1_prefetch.py

Written before any GPU ran it. If `prefetch.global.L1` leaves the lines in L2 and not in L1, as
93x's profile says: its loads take about what they take after `prefetch.global.L2` (a few hundred
cycles), several times the touched lines' (L1: a few tens), and well under nothing sent (DRAM).
Falsifier: the prefetched lines' loads within 1.5x of the touched lines'.

Measured first (H200, 3fd3cc4): as predicted. The sixth way was added after (section 89 left open a
copy through L1 that carries A's L2 policy); written before it ran: it runs, and its lines are in
L1 (its loads within 1.5x of the touched lines'); if it stops on an illegal instruction, as 93m's
copies with a policy did on the H100, nothing is recorded.
"""
import ctypes
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import build, results, sol  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
WAYS = {"nothing sent": 0, "prefetch.global.L1": 1, "prefetch.global.L2": 2, "4-byte load, CTA scope": 3,
        "4-byte load, then the walk at GPU scope": 4, "4-byte copy through L1, evict-first in L2": 5}
LINES = 32          # 4 KB: 93x's window of 4 rows is 16 lines
SLEEP_NS = 20_000   # far longer than a DRAM round trip
CALLS = 9
REGION = 1 << 20    # bytes between two calls' lines: none shares a line, a page or a set with another


def chain(buffer, offset: int):
    """The LINES lines at `offset`: each line's first 8 bytes the address of the next (the last's: itself)."""
    import torch
    base = buffer.data_ptr() + offset
    nexts = [base + 128 * min(i + 1, LINES - 1) for i in range(LINES)]
    words = buffer[offset:offset + 128 * LINES].view(torch.int64).view(LINES, 16)
    words[:, 0] = torch.tensor(nexts, dtype=torch.int64, device=buffer.device)
    return base


def main():
    import torch
    from common.timing import L2Clearer
    library = ctypes.CDLL(str(build.build(SOURCE)))
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    buffer = torch.zeros((CALLS * len(WAYS) + 1) * REGION, dtype=torch.uint8, device="cuda")
    out = torch.zeros(2, dtype=torch.int64, device="cuda")
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    clear = L2Clearer("clean")
    rows, region = [], 0
    for call in range(-1, CALLS):   # call -1: the module loaded and each way run once, not recorded
        for name, way in WAYS.items():
            lines = chain(buffer, region * REGION)
            region = (region + 1) % (CALLS * len(WAYS) + 1)
            clear()
            status = library.l1_prefetch(way, ctypes.c_void_p(lines), LINES, ctypes.c_longlong(SLEEP_NS),
                                         ctypes.c_void_p(out.data_ptr()), stream)
            torch.cuda.synchronize()
            if status != 0:
                raise SystemExit(f"{name}: status {status}")
            if call >= 0:
                rows.append({"way": name, "call": call, "cycles_a_load": out[0].item() / LINES})
    df = pd.DataFrame(rows).assign(lines=LINES, sleep_ns=SLEEP_NS, **results.provenance())
    out_path = RESULTS_DIR / "probes" / f"l1-prefetch-{gpu}.csv"
    df.to_csv(out_path, index=False, float_format="%.2f")
    print(df.groupby("way", sort=False)["cycles_a_load"].median().round(1).to_string())
    print(f"recorded {len(df)} rows in {out_path}")


if __name__ == "__main__":
    main()
