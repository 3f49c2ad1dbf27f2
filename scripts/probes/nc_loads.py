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
from scripts.probes.warps_in_flight import SOURCE, record_variants  # noqa: E402, F401 (SOURCE: what the build tests build)

VARIANTS = {"strong loads (43's)": {"WARPS_PER_SM": 32},
            "non-coherent loads (the floor's)": {"WARPS_PER_SM": 32, "NC_LOADS": 1}}


def main():
    record_variants("nc-loads", VARIANTS, ("43",))


if __name__ == "__main__":
    main()
