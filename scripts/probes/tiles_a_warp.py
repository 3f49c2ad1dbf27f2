"""Whether a one-warp tile's warp loses by the tiles it runs or by the grid being resident
(closing-the-gap section 98: at equal code 93zf's resident warps lose to a block a tile on the
H200, with fixed shares or tickets). 93zf's code on fixed shares (TICKETS=0) launched with
ceil(tiles / n) one-warp blocks (SHARE_TILES=n: each warp runs n tiles, G apart, in several waves
while the grid outnumbers what the GPU holds) for n = 1, 2 and 4, and resident (93zf's fixed
shares), beside 93f; the device code is the same in all four, instruction for instruction.
Timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows
in results/probes/tiles-a-warp-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data, and nothing is timed if one fails. From the repository root on a
GPU:
    python3 scripts/probes/tiles_a_warp.py

Written before any GPU ran it. The reading in section 98: a resident warp keeps its age, and a
scheduler that serves its oldest ready warp first serves the same warps first all call long; so
the longer a warp lives, the more its call loses, in waves or not. Predicted on the H200 in clean
mode, 128256x4096x1 (1, 2 and 4 tiles a warp in 7.6, 3.8 and 1.9 waves; resident 7.6 tiles a
warp): 2 tiles a warp at least a point behind 1, 4 tiles at least 2 points behind 1, resident
the furthest behind. Falsifier: 2 and 4 tiles a warp within a point of 1 while the resident grid
is further behind (then what loses is the grid's being resident, one wave, not a warp's long
life). 4096x4096x16 and 57344x8192x1 fall under a wave at 4 tiles a warp (fewer warps than
places): read at 1 and 2 only.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402
from scripts.probes.warp_tiles_by_ticket import CHECK_SHAPES, TICKETED  # noqa: E402

BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93zf, 1 tile a warp": (TICKETED, {"TICKETS": 0, "SHARE_TILES": 1}),
    "93zf, 2 tiles a warp": (TICKETED, {"TICKETS": 0, "SHARE_TILES": 2}),
    "93zf, 4 tiles a warp": (TICKETED, {"TICKETS": 0, "SHARE_TILES": 4}),
    "93zf, fixed shares": (TICKETED, {"TICKETS": 0}),
}
# one-warp tiles in 7.6, 3.9 and 3.4 waves on the H200 a tile a warp
SHAPES = [(128256, 4096, 1), (4096, 4096, 16), (57344, 8192, 1)]


def main():
    check_and_record("tiles-a-warp", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
