"""93y (93x with the next window brought into L1 by 4-byte copies through it, cp.async.ca, where
93x's prefetch.global.L1 left it in L2) beside 93f, and 93y built with WINDOWS_AHEAD=1 (the
copies' price alone: ptxas sends them at the end of a pass, just before the loads that read them)
and WINDOWS_AHEAD=0 (93x's control: 93f's loop with CTA-scope loads), timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/next-window-copied-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data, and nothing is timed if one fails. From the repository root on a
GPU:
    python3 scripts/probes/next_window_copied.py
    python3 scripts/probes/next_window_copied.py profile

Written before any GPU ran it (93y's README holds the same prediction). On the H200, clean mode:
93y at least 4 points closer to the floor than 93y with one window ahead on 7168x16384x1,
4096x7168x8 and 8192x28672x1 (8, 7 and 14 windows a warp: the lead itself, at the same
instructions), 2 on 28672x4096x1 (4 windows); against the control, from 2 points behind to 2
ahead on those shapes (the copies cost 60 instructions a window, a sixth more); one window ahead
3-6 points behind the control; 7168x2048x4 (2 windows a warp, the second copied at the start)
and 4096x4096x1 (one window, nothing copied) within 2 points of the control. Falsifier: 93y not at
least 2 points closer than one window ahead on 7168x16384x1 and 4096x7168x8 in clean mode.

Measured (H200, ca8abfc): falsified the other way, the lead costs. `profile` (Nsight Compute on
93y with two, one and no window ahead, profiles/h200/probes/next-window-copied.csv) asks whose
price it is; written before it ran: if DRAM's (the window a pass ahead scatters a warp's reads over
more rows at once), 93y's DRAM throughput is below one window ahead's at a like issue share and
instruction count; if issue's, its issue share and `not_selected` stalls are above.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import PROFILE_COMMANDS, check_and_record, time_or_profile  # noqa: E402

COPYING = attempts.find("93y").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93y": (COPYING, None),
    "93y, one window ahead": (COPYING, {"WINDOWS_AHEAD": 1}),
    "93y, nothing ahead": (COPYING, {"WINDOWS_AHEAD": 0}),
}
# windows a warp on the H200: 8, 7 (two waves), 2 and 4 (1.7 waves), 14, and 1
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (28672, 4096, 1), (8192, 28672, 1), (4096, 4096, 1)]
# a short last window after several full ones, long rows in two parts, the benchmark's many batches
CHECK_SHAPES = [(8320, 2112, 8), (1024, 16384, 2), (4096, 7168, 8)]
PROFILED = {name: BUILDS[name] for name in ("93y", "93y, one window ahead", "93y, nothing ahead")}
PROFILED_SHAPES = [(7168, 16384, 1), (4096, 7168, 8)]


def main():
    if sys.argv[1:] and sys.argv[1] in PROFILE_COMMANDS:
        time_or_profile("next-window-copied", BUILDS, PROFILED, PROFILED_SHAPES, Path(__file__))
    else:
        check_and_record("next-window-copied", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
