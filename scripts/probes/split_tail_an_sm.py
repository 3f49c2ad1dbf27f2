"""84ze (84zd's split tail one block of ten warps an SM) beside 84zd, 84q and 93f, timed as the
floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/split-tail-an-sm-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data, and nothing is timed if one fails. With `spans`, 84zd and 84ze
stamped and timed by events call after call as the probe ring_spans does
(results/probes/split-tail-an-sm-spans-<gpu>.csv). From the repository root on a GPU:
    python3 scripts/probes/split_tail_an_sm.py
    python3 scripts/probes/split_tail_an_sm.py spans

Written before any GPU ran it (84ze's README holds the same prediction). On the H200, stamped:
every ring block of 84ze within half a microsecond of its median SM's last stage on 7168x2048x4 and
28672x4096x1 in clean mode (84zd: 1.4 us apart), its ring's first stage within 0.3 us of 84zd's. In
rotated rounds: at least 3 points closer than 84zd on both shapes in clean mode, level elsewhere.
Falsifier: 84ze not at least 2 points closer than 84zd on both shapes in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_spans import spans  # noqa: E402
from scripts.probes.ring_split_tail import CHECK_SHAPES, SHAPES  # noqa: E402


def main():
    if sys.argv[1:] == ["spans"]:
        return spans(("84zd", "84ze"), "split-tail-an-sm-spans")
    check_and_record("split-tail-an-sm", attempt_builds("93f", "84q", "84zd", "84ze"), CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
