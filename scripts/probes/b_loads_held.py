"""84i (84h with the addresses of B's share loads held until the share is stored) beside 84h, 84g
and 93f (the kernel of record), each with its own rule, on the shapes of the probe
chunks_ahead, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/b-loads-held-<gpu>.csv. Each build is first
checked against the reference on full-range and quantized data (the shapes of the probe
tma_row_runs). From the repository root on a GPU:
    python3 scripts/probes/b_loads_held.py

Written before any GPU ran 84i; the prediction is 84i's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.chunks_ahead import SHAPES  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    return attempt_builds("93f", "84g", "84h", "84i")


def main():
    check_and_record("b-loads-held", builds(), RING_CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
