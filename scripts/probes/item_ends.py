"""What a ring's item end costs: 84zb and its tiles in 2 or 4 parts by ticket, unjoined (the probe
ticket_parts's builds), each also without the item end's hand-over (RING_HANDOVER=0: no meeting
of the four warpgroups, the first warpgroup's sums stored alone, the outputs wrong, timed only),
timed as the floor check times its strategies (rotated interleaved rounds, common/floor.py); rows
in results/probes/item-ends-<gpu>.csv. 84zb itself is first checked against the reference (the
probe stages_split's shapes). From the repository root on a GPU:
    python3 scripts/probes/item_ends.py

Written after the probe ticket_parts ran (closing-the-gap section 82: in clean mode 84zb's tiles in
parts of one or two stages by ticket, unjoined, read further from the floor than whole tiles) and
before this one did. Predicted: if the item ends' hand-over (the four warpgroups met at every
item's end, the first adding the others' sums) is what the shorter units paid, then without it the
2 parts by ticket read 7168x2048x4 in clean mode within 2 points of 84zb or closer (they were 5
points further), 4 parts read 28672x4096x1 in clean mode at least 3 points closer than 84zb, and
84zb's whole tiles without it read 7168x2048x4 (a hand-over every 2 stages) at least 2 points
closer than 84zb. If every build without the hand-over is within a point of the same build with
it, the item ends cost something else (the stores, the next item's first B share, the cursor's
arithmetic), and a hand-over without a meeting is not worth building.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.stages_split import CHECK_SHAPES  # noqa: E402
from scripts.probes.ticket_parts import unjoined_parts  # noqa: E402

WITHOUT_HANDOVER = {"RING_HANDOVER": 0}


def without_handovers() -> dict:
    """84zb and its unjoined parts by ticket, each with and without the hand-over: name -> (source, defines)."""
    with_parts = {name: build for name, build in unjoined_parts().items() if "by ticket" in name}
    builds = {"84zb without hand-over": (attempts.find("84zb").source, WITHOUT_HANDOVER)}
    for name, (source, defines) in with_parts.items():
        builds[name] = (source, defines)
        builds[f"{name}, without hand-over"] = (source, {**defines, **WITHOUT_HANDOVER})
    return builds


def main():
    check_and_record("item-ends", attempt_builds("84zb"), CHECK_SHAPES, SHAPES, unchecked=without_handovers())


if __name__ == "__main__":
    main()
