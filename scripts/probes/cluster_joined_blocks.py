"""93p (93o's joined blocks as one cluster a tile, joined through distributed shared memory)
beside 93o (joined through global memory) and 93f (pairs of windows a warp), each with its own
rule, on the shapes that join and a control, timed as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/cluster-joined-blocks-<gpu>.csv.
Each build is first checked against the reference on full-range and quantized data, the shapes
that join included. From the repository root on a GPU:
    python3 scripts/probes/cluster_joined_blocks.py

Written before any GPU ran 93p; the prediction is 93p's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.joined_window_blocks import CHECK_SHAPES  # noqa: E402
from scripts.probes.probe import check_builds, record  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 14336, 1), (8192, 28672, 1), (128, 16384, 1), (57344, 8192, 1)]


def builds() -> dict:
    return {number: (attempts.find(number).source, None) for number in ("93f", "93o", "93p")}


def main():
    check_builds(builds(), CHECK_SHAPES)
    record("cluster-joined-blocks", builds(), SHAPES)


if __name__ == "__main__":
    main()
