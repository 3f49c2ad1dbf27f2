"""93g beside its parent 93d and beside 93f (the record's candidate), in one run (93g's README):
timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py), rows
in results/probes/rows-rolled-<gpu>.csv. Written before any GPU ran 93g, for its prediction: on
the H200 the shapes whose warps read several windows gain from rows kept in flight through the
products; 4096x4096x1 (one window a warp) is a control. From the repository root on a GPU:
    python3 scripts/probes/rows_rolled.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_builds, record  # noqa: E402

# The benchmark shapes, then decode rows of parts of 4 windows and of 3-4, and one of one window
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4),
          (28672, 4096, 1), (128256, 4096, 1), (4096, 14336, 1), (4096, 4096, 1)]
CHECK_SHAPES = [(7168, 2048, 4), (4096, 4096, 1), (128, 16384, 1)]
NAMES = ("93d", "93f", "93g")


def builds() -> dict:
    return {name: (attempts.find(name).source, None) for name in NAMES}


def main():
    check_builds(builds(), CHECK_SHAPES)
    record("rows-rolled", builds(), SHAPES)


if __name__ == "__main__":
    main()
