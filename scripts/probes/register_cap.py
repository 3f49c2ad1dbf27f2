"""93a under a register cap (scripts/probes/register_cap.cu), beside 93a, timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/register-cap-<gpu>.csv. Each build is first checked against the reference on full-range
and quantized data, and nothing is timed if one fails. From the repository root on a GPU:
    python3 scripts/probes/register_cap.py

Written before any GPU ran it. The question: on the H100 93a's one-window parts run blocks of S
warps at 64 registers, 32 warps an SM at most, 28 where S = 7 (4096x7168x8); is that what keeps
their reads further from the floor than the loads alone? At 56 registers the kernel spills (76
bytes a thread in the H100's build, inside both loops) and an SM holds 36 warps (35 in
blocks of 7). Prediction: 4096x7168x8 clean 1-2% closer to the floor (a quarter more warps); the
shapes of S = 2 and 4 (7168x2048x4, 4096x4096x1, 28672x4096x1) within half a percent either way
(an eighth more warps against the spills); 7168x16384x1, whose one wave does not fill the SMs'
warps, slower by the spills. Falsifier: 4096x7168x8 not at least half a percent closer in clean
mode would say that warps in flight are not what holds those reads back.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_builds, included_source, record  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
ATTEMPT = "93a"
CAPS = {"93a through this file": 0, "93a, 56 registers": 56, "93a, 48 registers": 48}
# one-window parts in blocks of 7, 2 and 4 warps (H100); the pairs' one wave; the small shape
SHAPES = [(4096, 7168, 8), (7168, 2048, 4), (4096, 4096, 1), (28672, 4096, 1), (7168, 16384, 1),
          (1024, 1024, 1)]
CHECK_SHAPES = [(4096, 7168, 2), (1024, 2048, 3), (4096, 4096, 1), (128, 16384, 1)]


def builds() -> dict:
    return {name: (SOURCE, {"REG_CAP": cap, **included_source(ATTEMPT)}) for name, cap in CAPS.items()}


def main():
    others = {ATTEMPT: (attempts.find(ATTEMPT).source, None)} | builds()
    check_builds(builds(), CHECK_SHAPES)
    record("register-cap", others, SHAPES)


if __name__ == "__main__":
    main()
