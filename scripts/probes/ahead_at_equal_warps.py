"""93zd (two windows a warp in registers, 16 warps an SM at most) beside 93f and beside its own
control, 93f's window loop (one window a warp) on 93zd's launch (WINDOW_AHEAD 0: the same grid,
its warps an SM held to 16): the window ahead at equal warps, apart from the warps 93zd's
registers cost (closing-the-gap section 95). Timed as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/ahead-at-equal-warps-<gpu>.csv.
Every build is checked on full-range and quantized data first. From the repository root on a GPU:
    python3 scripts/probes/ahead_at_equal_warps.py

Written before any GPU ran it. At equal warps the window ahead pays: the control reads
7168x16384x1 clean at least 5 points further from the floor than 93zd (13.6 warps an SM, each
with one window on its way and none during its products), and further than 93f by more than 93zd
is; on 7168x2048x4 (two windows a warp, both sent at once by 93zd) the control at least 5 points
further than 93zd too. Falsifier: the control within 2 points of 93zd on 7168x16384x1 clean (the
window ahead then bought nothing even at equal warps, and 93zd's loss is not the warps' alone).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.next_window_ahead import CHECK_SHAPES  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

AHEAD = attempts.find("93zd").source
BUILDS = {"93f": (attempts.find("93f").source, None), "93zd": (AHEAD, None),
          "93zd without the window ahead": (AHEAD, {"WINDOW_AHEAD": 0})}
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (4096, 4096, 1), (8192, 28672, 1)]


def main():
    check_and_record("ahead-at-equal-warps", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
