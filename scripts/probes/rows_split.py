"""84v (84q's ring with each block on an equal run of rows, no joins) beside 84q, 93f and 84r without
joins (RING_JOINS=0: even runs of stages, wrong sums, timed only), timed as the floor check times
its strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/rows-split-<gpu>.csv; then 84v stamped beside the floor's stamped read as the probe
ring_timeline stamps 84q (results/probes/rows-split-timeline-<gpu>.csv). The builds that compute the
answer are first checked against the reference (the probe stages_split's shapes). From the
repository root on a GPU:
    python3 scripts/probes/rows_split.py

Written before any GPU ran 84v; the prediction is 84v's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.ring_timeline import stamped_timeline  # noqa: E402
from scripts.probes.split_joins import beside_unjoined  # noqa: E402


def main():
    beside_unjoined("rows-split", "84v")
    stamped_timeline(attempts.find("84v"), "rows-split-timeline")


if __name__ == "__main__":
    main()
