"""What 93ze's path through the copy engine costs on the H200, taken apart: 93ze beside 93f and two
builds of 93ze, B and its scales sent with the window by the copy engine (B_IN_SLOT 1; 93ze loads
them in the pass that multiplies them) and each window sent two passes ahead (WINDOWS_AHEAD 2:
three slots a warp). Timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/copy-engine-path-<gpu>.csv. Every build is checked by
the harness's check on full-range and quantized data before it is timed. From the repository root
on a GPU:
    python3 scripts/probes/copy_engine_path.py
    python3 scripts/probes/copy_engine_path.py profile   # Nsight Compute, profiles/<gpu>/probes/
    python3 scripts/probes/copy_engine_path.py sites     # the profile's most sampled instructions

Written after the probe window_ahead_by_copy_engine (93ze behind 93f on every shape of the H200)
and its stall sites, before this ran. Where 93ze's warps wait on 7168x16384x1: B's loads, sent in
the pass after the copies' wait (the first instruction that uses B, 13.5% of the samples), and the
copies' barrier (12.7%). Prediction, H200, clean mode: B in the slot 0 to 3 points closer to the
floor than 93ze on 7168x16384x1 and 4096x7168x8 (its loop is 389 instructions against 364: the
wait for B goes, the bulk copies cost issue); two windows ahead, if the copies' latency is what
one window ahead leaves uncovered, 2 to 4 points closer than 93ze where warps run many windows
(7168x16384x1, 8192x28672x1, 28672x4096x1), level on 4096x4096x1 (one window a warp) and behind on
4096x7168x8 (its slots leave 28 one-warp blocks an SM, 93ze's 32). Neither reaches 93f.
Falsifier of the latency reading: two windows ahead not at least 2 points closer than 93ze on
7168x16384x1 in clean mode.

The profile was added after the timed rows (both builds behind 93ze on 7168x16384x1, B in the slot
far ahead of it on 7168x2048x4), before it ran: on those two shapes it asks whether the window two
passes ahead draws DRAM more slowly at like instructions a byte and issue (bytes on their way
beyond what the bandwidth needs, as the rings of section 77 found), and what B in the slot takes
away on 7168x2048x4 (the wait for B, whose loads miss L1 there).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import PROFILE_COMMANDS, check_and_record, time_or_profile  # noqa: E402
from scripts.probes.window_ahead_by_copy_engine import CHECK_SHAPES, SHAPES  # noqa: E402

BY_COPY_ENGINE = attempts.find("93ze").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93ze": (BY_COPY_ENGINE, None),
    "93ze, B in the slot": (BY_COPY_ENGINE, {"B_IN_SLOT": 1}),
    "93ze, two windows ahead": (BY_COPY_ENGINE, {"WINDOWS_AHEAD": 2}),
}

PROFILED_SHAPES = [(7168, 16384, 1), (7168, 2048, 4)]


def main():
    if sys.argv[1:] and sys.argv[1] in PROFILE_COMMANDS:
        time_or_profile("copy-engine-path", BUILDS, BUILDS, PROFILED_SHAPES, Path(__file__))
    else:
        check_and_record("copy-engine-path", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
