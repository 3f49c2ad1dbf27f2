"""Why 57 and 62 were recorded a fraction of a percent under the floor on the H100's
57344x8192x1 in gpumode mode (closing-the-gap.md, section 22): the run's floor had chosen a
configuration of 99. This times, in one process and 15 interleaved rounds, the floor as it
chooses now, 57, 62, both reads in 57's order and three configurations of 99 (the run's choice
among them), and records results/probes/floor-tie-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/floor_tie.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, floor  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

READS = ("tile-windows", "tile-windows NC_LOADS=1", "99 LOAD_HINT=0,THREADS=512,UNROLL=4",
         "99 LOAD_HINT=2,UNROLL=4", "99 UNROLL=4")
KERNELS = ("57", "62")


def main():
    others = {number: (attempts.find(number).source, None) for number in KERNELS}
    others |= {name: floor.strategies()[name] for name in READS}
    record("floor-tie", others, [(57344, 8192, 1)], modes=("gpumode",), rounds=15)


if __name__ == "__main__":
    main()
