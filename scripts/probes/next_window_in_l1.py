"""93x (93f with the next window of A and its scales prefetched into L1 while a window's products
run, and A's loads at CTA scope so that they hit there) beside 93f, beside 93x built with
WINDOWS_AHEAD=0 (93f's loop with the CTA-scope loads alone: what the loads' scope costs) and with
WINDOWS_AHEAD=2 (two windows ahead), timed as the floor check times its strategies (rotated
interleaved rounds, common/floor.py); rows in results/probes/next-window-in-l1-<gpu>.csv. Each
build is first checked against the reference on full-range and quantized data, and nothing is
timed if one fails. From the repository root on a GPU:
    python3 scripts/probes/next_window_in_l1.py

Written before any GPU ran it (93x's README holds the same prediction). On the H200, clean mode:
93x at least 3 points closer to the floor than the control on 7168x16384x1 and 4096x7168x8 (8 and
7 windows a warp) and at least 2 on 28672x4096x1 and 8192x28672x1 (4 and 14); 7168x2048x4 (2
windows a warp) a point or two; 4096x4096x1 (one window a warp: nothing prefetched) level; the
control within a point of 93f everywhere; two windows ahead within a point of one. gpumode mode
the same way, by less. Falsifier: 93x not at least 2 points closer than the control on 7168x16384x1 and 4096x7168x8
in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

PREFETCHING = attempts.find("93x").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93x": (PREFETCHING, None),
    "93x, nothing ahead": (PREFETCHING, {"WINDOWS_AHEAD": 0}),
    "93x, two windows ahead": (PREFETCHING, {"WINDOWS_AHEAD": 2}),
}
# windows a warp on the H200: 8, 7 (two waves), 2 and 4 (1.7 waves), 3-4, 14, and 1
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (28672, 4096, 1), (4096, 14336, 1),
          (8192, 28672, 1), (4096, 4096, 1)]
# a short last window after several full ones, long rows in two parts, the benchmark's many batches
CHECK_SHAPES = [(8320, 2112, 8), (1024, 16384, 2), (4096, 7168, 8)]


def main():
    check_and_record("next-window-in-l1", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
