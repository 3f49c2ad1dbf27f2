"""What a call pays outside its warps' work, and which of 93c's launch properties adds to it
(scripts/probes/launch_cost.cu): 93c, a kernel that does no work on 93c's grid (alone, asking for
93c's shared memory at launch, holding 93c's 64 registers a thread, and with the carveout that
prefers L1), 93c with that carveout, and the floor's read through timeline.cu with and without
512 bytes of shared memory a block asked for at launch; all timed as the floor check times its
strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/launch-cost-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/launch_cost.py

Written before any GPU ran it. Why: the timeline probe's calls (closing-the-gap section 53) span,
from the first warp's start to the last warp's end, 3.4-3.8 us less than the harness times the
floor's calls, and 3.9-4.3 us less than it times 95's and 95a's: about 0.3-0.5 us of those
kernels' gap to the floor lies outside their warps, before the first starts or after the last
ends. 93c asks for shared memory at launch where the floor asks for none, and holds 64 registers
a thread where the floor holds 31-40.

Prediction: if asking for shared memory costs the launch (the SMs' L1 and shared memory set up
anew after the clearing kernel), the no-work grid asking for it is 0.2-0.5 us slower than the one
that does not, on every shape and in both modes, and the floor's read with 512 bytes a block as
much slower than without; the carveout preferring L1 takes part or all of that back, for the
no-work grid and for 93c. Registers cost nothing at launch: the no-work grid at 64 registers
within 0.1 us of the one at 10. Falsifier: the no-work grids with and without shared memory
within 0.1 us of each other on every shape; the outside time is then neither shared memory nor
registers (the code's first fetch, the end of the grid).
"""
import sys
from pathlib import Path

import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, floor, sol  # noqa: E402
from scripts.probes import timeline  # noqa: E402
from scripts.probes.probe import included_source, write  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
ATTEMPT = "93c"
VARIANTS = {
    "93c through this file": {"WORK": 1},
    "93c, carveout preferring L1": {"WORK": 1, "CARVEOUT": 0},
    "no work": {"WORK": 0},
    "no work, 93c's shared memory": {"WORK": 0, "ASK_SMEM": 1},
    "no work, 93c's shared memory, carveout preferring L1": {"WORK": 0, "ASK_SMEM": 1, "CARVEOUT": 0},
    "no work, 64 registers": {"WORK": 0, "HOLD_REGISTERS": 1},
}
# The benchmark's shapes, one wave of one-window parts, many waves of them, and a tile of one warp
# (no split: 93c asks for no shared memory there).
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (4096, 4096, 1), (28672, 4096, 1),
          (1024, 1024, 1)]


def builds() -> dict:
    return {name: (SOURCE, {**defines, **included_source(ATTEMPT)}) for name, defines in VARIANTS.items()}


def floor_reads(gpu: str, shape: tuple, mode: str) -> dict:
    """The floor's chosen configuration of 99 through timeline.cu (no stamps written), with and
    without shared memory asked for at launch."""
    _, defines = timeline.floor_defines(gpu, shape, mode)
    return {"floor's read through timeline.cu": (timeline.SOURCE, defines),
            "floor's read, 512 B of shared memory a block": (timeline.SOURCE, {**defines, **timeline.FLOOR_SHARED_MEMORY})}


def main():
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    kernels = {ATTEMPT: (attempts.find(ATTEMPT).source, None)} | builds()
    df = pd.concat([floor.compare(shapes=[shape], modes=[mode], others=kernels | floor_reads(gpu, shape, mode))
                    for shape in SHAPES for mode in floor.MODES], ignore_index=True)
    write("launch-cost", df)


if __name__ == "__main__":
    main()
