"""Is the floor faster than a plain read in 57's order? 57 came level with the floor on
57344x8192x1 (gpumode, H100): the first kernel reading more than the floor's bytes not to be
slower than it. This times the floor check's two reads in that order (scripts/read_strategies/
tile_windows.cu, with 57's loads and with the floor's) beside the floor, 57 and 59 on the floor
check's shapes, as the floor check times its strategies (common/floor.py), and records the rows
in results/probes/read-order-<gpu>.csv. A ratio of a tile-windows read below 1 - floor.TOLERANCE
means the floor is broken there. Run from the repository root on a GPU:
    python3 scripts/probes/read_order.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, floor  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

READS = {name: spec for name, spec in floor.strategies().items() if name.startswith("tile-windows")}
BESIDE = ("57", "59")


def main():
    others = READS | {number: (attempts.find(number).source, None) for number in BESIDE}
    record("read-order", others, list(floor.SHAPES))


if __name__ == "__main__":
    main()
