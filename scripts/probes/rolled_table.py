"""Why 93g lost on the H200 (closing-the-gap section 67): 93g beside 93d and two builds of 93g's
source, in one run, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py), rows in results/probes/rolled-table-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/rolled_table.py

Written after the probe rows_rolled and before this one ran. 93g lost on every shape there,
4096x4096x1 too, where every warp reads one window and the rolled loop never runs.
- "93g, 93d's loop": ROLLED_ROWS=0, 93d's kernels instruction for instruction (a build test checks
  it) in 93g's module, which also holds the table word in global memory. Level with 93d would put
  the one-window loss on the rolled kernel's own code; level with 93g, on the module.
- "93g, table from B": TABLE_FROM_B=1, the rows' table loads read each lane's first B word (in
  L1) instead of the variable in global memory; the same places for the loads in the SASS.
Prediction: "93g, 93d's loop" level with 93d within half a point everywhere (the module is not
the cause), and "93g, table from B" level with 93g (the variable is not the cause either): the
loss is then the rolled kernel's, and the profile of 93g says where its warps wait.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_builds, record  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (128256, 4096, 1), (4096, 4096, 1)]
CHECK_SHAPES = [(7168, 2048, 4), (4096, 4096, 1), (128, 16384, 1)]


def builds() -> dict:
    ours = attempts.find("93g").source
    return {"93d": (attempts.find("93d").source, None), "93g": (ours, None),
            "93g, 93d's loop": (ours, {"ROLLED_ROWS": 0}), "93g, table from B": (ours, {"TABLE_FROM_B": 1})}


def main():
    check_builds(builds(), CHECK_SHAPES)
    record("rolled-table", builds(), SHAPES)


if __name__ == "__main__":
    main()
