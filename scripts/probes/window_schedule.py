"""Asks whether the instructions after a warp's wait for A are what the split pays for, at equal
work (closing-the-gap section 51): the same single-window loop in two schedules, 70's (76's and
93's on the H200: 246 of its 351 instructions after the first read of A) and 95's without the
runs (201 of 340, all of B's decode before that read; scripts/load_path.py), on the same grid,
beside 93, 95 and the floor, as the floor check times its strategies (rotated interleaved rounds,
common/floor.py). Rows in results/probes/window-schedule-<gpu>.csv. From the repository root on
a GPU:
    python3 scripts/probes/window_schedule.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402
from scripts.probes.warps_in_flight import SHAPES  # noqa: E402

# 4096x14336x1: rows of 14 windows, split into parts of several windows on both GPUs
WINDOW_SHAPES = SHAPES + [(4096, 14336, 1)]


def main():
    source = attempts.find("95").source
    others = {number: (attempts.find(number).source, None) for number in ("70", "93", "95")}
    others["95 without runs"] = (source, {"RUNS_MIN_ISSUE_PER_BYTE": 1000})
    record("window-schedule", others, WINDOW_SHAPES)


if __name__ == "__main__":
    main()
