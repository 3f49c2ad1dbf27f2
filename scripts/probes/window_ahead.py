"""93b beside its parent 93a in one run (closing-the-gap section 59): both timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/window-ahead-<gpu>.csv. Written before any GPU ran 93b. From the repository root
on a GPU:
    python3 scripts/probes/window_ahead.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

# The shapes whose parts have two full windows or more on the H100 (the pairs: S = 2, 4 and 2),
# then shapes whose parts are one window there (93a's code on the H100, 93b's loop on the H200)
SHAPES = [(7168, 16384, 1), (4096, 14336, 1), (8192, 28672, 1),
          (4096, 7168, 8), (7168, 2048, 4), (4096, 4096, 1), (28672, 4096, 1), (128, 16384, 1)]


def main():
    record("window-ahead", {n: (attempts.find(n).source, None) for n in ("93a", "93b")}, SHAPES)


if __name__ == "__main__":
    main()
