"""84f (84e with each chunk's mmas retired a chunk later) and 84g (84f with resident blocks whose
ring runs on across their work items), 84g also with stages of 512 elements, beside 84e and 93f
(the kernel of record), each with its own rule, on the shapes of the probe chunks_ahead, timed as
the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/ring-across-tiles-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data (the shapes of the probe tma_row_runs). From the repository root
on a GPU:
    python3 scripts/probes/ring_across_tiles.py

Written before any GPU ran 84f or 84g; the predictions are their READMEs'.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.chunks_ahead import SHAPES  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402


def builds() -> dict:
    source = attempts.find("84g").source
    return {**attempt_builds("93f", "84e", "84f", "84g"), "84g, 512-element stages": (source, {"STAGE_K": 512})}


def main():
    check_and_record("ring-across-tiles", builds(), RING_CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
