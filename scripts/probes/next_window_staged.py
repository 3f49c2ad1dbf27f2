"""93m (93f with the H200's loop sending each window a pass ahead into shared memory by cp.async)
beside 93f, in one run (93m's README): timed as the floor check times its strategies (rotated
interleaved rounds, common/floor.py), rows in results/probes/next-window-staged-<gpu>.csv. On an
H200 both run their own rule; on an H100, whose rule never launches the kernels 93m changes, both
run the H200's rule (scripts/probes/h200_rule_on_h100.cu). Written before any GPU ran 93m. From
the repository root on a GPU:
    python3 scripts/probes/next_window_staged.py
    python3 scripts/probes/next_window_staged.py profile   # Nsight Compute, profiles/<gpu>/probes/

The profile was added after the H100's timed rows (93m far behind 93f there, the one-window shape
included), before it ran: it asks whether 93m's warps wait at the copies' wait, issue more, or
draw less from DRAM, on a shape of several windows a warp and on one of one window.
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes import halves_ahead  # noqa: E402
from scripts.probes.probe import record_by_gpu, time_or_profile  # noqa: E402
from scripts.probes.rows_rolled import CHECK_SHAPES, SHAPES  # noqa: E402


def builds(h200: bool) -> dict:
    return halves_ahead.builds(h200, names=("93f", "93m"))


PROFILED_SHAPES = [(7168, 16384, 1), (4096, 4096, 1)]


def main():
    if len(sys.argv) > 1:  # profile, or the target it runs
        profiled = builds("H200" in torch.cuda.get_device_name())
        time_or_profile("next-window-staged", {}, profiled, PROFILED_SHAPES, Path(__file__))
    else:
        record_by_gpu("next-window-staged", builds, CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
