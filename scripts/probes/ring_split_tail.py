"""84zd (84q's last short round read by 93f's one-warp tiles beside the ring blocks) beside 84q and
93f, timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py);
rows in results/probes/ring-split-tail-<gpu>.csv. Each build is first checked against the
reference on full-range and quantized data, and nothing is timed if one fails. From the repository
root on a GPU:
    python3 scripts/probes/ring_split_tail.py
With `spans`, 84q and 84zd stamped and timed by events call after call as the probe ring_spans
does (results/probes/ring-split-tail-spans-<gpu>.csv): whether 84zd's ring blocks end together,
and what the call holds after them.

Written before any GPU ran it (84zd's README holds the same prediction). On the H200: 84zd at
least 6 points closer to the floor than 84q on 7168x2048x4 and 28672x4096x1 in clean mode, and
in gpumode mode; level with 93f or closer on 7168x2048x4, closer than 93f on 28672x4096x1; level
with 84q within a point on 4096x7168x8 and 7168x16384x1 (no split tail). Falsifier: 84zd not at
least 4 points closer than 84q on 7168x2048x4 and on 28672x4096x1 in clean mode.

The spans, written after the rounds (84zd level with 84q on 7168x2048x4, 3 points closer on
28672x4096x1) and before the spans ran: if the split tail's warps run beside the ring from the
start, 84zd's last SM has its last stage within half a microsecond of its median SM's on both
shapes (84q: more than 2 us after); then on 7168x2048x4 either the median SM's last stage comes
later than 84q's by about what the last SM gained (the tail's bytes taken from the ring's share:
84q's last round was no slower than the same bytes spread), or the event time exceeds the ring
blocks' span by more than 84q's does (the split tail's grid ends after the ring's blocks).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_spans import spans  # noqa: E402

# the split tail's shapes (448 tiles of 64 rows; 2004), then two the ring takes alone
SHAPES = [(7168, 2048, 4), (28672, 4096, 1), (128256, 4096, 1), (4096, 7168, 8), (7168, 16384, 1)]
# a split tail within one batch, one over two batches (4 tiles past 3 rounds), one the ring takes
# alone for its short window (K = 2304), one of fewer tiles than ring blocks
CHECK_SHAPES = [(7168, 2048, 4), (128, 4096, 200), (7168, 2304, 4), (1024, 2048, 3)]


def main():
    if sys.argv[1:] == ["spans"]:
        return spans(("84q", "84zd"), "ring-split-tail-spans")
    check_and_record("ring-split-tail", attempt_builds("93f", "84q", "84zd"), CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
