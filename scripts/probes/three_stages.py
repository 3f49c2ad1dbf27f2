"""84q (84p's one ring an SM in 3 stages) beside 93f and 84q in 2 stages (one block an SM still), timed
as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/three-stages-<gpu>.csv; both builds first checked against the reference (the shapes
of the probe tma_row_runs). From the repository root on a GPU:
    python3 scripts/probes/three_stages.py

Written before it ran; the prediction is 84q's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    return {**attempt_builds("93f", "84q"), "84q, 2 stages": (attempts.find("84q").source, {"STAGES": 2})}


def main():
    check_and_record("three-stages", builds(), RING_CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
