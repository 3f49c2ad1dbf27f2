"""95a beside 95 in one run (closing-the-gap section 56): both timed as the floor check times its
strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/shallow-split-sums-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/shallow_split_sums.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

# Split tiles of one wave to thirty, the pairs' shapes (S = 2 and 4), a tile of 16 splits
# (128x16384x1) and one of a single warp (1024x1024x1, 95's code)
SHAPES = [(4096, 4096, 1), (6144, 4096, 1), (7168, 2048, 4), (28672, 4096, 1), (128256, 4096, 1),
          (4096, 7168, 8), (7168, 16384, 1), (4096, 14336, 1), (128, 16384, 1), (1024, 1024, 1)]


def main():
    record("shallow-split-sums", {n: (attempts.find(n).source, None) for n in ("95", "95a")}, SHAPES)


if __name__ == "__main__":
    main()
