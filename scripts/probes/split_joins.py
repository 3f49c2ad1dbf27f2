"""What 84r's joins cost: 84r beside itself with the shared tiles left unjoined (RING_JOINS=0: no
fence, no tickets, no sums at the block's end; the partials still stored, the shared tiles' outputs
wrong), 84q and 93f, timed as the floor check times its strategies (rotated interleaved rounds,
common/floor.py); rows in results/probes/split-joins-<gpu>.csv. The builds that compute the answer
are first checked against the reference (the probe stages_split's shapes); the one without joins
is not. From the repository root on a GPU:
    python3 scripts/probes/split_joins.py

Written after the probe stages_split ran (84r 13 to 29 points further from the floor than 84q in
clean mode on the H200) and before this one did. If the joins at the block's end are what 84r
pays (a fence, a ticket and a read of the partials, each a round trip to L2, after the block's
last stage), 84r without them is at least 10 points closer to the floor than 84r on every shape in
clean mode, and within 3 points of 84q or closer on all but 4096x14336x1; if it is not, the cost is
in the runs themselves (their reads or their cuts), not in the joins.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.stages_split import CHECK_SHAPES  # noqa: E402


def beside_unjoined(probe: str, *numbers: str, others: dict | None = None) -> None:
    """The attempts `numbers` (and builds `others`, name -> (source, defines)) beside 93f, 84q and 84r
    without joins (timed only), checked on the probe stages_split's shapes, then timed and recorded
    as `probe` on the ring probes' shapes."""
    check_and_record(probe, {**attempt_builds("93f", "84q", *numbers), **(others or {})}, CHECK_SHAPES, SHAPES,
                     unchecked={"84r without joins": (attempts.find("84r").source, {"RING_JOINS": 0})})


def main():
    beside_unjoined("split-joins", "84r")


if __name__ == "__main__":
    main()
