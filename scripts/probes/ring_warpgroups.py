"""84j (84i's ring with a tile's parts chosen for resident blocks) and 84k (84j with two
warpgroups a ring block) beside 84i and 93f (the kernel of record), each with its own rule, timed
as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/ring-warpgroups-<gpu>.csv. The shapes: the benchmark's, the three documented ones
where 84j's part count differs from 84i's (7168x16384x1, 28672x4096x1, 57344x8192x1) and two
decode shapes of several parts (4096x4096x1, 4096x14336x1). Each build is first checked against
the reference (the shapes of the probe tma_row_runs). From the repository root on a GPU:
    python3 scripts/probes/ring_warpgroups.py

Written before any GPU ran 84j or 84k; the predictions are their READMEs'.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.tma_row_runs import RING_CHECK_SHAPES  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (28672, 4096, 1), (57344, 8192, 1),
          (4096, 4096, 1), (4096, 14336, 1)]


def builds() -> dict:
    return attempt_builds("93f", "84i", "84j", "84k")


def main():
    check_and_record("ring-warpgroups", builds(), RING_CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
