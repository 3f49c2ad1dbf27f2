"""93c beside its parent 93a in one run (closing-the-gap section 60): both timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/others-leave-<gpu>.csv. Written before any GPU ran 93c. From the repository root
on a GPU:
    python3 scripts/probes/others_leave.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

# Shapes whose one-window parts run several waves on the H100 (blocks of 2, 7, 4, 8 and 4 warps),
# where a warp that leaves early could make room for the next block; then one wave of one-window
# parts, the pairs (one wave of blocks of 2) and a small shape, where nothing waits for room.
SHAPES = [(7168, 2048, 4), (4096, 7168, 8), (28672, 4096, 1), (8192, 8192, 1), (6144, 4096, 1),
          (4096, 4096, 1), (7168, 16384, 1), (1024, 1024, 1)]


def main():
    record("others-leave", {n: (attempts.find(n).source, None) for n in ("93a", "93c")}, SHAPES)


if __name__ == "__main__":
    main()
