"""Where a warp runs one window, 93l (and 93g before it) is behind 93f (93d) although its loop never
runs (closing-the-gap section 68): in its SASS the one-window path waits for all four rows and B
together a few instructions after their loads, where 93f's loop waits for each row 93-160
instructions later (its own scoreboards). The probe times 93l built with HALVES_ONE_WINDOW=0,
which sends a part of one window through 93f's loop and changes nothing else, beside 93l and 93f:
rotated interleaved rounds as the floor check times its strategies (common/floor.py), rows in
results/probes/one-window-path-<gpu>.csv. On an H200 the attempts run their own rule; on an H100
they run the H200's rule (scripts/probes/h200_rule_on_h100.cu), the only one that launches 93l's
changed kernel there. From the repository root on a GPU:
    python3 scripts/probes/one_window_path.py

Written before it ran. Prediction: on 4096x4096x1 (one window a warp) the switch brings 93l
within a point of 93f, from about 6 points behind on the H100 with the H200's rule; on the shapes
of several windows a part the switch changes nothing (within a point of 93l).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes import h200_rule_on_h100  # noqa: E402
from scripts.probes.probe import record_by_gpu  # noqa: E402
from scripts.probes.rows_rolled import CHECK_SHAPES  # noqa: E402

SHAPES = [(4096, 4096, 1), (7168, 16384, 1), (4096, 7168, 8)]
SWITCH = {"HALVES_ONE_WINDOW": 0}


def builds(h200: bool) -> dict:
    if h200:
        own = {name: (attempts.find(name).source, None) for name in ("93f", "93l")}
        return {**own, "93l, one window by 93f's loop": (attempts.find("93l").source, SWITCH)}
    return {**h200_rule_on_h100.rule_build("93f"), **h200_rule_on_h100.rule_build("93l"),
            **h200_rule_on_h100.rule_build("93l", ", one window by 93f's loop", **SWITCH)}


def main():
    record_by_gpu("one-window-path", builds, CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
