"""84l (84k's ring in 4 stages of 512 elements a row) beside 84k and 84j (2 stages of 1024) and
93f (the kernel of record), with two controls: 84k in 2 stages of 512 (84l's stage overhead, half
its bytes on their way) and 84j in 84l's 4 stages (the depth with one warpgroup a block); each with
its own rule, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/ring-depth-<gpu>.csv. Each build is first checked against
the reference (the shapes of the probe tma_row_runs). From the repository root on a GPU:
    python3 scripts/probes/ring_depth.py

Written before any GPU ran 84l; the prediction is 84l's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (4096, 14336, 1), (28672, 4096, 1)]


def builds() -> dict:
    return {**attempt_builds("93f", "84j", "84k", "84l"),
            "84k, 2 stages of 512": (attempts.find("84k").source, {"STAGE_K": 512, "STAGES": 2}),
            "84j, 4 stages of 512": (attempts.find("84j").source, {"STAGE_K": 512, "STAGES": 4})}


def main():
    check_and_record("ring-depth", builds(), RING_CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
