"""Asks how much of 43's read pattern's distance from the floor is its fixed share of work per SM:
times scripts/probes/warps_in_flight.cu at 32 warps an SM with K split as 43 splits it (each SM
its fixed share, one wave) and split into parts of 4, 2 and 1 windows (waves of short-lived warps
the GPU hands to whichever SM is free, as it does the floor's short blocks), beside the floor, 43
and 45 (43 with parts of at most 4 windows, summed in its blocks), as the floor check times its
strategies (rotated interleaved rounds, common/floor.py), and records the rows in
results/probes/short-parts-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/short_parts.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.warps_in_flight import SOURCE, record_variants  # noqa: E402, F401 (SOURCE: what the build tests build)

VARIANTS = {"one wave, 43's split": {"WARPS_PER_SM": 32},
            **{f"parts of {n} window{'s' if n > 1 else ''}": {"WARPS_PER_SM": 32, "PARTS_OF": n} for n in (4, 2, 1)}}


def main():
    record_variants("short-parts", VARIANTS, ("43", "45"))


if __name__ == "__main__":
    main()
