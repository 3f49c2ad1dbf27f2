"""84a (the products on the warpgroup MMA in e4m3) beside 93f (the kernel of record, dp4a), each
with its own rule, on the benchmark shapes and a few decode and small ones, timed as the floor
check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/wgmma-products-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data, a shape with K mod 128 = 64 (a half chunk) among them. From the
repository root on a GPU:
    python3 scripts/probes/wgmma_products.py

Written before any GPU ran 84a; the prediction is 84a's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402

CHECK_SHAPES = [(1152, 2112, 2), (128, 16384, 1), (2048, 7168, 3)]
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (4096, 4096, 1), (4096, 14336, 1),
          (8192, 28672, 1), (128, 16384, 1), (4096, 4096, 16)]


def builds() -> dict:
    return attempt_builds("93f", "84a")


def main():
    check_and_record("wgmma-products", builds(), CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
