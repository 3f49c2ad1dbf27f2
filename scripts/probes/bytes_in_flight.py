"""Asks whether twice the bytes in flight per warp, from registers instead of more warps, brings
43's read pattern closer to the floor than 32 warps an SM of one window: times
scripts/probes/warps_in_flight.cu with one and with two windows in flight (WINDOWS_IN_FLIGHT) at
16, 24 and 32 warps an SM beside the floor and 43, as the floor check times its strategies (rotated
interleaved rounds, common/floor.py), and records the rows in
results/probes/bytes-in-flight-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/bytes_in_flight.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.warps_in_flight import SOURCE, record_variants  # noqa: E402, F401 (SOURCE: what the build tests build)

# 16 warps of two windows have as many bytes requested as 32 of one; 32 of two (64 registers a
# thread, the whole register file) twice that.
WARPS_PER_SM = [16, 24, 32]
VARIANTS = {**{f"{n} warps/SM, 1 window": {"WARPS_PER_SM": n} for n in WARPS_PER_SM},
            **{f"{n} warps/SM, 2 windows": {"WARPS_PER_SM": n, "WINDOWS_IN_FLIGHT": 2} for n in WARPS_PER_SM}}


def main():
    record_variants("bytes-in-flight", VARIANTS, ("43",))


if __name__ == "__main__":
    main()
