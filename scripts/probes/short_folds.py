"""84w (84v with a short tile's two K segments folded into one stage of a 16-column MMA) beside
84v, 84q and 93f, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/short-folds-<gpu>.csv. Every build is first checked
against the reference (the probe stages_split's shapes). Then 84w stamped beside the floor's
stamped read as the probe ring_timeline stamps 84q (results/probes/short-folds-timeline-<gpu>.csv:
where its blocks end, beside 84v's in rows-split-timeline). From the repository root on a GPU:
    python3 scripts/probes/short_folds.py

Written before any GPU ran 84w; the prediction is 84w's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.ring_timeline import stamped_timeline  # noqa: E402
from scripts.probes.stages_split import CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    return attempt_builds("93f", "84q", "84v", "84w")


def main():
    check_and_record("short-folds", builds(), CHECK_SHAPES, SHAPES)
    stamped_timeline(attempts.find("84w"), "short-folds-timeline")


if __name__ == "__main__":
    main()
