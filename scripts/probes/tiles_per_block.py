"""98 beside 95 in one run (closing-the-gap section 55): both timed as the floor check times its
strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/tiles-per-block-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/tiles_per_block.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

# One-window shapes whose blocks grow in 98 (one wave to thirty), and two with 95's grid
SHAPES = [(4096, 4096, 1), (1024, 1024, 1), (6144, 4096, 1), (7168, 2048, 4), (4096, 4096, 4),
          (28672, 4096, 1), (128256, 4096, 1), (8192, 8192, 1), (4096, 7168, 8)]


def main():
    record("tiles-per-block", {n: (attempts.find(n).source, None) for n in ("95", "98")}, SHAPES)


if __name__ == "__main__":
    main()
