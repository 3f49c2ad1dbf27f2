"""84b (84a's loads sent LOADS_AHEAD chunks ahead, a ring in registers) at 2, 4 (its own) and 6
chunks beside 84a (one chunk ahead) and 93f (the kernel of record), each with its own rule, on the
benchmark shapes and a few decode and small ones, timed as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/chunks-ahead-<gpu>.csv. Each
build is first checked against the reference on full-range and quantized data, a shape with K mod
128 = 64 (the half chunk after the ring) among them. From the repository root on a GPU:
    python3 scripts/probes/chunks_ahead.py

Written before any GPU ran 84b; the prediction is 84b's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.wgmma_products import CHECK_SHAPES  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (4096, 4096, 1), (4096, 14336, 1),
          (128, 16384, 1)]


def builds() -> dict:
    source = attempts.find("84b").source
    return {**attempt_builds("93f", "84a"), "84b, 2 ahead": (source, {"LOADS_AHEAD": 2}),
            "84b": (source, None), "84b, 6 ahead": (source, {"LOADS_AHEAD": 6})}


def main():
    check_and_record("chunks-ahead", builds(), CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
