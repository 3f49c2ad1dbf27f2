"""93w (93t's decode where a warp's part is 5 windows or more, 93f's elsewhere) beside 93f, timed
as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/signs-by-rule-<gpu>.csv. Each build is first checked against the reference on
full-range and quantized data, and nothing is timed if one fails. From the repository root on a
GPU:
    python3 scripts/probes/signs_by_rule.py

Written before any GPU ran it (93w's README holds the same prediction). On the H200: 93w at least
a point closer to the floor than 93f on 7168x16384x1, 4096x7168x8, 8192x28672x1 and 57344x8192x1
in clean mode (93t's kernels there), within a point on 7168x2048x4 and 4096x4096x1 (93f's), level
within a point in gpumode mode. Falsifier: 93w not at least a point closer on two of the four long
shapes in clean mode, or a point or more behind on any shape in either mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

BUILDS = {n: (attempts.find(n).source, None) for n in ("93f", "93w")}
# 93t's kernels on the H200 (8, 7, 14 and 8 windows a warp), then 93f's (2 windows, 1)
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (8192, 28672, 1), (57344, 8192, 1), (7168, 2048, 4),
          (4096, 4096, 1)]
# on the H200 both decodes: parts of 8 windows, of 6 and a short one (93t's), of 2 (93f's)
CHECK_SHAPES = [(7168, 8192, 2), (8576, 6208, 1), (7168, 2048, 4)]


def main():
    check_and_record("signs-by-rule", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
