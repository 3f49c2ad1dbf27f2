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
from scripts.probes.warps_in_flight import SOURCE, record_variants  # noqa: E402, F401 (SOURCE: what the build tests build)

VARIANTS = {"43's order": {"WARPS_PER_SM": 32},
            "staggered windows": {"WARPS_PER_SM": 32, "STAGGER": 1}}


def main():
    record_variants("staggered-windows", VARIANTS, ("43",))


if __name__ == "__main__":
    main()
