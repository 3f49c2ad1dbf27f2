"""84zb (84q with a ring block's whole tiles taken from a counter as it goes) beside 84q and 93f,
timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows
in results/probes/tiles-by-ticket-<gpu>.csv. Every build is first checked against the reference (the
probe stages_split's shapes). Then 84q and 84zb stamped and timed by events call after call, as the
probe ring_spans does (results/probes/tiles-by-ticket-spans-<gpu>.csv): the last SM's last stage
against the median SM's is what the counter is to even out. From the repository root on a GPU:
    python3 scripts/probes/tiles_by_ticket.py

Written before any GPU ran 84zb; the prediction is 84zb's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.ring_spans import check_then_span  # noqa: E402


def main():
    check_then_span("tiles-by-ticket", ("93f", "84q", "84zb"), ("84q", "84zb"))


if __name__ == "__main__":
    main()
