"""Asks what keeps the odd shapes far from the floor once 64 and 65 removed the short window's step
and the lockstep (docs/closing-the-gap.md, section 25). Each odd shape's rows of A start 32 bytes
past a 128-byte line (K = 2112, 4160, 5184: K/2 = 32 mod 128). This times 62, 65, 66 and 67, and a plain read
in the kernels' tile order, beside the floor on M = 8320, L = 2 with rows on a line boundary
(K = 2048, 2304) and off one (K = 2112, 2176), as the floor check times its strategies (rotated
interleaved rounds, common/floor.py), and records results/probes/row-alignment-<gpu>.csv. Run from
the repository root on a GPU:
    python3 scripts/probes/row_alignment.py
    python3 scripts/probes/row_alignment.py profile   # Nsight Compute on PROFILED, profiles/<gpu>/probes/
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, floor  # noqa: E402
from scripts.probes.probe import time_or_profile  # noqa: E402

# K/2 mod 128: 0 (2048, a whole number of windows), 32 (2112, as the odd shapes), 64 (2176), and
# 0 again with a short window (2304: 2 windows and a quarter).
SHAPES = [(8320, 2048, 2), (8320, 2112, 2), (8320, 2176, 2), (8320, 2304, 2)]
KERNELS = ("62", "65", "66", "67")
READ = "tile-windows"     # the floor's candidate that reads in 57's (and the kernels') tile order
PROFILED = ("62", "65", "66", "67", READ)


def kernel(name):
    return floor.strategies()[name] if name == READ else (attempts.find(name).source, None)


def main():
    time_or_profile("row-alignment", {name: kernel(name) for name in (*KERNELS, READ)},
                    {name: kernel(name) for name in PROFILED}, SHAPES, Path(__file__))


if __name__ == "__main__":
    main()
