"""Where the GPU places 93f's, 93z's and 93z's 8-warp blocks on the shapes of the probe dealt_forms,
and how many windows each SM's blocks then read (closing-the-gap section 90). In dealt_forms 93z's
deal in blocks of 8 warps, four an SM, read 7168x16384x1 far further from the floor than 93f and
93z, with the same windows a warp at most (8). scripts/probes/block_placement.cu launches each
grid (its blocks of the same warps, as many an SM as the kernels' 64 registers allow, all resident
at once and held there), each block recording its SM; per SM, the windows its blocks' tiles hold (93f: a tile a block, split over the block's warps
by the H200's rule; 93z: block b of G takes tiles b * T / G up to (b + 1) * T / G, rounded down).
Rows in results/probes/dealt-placement-<gpu>.csv. From the repository root on an H200:
    python3 scripts/probes/dealt_placement.py

Written before any GPU ran it. If placement is what the 8-warp blocks lost to on 7168x16384x1: its
busiest SM reads at least 8 percent more windows than 93f's busiest (1.233 against 1.133 in
dealt_forms); if its busiest SM is within 3 percent of 93f's, the placement is not it.
"""
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.block_placement import CALLS, placed_blocks, placement_run, record_rows  # noqa: E402
from scripts.probes.dealt_forms import SHAPES  # noqa: E402
from scripts.probes.grid_fill import TILE_ROWS, WARPS_AN_SM, WINDOW_K, h200_grid  # noqa: E402


def layouts(m: int, k: int, l: int, sms: int) -> dict:
    """name -> (blocks, warps a block, tiles of each block) of 93f's grid and of 93z's two deals."""
    tiles = m * l // TILE_ROWS
    dealt = lambda g: [(b + 1) * tiles // g - b * tiles // g for b in range(g)]  # noqa: E731
    return {"93f": (tiles, h200_grid(m, k, l)[0], [1] * tiles),
            "93z": (sms, WARPS_AN_SM, dealt(sms)),
            "93z, blocks of 8 warps": (sms * WARPS_AN_SM // 8, 8, dealt(sms * WARPS_AN_SM // 8))}


def windows_per_sm(sm_of_block, block_tiles: list, windows: int) -> pd.Series:
    """The windows each SM's blocks read."""
    return pd.DataFrame({"sm": sm_of_block, "windows": [t * windows for t in block_tiles]}).groupby("sm").windows.sum()


def main():
    library, gpu, sms, stream = placement_run()
    rows = []
    for m, k, l in SHAPES:
        for name, (blocks, warps, block_tiles) in layouts(m, k, l, sms).items():
            for call in range(CALLS + 1):   # the first call loads the module: not recorded
                sm_of_block = placed_blocks(library, blocks, 1, warps, stream, WARPS_AN_SM // warps)
                if call:
                    per_sm = windows_per_sm(sm_of_block, block_tiles, k // WINDOW_K)
                    rows.append({"layout": name, "m": m, "k": k, "l": l, "blocks": blocks, "warps": warps,
                                 "call": call, "sms_used": len(per_sm), "windows_mean": per_sm.sum() / sms,
                                 "windows_most": per_sm.max(), "windows_fewest": per_sm.min(),
                                 "most_over_mean": per_sm.max() / (per_sm.sum() / sms)})
    record_rows("dealt-placement", gpu, rows)


if __name__ == "__main__":
    main()
