"""84c (84a's A and scales copied into a ring in each warp's shared memory in whole-row runs) with
2 stages (its own) and 3, beside 84a (fragments loaded straight from memory) and 93f (the kernel of
record), each with its own rule, on the benchmark shapes and a few decode and small ones, timed as
the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/rows-through-shared-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data, a shape with K mod 128 = 64 among them. From the repository root
on a GPU:
    python3 scripts/probes/rows_through_shared.py

Written before any GPU ran 84c; the prediction is 84c's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.chunks_ahead import SHAPES  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.wgmma_products import CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    source = attempts.find("84c").source
    return {**attempt_builds("93f", "84a", "84c"), "84c, 3 stages": (source, {"STAGES": 3})}


def main():
    check_and_record("rows-through-shared", builds(), CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
