"""94 beside its parent 93 and the kernel of record 93d in one run (closing-the-gap section 65):
timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py), rows
in results/probes/signs-in-selectors-<gpu>.csv. Written before any H200 ran 94, for the H200 half
of 94's prediction (its README): on the H200 all three run the split without the runs, 94's window
loop 28 instructions shorter and 25 longer after the wait for A. From the repository root on a GPU:
    python3 scripts/probes/signs_in_selectors.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

# The benchmark shapes, then long decode rows and the one-wave shape
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4),
          (4096, 14336, 1), (28672, 4096, 1), (8192, 28672, 1), (4096, 4096, 1)]


def main():
    record("signs-in-selectors", {n: (attempts.find(n).source, None) for n in ("93", "94", "93d")}, SHAPES)


if __name__ == "__main__":
    main()
