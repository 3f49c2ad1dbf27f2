"""Are the steps in grid_fill's times the products'? (closing-the-gap section 90). The probe
grid_fill timed 93f on one-wave shapes of K = 16384 whose two-warp blocks fill the SMs to 22-32
warps; its times grow with the most warps a scheduler holds, by about the same step each, and
starting the warps apart (93za) did not change that. This probe times, on the same shapes,
scripts/probes/math_fraction.cu (76's split, whose rule gives these shapes 93f's grids) with its
loads alone and with 76's products, beside 93f, as the floor check times its strategies (rotated
interleaved rounds, common/floor.py); rows in results/probes/grid-fill-loads-<gpu>.csv. The
math_fraction builds compute no answer and are recorded unchecked (as section 69's). From the
repository root on a GPU:
    python3 scripts/probes/grid_fill_loads.py

Written before any GPU ran it. If the steps are the products' (the schedulers' work): the loads
alone read the six shapes within 2 points of one another in clean mode, and 76's products step as
93f does. If the loads alone step too, the steps come from the reads (each shape's order in DRAM,
or the tiles an SM takes), not from the schedulers.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.grid_fill import SHAPES as FILL_SHAPES  # noqa: E402
from scripts.probes.math_fraction import SOURCE  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SHAPES = [shape for shape in FILL_SHAPES if shape[1] == 16384]
BUILDS = {"93f": (attempts.find("93f").source, None),
          "loads alone": (SOURCE, {"ROWS_MULTIPLIED": 0}),
          "76's products": (SOURCE, {"ROWS_MULTIPLIED": 4})}


def main():
    record("grid-fill-loads", BUILDS, SHAPES)


if __name__ == "__main__":
    main()
