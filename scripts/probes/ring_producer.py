"""84m (84l's ring filled by a producer warp, each slot handed back by an mbarrier of its own)
beside 84l and 84k (the block's barrier after every stage) and 93f (the kernel of record), with 84m
in 84k's 2 stages of 1024 as a control (the barrier's price without the depth); each with its own
rule, timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py);
rows in results/probes/ring-producer-<gpu>.csv. Each build is first checked against the reference
(the shapes of the probe tma_row_runs). From the repository root on a GPU:
    python3 scripts/probes/ring_producer.py

Written before any GPU ran 84m; the prediction is 84m's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    return {**attempt_builds("93f", "84k", "84l", "84m"),
            "84m, 2 stages of 1024": (attempts.find("84m").source, {"STAGE_K": 1024, "STAGES": 2})}


def main():
    check_and_record("ring-producer", builds(), RING_CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
