"""84v's ring and 84q's with their products left out (RING_PRODUCTS=0: wrong sums, timed only),
beside 84v, 84q and 93f, timed as the floor check times its strategies (rotated interleaved
rounds, common/floor.py); rows in results/probes/rows-alone-<gpu>.csv. The builds that compute the
answer are first checked against the reference (the probe stages_split's shapes). From the
repository root on a GPU:
    python3 scripts/probes/rows_alone.py

The question (closing-the-gap section 79): 84v's short tiles (runs of rows in groups of 8, copied
in boxes of 8 rows) made every block as long as 84q's blocks of 4 whole tiles, and a 4th stage did
not help. Written before it ran: if it is the stage's own work (the products of 64 rows, whatever
the tile holds) that sets a short stage's time, 84v without its products reads 4096x14336x1 (every
block one short tile) and 28672x4096x1 in clean mode at least 15 points closer to the floor than
84v, and within 5 points of 84q without its products; if the short tiles' copies are slow
themselves (boxes of 8 rows), 84v without products stays at least 10 points further than 84q
without products on 4096x14336x1.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.stages_split import CHECK_SHAPES  # noqa: E402

WITHOUT_PRODUCTS = {"RING_PRODUCTS": 0}


def unchecked(*numbers: str) -> dict:
    """The attempts `numbers` with their products left out, named so."""
    return {f"{n} without products": (attempts.find(n).source, WITHOUT_PRODUCTS) for n in numbers}


def main():
    check_and_record("rows-alone", attempt_builds("93f", "84q", "84v"), CHECK_SHAPES, SHAPES, unchecked=unchecked("84q", "84v"))


if __name__ == "__main__":
    main()
