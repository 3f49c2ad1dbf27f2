"""Does 93f read closer to the floor when its grid fills the SMs? (closing-the-gap section 90). On
the H200 93f's rule gives 7168x16384x1 blocks of 2 warps, one a tile, in one wave: 3,584 warps,
about 27 of the 32 an SM could hold at 64 registers, and section 69 reads the H200's gap as bytes
not in flight while warps multiply. This probe times 93f, with its own rule, on shapes whose grids
fill the SMs to different depths and are otherwise alike: K = 16384 at L = 1 (one wave of 2-warp
blocks, 8 windows a warp: 21 to 32 warps an SM as M goes from 5632 to 8448), and K = 7168 at
L = 8 (one-warp blocks of 7 windows: one wave, a wave and most of a second, two whole waves). Timed as the floor
check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/grid-fill-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/grid_fill.py

Written before any GPU ran it. If bytes in flight bind, as section 69 reads the gap: at K = 16384
in clean mode the ratio to the floor falls as the grid fills, 8448x16384x1 (32 warps an SM) at
least 4 points closer than 6400x16384x1 (24) and at least 2 closer than 7168x16384x1 (27). Then a
dispatch that fills every SM on every shape (tiles' windows dealt evenly over all the warps the
GPU holds, joined where a tile's windows meet) is worth building. Falsifier: 8448x16384x1 within a
point of 7168x16384x1 (the warps an SM are not what the products' time away is short of).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SMS, WARPS_AN_SM, WINDOW_K, TILE_ROWS = 132, 32, 1024, 4   # the H200 at 64 registers; 93f's tiles

BUILDS = {"93f": (attempts.find("93f").source, None)}
SHAPES = [(m, 16384, 1) for m in (5632, 6400, 7168, 7680, 8192, 8448)] + \
         [(m, 7168, 8) for m in (2048, 4096, 4224)]


def h200_grid(m: int, k: int, l: int) -> tuple:
    """(warps a tile, waves, warps an SM in the first wave) of 93f's rule on the H200, whose rule
    has neither one-window parts nor pairs: S = the warps it holds over the tiles, at most the
    windows, lowered until every tile's block fits at once."""
    tiles, windows = m * l // TILE_ROWS, -(-k // WINDOW_K)
    s = max(1, min(SMS * WARPS_AN_SM // tiles, windows))
    while s > 1 and tiles > SMS * (WARPS_AN_SM // s):
        s -= 1
    blocks_at_once = SMS * (WARPS_AN_SM // s)
    return s, tiles / blocks_at_once, min(tiles, blocks_at_once) * s / SMS


def main():
    # 93f is run by the GPU tests on every data class; its rows here need no check of their own
    record("grid-fill", BUILDS, SHAPES)


if __name__ == "__main__":
    main()
