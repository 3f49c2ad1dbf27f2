"""84p (84o's one ring an SM with four warpgroups multiplying) beside 84o, 84o in 2 stages of 1024
(2 blocks an SM, as in the probe ring_copies) and 93f, and 84p without its products
(RING_PRODUCTS=0: its ring alone). Timed as the floor check times its strategies (rotated
interleaved rounds, common/floor.py); rows in results/probes/ring-consumers-<gpu>.csv. The builds
with their products are first checked against the reference (the shapes of the probe
tma_row_runs). From the repository root on a GPU:
    python3 scripts/probes/ring_consumers.py

Written before any GPU ran 84p; the prediction is 84p's README's.
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
    return {**attempt_builds("93f", "84o", "84p"),
            "84o, 2 stages": (attempts.find("84o").source, TWO_BLOCKS)}


def main():
    alone = {"84p without products": (attempts.find("84p").source, NO_PRODUCTS)}
    check_and_record("ring-consumers", builds(), RING_CHECK_SHAPES, SHAPES, unchecked=alone)


if __name__ == "__main__":
    main()
