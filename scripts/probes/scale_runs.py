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
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SOURCE = Path(__file__).with_name("warps_in_flight.cu")
# warps_in_flight.py's shapes (K a multiple of 1024).
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (8192, 8192, 1), (28672, 4096, 1)]
VARIANTS = {"scales with each window (43's)": {"WARPS_PER_SM": 32},
            **{f"scale runs of {64 * n} B": {"WARPS_PER_SM": 32, "SCALE_RUNS": n} for n in (1, 2, 8)}}


def main():
    others = {name: (SOURCE, defines) for name, defines in VARIANTS.items()}
    for number in ("43", "53"):
        others[number] = (attempts.find(number).source, None)
    record("scale-runs", others, SHAPES)


if __name__ == "__main__":
    main()
