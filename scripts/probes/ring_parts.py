"""84i with a tile's parts on the ring fixed instead of chosen by 84a's rule (RING_PARTS): 2 a
tile, and one a stage (as many as the row has), beside 84i's own and 93f (the kernel of record),
on the shapes where the rule gives several parts (7168x16384x1: 7 of 2 or 3 stages;
4096x14336x1: 4 of 3 or 4) and two where it gives one, timed as the floor check times its
strategies (rotated interleaved rounds, common/floor.py); rows in results/probes/ring-parts-<gpu>.csv.
Each build is first checked against the reference (the shapes of the probe tma_row_runs).

The question: what 84i's many-part rows pay beside 4096x7168x8's one part of 7 stages. Written
before it ran: if the items and their joins cost 7168x16384x1, 2 parts a tile (one item a block,
40 of the H200's 264 blocks idle) read it at least 5 points closer than the rule's 7 in clean
mode, and a part a stage (16-way joins, 7 items a block) further; 4096x7168x8 and 7168x2048x4
move little either way. From the repository root on a GPU:
    python3 scripts/probes/ring_parts.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 14336, 1), (4096, 7168, 8), (7168, 2048, 4)]


def builds() -> dict:
    source = attempts.find("84i").source
    return {**attempt_builds("93f", "84i"), "84i, 2 parts a tile": (source, {"RING_PARTS": 2}),
            "84i, a part a stage": (source, {"RING_PARTS": 64})}


def main():
    check_and_record("ring-parts", builds(), RING_CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
