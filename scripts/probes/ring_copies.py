"""84o (84n's copies sent by a warp of their own, B's shares by two more in turns) beside 84n and
93f, with 84o in 2 stages of 1024 (2 blocks an SM, as 84n's control in the probe ring_alone); then
84o and 84n without their products (RING_PRODUCTS=0), which say whether the copies now keep the
floor's pace. Timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/ring-copies-<gpu>.csv. The builds with their products are
first checked against the reference (the shapes of the probe tma_row_runs); the two without compute
nothing and are not. From the repository root on a GPU:
    python3 scripts/probes/ring_copies.py

Written before any GPU ran 84o; the prediction is 84o's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_alone import NO_PRODUCTS, TWO_BLOCKS  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    return {**attempt_builds("93f", "84n", "84o"),
            "84o, 2 stages": (attempts.find("84o").source, TWO_BLOCKS)}


def without_products() -> dict:
    return {f"{number} without products": (attempts.find(number).source, NO_PRODUCTS) for number in ("84n", "84o")}


def main():
    check_and_record("ring-copies", builds(), RING_CHECK_SHAPES, SHAPES, unchecked=without_products())


if __name__ == "__main__":
    main()
