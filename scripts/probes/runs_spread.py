"""84y (84x with the longer runs spread as 84w spread them: 84w's runs without its 64-bit division)
beside 84x, 84w and 93f, timed as the floor check times its strategies (rotated interleaved
rounds, common/floor.py); rows in results/probes/runs-spread-<gpu>.csv. Every build is first
checked against the reference (the probe stages_split's shapes). Then 84q, 84w, 84x and 84y
stamped and timed by events call after call, as the probe ring_spans does
(results/probes/runs-spread-spans-<gpu>.csv). From the repository root on a GPU:
    python3 scripts/probes/runs_spread.py

Written before any GPU ran 84y; the prediction is 84y's README's.
"""
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.ring_spans import check_then_span  # noqa: E402


TILE_ROWS, RUN_ROWS, STAGE_K = 64, 8, 1024  # 84w-84y's


def block_stages(m: int, k: int, l: int, blocks: int, longer_first: bool) -> list[int]:
    """Each ring block's stages as 84w-84y's Cursor walks its run of rows: the M x L rows' groups of
    8 split over the blocks, the longer runs first (84x) or spread (84w, 84y); a run cut into tiles
    of 64 rows at its end and at each batch's end, a tile of at most 32 rows folded (half its
    stages, rounded up)."""
    groups, k_stages = m * l // RUN_ROWS, math.ceil(k / STAGE_K)
    q, r = divmod(groups, blocks)
    counts = []
    for b in range(blocks):
        first, last = (b * q + min(b, r), (b + 1) * q + min(b + 1, r)) if longer_first else \
            (b * groups // blocks, (b + 1) * groups // blocks)
        row, end, stages = first * RUN_ROWS, last * RUN_ROWS, 0
        while row < end:
            rows = min(TILE_ROWS, min(end, (row // m + 1) * m) - row)
            stages += math.ceil(k_stages / 2) if 2 * rows <= TILE_ROWS else k_stages
            row += rows
        counts.append(stages)
    return counts


def main():
    check_then_span("runs-spread", ("93f", "84w", "84x", "84y"), ("84q", "84w", "84x", "84y"))


if __name__ == "__main__":
    main()
