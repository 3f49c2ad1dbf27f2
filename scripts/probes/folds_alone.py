"""84w's ring and 84v's with their products left out (RING_PRODUCTS=0: wrong sums, timed only),
beside 84w, 84v and 93f, timed as the floor check times its strategies (rotated interleaved
rounds, common/floor.py); rows in results/probes/folds-alone-<gpu>.csv. The builds that compute the
answer are first checked against the reference (the probe stages_split's shapes). From the
repository root on a GPU:
    python3 scripts/probes/folds_alone.py

The question (closing-the-gap section 80): folded, 84w's short tiles read 4096x14336x1 about 11
points closer to the floor than 84v's, short of the 15 predicted and behind 84q, and 84w lost 4 to
6 points to 84v on the shapes it never folds, with about a twentieth more warp instructions a byte.
Written before it ran: if the fold's cost is in its products (the 16-column MMA, each row's
segment picked, the segments' rows added through shared memory), 84w without products reads
4096x14336x1 and 28672x4096x1 in clean mode within 3 points of 84v without products, and on
7168x16384x1 and 4096x7168x8 (never folded) within 2; if its copies cost (two segments' boxes of 8
rows a stage, a second segment wholly past K where the stages are odd), 84w without products stays
at least 5 points further than 84v without products on 4096x14336x1.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.rows_alone import unchecked  # noqa: E402
from scripts.probes.stages_split import CHECK_SHAPES  # noqa: E402


def main():
    check_and_record("folds-alone", attempt_builds("93f", "84v", "84w"), CHECK_SHAPES, SHAPES,
                     unchecked=unchecked("84v", "84w"))


if __name__ == "__main__":
    main()
