"""84s (84r's shared tiles joined by the block holding each one's first stage, which waits for the
later pieces' sums) beside 84r (fences, tickets and sums after the run), 84r with its shared tiles
left unjoined (RING_JOINS=0: wrong sums, timed only), 84q and 93f, timed as the floor check times
its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/pieces-waited-<gpu>.csv. The builds that compute the answer are first checked
against the reference (the probe stages_split's shapes); the one without joins is not. From the
repository root on a GPU:
    python3 scripts/probes/pieces_waited.py

Written before any GPU ran 84s; the prediction is 84s's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.split_joins import beside_unjoined  # noqa: E402


def main():
    beside_unjoined("pieces-waited", "84r", "84s")


if __name__ == "__main__":
    main()
