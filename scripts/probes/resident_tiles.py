"""93u (93f's one-warp tiles, where they run in several waves, stepped through by resident warps)
beside 93f, and 93u built with RESIDENT=0 (93f's grids through 93u's code: what the code change
costs alone), timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/resident-tiles-<gpu>.csv. Each build is first checked
against the reference on full-range and quantized data, and nothing is timed if one fails. From
the repository root on a GPU:
    python3 scripts/probes/resident_tiles.py

Written before any GPU ran it (93u's README holds the same prediction). On the H200: on
7168x2048x4 and 28672x4096x1 in clean mode 93u at least 2 points closer to the floor than the
control and at least a point closer than 93f; 4096x7168x8 a point closer than the control;
7168x16384x1 (one wave of two-warp blocks) level between 93u and the control; 128256x4096x1
within a point of the control; gpumode mode the same way, by less. Falsifier: 93u not at least a
point closer than the control on 7168x2048x4 and 28672x4096x1 in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

RESIDENT = attempts.find("93u").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93u": (RESIDENT, None),
    "93u, a block a tile": (RESIDENT, {"RESIDENT": 0}),
}
# one-warp tiles in 1.7, 1.7, 1.9, 3.9 and 7.6 waves on the H200; one wave of two-warp blocks
SHAPES = [(7168, 2048, 4), (28672, 4096, 1), (4096, 7168, 8), (4096, 4096, 16), (128256, 4096, 1),
          (7168, 16384, 1)]
# several waves with a short last window, many batches of a few tiles, the benchmark's short rows
CHECK_SHAPES = [(8320, 2112, 8), (128, 4096, 200), (7168, 2048, 4)]


def main():
    check_and_record("resident-tiles", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
