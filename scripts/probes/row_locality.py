"""Separates the two things short parts change in 43's reads (docs/closing-the-gap.md, section 16):
times scripts/probes/warps_in_flight.cu at 32 warps an SM with K in parts of 1 and 2 windows,
numbered tile-major as short_parts.py numbers them (the warps resident at once read a few tiles'
rows from end to end) and part-major (PART_MAJOR: the same hand-out by the block scheduler, but
the resident warps read one or two columns of every row, as 43's one wave does), beside 43's split,
the floor and 43, as the floor check times its strategies (rotated interleaved rounds,
common/floor.py), and records the rows in results/probes/row-locality-<gpu>.csv. Run from the
repository root on a GPU:
    python3 scripts/probes/row_locality.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.warps_in_flight import SOURCE, record_variants  # noqa: E402, F401 (SOURCE: what the build tests build)

VARIANTS = {"one wave, 43's split": {"WARPS_PER_SM": 32},
            **{f"parts of {n}, {order}": {"WARPS_PER_SM": 32, "PARTS_OF": n, "PART_MAJOR": major}
               for n in (2, 1) for order, major in (("tile-major", 0), ("part-major", 1))}}


def main():
    record_variants("row-locality", VARIANTS, ("43",))


if __name__ == "__main__":
    main()
