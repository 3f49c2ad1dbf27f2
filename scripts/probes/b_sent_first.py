"""93j (93g's rolled loop with B decoded as +2b only) and 93k (93j with B's next window sent first,
held there by the table load) beside 93d, 93f and 93g, in one run (93j's and 93k's READMEs): timed
as the floor check times its strategies (rotated interleaved rounds, common/floor.py), rows in
results/probes/b-sent-first-<gpu>.csv. On an H200 the attempts run their own rule; on an H100,
whose rule never launches the rolled kernel, 93d, 93g, 93j and 93k run the H200's rule
(scripts/probes/h200_rule_on_h100.cu) and 93f its own. Written before any GPU ran 93j or 93k.
From the repository root on a GPU:
    python3 scripts/probes/b_sent_first.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes import h200_rule_on_h100  # noqa: E402
from scripts.probes.probe import record_by_gpu  # noqa: E402
from scripts.probes.rows_rolled import CHECK_SHAPES, SHAPES  # noqa: E402

def builds(h200: bool) -> dict:
    if h200:
        return {name: (attempts.find(name).source, None) for name in ("93d", "93f", "93g", "93j", "93k")}
    rolled = {}
    for name in ("93d", "93g", "93j", "93k"):
        rolled |= h200_rule_on_h100.rule_build(name)
    return {"93f": (attempts.find("93f").source, None), **rolled}


def main():
    record_by_gpu("b-sent-first", builds, CHECK_SHAPES, SHAPES)


if __name__ == "__main__":
    main()
