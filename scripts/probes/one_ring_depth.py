"""84p's one ring an SM in 3, 4 and 5 stages of 1024 elements (5 is 84p), with its products and
without (RING_PRODUCTS=0, its ring alone), beside 93f. A slot is held from its copies' start to the
release after its products; if the ring's rate is set by the bytes it holds over that time
(Little's law), fewer stages read further from the floor, and further with the products (which
hold each slot longer) than without. Predicted before it ran: with the products, 3 stages read
4096x7168x8 in clean mode at least 10 points further from the floor than 5; without, the two
differ by less. Timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/one-ring-depth-<gpu>.csv; the builds with their products
first checked against the reference (the shapes of the probe tma_row_runs). From the repository
root on a GPU:
    python3 scripts/probes/one_ring_depth.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_alone import NO_PRODUCTS  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    source = attempts.find("84p").source
    return {**attempt_builds("93f", "84p"),
            **{f"84p, {stages} stages": (source, {"STAGES": stages}) for stages in (3, 4)}}


def without_products() -> dict:
    source = attempts.find("84p").source
    return {"84p without products": (source, NO_PRODUCTS),
            "84p, 3 stages, without products": (source, {"STAGES": 3, **NO_PRODUCTS})}


def main():
    check_and_record("one-ring-depth", builds(), RING_CHECK_SHAPES, SHAPES, unchecked=without_products())


if __name__ == "__main__":
    main()
