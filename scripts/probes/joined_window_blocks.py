"""93o (93f with rows of more than 8 windows read one window a warp in blocks of at most 8, a
tile's blocks joined in a workspace) beside 93f, each with its own rule, timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/joined-window-blocks-<gpu>.csv. Each build is first checked against the reference
on full-range and quantized data, the shapes that join included. From the repository root on a
GPU:
    python3 scripts/probes/joined_window_blocks.py

Written before any GPU ran 93o; the prediction is 93o's README's (H100: 7168x16384x1,
4096x14336x1 and 8192x28672x1 closer to the floor, the others level; H200: level everywhere).
57344x8192x1 and 4096x4096x1 are controls: the same kernels in both. The ordering of the
join is timed by scripts/probes/joined_window_orders.py.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, problem  # noqa: E402
from scripts.probes.probe import check_builds, record  # noqa: E402

SHAPES = problem.BENCHMARK_SHAPES + [(4096, 14336, 1), (8192, 28672, 1), (128, 16384, 1),
                                     (57344, 8192, 1), (4096, 4096, 1)]
CHECK_SHAPES = [(1152, 9216, 2), (2048, 16384, 2), (128, 16384, 1)]


def builds() -> dict:
    return {number: (attempts.find(number).source, None) for number in ("93f", "93o")}


def main():
    check_builds(builds(), CHECK_SHAPES)
    record("joined-window-blocks", builds(), SHAPES)


if __name__ == "__main__":
    main()
