"""Asks whether the kind of load is part of what keeps 43's reads above the floor: times
scripts/probes/warps_in_flight.cu at 32 warps an SM with 43's strong loads (ld.relaxed.gpu) and
with NC_LOADS, the floor's non-coherent loads that allocate nothing in L1
(ld.global.nc.L1::no_allocate), both under L2 evict_first, beside the floor and 43, as the floor
check times its strategies (rotated interleaved rounds, common/floor.py), and records the rows in
results/probes/nc-loads-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/nc_loads.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SOURCE = Path(__file__).with_name("warps_in_flight.cu")
# warps_in_flight.py's shapes (K a multiple of 1024).
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (8192, 8192, 1), (28672, 4096, 1)]
VARIANTS = {"strong loads (43's)": {"WARPS_PER_SM": 32},
            "non-coherent loads (the floor's)": {"WARPS_PER_SM": 32, "NC_LOADS": 1}}


def main():
    others = {name: (SOURCE, defines) for name, defines in VARIANTS.items()}
    others["43"] = (attempts.find("43").source, None)
    record("nc-loads", others, SHAPES)


if __name__ == "__main__":
    main()
