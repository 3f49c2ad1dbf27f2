"""93s (93f's tiles of one warp four a block where they run in several waves) beside 93f, and 93s
built with TILES_A_BLOCK=1 (93f's blocks through 93s's code: what the code change costs alone),
timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows
in results/probes/four-tiles-a-block-<gpu>.csv. Each build is first checked against the reference
on full-range and quantized data, and nothing is timed if one fails. From the repository root on
a GPU:
    python3 scripts/probes/four_tiles_a_block.py

Written before any GPU ran it (93s's README holds the same prediction). On the H200: 93s at least
a point closer to the floor than 93f on 7168x2048x4 and 28672x4096x1 in clean mode, where 93f's
one-warp blocks run in about 1.7 waves; 7168x16384x1 (blocks of 2 warps, one wave: no change)
level; the control within half a point of 93f everywhere. Falsifier: 93s not at least a point
closer than 93f on either of the two shapes in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

FOUR = attempts.find("93s").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93s": (FOUR, None),
    "93s, one tile a block": (FOUR, {"TILES_A_BLOCK": 1}),
}
SHAPES = [(7168, 2048, 4), (28672, 4096, 1), (4096, 7168, 8), (7168, 16384, 1)]
# four tiles a block over many batches of 32 tiles, the benchmark's, a short window (one a block)
CHECK_SHAPES = [(128, 4096, 200), (7168, 2048, 4), (1024, 2112, 3)]


def main():
    check_and_record("four-tiles-a-block", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
