"""84za (84q with the ring's first stages sent a lead apart, stage 0 first) beside 84q and 93f,
timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows
in results/probes/first-stages-apart-<gpu>.csv. Every build is first checked against the reference (the
probe stages_split's shapes). Then 84q and 84za stamped and timed by events call after call, as the
probe ring_spans does (results/probes/first-stages-apart-spans-<gpu>.csv). From the repository root on
a GPU:
    python3 scripts/probes/first_stages_apart.py

Written before any GPU ran 84za; the prediction is 84za's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.ring_spans import check_then_span  # noqa: E402


def main():
    check_then_span("first-stages-apart", ("93f", "84q", "84za"), ("84q", "84za"))


if __name__ == "__main__":
    main()
