"""84z (84q with each item's sums collected by its four warpgroups in turn) beside 84q and 93f,
timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows
in results/probes/joins-in-turn-<gpu>.csv. Every build is first checked against the reference (the
probe stages_split's shapes). Then 84q and 84z stamped and timed by events call after call, as the
probe ring_spans does (results/probes/joins-in-turn-spans-<gpu>.csv). From the repository root on
a GPU:
    python3 scripts/probes/joins_in_turn.py

Written before any GPU ran 84z; the prediction is 84z's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.ring_spans import check_then_span  # noqa: E402


def main():
    check_then_span("joins-in-turn", ("93f", "84q", "84z"), ("84q", "84z"))


if __name__ == "__main__":
    main()
