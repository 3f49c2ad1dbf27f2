"""84y (84x with the longer runs spread as 84w spread them: 84w's runs without its 64-bit division)
beside 84x, 84w and 93f, timed as the floor check times its strategies (rotated interleaved
rounds, common/floor.py); rows in results/probes/runs-spread-<gpu>.csv. Every build is first
checked against the reference (the probe stages_split's shapes). Then 84q, 84w, 84x and 84y
stamped and timed by events call after call, as the probe ring_spans does
(results/probes/runs-spread-spans-<gpu>.csv). From the repository root on a GPU:
    python3 scripts/probes/runs_spread.py

Written before any GPU ran 84y; the prediction is 84y's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.ring_spans import spans  # noqa: E402
from scripts.probes.stages_split import CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    return attempt_builds("93f", "84w", "84x", "84y")


def main():
    check_and_record("runs-spread", builds(), CHECK_SHAPES, SHAPES)
    spans(("84q", "84w", "84x", "84y"), "runs-spread-spans")


if __name__ == "__main__":
    main()
