"""93d, 93g and 93h launched with the H200's rule on an H100 (scripts/probes/h200_rule_on_h100.cu):
the rolled kernel of 93g and 93h, which their own rule never launches on the H100, beside 93d's
loop on the same grids, timed as the floor check times its strategies (rotated interleaved
rounds, common/floor.py); rows in results/probes/h200-rule-on-h100-<gpu>.csv. Each build is first
checked against the reference on full-range and quantized data. From the repository root on a GPU:
    python3 scripts/probes/h200_rule_on_h100.py

Written while no H200 came for 93h's probe (closing-the-gap section 67), before this ran: it asks
on Hopper hardware whether B's windows prefetched into L1 (93h) take away the wait that sank the
roll (93g). Prediction, on the H100 with these grids: 93g further from the floor than 93d on the
shapes of several windows a part (as on the H200), 93h at least 2 points closer than 93g there,
and closer than 93d on 7168x16384x1 and 4096x7168x8; 4096x4096x1 (one window a part) 93g and 93h
behind 93d as on the H200. An H100 has more issue per byte than an H200, so a gain here does not
promise one there, and no loss here rules one out there.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import check_builds, included_source, record  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
PROBE_ATTEMPT = {"93d": 0, "93g": 1, "93h": 2, "93j": 3, "93k": 4, "93f": 5, "93l": 6, "93m": 7}   # the .cu's switch
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (128256, 4096, 1), (4096, 4096, 1)]
CHECK_SHAPES = [(7168, 2048, 4), (4096, 4096, 1), (128, 16384, 1)]


def rule_build(number: str, label: str = "", **defines) -> dict:
    """{name: (source, defines)} of attempt `number` launched with the H200's rule (other defines
    passed to its kernel.cu, named by `label`), for this probe and the others that use it."""
    name = f"{number}{label}, the H200's rule"
    return {name: (SOURCE, {"PROBE_ATTEMPT": PROBE_ATTEMPT[number], **defines, **included_source(number)})}


def builds() -> dict:
    return {**rule_build("93d"), **rule_build("93g"), **rule_build("93h")}


def main():
    check_builds(builds(), CHECK_SHAPES)
    record("h200-rule-on-h100", builds(), SHAPES)


if __name__ == "__main__":
    main()
