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
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SOURCE = Path(__file__).with_name("warps_in_flight.cu")
# 16 warps of two windows have as many bytes requested as 32 of one; 32 of two (64 registers a
# thread, the whole register file) twice that.
WARPS_PER_SM = [16, 24, 32]
# warps_in_flight.py's shapes (K a multiple of 1024): every split has at least two windows there.
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (8192, 8192, 1), (28672, 4096, 1)]
VARIANTS = {**{f"{n} warps/SM, 1 window": {"WARPS_PER_SM": n} for n in WARPS_PER_SM},
            **{f"{n} warps/SM, 2 windows": {"WARPS_PER_SM": n, "WINDOWS_IN_FLIGHT": 2} for n in WARPS_PER_SM}}


def main():
    others = {name: (SOURCE, defines) for name, defines in VARIANTS.items()}
    others["43"] = (attempts.find("43").source, None)
    record("bytes-in-flight", others, SHAPES)


if __name__ == "__main__":
    main()
