"""Where the GPU places a grid of one-warp blocks that all fit at once, and how evenly 93u's fixed
shares of the tiles then fall on the SMs (closing-the-gap section 88): scripts/probes/block_placement.cu
launches 93u's resident grids (as many one-warp blocks a batch as the GPU holds, the batches side by
side), each block recording its SM; per SM, the blocks it held and the tiles 93u's blocks there
take (block x of a batch: tiles x, x + grid_x, ... of the batch's M / 4). Rows in
results/probes/block-placement-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/block_placement.py

Written before any GPU ran it. 93u lost to its own control by far on the H200 (section 88). If
its fixed shares are what lost, the SMs' tiles spread: on 7168x2048x4 and 28672x4096x1 the most
loaded SM takes at least a tenth more tiles than the mean (54.3); if every SM takes within a tile
or two of the mean, the hand-out is even and 93u lost for another reason.
"""
import ctypes
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import build, results, sol  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
TILE_ROWS = 4
WARPS_PER_SM = 32     # one-warp blocks of 64 registers (93u's): the blocks an SM holds
HOLD_NS = 50_000
CALLS = 3
# resident_tiles.py's shapes of several waves of one-warp tiles on the H200
SHAPES = [(7168, 2048, 4), (28672, 4096, 1), (4096, 7168, 8), (4096, 4096, 16), (128256, 4096, 1)]


def resident_grid(m: int, l: int, sms: int) -> tuple[int, int]:
    """93u's dispatch: as many one-warp blocks a batch as the GPU holds, at least one."""
    return max(1, min(m // TILE_ROWS, sms * WARPS_PER_SM // l)), l


def tiles_per_sm(sm_of_block, m: int, grid_x: int) -> pd.Series:
    """The tiles 93u's blocks take on each SM: block x of its batch takes tiles x, x + grid_x, ..."""
    blocks = pd.DataFrame({"sm": sm_of_block, "x": [i % grid_x for i in range(len(sm_of_block))]})
    blocks["tiles"] = [len(range(x, m // TILE_ROWS, grid_x)) for x in blocks.x]
    return blocks.groupby("sm").tiles.sum()


def placed_blocks(library, grid_x: int, grid_y: int, warps: int, stream, per_sm: int = 0):
    """The SM of each block of a grid of blocks of `warps` warps, all held resident at once, at most
    per_sm of them an SM where per_sm > 0 (block_placement.cu)."""
    import torch
    out = torch.zeros(grid_x * grid_y, dtype=torch.int32, device="cuda")
    status = library.block_placement(grid_x, grid_y, warps, per_sm, ctypes.c_longlong(HOLD_NS), ctypes.c_void_p(out.data_ptr()), stream)
    torch.cuda.synchronize()
    if status != 0:
        raise SystemExit(f"status {status}")
    sm_of_block = out.cpu().numpy()
    if (sm_of_block == 0).any():
        raise SystemExit("a block left no record")
    return sm_of_block - 1


def placement_run():
    """(the placement kernel's library, the GPU's key, its SMs, the current stream) for a run."""
    import torch
    library = ctypes.CDLL(str(build.build(SOURCE)))
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    return library, sol.gpu_key(torch.cuda.get_device_name()), torch.cuda.get_device_properties(0).multi_processor_count, stream


def record_rows(probe: str, gpu: str, rows: list) -> None:
    """The rows with the run's provenance, as results/probes/<probe>-<gpu>.csv, and printed."""
    df = pd.DataFrame(rows).assign(**results.provenance())
    path = RESULTS_DIR / "probes" / f"{probe}-{gpu}.csv"
    df.to_csv(path, index=False, float_format="%.3f")
    print(df.drop(columns=list(results.provenance())).to_string())
    print(f"recorded {len(df)} rows in {path}")


def main():
    library, gpu, sms, stream = placement_run()
    rows = []
    for m, k, l in SHAPES:
        grid_x, grid_y = resident_grid(m, l, sms)
        for call in range(CALLS + 1):   # the first call loads the module: not recorded
            sm_of_block = placed_blocks(library, grid_x, grid_y, 1, stream)
            if call:
                tiles = tiles_per_sm(sm_of_block, m, grid_x)
                blocks = pd.Series(sm_of_block).value_counts()
                rows.append({"m": m, "k": k, "l": l, "grid_x": grid_x, "grid_y": grid_y, "call": call,
                             "sms_used": len(blocks), "blocks_most": blocks.max(), "blocks_fewest": blocks.min(),
                             "tiles_mean": tiles.sum() / sms, "tiles_most": tiles.max(), "tiles_fewest": tiles.min(),
                             "most_over_mean": tiles.max() / (tiles.sum() / sms)})
    record_rows("block-placement", gpu, rows)


if __name__ == "__main__":
    main()
