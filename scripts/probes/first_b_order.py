"""Whether the rolled kernel's one-window loss is B's first window sent before A (closing-the-gap
section 67, the probe one_window_stalls): 93g's source built with FIRST_B_STRONG=1, whose first
window of B is a strong load that ptxas keeps after A's, beside 93d and 93g. On an H100 all three
run the H200's rule (scripts/probes/h200_rule_on_h100.cu), on an H200 their own. Timed as the
floor check times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/first-b-order-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/first_b_order.py

Written before it ran. If the order is the cause, "93g, B after A" is level with 93d within a
point on 4096x4096x1 (93g: about 6 points behind on the H100 with these grids) and keeps 93g's
times where parts are several windows. The strong load also skips L1, so a warp no longer shares
an SM neighbour's fetch of the same window: a loss that stays is not the order alone.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes import h200_rule_on_h100  # noqa: E402
from scripts.probes.probe import record_by_gpu  # noqa: E402

SHAPES = [(4096, 4096, 1), (7168, 2048, 4), (7168, 16384, 1), (4096, 7168, 8)]
CHECK_SHAPES = [(7168, 2048, 4), (4096, 4096, 1), (128, 16384, 1)]


def builds(h200: bool) -> dict:
    if h200:
        ours = attempts.find("93g").source
        return {"93d": (attempts.find("93d").source, None), "93g": (ours, None),
                "93g, B after A": (ours, {"FIRST_B_STRONG": 1})}
    return {**h200_rule_on_h100.rule_build("93d"), **h200_rule_on_h100.rule_build("93g"),
            **h200_rule_on_h100.rule_build("93g", ", B after A", FIRST_B_STRONG=1)}


def main():
    record_by_gpu("first-b-order", builds, CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
