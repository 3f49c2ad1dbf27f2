"""93o (93f with rows of more than 8 windows read one window a warp in blocks of at most 8, a
tile's blocks joined in a workspace) beside 93f, each with its own rule, timed as the floor check
times its strategies (rotated interleaved rounds, common/floor.py); rows in
results/probes/joined-window-blocks-<gpu>.csv. Each build is first checked against the reference
on full-range and quantized data, the shapes that join included. From the repository root on a
GPU:
    python3 scripts/probes/joined_window_blocks.py

Written before any GPU ran 93o; the prediction is 93o's README's (H100: 7168x16384x1,
4096x14336x1 and 8192x28672x1 closer to the floor, the others level; H200: level everywhere).
57344x8192x1 and 4096x4096x1 are controls: the same kernels in both.

`orders` (added after the first H100 run, bdbbcfb, where 93o lost by 20-30 points on the joined
shapes, before it ran): 93o beside its counter taken with release order only (JOIN_ORDER=1: the
MEMBAR.ALL.GPU stays, the CCTL.IVALL that invalidates the SM's L1 goes) and with no order (2: a
bare atomic), on the joined shapes, rows in results/probes/joined-window-orders-<gpu>.csv. Those
two variants are not correct kernels in the PTX memory model (the last block's reads of the slots
are unordered): they time the ordering's cost. Prediction: the L1 invalidation at every block's
end costs most of the loss (B is read through L1 by every warp of the SM), so release-only comes
within 5 points of 93f on 7168x16384x1 clean, and no order a few points closer still. If no order
stays more than 10 points behind 93f there, the cost is the join's round trip on the block's
first warp, which holds its block's place in the SM while the other warps have left.
    python3 scripts/probes/joined_window_blocks.py orders

Its first run (43ad612, H100) stopped at the check: the bare atomic (then JOIN_ORDER=2) gave wrong
outputs on 2048x16384x2, full-range and quantized data (the last block read slots before their
stores had landed; results/probes/joined-window-orders-check-h100.log), so the order is not
optional, and that variant is gone. Release only passed the same check, and is timed alone.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, problem  # noqa: E402
from scripts.probes.probe import check_builds, record  # noqa: E402

SHAPES = problem.BENCHMARK_SHAPES + [(4096, 14336, 1), (8192, 28672, 1), (128, 16384, 1),
                                     (57344, 8192, 1), (4096, 4096, 1)]
CHECK_SHAPES = [(1152, 9216, 2), (2048, 16384, 2), (128, 16384, 1)]


def builds() -> dict:
    return {number: (attempts.find(number).source, None) for number in ("93f", "93o")}


JOINED_SHAPES = [(7168, 16384, 1), (4096, 14336, 1), (8192, 28672, 1), (128, 16384, 1)]
ORDERS = {"93o, counter released only": 1}


def order_builds() -> dict:
    source = attempts.find("93o").source
    return {"93o": (source, None)} | {name: (source, {"JOIN_ORDER": order}) for name, order in ORDERS.items()}


def main():
    if sys.argv[1:] == ["orders"]:
        check_builds(order_builds(), CHECK_SHAPES)
        record("joined-window-orders", builds() | order_builds(), JOINED_SHAPES)
        return
    check_builds(builds(), CHECK_SHAPES)
    record("joined-window-blocks", builds(), SHAPES)


if __name__ == "__main__":
    main()
