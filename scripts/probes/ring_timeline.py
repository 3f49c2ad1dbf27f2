"""Where a ring kernel's call goes inside the GPU, beside the floor's read: 84q built with its
stamps (RING_STAMPS=1: each ring block's start, the arrival of its first and of its last stage
at the multiplying warps, its end), and the floor's read stamped as scripts/probes/timeline.py
stamps it (99 in the configuration the recorded floor check found fastest for the shape and mode).
Each call runs alone after the L2 is cleared as the harness clears it, 7 calls a kernel, shape and
mode. Per SM (one ring block an SM): its fill (first stage's arrival after its start), its last
bytes (last arrival after the SM's first start), its end and its tail (end after the last
arrival), medians over SMs and the last SM, in ns (SM clocks over the global timer, fitted per
call); rows in results/probes/ring-timeline-<gpu>.csv. Then the stamped build is timed beside 84q
and the floor as the floor check times its strategies: what the stamps cost
(results/probes/ring-timeline-timed-<gpu>.csv). From the repository root on a GPU:
    python3 scripts/probes/ring_timeline.py

The question (closing-the-gap section 78): where 84q's short rows (7168x2048x4, 4096x14336x1)
lose to the floor. Written before any GPU ran it: on 7168x2048x4 in clean mode, 84q's median SM
has its last stage at least 1 us later than the floor's median SM has its last bytes (the ring's
reads slower, not its end), and its tail (the last stage's products, the warpgroups' hand-over and
the rows' stores) under 1 us; on 7168x16384x1 and 4096x7168x8 its last arrival within 1 us of the
floor's last bytes.
"""
import sys
from pathlib import Path

import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, problem, results, sol  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402
from common.timing import MODES  # noqa: E402
from scripts.probes.probe import record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.timeline import CALLS, floor_defines, stamp_buffer, stamped, stamped_call, summary, warmed_up  # noqa: E402

RING = attempts.find("84q")
STAMPED = {"RING_STAMPS": 1}
# 84q's record (8 words a ring block): its first stage's arrival where timeline.cu's has a spare word
RING_FIELDS = ["sm", "global_start", "start", "first_arrival", "last_arrival", "end", "global_end", "_"]
RING_CLOCKS = ["start", "first_arrival", "last_arrival", "end"]


def ring_summary(blocks: pd.DataFrame) -> dict:
    """timeline.py's summary of a call, with the ring's fill: its first stage's arrival after its
    start, per SM."""
    row = summary(blocks)
    ns_per_cycle = 1 / row["sm_ghz"]
    fill = (blocks.first_arrival - blocks.start) * ns_per_cycle
    return {**row, "fill_ns": fill.median(), "fill_max_ns": fill.max()}


def stamped_timeline(ring: attempts.Attempt, name: str) -> None:
    """The ring attempt `ring` (one with RING_STAMPS, 84q's record) stamped beside the floor's
    stamped read on the ring probes' shapes; rows in results/probes/<name>-<gpu>.csv."""
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    stamps = stamp_buffer(SHAPES)
    stamped_name = f"{ring.number}, stamped"
    rows = []
    for shape in SHAPES:
        data = problem.generate_input(*shape, seed=problem.TASK_SEED)
        m, k, l = shape
        kernel = warmed_up(stamped_name, STAMPED, stamps, data, shape, ring.source, ring.number)
        for mode in MODES:
            config, defines = floor_defines(gpu, shape, mode)
            floor_read = warmed_up("floor", defines, stamps, data, shape)
            for call in range(CALLS):
                base = {"m": m, "k": k, "l": l, "mode": mode, "call": call}
                blocks = stamped_call(kernel, data, mode, stamps, RING_FIELDS, RING_CLOCKS)
                rows.append({"kernel": stamped_name, "floor_config": "", **base, **ring_summary(blocks)})
                warps = stamped_call(floor_read, data, mode, stamps)
                rows.append({"kernel": "floor", "floor_config": config, **base, **summary(warps)})
    record_calls(rows, name, gpu, ["call_ns", "fill_ns", "last_arrival_ns", "end_ns", "tail_ns", "tail_max_ns", "sm_ghz"])


def record_calls(rows: list, name: str, gpu: str, shown: list) -> None:
    """Stamped calls' rows with their provenance in results/probes/<name>-<gpu>.csv; the medians of
    the `shown` quantities per shape, mode and kernel printed."""
    df = pd.DataFrame(rows).assign(**results.provenance())
    out = RESULTS_DIR / "probes" / f"{name}-{gpu}.csv"
    df.to_csv(out, index=False, float_format="%.4f")
    print(df.groupby(["m", "k", "l", "mode", "kernel"], sort=False)[shown].median().round(1).to_string())
    print(f"recorded {len(df)} rows in {out}")


def main():
    stamped_timeline(RING, "ring-timeline")
    stamps = stamp_buffer(SHAPES)  # where the timed stamped build writes, alive while it runs
    stamped(STAMPED, stamps, RING.source)
    record("ring-timeline-timed", {"84q": (RING.source, None), "84q, stamped": (RING.source, STAMPED)}, SHAPES)


if __name__ == "__main__":
    main()
