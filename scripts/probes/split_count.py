"""93c with its long rows split into more parts than its rule gives (scripts/probes/split_count.cu),
beside 93c's rule, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/split-count-<gpu>.csv. Each build is first checked
against the reference on full-range and quantized data, and nothing is timed if one fails. From
the repository root on a GPU:
    python3 scripts/probes/split_count.py

Written before any GPU ran it. On the H100 the shapes of long rows run the pairs' loop in one
wave (7168x16384x1: S = 2, eight windows a warp; 8192x28672x1: S = 2, fourteen; 4096x14336x1:
S = 4, parts of 3 and 4 windows), and section 58 put about half of 7168x16384x1's late bytes on
the split's read order; the one-window shapes, whose blocks read a tile's rows end to end side by
side in several waves, come closest to the floor (4096x7168x8, 28672x4096x1). Rule 61 keeps
one-window parts to K of at most 8 windows, from measurements of kernels before the runs, the
shallow sums and the early leave. Prediction: parts of one window (S = the windows, blocks of 14
to 28 warps in several waves) predicted at least 1% closer to the floor than the rule on
7168x16384x1 in clean mode, where the read order is the gap; parts of two windows (one pair a
warp) between the two; twice the rule's S (7168x16384x1: parts of 4 windows in 1.7 waves) no
closer, its second wave a partial one. On 4096x14336x1 parts of two windows (S = 7, all equal)
predicted closer than the rule's parts of 3 and 4 (What is next: parts of unequal length).
Falsifier: one-window parts not at least 1% closer than the rule on 7168x16384x1 clean.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.probe import check_builds, included_source, record  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
ATTEMPT = "93c"
MODES = {"93c's rule": 0, "twice the rule's parts": 1, "parts of two windows": 2, "parts of one window": 3}
# The H100's pairs' shapes (one wave of parts of several windows)
SHAPES = [(7168, 16384, 1), (4096, 14336, 1), (8192, 28672, 1)]
CHECK_SHAPES = [(4096, 7168, 2), (1024, 2048, 3), (128, 16384, 1), (1152, 5184, 3)]


def builds() -> dict:
    return {name: (SOURCE, {"SPLITS_MODE": mode, **included_source(ATTEMPT)}) for name, mode in MODES.items()}


def main():
    check_builds(builds(), CHECK_SHAPES)
    record("split-count", builds(), SHAPES)


if __name__ == "__main__":
    main()
