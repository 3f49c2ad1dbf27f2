"""93e beside its parent 93d, and 93e built at 93d's 64 registers (the sweep's other point), in one
run (closing-the-gap section 66): timed as the floor check times its strategies (rotated
interleaved rounds, common/floor.py), rows in results/probes/fewer-registers-<gpu>.csv. Written
before any GPU ran 93e, for its prediction (its README): on the H200 the grids that hold more warps
than the SMs gain from 36 warps an SM, the one-wave grids are 93d's; on the H100 all three launch
93d's grids. From the repository root on a GPU:
    python3 scripts/probes/fewer_registers.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_builds, record  # noqa: E402

# The benchmark shapes, then decode rows of one part (many waves) and of several (one wave)
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4),
          (28672, 4096, 1), (128256, 4096, 1), (4096, 14336, 1), (4096, 4096, 1)]


CHECK_SHAPES = [(7168, 2048, 4), (4096, 4096, 1), (128, 16384, 1)]


def builds() -> dict:
    return {"93d": (attempts.find("93d").source, None),
            "93e": (attempts.find("93e").source, None),
            "93e at 64 registers": (attempts.find("93e").source, {"H200_REGISTERS": 64})}


def main():
    # the build at 64 registers is not among the GPU tests' builds: the harness's check first
    check_builds(builds(), CHECK_SHAPES)
    record("fewer-registers", builds(), SHAPES)


if __name__ == "__main__":
    main()
