"""93t (94's signs in A's selectors on 93f's loop, B decoded a word at a time) beside 93f, and 94
beside its parent 93 (the same change on 93's loop, section 65's pair timed again in the same
rounds), timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/signs-at-use-<gpu>.csv. Each build is first checked
against the reference on full-range and quantized data, and nothing is timed if one fails. From
the repository root on a GPU:
    python3 scripts/probes/signs_at_use.py

Written before any GPU ran it (93t's README holds the same prediction). On the H200: 93t level
with 93f within a point on every shape in both modes, as 94 with 93; if 93f's order has made
issue what its warps wait on, 93t a point or more closer on 4096x7168x8 in clean mode. Falsifier:
93t a point or more closer than 93f on two benchmark shapes in clean mode, or a point or more
behind on two.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

BUILDS = {n: (attempts.find(n).source, None) for n in ("93f", "93t", "93", "94")}
# the benchmark shapes, a long decode row, a multi-wave and a one-wave decode shape
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (4096, 14336, 1), (28672, 4096, 1),
          (4096, 4096, 1)]
# the benchmark's short rows, a short last window (the dealt words, 93f's code), many batches
CHECK_SHAPES = [(7168, 2048, 4), (1024, 2112, 3), (128, 4096, 40)]


def main():
    check_and_record("signs-at-use", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
