"""Asks whether the way 43 reads A's scales, 64 bytes of each row every window, is part of what
keeps its reads above the floor: times scripts/probes/warps_in_flight.cu at 32 warps an SM as 43
reads (the scales with each window) and with SCALE_RUNS (each row's scales for n windows in one
run of 64n bytes, as a kernel that stages them would read them; n = 1 is 43's bytes through the
runs' code, a control), beside the floor, 43 and 53 (43 with its scales staged in runs), as the floor check times its strategies (rotated interleaved rounds, common/floor.py), and
records the rows in results/probes/scale-runs-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/scale_runs.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.warps_in_flight import SOURCE, record_variants  # noqa: E402, F401 (SOURCE: what the build tests build)

VARIANTS = {"scales with each window (43's)": {"WARPS_PER_SM": 32},
            **{f"scale runs of {64 * n} B": {"WARPS_PER_SM": 32, "SCALE_RUNS": n} for n in (1, 2, 8)}}


def main():
    record_variants("scale-runs", VARIANTS, ("43", "53"))


if __name__ == "__main__":
    main()
