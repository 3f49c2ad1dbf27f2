"""93r (93q's tail grid only where the rule's warps run at least 4 windows) beside 93f and 93q,
timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows
in results/probes/tail-for-long-warps-<gpu>.csv. Each build is first checked against the
reference on full-range and quantized data, and nothing is timed if one fails. From the
repository root on a GPU:
    python3 scripts/probes/tail_for_long_warps.py

Written before any GPU ran it (93r's README holds the same prediction). On the H200: 93r level
with 93f within a point on 7168x2048x4 in both modes (the same launch); at least 1.5 points closer
than 93f on 28672x4096x1 in clean mode and at least one on 4096x4096x16, as 93q was; a point closer
on 57344x8192x1 and 128256x4096x1; level on the one-wave shapes. Falsifier: 93r not at least a
point closer than 93f on 28672x4096x1 in clean mode, or more than a point further than 93f on any
benchmark shape in either mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402

# the benchmark shapes, then the multi-wave decode shapes whose warps run 4 windows or more on the
# H200 (a tail in 93q and 93r), then one of one wave
SHAPES = [(7168, 2048, 4), (4096, 7168, 8), (7168, 16384, 1), (28672, 4096, 1), (4096, 4096, 16),
          (57344, 8192, 1), (128256, 4096, 1), (4096, 4096, 1)]
# a tail with the short window (K = 3136: 4 windows), a benchmark shape without a tail in 93r, one wave
CHECK_SHAPES = [(16384, 3136, 2), (28672, 4096, 1), (7168, 2048, 4), (1024, 2048, 3)]


def main():
    check_and_record("tail-for-long-warps", attempt_builds("93f", "93q", "93r"), CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
