"""84t (84s with a joining lane's reads of the next piece's sums sent before its last stage) beside
84s (sent after it), 84r without joins (RING_JOINS=0: wrong sums, timed only), 84q and 93f, timed as
the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/pieces-ahead-<gpu>.csv. The builds that compute the answer are first checked against
the reference (the probe stages_split's shapes); the one without joins is not. From the repository
root on a GPU:
    python3 scripts/probes/pieces_ahead.py

Written before any GPU ran 84t; the prediction is 84t's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.split_joins import beside_unjoined  # noqa: E402


def main():
    beside_unjoined("pieces-ahead", "84s", "84t")


if __name__ == "__main__":
    main()
