"""93zf's tickets with their round trip under a whole tile (NESTED=1: a tile's windows in a loop of
their own inside the loop over tiles, where ptxas waits for the ticket only after the tile's
windows; in 93zf's one loop it waits at the top of the next pass, `ticket_placement`), beside 93f,
the same form on fixed shares (TICKETS=0) and with a block a tile and no tickets (RESIDENT=0,
TICKETS=0: the nested loop's schedule alone), timed as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/tickets-nested-<gpu>.csv.
Each build is first checked against the reference on full-range and quantized data, and nothing
is timed if one fails. From the repository root on a GPU:
    python3 scripts/probes/tickets_nested.py

Written before any GPU ran it. The probe ticket_placement found resident warps on fixed shares 5
to 10 points behind the same code with a block a tile on the H200, where the shares are nearly
even too: the reading here is that a scheduler serves its resident warps in a fixed order (the
oldest first, section 93), so the last-served end late on equal shares, and tickets that cost no
wait would let the first-served take more tiles. Predicted, clean mode: the nested tickets at
least 3 points closer to the floor than the nested fixed shares on 7168x2048x4, 28672x4096x1 and
128256x4096x1, and within 3 points of the nested block-a-tile control on 128256x4096x1. Falsifier:
the nested tickets not closer than the nested fixed shares on 128256x4096x1 (then the residency's
loss is not the order in which a scheduler serves its warps, or the tickets cost it back).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402
from scripts.probes.warp_tiles_by_ticket import CHECK_SHAPES, TICKETED  # noqa: E402

BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93zf nested": (TICKETED, {"NESTED": 1}),
    "93zf nested, fixed shares": (TICKETED, {"NESTED": 1, "TICKETS": 0}),
    "93zf nested, a block a tile, no tickets": (TICKETED, {"NESTED": 1, "RESIDENT": 0, "TICKETS": 0}),
}
# one-warp tiles in 1.7, 1.7, 3.9 and 7.6 waves on the H200
SHAPES = [(7168, 2048, 4), (28672, 4096, 1), (4096, 4096, 16), (128256, 4096, 1)]


def main():
    check_and_record("tickets-nested", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
