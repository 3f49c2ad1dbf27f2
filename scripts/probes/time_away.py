"""Time away from the loads, or issue slots taken? (closing-the-gap section 69). On both GPUs a
window's products slow the split's reads (section 48, the probe math-fraction: 76's blocks with
their loads alone read close to the floor). Two ways they could: each warp spends the products'
time away from its loads (no bytes of its own on their way meanwhile), or the products take issue
slots the other warps' loads and waits need. A sleep (`nanosleep`, no instructions issued) after
each window's loads have come takes a warp away from its loads as long as asked and takes no
issue slot. The probe times scripts/probes/math_fraction.cu with its loads alone and a sleep of
150, 300, 600 or 1200 ns a window (DELAY_NS; nanosleep's length is approximate), beside the
loads alone and 76's products (4 rows multiplied), as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/time-away-<gpu>.csv. The
split is 76's on every GPU (no one-window parts). From the repository root on a GPU:
    python3 scripts/probes/time_away.py

Written before it ran. A warp's products of one window take about 365 ns on the H100 (the
timeline: a warp's last bytes to its end, 95 against 95 without products, 4096x7168x8 clean) and
about 320 ns on the H200. Prediction: on the H100, sleeps of 150 and 300 ns within a point of the
loads alone, 600 ns one to two points further, 1200 ns several points; the products (3 to 6
points beyond the loads alone in section 48) cost more than a sleep of their own length: the
issue slots, not the time away. Falsifier: a sleep of 300-600 ns as far from the floor as the
products.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.math_fraction import SOURCE  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (28672, 4096, 1)]
SLEEPS_NS = (150, 300, 600, 1200)


def builds() -> dict:
    variants = {"76's products": {"ROWS_MULTIPLIED": 4}, "loads alone": {"ROWS_MULTIPLIED": 0}}
    variants |= {f"loads alone, sleep {ns} ns": {"ROWS_MULTIPLIED": 0, "DELAY_NS": ns} for ns in SLEEPS_NS}
    return {name: (SOURCE, defines) for name, defines in variants.items()}


def main():
    record("time-away", builds(), SHAPES)


if __name__ == "__main__":
    main()
