"""93zf's nested tickets on 32 and on 128 counters (NESTED=1, DEALERS), beside 93f and beside the
32-counter build launched with a block a tile (RESIDENT=0: the same device code, instruction for
instruction, each warp taking only the ticket that ends it), timed as the floor check times its
strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/tickets-counters-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data, and nothing is timed if one fails. From the repository root on a
GPU:
    python3 scripts/probes/tickets_counters.py

Written before any GPU ran it. tickets_spread put the tickets on 32 counters level with the nested
form's block-a-tile control, whose code has no atomics and is scheduled otherwise; here the
control is the same code. Predicted, clean mode: 128 counters within a point of 32 (at 32 the
first tickets queue 132 to a counter); the resident warps within 2 points of their block-a-tile
launch on every shape, closer on 7168x2048x4 and 28672x4096x1 (the empty places filled).
Falsifier of "cheap tickets make
residency pay": the resident warps not closer than their block-a-tile launch on any shape.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402
from scripts.probes.warp_tiles_by_ticket import CHECK_SHAPES, TICKETED  # noqa: E402

BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93zf nested, 32 counters": (TICKETED, {"NESTED": 1, "DEALERS": 32}),
    "93zf nested, 128 counters": (TICKETED, {"NESTED": 1, "DEALERS": 128}),
    "93zf nested, 32 counters, a block a tile": (TICKETED, {"NESTED": 1, "DEALERS": 32, "RESIDENT": 0}),
}
# one-warp tiles in 1.7, 1.7, 1.9, 3.9, 7.6 and 3.4 waves on the H200
SHAPES = [(7168, 2048, 4), (28672, 4096, 1), (4096, 7168, 8), (4096, 4096, 16), (128256, 4096, 1),
          (57344, 8192, 1)]


def main():
    check_and_record("tickets-counters", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
