"""What 84s's cooperative launch costs: 84s beside itself launched as any kernel (RING_COOPERATIVE=0:
the same grid of resident blocks, without the launch's check that all of them can be resident at
once, which nothing else running on the GPU makes safe here), 84r without joins (RING_JOINS=0:
wrong sums, timed only), 84q and 93f, timed as the floor check times its strategies (rotated
interleaved rounds, common/floor.py); rows in results/probes/waited-plain-<gpu>.csv. The builds
that compute the answer are first checked against the reference (the probe stages_split's
shapes). From the repository root on a GPU:
    python3 scripts/probes/waited_plain.py

Written after the probe pieces_waited ran (84s 3 to 10 points further from the floor than 84r
without joins in clean mode on the H200, about the same time on every shape) and before this one
did. If that time is the cooperative launch's, 84s launched plainly is within 2 points of 84r
without joins on every shape in clean mode; if it is the joining lanes' reads after their last
stage, it is within 2 points of 84s.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.split_joins import beside_unjoined  # noqa: E402


def main():
    beside_unjoined("waited-plain", "84s",
                    others={"84s, plain launch": (attempts.find("84s").source, {"RING_COOPERATIVE": 0})})


if __name__ == "__main__":
    main()
