"""What 93m's path through shared memory costs (93m's README): 93m beside 93f and a build of 93m
with one difference of its copies from 93f's loads taken away, timed as the floor check times its
strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/staged-path-<gpu>.csv. On an H200 each runs its own rule, on an H100 the H200's
(scripts/probes/h200_rule_on_h100.cu). From the repository root on a GPU:
    python3 scripts/probes/staged_path.py

Written after the probe next_window_staged's H100 rows and before this ran. There the path through
shared memory cost 93f 3-8 points in clean mode and far more in gpumode mode (93m's control, each
window sent and waited for in its own pass). Two differences from 93f's loads could carry it:
A's copies carry no L2 evict-first policy (A_EVICT_FIRST=1 gives them 93f's), and B's copies
bypass L1, where 93f's loads of B hit (B_THROUGH_L1=1). Prediction: evict-first brings 93m's
gpumode rows back to within its clean-mode distance from 93f (on the H100, 7168x16384x1 gpumode
from about 1.29 to about 1.17) and leaves clean mode level; B through L1 brings clean mode 1 to 3
points closer on every shape. If neither closes the clean-mode cost, it is the path itself: the
copies' latency and the reads from shared memory.

The evict-first build stopped on an illegal instruction in the probe's first check on the H100
(1caf6df; cp.async.cg with .L2::cache_hint, as 64's first build found): it was taken out, and only
B through L1 is timed.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes import h200_rule_on_h100, halves_ahead  # noqa: E402
from scripts.probes.probe import record_by_gpu  # noqa: E402
from scripts.probes.rows_rolled import CHECK_SHAPES, SHAPES  # noqa: E402

VARIANTS = {", B through L1": {"B_THROUGH_L1": 1}}


def builds(h200: bool) -> dict:
    chosen = halves_ahead.builds(h200, names=("93f", "93m"))
    for label, defines in VARIANTS.items():
        if h200:
            chosen[f"93m{label}"] = (attempts.find("93m").source, defines)
        else:
            chosen |= h200_rule_on_h100.rule_build("93m", label, **defines)
    return chosen


def main():
    record_by_gpu("staged-path", builds, CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
