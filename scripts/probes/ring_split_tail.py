"""84zd (84q's last short round read by 93f's one-warp tiles beside the ring blocks) beside 84q and
93f, timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py);
rows in results/probes/ring-split-tail-<gpu>.csv. Each build is first checked against the
reference on full-range and quantized data, and nothing is timed if one fails. From the repository
root on a GPU:
    python3 scripts/probes/ring_split_tail.py

Written before any GPU ran it (84zd's README holds the same prediction). On the H200: 84zd at
least 6 points closer to the floor than 84q on 7168x2048x4 and 28672x4096x1 in clean mode, and
in gpumode mode; level with 93f or closer on 7168x2048x4, closer than 93f on 28672x4096x1; level
with 84q within a point on 4096x7168x8 and 7168x16384x1 (no split tail). Falsifier: 84zd not at
least 4 points closer than 84q on 7168x2048x4 and on 28672x4096x1 in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402

# the split tail's shapes (448 tiles of 64 rows; 2004), then two the ring takes alone
SHAPES = [(7168, 2048, 4), (28672, 4096, 1), (128256, 4096, 1), (4096, 7168, 8), (7168, 16384, 1)]
# a split tail within one batch, one over two batches (4 tiles past 3 rounds), one the ring takes
# alone for its short window (K = 2304), one of fewer tiles than ring blocks
CHECK_SHAPES = [(7168, 2048, 4), (128, 4096, 200), (7168, 2304, 4), (1024, 2048, 3)]


def main():
    check_and_record("ring-split-tail", attempt_builds("93f", "84q", "84zd"), CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
