"""Times scripts/probes/busy_ring.cu (49's ring of 4-row tensor copies with a stand-in for the math,
copied by the computing warps or by a producer warp) beside the floor, 43 and 50, as the floor
check times its strategies (rotated interleaved rounds, common/floor.py), and records the rows in
results/probes/busy-ring-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/busy_ring.py
    python3 scripts/probes/busy_ring.py profile   # Nsight Compute on PROFILED, profiles/<gpu>/probes/
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import time_or_profile  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
# name -> the probe's defines. "work 4" is about 43's and 50's instructions a byte, "work 8" about
# 1.5 times them (busy_ring.cu says why, the profile measures it); 32 computing
# warps an SM unless named; "self" copies in the computing warps (49's order), "producer" in one
# warp a block of 8 computing warps (or 4) that does nothing else.
RINGS = {
    "self, no work": {"WORK": 0},
    "self, work 4": {"WORK": 4},
    "self, work 8": {},
    "self, work 8, 3 stages, 24 warps": {"NSTAGES": 3, "CONSUMERS_PER_SM": 24},
    "producer, no work": {"PRODUCER": 1, "WORK": 0},
    "producer, work 4": {"PRODUCER": 1, "WORK": 4},
    "producer, work 8": {"PRODUCER": 1},
    "producer of 4, work 8": {"PRODUCER": 1, "CONSUMERS": 4},
    "producer, work 8, 24 warps": {"PRODUCER": 1, "CONSUMERS_PER_SM": 24},
    "producer, work 8, 3 stages, 24 warps": {"PRODUCER": 1, "NSTAGES": 3, "CONSUMERS_PER_SM": 24},
}
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4)]
PROFILED = ["self, no work", "self, work 8", "producer, no work", "producer, work 8", "43"]


def main():
    others = {name: (SOURCE, defines or None) for name, defines in RINGS.items()}
    others["43"] = (attempts.find("43").source, None)
    others["50"] = (attempts.find("50").source, None)
    time_or_profile("busy-ring", others, {name: others[name] for name in PROFILED}, SHAPES, Path(__file__))


if __name__ == "__main__":
    main()
