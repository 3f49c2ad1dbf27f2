"""84v and 84q each in 3 stages (their own) and in 4, beside 93f, timed as the floor check times its
strategies (rotated interleaved rounds, common/floor.py); rows in results/probes/rows-depth-<gpu>.csv.
Every build is first checked against the reference (the probe stages_split's shapes). From the
repository root on a GPU:
    python3 scripts/probes/rows_depth.py

The question (closing-the-gap section 79): 84v's blocks read equal runs of rows and end together,
yet each read slower than 84q's, as long as 84q's blocks of 4 whole tiles: as many stages, a short
tile's stages holding fewer bytes. Written before it ran: if a short tile's stages are slow because
a ring of 3 of them holds too few bytes in flight for the latency, 84v in 4 stages is at least 8
points closer to the floor than 84v on 4096x14336x1 (every block one short tile) and at least 3 on
28672x4096x1 in clean mode, where 84q in 4 stages gains nothing on 4096x7168x8 (more stages of
whole tiles were further from the floor in the probe one_ring_depth). If the stage's own work (its
products, B, the barriers) sets its time whatever its bytes, 84v in 4 stages is within 2 points of
84v on both.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.stages_split import CHECK_SHAPES  # noqa: E402

FOUR_STAGES = {"STAGES": 4}


def builds() -> dict:
    return {**attempt_builds("93f", "84q", "84v"),
            "84q, 4 stages": (attempts.find("84q").source, FOUR_STAGES),
            "84v, 4 stages": (attempts.find("84v").source, FOUR_STAGES)}


def main():
    check_and_record("rows-depth", builds(), CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
