"""What a ring block's first stage waits for. Stamped (the probes ring_timeline and ring_spans),
84q's first stage reaches its multiplying warps about 3 us after its block starts, on every shape,
and sending the ring's first stages apart (84za) did not shorten it. A slot's full barrier waits
for two things: the copy engine's bytes of A and its scales, and the B warp's share of B (loaded
from global memory, in clean mode from DRAM, converted and stored). 84q built with its stamps and
RING_B_STAMP=1 also records the B warp's clock as it hands stage 0's share to its slot, in the
record's spare word. Each call runs alone after the L2 is cleared as the harness clears it, 7
calls a shape and mode; per call the medians over SMs of the fill (first stage's arrival after the
block's start) and of the B fill (first share handed over after the block's start); rows in
results/probes/ring-fill-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/ring_fill.py

Written before it ran: if B's first share is what the first stage waits for, the B fill is within
0.2 us of the fill on every shape in clean mode; if the copies are, the B fill is at least 1 us
shorter than the fill there.
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import problem, sol  # noqa: E402
from common.timing import MODES  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.ring_timeline import RING, RING_CLOCKS, RING_FIELDS, record_calls, ring_summary  # noqa: E402
from scripts.probes.timeline import CALLS, stamp_buffer, stamped_call, warmed_up  # noqa: E402

B_STAMPED = {"RING_STAMPS": 1, "RING_B_STAMP": 1}
# 84q's record with its spare word holding the B warp's clock
FILL_FIELDS = [*RING_FIELDS[:-1], "b_stored"]
FILL_CLOCKS = [*RING_CLOCKS, "b_stored"]
NAME = "84q, B stamped"


def fill_summary(blocks) -> dict:
    """ring_timeline's summary of a call, with the B fill: the first share's hand-over after the
    block's start, per SM."""
    row = ring_summary(blocks)
    b_fill = (blocks.b_stored - blocks.start) / row["sm_ghz"]
    return {**row, "b_fill_ns": b_fill.median(), "b_fill_max_ns": b_fill.max()}


def main():
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    stamps = stamp_buffer(SHAPES)
    rows = []
    for shape in SHAPES:
        data = problem.generate_input(*shape, seed=problem.TASK_SEED)
        m, k, l = shape
        kernel = warmed_up(NAME, B_STAMPED, stamps, data, shape, RING.source, RING.number)
        for mode in MODES:
            for call in range(CALLS):
                blocks = stamped_call(kernel, data, mode, stamps, FILL_FIELDS, FILL_CLOCKS)
                rows.append({"kernel": NAME, "m": m, "k": k, "l": l, "mode": mode, "call": call, **fill_summary(blocks)})
    record_calls(rows, "ring-fill", gpu, ["call_ns", "fill_ns", "b_fill_ns", "b_fill_max_ns", "last_arrival_ns", "tail_ns"])


if __name__ == "__main__":
    main()
