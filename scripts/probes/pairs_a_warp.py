"""93d beside its parent 93c in one run (closing-the-gap section 63): both timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/pairs-a-warp-<gpu>.csv. Written before any GPU ran 93d. From the repository root
on a GPU:
    python3 scripts/probes/pairs_a_warp.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

# The H100's long rows, which 93d splits a pair a warp (16, 14 and 28 windows), then shapes that
# launch 93c's grid in both: one-window parts of several waves and of one wave.
SHAPES = [(7168, 16384, 1), (4096, 14336, 1), (8192, 28672, 1), (4096, 7168, 8), (7168, 2048, 4),
          (4096, 4096, 1)]


def main():
    record("pairs-a-warp", {n: (attempts.find(n).source, None) for n in ("93c", "93d")}, SHAPES)


if __name__ == "__main__":
    main()
