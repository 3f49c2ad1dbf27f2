"""93m (93f with the H200's loop sending each window a pass ahead into shared memory by cp.async)
beside 93f, in one run (93m's README): timed as the floor check times its strategies (rotated
interleaved rounds, common/floor.py), rows in results/probes/next-window-staged-<gpu>.csv. On an
H200 both run their own rule; on an H100, whose rule never launches the kernels 93m changes, both
run the H200's rule (scripts/probes/h200_rule_on_h100.cu). Written before any GPU ran 93m. From
the repository root on a GPU:
    python3 scripts/probes/next_window_staged.py
    python3 scripts/probes/next_window_staged.py profile   # Nsight Compute, profiles/<gpu>/probes/

A control was added after the H100's first rows (93m far behind 93f there, the one-window shape
included), before it ran: 93m built with STAGED_AHEAD=0, the same copies into shared memory and
reads from it, each window sent and waited for in the pass that multiplies it. What 93m gains on it
is what the window ahead buys; what it loses to 93f, the path through shared memory. Prediction:
if time away from the loads is what the products cost (section 69), 93m several points ahead of
the control where warps run several windows, level on 4096x4096x1 (one window a warp); if the
control is level with 93m, the window ahead buys nothing on this GPU.

The profile was added after the H100's timed rows (93m far behind 93f there, the one-window shape
included), before it ran: it asks whether 93m's warps wait at the copies' wait, issue more, or
draw less from DRAM, on a shape of several windows a warp and on one of one window.
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes import h200_rule_on_h100, halves_ahead  # noqa: E402
from scripts.probes.probe import record_by_gpu, time_or_profile  # noqa: E402
from scripts.probes.rows_rolled import CHECK_SHAPES, SHAPES  # noqa: E402


CONTROL = {"STAGED_AHEAD": 0}


def builds(h200: bool) -> dict:
    chosen = halves_ahead.builds(h200, names=("93f", "93m"))
    if h200:
        return chosen | {"93m, no window ahead": (attempts.find("93m").source, CONTROL)}
    return chosen | h200_rule_on_h100.rule_build("93m", ", no window ahead", **CONTROL)


PROFILED_SHAPES = [(7168, 16384, 1), (4096, 4096, 1)]


def main():
    if len(sys.argv) > 1:  # profile, or the target it runs
        profiled = builds("H200" in torch.cuda.get_device_name())
        time_or_profile("next-window-staged", {}, profiled, PROFILED_SHAPES, Path(__file__))
    else:
        record_by_gpu("next-window-staged", builds, CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
