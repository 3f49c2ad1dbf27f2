"""93zb (a split tile's parts of equal length on the H200: S lowered to a divisor of the windows)
beside 93f, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/equal-parts-<gpu>.csv. 93zb is checked by the GPU tests
on every data class before it is timed. From the repository root on a GPU:
    python3 scripts/probes/equal_parts.py

Written before any GPU ran it (93zb's README holds the same prediction). On the H200, if the
busiest scheduler's windows set a one-wave call's time: 4096x14336x1 and 2048x7168x4 at least 3
points closer to the floor than 93f in clean mode, the other shapes whose S is lowered closer too,
7168x16384x1 (unchanged) level. Falsifier: 93zb not at least 2 points closer than 93f on
4096x14336x1 in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

BUILDS = {"93f": (attempts.find("93f").source, None), "93zb": (attempts.find("93zb").source, None)}
# S lowered: 4 to 2, 2 to 1, 4 to 2, 6 to 4, 5 to 4; then unchanged
SHAPES = [(4096, 14336, 1), (2048, 7168, 4), (4096, 10240, 1), (2176, 28672, 1), (1024, 12288, 3),
          (7168, 16384, 1)]


def main():
    record("equal-parts", BUILDS, SHAPES)


if __name__ == "__main__":
    main()
