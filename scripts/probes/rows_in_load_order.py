"""97 beside 95 in one run (closing-the-gap section 54): 95's rows for these shapes are recorded
from the run that timed 96 beside it (section 52), so 97's own run could not keep them; here both
are timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py),
rows in results/probes/rows-in-load-order-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/rows_in_load_order.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

# One window a warp (a wave, several, many) and rows run in pairs
SHAPES = [(4096, 4096, 1), (6144, 4096, 1), (8192, 8192, 1), (7168, 2048, 4), (4096, 7168, 8),
          (7168, 16384, 1), (4096, 14336, 1)]


def main():
    record("rows-in-load-order", {n: (attempts.find(n).source, None) for n in ("95", "97")}, SHAPES)


if __name__ == "__main__":
    main()
