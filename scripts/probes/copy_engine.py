"""Times scripts/probes/copy_engine.cu in several shapes of copy beside the floor, 43 and 49, as the
floor check times its strategies (rotated interleaved rounds, common/floor.py), and records the rows
in results/probes/copy-engine-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/copy_engine.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
# name -> the probe's defines. Warps an SM, from the ring's shared memory: 32 for 4.6 KB rings,
# 21 for 9.2 KB, 11 for 18.4 KB, 3 for 73 KB.
COPIES = {
    "rows 4x512, 2 stages (49's)": {},
    "rows 4x512, 4 stages": {"NSTAGES": 4},
    "rows 4x1024, 2 stages": {"BOX_BYTES": 1024},
    "rows 4x2048, 2 stages": {"BOX_BYTES": 2048},
    "rows 16x512, 2 stages": {"BOX_ROWS": 16},
    "flat 2 KB, 2 stages": {"FLAT": 1},
    "flat 2 KB, 4 stages": {"FLAT": 1, "NSTAGES": 4},
    "flat 8 KB, 2 stages": {"FLAT": 1, "BOX_BYTES": 2048},
    "flat 32 KB, 2 stages": {"FLAT": 1, "BOX_ROWS": 16, "BOX_BYTES": 2048},
}
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4)]


def main():
    others = {name: (SOURCE, defines or None) for name, defines in COPIES.items()}
    others["43"] = (attempts.find("43").source, None)
    others["49"] = (attempts.find("49").source, None)
    record("copy-engine", others, SHAPES)


if __name__ == "__main__":
    main()
