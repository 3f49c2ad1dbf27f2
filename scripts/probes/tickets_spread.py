"""93zf's nested tickets (NESTED=1) dealt by 32 counters instead of one (DEALERS=32, 128 bytes apart,
warp w on counter w % 32), beside 93f, the nested fixed shares and the nested form with a block a
tile and no tickets, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/tickets-spread-<gpu>.csv. Each build is first checked
against the reference on full-range and quantized data, and nothing is timed if one fails. From
the repository root on a GPU:
    python3 scripts/probes/tickets_spread.py

Written before any GPU ran it. The probe tickets_nested found the tickets as far behind with their
round trip under a whole tile as with it before a tile's second window: what they cost is not
where the warp waits but how long, every resident warp's atomics queued on one word (4,224 of them
at a call's start on the H200). Predicted, clean mode: the tickets on 32 counters at least 10
points closer to the floor than on one on 7168x2048x4 (tickets_nested's rows) and at least level
with the nested fixed shares on 7168x2048x4, 28672x4096x1 and 128256x4096x1, closer where the
shares are uneven (7168x2048x4, 28672x4096x1). Falsifier: the tickets on 32 counters not closer
than the nested fixed shares on 128256x4096x1 (then tickets, however cheap, do not take back
what residency loses: it is not the shares).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402
from scripts.probes.warp_tiles_by_ticket import CHECK_SHAPES, TICKETED  # noqa: E402

BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93zf nested, 32 counters": (TICKETED, {"NESTED": 1, "DEALERS": 32}),
    "93zf nested, fixed shares": (TICKETED, {"NESTED": 1, "TICKETS": 0}),
    "93zf nested, a block a tile, no tickets": (TICKETED, {"NESTED": 1, "RESIDENT": 0, "TICKETS": 0}),
}
# one-warp tiles in 1.7, 1.7, 3.9 and 7.6 waves on the H200
SHAPES = [(7168, 2048, 4), (28672, 4096, 1), (4096, 4096, 16), (128256, 4096, 1)]


def main():
    check_and_record("tickets-spread", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
