"""93zf (93f's one-warp tiles, where they run in several waves, taken by ticket by resident warps)
beside 93f, 93zf built with RESIDENT=0 (the same kernel with a block a tile: its schedule without
the residency) and with TICKETS=0 (resident warps on 93u's fixed shares through the same code),
timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows
in results/probes/warp-tiles-by-ticket-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data, and nothing is timed if one fails. From the repository root on a
GPU:
    python3 scripts/probes/warp_tiles_by_ticket.py

Written before any GPU ran it (93zf's README holds the same prediction). On the H200 in clean mode:
93zf at least 3 points closer to the floor than TICKETS=0 on 7168x2048x4 and 28672x4096x1, within 2
on 4096x7168x8 and 4096x4096x16; 2 to 6 points closer than RESIDENT=0 on 7168x2048x4 and
28672x4096x1, 1 to 3 on 4096x7168x8; level with 93f to 3 points closer on 7168x2048x4 and
28672x4096x1; 7168x16384x1 level (93f's code). Falsifier: 93zf not closer than RESIDENT=0 on
7168x2048x4 in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

TICKETED = attempts.find("93zf").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93zf": (TICKETED, None),
    "93zf, a block a tile": (TICKETED, {"RESIDENT": 0}),
    "93zf, fixed shares": (TICKETED, {"TICKETS": 0}),
}
# one-warp tiles in 1.7, 1.7, 1.9, 3.9, 7.6 and 3.4 waves on the H200; one wave of two-warp blocks
SHAPES = [(7168, 2048, 4), (28672, 4096, 1), (4096, 7168, 8), (4096, 4096, 16), (128256, 4096, 1),
          (57344, 8192, 1), (7168, 16384, 1)]
# several waves with a short last window, many batches of a few tiles, the benchmark's short rows
CHECK_SHAPES = [(8320, 2112, 8), (128, 4096, 200), (7168, 2048, 4)]


def main():
    check_and_record("warp-tiles-by-ticket", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
