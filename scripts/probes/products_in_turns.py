"""93n (93f with the H200's loop run by blocks of 8 warps, two warps taking turns at their
products) beside 93f, beside 93n with each warp taking turns with the next warp instead of the
warp four on (TURNS_PARTNER=1), and beside 93n's blocks without the turns (TAKE_TURNS=0, the
control for the blocks' shape and the look-up word read from shared memory), in one run (93n's
README): timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py), rows in results/probes/products-in-turns-<gpu>.csv. On an H200 each runs its own
rule; on an H100, 93f runs the H200's rule through scripts/probes/h200_rule_on_h100.cu and 93n's
builds through their own switch (H200_RULE=1). Each build is first checked against the reference,
7168x16384x1 included (the turns with two warps a tile).

Added after the H100's run (88bbc68, the first three variants), before any H200 ran it: the
H100's control lost to 93f by itself (as if blocks of 8 warps placed the grid less evenly than
93f's blocks of S), so 93n's turns also in blocks of 2 warps (TURN_BLOCK_WARPS=2, partners the
next warp: S = 1 or 2), with that shape's own control. Their first run (37b0110, on an H100) put
the turns 35-40 points behind their control on every shape with turns: the barriers were named
by a register, so ptxas reserved all 16 of a block's (EIATTR_NUM_BARRIERS), as 93n's default
kernel does; blocks of 2 now name theirs by immediates (3 reserved), and the probe ran again
(5170225), the first form kept as a variant (TURN_BARRIERS_BY_REGISTER=1) for the GPUs to come.
From the repository root on a GPU:
    python3 scripts/probes/products_in_turns.py
    python3 scripts/probes/products_in_turns.py profile   # Nsight Compute, profiles/<gpu>/probes/

The profile was added after the H100's timed rows (every turns build behind its control), before
it ran: it asks whether the turns' warps stall at the barrier (waiting for the partner's
products) and whether DRAM draws less, on the two shapes where the turns lost most.

Written before any GPU ran 93n; the prediction is 93n's README's.
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes import h200_rule_on_h100  # noqa: E402
from scripts.probes.probe import record_by_gpu, time_or_profile  # noqa: E402
from scripts.probes.rows_rolled import CHECK_SHAPES  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (28672, 4096, 1), (4096, 14336, 1), (4096, 4096, 1)]
SMALL_BLOCKS = {"TURN_BLOCK_WARPS": 2, "TURNS_PARTNER": 1}
VARIANTS = {"93n": {}, "93n, partner the next warp": {"TURNS_PARTNER": 1}, "93n, no turns": {"TAKE_TURNS": 0},
            "93n in blocks of 2": SMALL_BLOCKS, "93n in blocks of 2, no turns": {**SMALL_BLOCKS, "TAKE_TURNS": 0},
            "93n in blocks of 2, barriers named by a register": {**SMALL_BLOCKS, "TURN_BARRIERS_BY_REGISTER": 1}}


def builds(h200: bool) -> dict:
    source = attempts.find("93n").source
    if h200:
        return {"93f": (attempts.find("93f").source, None)} | {
            name: (source, defines or None) for name, defines in VARIANTS.items()}
    return h200_rule_on_h100.rule_build("93f") | {
        f"{name}, the H200's rule": (source, {**defines, "H200_RULE": 1}) for name, defines in VARIANTS.items()}


PROFILED = ("93n", "93n, no turns")
PROFILED_SHAPES = [(7168, 2048, 4), (7168, 16384, 1)]


def main():
    if len(sys.argv) > 1:  # profile, or the target it runs
        h200 = "H200" in torch.cuda.get_device_name()
        profiled = {name: build for name, build in builds(h200).items() if name.split(", the H200")[0] in PROFILED}
        time_or_profile("products-in-turns", {}, profiled, PROFILED_SHAPES, Path(__file__))
    else:
        record_by_gpu("products-in-turns", builds, CHECK_SHAPES + [(7168, 16384, 1)], SHAPES)


if __name__ == "__main__":
    main()
