"""93b's loop ahead without the scale runs, on any GPU (scripts/probes/ahead_without_runs.cu): 93a
and 93b both launched as the H200 launches them (the kernel without the runs), beside 93a as its
rule launches it, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/ahead-without-runs-<gpu>.csv. Each build is first
checked against the reference on full-range and quantized data, and nothing is timed if one
fails. From the repository root on a GPU (`profile`: Nsight Compute on the same kernels and shapes,
profiles/<gpu>/probes/ahead-without-runs.csv):
    python3 scripts/probes/ahead_without_runs.py
    python3 scripts/probes/ahead_without_runs.py profile

Written before any GPU ran it (closing-the-gap section 59). On the H100 93b's kernel with the runs
spills and every warp pays for it; its kernel without them has no stack frame. The question: does
sending each window's loads before the products of the one before pay where nothing spills?
Prediction (H100): 93b without runs at least 2% closer to the floor than 93a without runs on
7168x16384x1 and 4096x14336x1 in clean mode (the products held back half of the pairs' late bytes
there, section 58, and 93a without runs has no pairs at all), and level with or ahead of 93a with
its runs. Falsifier: 93b without runs not closer than 93a without runs on those shapes would say
that on the H100 the loads ahead do not pay even without spills, and the H200 run is the last word.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_builds, included_source, time_or_profile  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
# K beyond 8 windows (no one-window parts): the pairs' one wave (S = 2), parts of 3-4 windows
# (S = 4), of 14 (S = 2) and of 2-3 (S = 4, K = 10 windows)
SHAPES = [(7168, 16384, 1), (4096, 14336, 1), (8192, 28672, 1), (4096, 10240, 1)]
CHECK_SHAPES = [(4096, 10240, 1), (4352, 10304, 2), (2048, 16384, 2), (128, 16384, 1)]


def builds() -> dict:
    return {"93a without runs": (SOURCE, {"AHEAD": 0, **included_source("93a")}),
            "93b without runs": (SOURCE, {"AHEAD": 1, **included_source("93b")})}


def main():
    kernels = {"93a": (attempts.find("93a").source, None)} | builds()
    if len(sys.argv) == 1:  # timing: each build checked first
        check_builds(builds(), CHECK_SHAPES)
    time_or_profile("ahead-without-runs", kernels, kernels, SHAPES, Path(__file__))


if __name__ == "__main__":
    main()
