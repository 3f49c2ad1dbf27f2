"""93h beside 93g (its parent), 93d and 93f, and 93i (93h launched with 93d's loop where every part
is one window), in one run (93h's and 93i's READMEs): timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/b-prefetched-<gpu>.csv. Written before any GPU ran 93h, for its prediction: on the
H200 the shapes whose warps read several windows gain from B's windows in L1 before the rolled
loop reads them; 4096x4096x1 (one window a warp) is a control. From the repository root on a GPU:
    python3 scripts/probes/b_prefetched.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_builds, record  # noqa: E402
from scripts.probes.rows_rolled import CHECK_SHAPES, SHAPES  # noqa: E402

NAMES = ("93d", "93f", "93g", "93h", "93i")


def builds() -> dict:
    return {name: (attempts.find(name).source, None) for name in NAMES}


def main():
    check_builds(builds(), CHECK_SHAPES)
    record("b-prefetched", builds(), SHAPES)


if __name__ == "__main__":
    main()
