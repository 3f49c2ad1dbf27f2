"""Asks what 52's read pattern costs or buys without its math: 8 rows a warp over windows of 512
elements (each load instruction 256 contiguous bytes of a row) against 43's 4 rows over windows of
1024 (512 bytes). Times scripts/probes/warps_in_flight.cu with and without HALF_WINDOWS at 24 and
32 warps an SM beside the floor, 43 and 52, as the floor check times its strategies (rotated
interleaved rounds, common/floor.py), and records the rows in
results/probes/half-windows-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/half_windows.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.warps_in_flight import SOURCE, record_variants  # noqa: E402, F401 (SOURCE: what the build tests build)

# 32 warps an SM is what 43 and 52 hold at 64 registers; 52's dispatch leaves 27 on 7168x2048x4
# (3584 tiles of 8 rows, no split), which 24 brackets.
WARPS_PER_SM = [24, 32]
VARIANTS = {**{f"{n} warps/SM, 4 rows x 512 B": {"WARPS_PER_SM": n} for n in WARPS_PER_SM},
            **{f"{n} warps/SM, 8 rows x 256 B": {"WARPS_PER_SM": n, "HALF_WINDOWS": 1} for n in WARPS_PER_SM}}


def main():
    record_variants("half-windows", VARIANTS, ("43", "52"))


if __name__ == "__main__":
    main()
