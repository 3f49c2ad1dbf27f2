"""Asks whether the size of L2's fetches from DRAM is part of what holds 43's loads above the floor
on the H200: times scripts/probes/warps_in_flight.cu at 32 warps an SM in 43's order with its loads
as they are; with A's loads, or A's and its scales', carrying `.L2::256B` or `.L2::128B` (L2
fetches the aligned 256 or 128 bytes around each miss instead of the sectors asked for); with its
scales' alone carrying `.L2::128B` (a row's 64 bytes of one window bring the next window's); and
with its scales read in runs of 128 bytes every two windows (SCALE_RUNS, section 17), beside the
floor and 43, as the floor check times its strategies (rotated interleaved rounds,
common/floor.py), and records the rows in results/probes/l2-fetch-size-<gpu>.csv. Run from the
repository root on a GPU:
    python3 scripts/probes/l2_fetch_size.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.warps_in_flight import SOURCE, record_variants  # noqa: E402, F401 (SOURCE: what the build tests build)

VARIANTS = {"43's order": {"WARPS_PER_SM": 32},
            "A .L2::256B": {"WARPS_PER_SM": 32, "A_FETCH_BYTES": 256},
            "A and scales .L2::256B": {"WARPS_PER_SM": 32, "A_FETCH_BYTES": 256, "SF_FETCH_BYTES": 256},
            "scales .L2::128B": {"WARPS_PER_SM": 32, "SF_FETCH_BYTES": 128},
            "A and scales .L2::128B": {"WARPS_PER_SM": 32, "A_FETCH_BYTES": 128, "SF_FETCH_BYTES": 128},
            "scale runs of 128 B": {"WARPS_PER_SM": 32, "SCALE_RUNS": 2}}


def main():
    record_variants("l2-fetch-size", VARIANTS, ("43",))


if __name__ == "__main__":
    main()
