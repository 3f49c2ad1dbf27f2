"""What a shorter unit at the end of 84zb's call would buy, before any join is built for it: 84zb
with every tile cut into 2 or 4 parts of its stages (RING_PARTS), the parts dealt by tickets
(TICKETS_FOR_PARTS=1) or in advance as 84q deals them, all left unjoined (RING_JOINS=0: the parts'
sums stored, the outputs wrong, timed only), beside 84zb, 84q and 93f, timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/ticket-parts-<gpu>.csv. The builds that compute the answer are first checked against
the reference (the probe stages_split's shapes). From the repository root on a GPU:
    python3 scripts/probes/ticket_parts.py

Written after the probe tiles_by_ticket ran (84zb's last SM still about a tile's time after its
median SM on 7168x2048x4 and 28672x4096x1, as 84q's) and before this one did. Predicted: if the
unit in flight when the tickets run out is what the call waits for, 84zb with 2 parts a tile by
tickets reads 7168x2048x4 and 28672x4096x1 in clean mode at least 5 points closer to the floor
than 84zb, 4 parts closer still on 28672x4096x1 (7168x2048x4's tiles have 2 stages, so 4 parts are
2 there), and the same 2 parts dealt in advance at least 3 points further than by tickets. If the
parts by tickets are within 2 points of 84zb on both shapes, a shorter unit at the end buys nothing
and a cheaper join is not worth building for it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.stages_split import CHECK_SHAPES  # noqa: E402

UNJOINED = {"RING_JOINS": 0}


def unjoined_parts() -> dict:
    """84zb's tiles in parts, unjoined: name -> (source, defines)."""
    source = attempts.find("84zb").source
    return {"84zb, 2 parts by ticket, unjoined": (source, {**UNJOINED, "RING_PARTS": 2, "TICKETS_FOR_PARTS": 1}),
            "84zb, 4 parts by ticket, unjoined": (source, {**UNJOINED, "RING_PARTS": 4, "TICKETS_FOR_PARTS": 1}),
            "84zb, 2 parts dealt, unjoined": (source, {**UNJOINED, "RING_PARTS": 2})}


def main():
    check_and_record("ticket-parts", attempt_builds("93f", "84q", "84zb"), CHECK_SHAPES, SHAPES,
                     unchecked=unjoined_parts())


if __name__ == "__main__":
    main()
