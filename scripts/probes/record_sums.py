"""93a beside 93 and 95a in one run (closing-the-gap section 57): timed as the floor check times
its strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/record-sums-<gpu>.csv. Written before any GPU ran 93a. From the repository root on
a GPU:
    python3 scripts/probes/record_sums.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402
from scripts.probes.shallow_split_sums import SHAPES  # noqa: E402  (95a's probe, the same shapes)


def main():
    record("record-sums", {n: (attempts.find(n).source, None) for n in ("93", "93a", "95a")}, SHAPES)


if __name__ == "__main__":
    main()
