"""Asks whether the warps of a wave reading the same column of their rows is part of what keeps
43's reads above the floor: times scripts/probes/warps_in_flight.cu at 32 warps an SM in 43's
order (every warp steps through its part from the start) and with STAGGER (each warp starts at a
window of its part that depends on its tile, and wraps round), beside the floor and 43, as the
floor check times its strategies (rotated interleaved rounds, common/floor.py), and records the
rows in results/probes/staggered-windows-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/staggered_windows.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SOURCE = Path(__file__).with_name("warps_in_flight.cu")
# warps_in_flight.py's shapes (K a multiple of 1024).
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (8192, 8192, 1), (28672, 4096, 1)]
VARIANTS = {"43's order": {"WARPS_PER_SM": 32},
            "staggered windows": {"WARPS_PER_SM": 32, "STAGGER": 1}}


def main():
    others = {name: (SOURCE, defines) for name, defines in VARIANTS.items()}
    others["43"] = (attempts.find("43").source, None)
    record("staggered-windows", others, SHAPES)


if __name__ == "__main__":
    main()
