"""Does a window sent a pass ahead slow DRAM without the math? (closing-the-gap section 89). 93y
sent each window's sectors a pass ahead into L1 by 4-byte copies through it, and with the same
copies sent just before their loads it read closer to the floor, DRAM slower with the lead at the
same instructions and issue share. This probe asks it of the loads alone: scripts/probes/
math_fraction.cu with no products (76's split, 76's loads), a sleep of 300 ns a window after its
loads have come (the time away that matches the products, section 69), A and its scales read at
CTA scope, and 93y's copies of each window just before its loads (ptxas sends them after: their
price, no lead) or of the next window just after this window's loads (a pass ahead, in flight
during the wait and the sleep); and the copies a pass ahead without the sleep. Beside the loads
alone, with and without the sleep, at GPU scope as section 69 timed them. Timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/lead-alone-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/lead_alone.py

Written before any GPU ran it. If the lead's price is DRAM's, as 93y's profile reads: the copies a
pass ahead further from the floor than the copies of each window, with the sleep and without it,
on 7168x16384x1 and 4096x7168x8 in clean mode. Falsifier: the copies a pass ahead with the sleep
within 2 points of the loads alone without it (the lead hiding the time away when no products
run: then 93y's loss is the lead's meeting with the products).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.math_fraction import SOURCE  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (28672, 4096, 1)]
LOADS_ALONE = {"ROWS_MULTIPLIED": 0}
SLEEP = {"DELAY_NS": 300}
IN_L1 = {"L1_LOADS": 1}
VARIANTS = {
    "loads alone": LOADS_ALONE,
    "loads alone, sleep 300 ns": LOADS_ALONE | SLEEP,
    "sleep, CTA-scope loads": LOADS_ALONE | SLEEP | IN_L1,
    "sleep, copies of each window": LOADS_ALONE | SLEEP | IN_L1 | {"COPIES_AHEAD": 0},
    "sleep, copies a pass ahead": LOADS_ALONE | SLEEP | IN_L1 | {"COPIES_AHEAD": 1},
    "no sleep, copies a pass ahead": LOADS_ALONE | IN_L1 | {"COPIES_AHEAD": 1},
}


def builds() -> dict:
    return {name: (SOURCE, defines) for name, defines in VARIANTS.items()}


def main():
    record("lead-alone", builds(), SHAPES)


if __name__ == "__main__":
    main()
