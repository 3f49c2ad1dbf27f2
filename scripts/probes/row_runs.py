"""Times the orders of scripts/probes/row_runs.cu beside the floor and 35, as the floor check times
its strategies (rotated interleaved rounds, common/floor.py), and records the rows in
results/probes/row-runs-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/row_runs.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
# name -> the probe's defines (see its header). Each fits 26's 64 registers, and all but "a quarter
# per warp" (24 bytes to L1) without spilling; runs of 4 with 2-byte SFA loads, or 2 runs of 2 in
# flight, spill far more and are left out.
ORDERS = {
    "26's order": {},
    "26's order, A no_allocate": {"A_NO_ALLOCATE": 1},
    "runs of 2": {"RUN_CHUNKS": 2, "RUNS_IN_FLIGHT": 1},
    "runs of 2, a quarter per warp": {"RUN_CHUNKS": 2, "RUNS_IN_FLIGHT": 1, "WARP_RANGE": 1},
    "runs of 4, wide SFA": {"RUN_CHUNKS": 4, "RUNS_IN_FLIGHT": 1, "SFA_WIDE": 1},
    "whole rows": {"WHOLE_ROWS": 1},
}
# K a multiple of 1024 (the probe's alignment): the benchmark shapes and the long-row decode shapes.
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (4096, 14336, 1), (8192, 8192, 1),
          (28672, 4096, 1)]


def main():
    others = {name: (SOURCE, defines or None) for name, defines in ORDERS.items()}
    others["35"] = (attempts.find("35").source, None)
    record("row-runs", others, SHAPES)


if __name__ == "__main__":
    main()
