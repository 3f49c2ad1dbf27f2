"""84e (84a's product engine fed by the copy engine: a tile's 64 rows x STAGE_K elements a stage,
a ring of STAGES stages in shared memory) with its defaults (1024 elements, 2 stages) and with
stages of 512 elements (2 or 4 of them) beside 84a and 93f (the kernel of record), each with its
own rule, on the shapes of the probe chunks_ahead, timed as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/tma-row-runs-<gpu>.csv. Each
build is first checked against the reference on full-range and quantized data: a shape with K
mod 128 = 64 (84a's kernel), one whose last stage is partly past K (K mod 1024 = 256) among them.
From the repository root on a GPU:
    python3 scripts/probes/tma_row_runs.py

Written before any GPU ran 84e; the prediction is 84e's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.chunks_ahead import SHAPES  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.wgmma_products import CHECK_SHAPES  # noqa: E402

PART_STAGE_SHAPES = [(1152, 4352, 2)]
# What every ring probe checks its builds on before timing them.
RING_CHECK_SHAPES = CHECK_SHAPES + PART_STAGE_SHAPES


def builds() -> dict:
    source = attempts.find("84e").source
    return {**attempt_builds("93f", "84a", "84e"), "84e, 512-element stages": (source, {"STAGE_K": 512}),
            "84e, 4 stages of 512": (source, {"STAGE_K": 512, "STAGES": 4})}


def main():
    check_and_record("tma-row-runs", builds(), RING_CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
