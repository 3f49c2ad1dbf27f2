"""93ze (93m's window a pass ahead in shared memory, sent by the copy engine instead of the lanes)
beside 93f, 93m and 93ze's control without the window ahead (STAGED_AHEAD 0: each window sent,
waited for and multiplied in the same pass, 93m's control on 93ze's path). Timed as the floor
check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/window-ahead-by-copy-engine-<gpu>.csv. Every build is checked by the harness's
check on full-range and quantized data before it is timed. Each runs its own rule: an H200's
(the H100's rule launches 93f's kernels for all four). From the repository root on a GPU:
    python3 scripts/probes/window_ahead_by_copy_engine.py
    python3 scripts/probes/window_ahead_by_copy_engine.py profile   # Nsight Compute, profiles/<gpu>/probes/
    python3 scripts/probes/window_ahead_by_copy_engine.py sites     # the profile's most sampled instructions

Written before any GPU ran 93ze (its README holds the same prediction). On the H200, clean mode:
if what 93m paid was its lanes' copies (ten a lane a window through L1, A without its L2 policy),
93ze's control within 2 points of 93f, and 93ze 2 to 5 points closer to the floor than 93f on
7168x16384x1 and 4096x7168x8 (8 and 7 windows a warp), 0 to 2 on 7168x2048x4 (2 windows a warp),
level or up to 2 points behind on 4096x4096x1 (one window a warp: nothing ahead); 93ze ahead of
93m by 5 points or more on every shape. Falsifier: 93ze not at least 1 point closer than 93f on
7168x16384x1 and 4096x7168x8 in clean mode; if its control is 3 points or more behind 93f there
too, the path through shared memory costs the H200 whoever sends the copies.

The profile (7168x16384x1 and 4096x4096x1; 93f, 93ze and its control) asks where the warps wait,
how busy DRAM is and how many instructions a byte each spends. The sites were added after the
timed rows and the profile (93ze behind 93f on every shape, and under Nsight Compute closer to 93f
on 7168x16384x1 than in the timed rounds), before they ran: they ask at which instructions 93ze's
warps wait, the copies' barrier or the reads back.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import PROFILE_COMMANDS, check_and_record, time_or_profile  # noqa: E402

BY_COPY_ENGINE = attempts.find("93ze").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93m": (attempts.find("93m").source, None),
    "93ze": (BY_COPY_ENGINE, None),
    "93ze, no window ahead": (BY_COPY_ENGINE, {"STAGED_AHEAD": 0}),
}
# 93m's shapes (the probe next_window_staged), then a long-row decode shape and a short one
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (28672, 4096, 1), (128256, 4096, 1),
          (4096, 14336, 1), (4096, 4096, 1), (8192, 28672, 1), (128, 16384, 1)]
# split tiles, batches, an odd number of windows a warp, a short last window after the slots'
# offset (K = 4352) and one where the scale rows are not 16-byte aligned (K = 7232: 93f's loads)
CHECK_SHAPES = [(7168, 16384, 1), (1024, 12288, 3), (512, 4096, 2), (512, 4352, 2), (256, 7232, 2)]
PROFILED = {name: BUILDS[name] for name in ("93f", "93ze", "93ze, no window ahead")}
PROFILED_SHAPES = [(7168, 16384, 1), (4096, 4096, 1)]


def main():
    if sys.argv[1:] and sys.argv[1] in PROFILE_COMMANDS:
        time_or_profile("window-ahead-by-copy-engine", BUILDS, PROFILED, PROFILED_SHAPES, Path(__file__))
    else:
        check_and_record("window-ahead-by-copy-engine", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
