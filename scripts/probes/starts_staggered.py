"""93za (a one-wave grid's warps starting apart, by their place on their scheduler) beside 93f, at
its default stagger (300 ns a place) and at 150 and 600, timed as the floor check times its
strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/starts-staggered-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data. From the repository root on a GPU:
    python3 scripts/probes/starts_staggered.py

Written before any GPU ran it (93za's README holds the same prediction). On the H200, if a
one-wave grid's warps stay in step: 7168x16384x1 clean at least 3 points closer to the floor than
93f at one of the staggers, the other one-wave shapes closer too, least where a warp has one or two
windows; 4096x7168x8 and 7168x2048x4 (several waves: no stagger) level within noise. Falsifier: no
stagger at least 2 points closer than 93f on 7168x16384x1 in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

STAGGERED = attempts.find("93za").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93za": (STAGGERED, None),
    "93za, 150 ns": (STAGGERED, {"STAGGER_NS": 150}),
    "93za, 600 ns": (STAGGERED, {"STAGGER_NS": 600}),
}
# one wave: 8 windows a warp at 22, 28 and 32 warps an SM; 3 to 4, 4, 2 and 1; then several waves
SHAPES = [(7168, 16384, 1), (5632, 16384, 1), (8448, 16384, 1), (4096, 14336, 1), (8192, 8192, 1),
          (6144, 4096, 1), (4096, 4096, 1), (4096, 7168, 8), (7168, 2048, 4)]
# staggered over one batch and three, and a shape of several waves
CHECK_SHAPES = [(7168, 16384, 1), (1024, 12288, 3), (7168, 2048, 4)]


def main():
    check_and_record("starts-staggered", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
