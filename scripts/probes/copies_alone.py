"""93ze's copies without its products: each window sent by the copy engine, waited for and read
back as 93ze does, then folded into a register instead of multiplied (COPIES_ALONE 1; wrong
answers, timed unchecked), a window ahead (93ze's), two windows ahead (WINDOWS_AHEAD 2) and none
(STAGED_AHEAD 0), beside 93f and 93ze, both checked. Timed as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/copies-alone-<gpu>.csv. From
the repository root on a GPU:
    python3 scripts/probes/copies_alone.py

Written after the probe copy_engine_path (93ze's window two passes ahead further from the floor
than one, DRAM less busy at like instructions), before this ran. It asks whether the copy engine's
requests by themselves draw DRAM more slowly, or only beside the products. 93f's loads alone read
7168x16384x1 clean at about 1.08 times the floor (section 93, stamped). Prediction, H200, clean
mode: if the requests cost by themselves, the copies alone a window ahead at 1.10 or more on
7168x16384x1 and two windows ahead behind one; if it is their interplay with the products, the
copies alone within 1.06 and two windows ahead level with one.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.window_ahead_by_copy_engine import CHECK_SHAPES  # noqa: E402

ALONE = {"COPIES_ALONE": 1}
UNCHECKED = {name: (attempts.find("93ze").source, ALONE | defines) for name, defines in (
    ("93ze's copies alone", {}),
    ("93ze's copies alone, two windows ahead", {"WINDOWS_AHEAD": 2}),
    ("93ze's copies alone, no window ahead", {"STAGED_AHEAD": 0}))}
# one wave of long rows, 7 windows a warp in blocks of one warp, 2 windows a warp, two parts of
# 14 windows, one window a warp
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (8192, 28672, 1), (4096, 4096, 1)]


def main():
    check_and_record("copies-alone", attempt_builds("93f", "93ze"), CHECK_SHAPES, SHAPES, unchecked=UNCHECKED)


if __name__ == "__main__":
    main()
