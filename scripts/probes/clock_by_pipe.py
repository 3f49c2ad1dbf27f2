"""Which work lowers the SM clock for as long as a call lasts? The ring kernels' stamps (84q-84zd,
the probe ring_timeline and its kin) read their SMs' clock at about 1.79 GHz over the call, where
the floor's read and the 93 family's read 1.95-1.97 (results/probes/*timeline*, *spans*: sm_ghz).
scripts/probes/clock_by_pipe.cu keeps one pipe busy (nothing, FFMA, PRMT and LOP3, dp4a, HMMA,
IMMA, the ring's QGMMA) on four warpgroups an SM for CYCLES SM clocks, one call at a time after the
L2 is cleared as the harness clears it, CALLS calls a pipe in rotation, and records the SM clock's
rate over each call (the blocks' cycles over their global-timer nanoseconds, summed as the timeline
probe sums them); then one call a pipe LONG_CYCLES long, which a power limit would show.
Rows in results/probes/clock-by-pipe-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/clock_by_pipe.py

Written before any GPU ran it. Predicted: the QGMMA kernel at about 1.79-1.80 GHz, as the rings'
stamps; nothing, FFMA, the ALU chains and dp4a at 1.95-1.98, as the floor's and 93f's stamps; HMMA
and IMMA not predicted. Falsifier: the QGMMA kernel's clock within 2% of the empty loop's (then the
rings' lower clock is not their tensor cores': their copies, barriers or stamps are next).
"""
import ctypes
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import build, results, sol  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
PIPES = {"nothing": 0, "FFMA": 1, "PRMT and LOP3": 2, "dp4a": 3, "HMMA f16": 4, "IMMA s8": 5, "QGMMA e4m3": 6}
BLOCKS_PER_SM = 4   # warpgroups: the ring's 16 multiplying warps
CYCLES = 40_000     # about 20 us at 2 GHz, a ring call's length
LONG_CYCLES = 4_000_000
CALLS = 7
WORDS = 6           # a block's record (clock_by_pipe.cu)


def sm_ghz(records) -> float:
    """The SM clock's rate over a call: all blocks' cycles over their nanoseconds (32-bit differences)."""
    r = records.view(-1, WORDS).cpu().numpy().astype("int64") & 0xFFFFFFFF
    r = r[r[:, 0] > 0]
    cycles = ((r[:, 3] - r[:, 2]) % (1 << 32)).sum()
    ns = ((r[:, 4] - r[:, 1]) % (1 << 32)).sum()
    return cycles / ns


def main():
    import torch
    from common.timing import L2Clearer
    library = ctypes.CDLL(str(build.build(SOURCE)))
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    blocks = BLOCKS_PER_SM * torch.cuda.get_device_properties(0).multi_processor_count
    records = torch.zeros(blocks * WORDS, dtype=torch.int32, device="cuda")
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    clear = L2Clearer("clean")

    def call(pipe: int, cycles: int) -> float:
        records.zero_()
        clear()
        status = library.clock_by_pipe(pipe, ctypes.c_longlong(cycles), ctypes.c_void_p(records.data_ptr()), blocks, stream)
        torch.cuda.synchronize()
        if status != 0:
            raise SystemExit(f"pipe {pipe}: status {status}")
        return sm_ghz(records)

    for pipe in PIPES.values():   # warm-up: the module loaded, each kernel run once
        call(pipe, CYCLES)
    rows = []
    for n in range(CALLS):
        for name, pipe in PIPES.items():
            rows.append({"strategy": name, "cycles": CYCLES, "call": n, "sm_ghz": call(pipe, CYCLES)})
    for name, pipe in PIPES.items():
        rows.append({"strategy": name, "cycles": LONG_CYCLES, "call": 0, "sm_ghz": call(pipe, LONG_CYCLES)})
    df = pd.DataFrame(rows).assign(blocks=blocks, **results.provenance())
    out = RESULTS_DIR / "probes" / f"clock-by-pipe-{gpu}.csv"
    df.to_csv(out, index=False, float_format="%.4f")
    print(df.pivot_table(index="strategy", columns="cycles", values="sm_ghz", aggfunc="median", sort=False).round(3).to_string())
    print(f"recorded {len(df)} rows in {out}")


if __name__ == "__main__":
    main()
