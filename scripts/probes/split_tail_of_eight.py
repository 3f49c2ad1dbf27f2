"""84zf (84ze's split tail in blocks of eight warps) and 84zg (84zf's tail started once every ring
block has its first stage) beside 84zd, 84q and 93f, timed as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/split-tail-of-eight-<gpu>.csv.
Each build is first checked against the reference on full-range and quantized data, and nothing is
timed if one fails. With `spans`, 84zd, 84zf and 84zg stamped and timed by events call after call as
the probe ring_spans does (results/probes/split-tail-of-eight-spans-<gpu>.csv). From the
repository root on a GPU:
    python3 scripts/probes/split_tail_of_eight.py
    python3 scripts/probes/split_tail_of_eight.py spans

Written before any GPU ran it (84zf's and 84zg's READMEs hold the same predictions). On the H200:
84ze's tail ran after its ring (section 85) if a ring block leaves room for 2, 2, 2 and 3 warps of
64 registers in the four quarters of the register file; then, stamped, 84zf's time past its ring
blocks on 7168x2048x4 and 28672x4096x1 in clean mode is within half a microsecond of 84zd's, its
last SM's last stage within half a microsecond of its median SM's, and 84zg's first stage within
0.3 us of 84q's fill. In rotated rounds, clean mode, on both shapes: 84zf at least 2 points closer
than 84zd, 84zg at least a point closer than 84zf. Falsifiers: 84zf not at least a point closer
than 84zd on both shapes; 84zg not at least a point closer than 84zf on either.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_spans import spans  # noqa: E402
from scripts.probes.ring_split_tail import CHECK_SHAPES, SHAPES  # noqa: E402


def main():
    if sys.argv[1:] == ["spans"]:
        return spans(("84zd", "84zf", "84zg"), "split-tail-of-eight-spans")
    check_and_record("split-tail-of-eight", attempt_builds("93f", "84q", "84zd", "84zf", "84zg"), CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
