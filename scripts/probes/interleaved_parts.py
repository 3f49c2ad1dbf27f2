"""84d (84a's parts of K interleaved chunk by chunk, a tile's parts dispatched one after another)
beside 84a and 93f (the kernel of record), each with its own rule, on the shapes of the probe
chunks_ahead, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/interleaved-parts-<gpu>.csv. Each build is first checked
against the reference on full-range and quantized data, a shape with K mod 128 = 64 among them.
From the repository root on a GPU:
    python3 scripts/probes/interleaved_parts.py

Written before any GPU ran 84d; the prediction is 84d's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.chunks_ahead import SHAPES  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.wgmma_products import CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    return attempt_builds("93f", "84a", "84d")


def main():
    check_and_record("interleaved-parts", builds(), CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
