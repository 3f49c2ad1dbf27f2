"""84r (84q's work cut into equal runs of stages, one a resident block) beside 84q and 93f, timed as
the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/stages-split-<gpu>.csv. Each build is first checked against the reference (the
shapes of the probe tma_row_runs, and one whose tiles 84r's runs cut into several pieces). From the
repository root on a GPU:
    python3 scripts/probes/stages_split.py

Written before any GPU ran 84r; the prediction is 84r's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402

# 34 tiles of 9 stages over the H200's 132 blocks: runs of 2 or 3 stages, 4 or 5 pieces a tile
# (128x16384x1, among the check shapes, has 16 pieces of a stage a tile).
CHECK_SHAPES = RING_CHECK_SHAPES + [(2176, 9216, 1)]


def main():
    check_and_record("stages-split", attempt_builds("93f", "84q", "84r"),
                     CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
