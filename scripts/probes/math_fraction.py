"""Asks what sets the second limit that 91 meets on the H200 in clean mode (closing-the-gap section
48): times scripts/probes/math_fraction.cu, 76's split with its products on 4, 2 or no rows, with
each window's scales read as 76 reads them and in 91's 128-byte runs, beside the floor, 76 and 91,
as the floor check times its strategies (rotated interleaved rounds, common/floor.py), and
records the rows in results/probes/math-fraction-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/math_fraction.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402
from scripts.probes.warps_in_flight import SHAPES  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
VARIANTS = {f"{rows} rows multiplied{', scale runs' if runs else ''}": {"ROWS_MULTIPLIED": rows, "SCALE_RUNS": runs}
            for runs in (0, 1) for rows in (4, 2, 0)}


def main():
    others = {name: (SOURCE, defines) for name, defines in VARIANTS.items()}
    others |= {number: (attempts.find(number).source, None) for number in ("76", "91")}
    record("math-fraction", others, SHAPES)


if __name__ == "__main__":
    main()
