"""84h (84g with the parts' joins left to the block's end: one fence, then the tickets) beside 84g,
84f and 93f (the kernel of record), each with its own rule, on the shapes of the probe
chunks_ahead, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/joins-at-block-end-<gpu>.csv. Each build is first
checked against the reference on full-range and quantized data (the shapes of the probe
tma_row_runs). From the repository root on a GPU:
    python3 scripts/probes/joins_at_block_end.py

Written before any GPU ran 84h; the prediction is 84h's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.chunks_ahead import SHAPES  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    return attempt_builds("93f", "84f", "84g", "84h")


def main():
    check_and_record("joins-at-block-end", builds(), RING_CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
