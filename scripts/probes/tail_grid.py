"""93q's tail grid beside 93f and its own controls, timed as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/tail-grid-<gpu>.csv. Each
build is first checked against the reference on full-range and quantized data (shapes with and
without a tail grid), and nothing is timed if one fails. From the repository root on a GPU:
    python3 scripts/probes/tail_grid.py

Written before any GPU ran it (93q's README holds the same prediction). On the H200, 93f's tiles
take more than one wave of its blocks on 7168x2048x4 (7168 warps of two windows for 4224 places),
4096x7168x8 and 28672x4096x1, and the call ends as the last of those long warps drain. Predicted:
93q (the last rows of every batch, a wave of one-window blocks, launched as the first grid's
programmatic dependent) at least 2 points closer to the floor than 93f on 7168x2048x4 in clean
mode, a point or more on 4096x7168x8 and 28672x4096x1, level (within half a point) on the
one-wave shapes, where it launches 93f's grid; the same tail launched after the first grid ends
further than 93f on the tail's shapes (the first grid's drain is kept and a second one added);
one-window parts on every tile further than 93q on 4096x7168x8 (the H200 has no issue to spare
for them) and 28672x4096x1; 93q without its tail (93f with the trigger alone) level with 93f.
Falsifier: 93q not at least 2 points closer than 93f on 7168x2048x4 in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

TAIL = attempts.find("93q").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93q": (TAIL, None),
    "93q, tail launched after": (TAIL, {"TAIL_GRID": 2}),
    "one-window parts everywhere": (TAIL, {"TAIL_GRID": 3}),
    "93q without its tail": (TAIL, {"TAIL_GRID": 0}),
}
# 93f's H200 tiles in several waves (the tail's shapes), then two of one wave
SHAPES = [(7168, 2048, 4), (4096, 7168, 8), (28672, 4096, 1), (4096, 4096, 16), (7168, 16384, 1), (4096, 4096, 1)]
# a tail with the short window (K = 2112), the tail's benchmark shapes, one wave
CHECK_SHAPES = [(16384, 2112, 2), (7168, 2048, 4), (4096, 7168, 8), (1024, 2048, 3)]


def main():
    check_and_record("tail-grid", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
