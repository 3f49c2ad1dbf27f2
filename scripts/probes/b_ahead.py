"""93ze with B's loads sent earlier: before the copies' wait of their window (B_AHEAD 1) or a pass
ahead (B_AHEAD 2), where 93ze sends them after that wait. Beside 93f and 93ze, every build checked
on full-range and quantized data, then timed as the floor check times its strategies (rotated
interleaved rounds, common/floor.py); rows in results/probes/b-ahead-<gpu>.csv. From the
repository root on a GPU:
    python3 scripts/probes/b_ahead.py

Written after the probes window_ahead_by_copy_engine, copy_engine_path and copies_alone, before
this ran. 93ze's most sampled instruction on 7168x16384x1 is B's first use (its loads go out after
the copies' wait); its copies alone read that shape near the floor. In both builds the loop is 389
instructions (93ze's 364). Prediction, H200, clean mode: B before the wait 1 to 4 points closer to
the floor than 93ze on 7168x16384x1 and 7168x2048x4, B a pass ahead as close or closer; neither
reaches 93f on 7168x16384x1. Falsifier: B before the wait not at least 1 point closer than 93ze on
7168x16384x1 in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402
from scripts.probes.window_ahead_by_copy_engine import CHECK_SHAPES  # noqa: E402

BY_COPY_ENGINE = attempts.find("93ze").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93ze": (BY_COPY_ENGINE, None),
    "93ze, B before the wait": (BY_COPY_ENGINE, {"B_AHEAD": 1}),
    "93ze, B a pass ahead": (BY_COPY_ENGINE, {"B_AHEAD": 2}),
}
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (8192, 28672, 1)]


def main():
    check_and_record("b-ahead", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
