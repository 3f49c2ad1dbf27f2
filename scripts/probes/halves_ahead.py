"""93l (93f with the H200's loop sending the next window's A in halves, the first before the
current window's second block) beside 93f, in one run (93l's README): timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/halves-ahead-<gpu>.csv. On an H200 both run their own rule; on an H100, whose rule
never launches the kernel 93l changes, both run the H200's rule
(scripts/probes/h200_rule_on_h100.cu). Written before any GPU ran 93l. From the repository root
on a GPU:
    python3 scripts/probes/halves_ahead.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes import h200_rule_on_h100  # noqa: E402
from scripts.probes.probe import record_by_gpu  # noqa: E402
from scripts.probes.rows_rolled import CHECK_SHAPES, SHAPES  # noqa: E402

NAMES = ("93f", "93l")


def builds(h200: bool, names=NAMES) -> dict:
    """Attempts `names` with their own rule on an H200, with the H200's rule on an H100."""
    if h200:
        return {name: (attempts.find(name).source, None) for name in names}
    return {name: build for number in names for name, build in h200_rule_on_h100.rule_build(number).items()}


def main():
    record_by_gpu("halves-ahead", builds, CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
