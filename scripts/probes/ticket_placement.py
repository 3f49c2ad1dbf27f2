"""Where 93zf's resident warps lose (the probe warp_tiles_by_ticket found them far behind 93f): 93f
beside 93zf, its tickets taken in the pass of a tile's last window instead of at the tile's start
(TICKET_AT_LAST=1: ptxas waits for an atomic issued in the window loop at the top of the next pass,
so 93zf waits for its ticket before a tile's second window, behind every other warp's ticket on
the one counter), its fixed shares (TICKETS=0: resident warps without atomics) and its kernel with
a block a tile and no tickets (RESIDENT=0, TICKETS=0: the loop's schedule alone), timed as the
floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/ticket-placement-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data, and nothing is timed if one fails. From the repository root on a
GPU:
    python3 scripts/probes/ticket_placement.py

Written before any GPU ran it. On the H200 in clean mode: the schedule alone (a block a tile, no
tickets) 2 to 6 points behind 93f on 7168x2048x4 and 28672x4096x1 (93u's control lost 3.5 to its
schedule); the tickets at the last window at least 10 points closer to the floor than 93zf on
7168x2048x4 (its wait moved to where the next tile needs it) and closer than the fixed shares on
7168x2048x4 and 28672x4096x1 (the uneven shares gone); 4096x4096x16 and 128256x4096x1 (shares
within a tenth of even) level between the fixed shares and the tickets at the last window.
Falsifier of the residency reading: the fixed shares not closer to the floor than the block a
tile without tickets on 128256x4096x1, where the shares are nearly even.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402
from scripts.probes.warp_tiles_by_ticket import CHECK_SHAPES, TICKETED  # noqa: E402

BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93zf": (TICKETED, None),
    "93zf, ticket at the last window": (TICKETED, {"TICKET_AT_LAST": 1}),
    "93zf, fixed shares": (TICKETED, {"TICKETS": 0}),
    "93zf, a block a tile, no tickets": (TICKETED, {"RESIDENT": 0, "TICKETS": 0}),
}
# one-warp tiles in 1.7, 1.7, 3.9 and 7.6 waves on the H200
SHAPES = [(7168, 2048, 4), (28672, 4096, 1), (4096, 4096, 16), (128256, 4096, 1)]


def main():
    check_and_record("ticket-placement", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
