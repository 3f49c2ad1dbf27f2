"""93zd (93f's H200 loop with each window's loads sent before the products of the window before,
two windows in registers, 16 warps an SM at 128 registers) beside 93f and two builds of 93zd: the
loads held where they are written (HELD_LOADS 1: the products take the A table's word from a
strong load sent after them) at 20 warps an SM (96 registers), and 93zd's code at 21 warps (80
registers), where ptxas sinks every second window's loads to the end of its pass. Timed as the
floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/next-window-ahead-<gpu>.csv. Every build is checked by the harness's check on
full-range and quantized data before it is timed. From the repository root on a GPU:
    python3 scripts/probes/next_window_ahead.py

Written before any GPU ran it (93zd's README holds the same prediction). On the H200, 7168x16384x1
clean: 93zd 2 to 5 points closer to the floor than 93f (13.6 warps an SM with two windows each on
their way, where 93f's 27 had one each and none during their products); 7168x2048x4 closer by 2
to 4 points (a warp's two windows sent together); 4096x7168x8 and the multi-wave decode shapes
level with 93f or closer by up to 2 points. The held build ahead of 93zd where an SM runs several
waves (more warps a wave), behind it where the one wave holds fewer warps than 16 an SM; the build
at 21 warps behind 93f on every shape of several windows a warp. Falsifier: 93zd not at least 2
points closer than 93f on 7168x16384x1 in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

AHEAD = attempts.find("93zd").source
BUILDS = {"93f": (attempts.find("93f").source, None), "93zd": (AHEAD, None),
          "93zd, loads held, 20 warps": (AHEAD, {"HELD_LOADS": 1, "AHEAD_WARPS": 20}),
          "93zd, 21 warps": (AHEAD, {"AHEAD_WARPS": 21})}
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (4096, 4096, 1), (8192, 8192, 1),
          (28672, 4096, 1), (4096, 14336, 1), (8192, 28672, 1), (128, 16384, 1)]
# split tiles, batches, an odd number of windows a warp, and a short last window
CHECK_SHAPES = [(7168, 16384, 1), (1024, 12288, 3), (512, 4096, 2), (256, 7232, 2)]


def main():
    check_and_record("next-window-ahead", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
