"""84n (one block an SM, 5 stages of 1024 elements) beside its control, the same kernel in 2 stages
of 1024 (2 blocks an SM: 84m's producer ring in 84k's stages), and 93f; then both rings with their
products left out (RING_PRODUCTS=0: the multiplying warps wait for each stage and release it, the
producer and its copies as they are), which say how close the ring's own reads come to the floor
and so what share of the gap the products hold. Timed as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/ring-alone-<gpu>.csv. The
builds with their products are first checked against the reference (the shapes of the probe
tma_row_runs); the two without compute nothing and are not. From the repository root on a GPU:
    python3 scripts/probes/ring_alone.py

Written before any GPU ran 84n; the prediction is 84n's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402

TWO_BLOCKS = {"STAGES": 2}  # 2 slots of 1024: 2 blocks an SM, as 84m in 84k's stages
NO_PRODUCTS = {"RING_PRODUCTS": 0}


def builds() -> dict:
    source = attempts.find("84n").source
    return {**attempt_builds("93f", "84n"),
            "84n, 2 stages": (source, TWO_BLOCKS)}


def without_products() -> dict:
    source = attempts.find("84n").source
    return {"84n without products": (source, NO_PRODUCTS),
            "84n, 2 stages, without products": (source, {**TWO_BLOCKS, **NO_PRODUCTS})}


def main():
    check_and_record("ring-alone", builds(), RING_CHECK_SHAPES, SHAPES, unchecked=without_products())


if __name__ == "__main__":
    main()
