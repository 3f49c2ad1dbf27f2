"""Separates 91's two changes to 76's split: its windows taken in pairs (ptxas then issues a pair's
second window's loads among the first window's products) and each row's scales for a pair read in
one 128-byte run. Times 76, 91 and 91 built with SCALE_RUNS=0 (the pairs, each window's scales
read as 76 reads them) beside the floor on the load probes' shapes, as the floor check times its
strategies (rotated interleaved rounds, common/floor.py), and records the rows in
results/probes/paired-windows-<gpu>.csv. Run from the repository root on a GPU:
    python3 scripts/probes/paired_windows.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402
from scripts.probes.warps_in_flight import SHAPES  # noqa: E402


def main():
    source = attempts.find("91").source
    record("paired-windows", {"76": (attempts.find("76").source, None),
                              "91": (source, None),
                              "91, pairs without runs": (source, {"SCALE_RUNS": 0})}, SHAPES)


if __name__ == "__main__":
    main()
