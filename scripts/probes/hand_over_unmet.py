"""84zc (84zb with an item's sums handed over without the warpgroups' meeting) beside 84zb and 93f,
with 84zb without its hand-over (the probe item_ends's build) and the parts by ticket, unjoined, of
84zc and of 84zb without the hand-over (wrong sums, timed only), timed as the floor check times its
strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/hand-over-unmet-<gpu>.csv. The builds that compute the answer are first checked
against the reference (the probe stages_split's shapes). Then 84zb and 84zc stamped and timed by
events call after call, as the probe ring_spans does (results/probes/hand-over-unmet-spans-<gpu>.csv).
From the repository root on a GPU:
    python3 scripts/probes/hand_over_unmet.py

Written before any GPU ran 84zc; the prediction is 84zc's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.item_ends import WITHOUT_HANDOVER  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.ring_spans import spans  # noqa: E402
from scripts.probes.stages_split import CHECK_SHAPES  # noqa: E402
from scripts.probes.ticket_parts import UNJOINED  # noqa: E402

PARTS_BY_TICKET = {**UNJOINED, "RING_PARTS": 2, "TICKETS_FOR_PARTS": 1}


def unchecked() -> dict:
    """The builds timed only: name -> (source, defines)."""
    zb, zc = attempts.find("84zb").source, attempts.find("84zc").source
    return {"84zb without hand-over": (zb, WITHOUT_HANDOVER),
            "84zb, 2 parts by ticket, unjoined, without hand-over": (zb, {**PARTS_BY_TICKET, **WITHOUT_HANDOVER}),
            "84zc, 2 parts by ticket, unjoined": (zc, PARTS_BY_TICKET)}


def main():
    check_and_record("hand-over-unmet", attempt_builds("93f", "84zb", "84zc"), CHECK_SHAPES, SHAPES, unchecked=unchecked())
    spans(("84zb", "84zc"), "hand-over-unmet-spans")


if __name__ == "__main__":
    main()
