"""93o (long rows in joined blocks) beside 93o with its tile's counter taken with release order
only (JOIN_ORDER=1: the MEMBAR.ALL.GPU stays, the CCTL.IVALL that invalidates the SM's L1 goes),
and 93f, on the shapes that join, timed as the floor check times its strategies (rotated
interleaved rounds, common/floor.py); rows in results/probes/joined-window-orders-<gpu>.csv. The
release-only build is not a correct kernel in the PTX memory model (the last block's reads of the
slots are unordered after the other blocks' stores): it times what the acquire costs. From the
repository root on a GPU:
    python3 scripts/probes/joined_window_orders.py

Added after 93o's first H100 run (bdbbcfb), where it lost by far on the joined shapes,
and before this ran. Prediction: the L1 invalidation at every block's end costs most of the loss
(B is read through L1 by every warp of the SM), so release-only comes within 5 points of 93f on
7168x16384x1 clean. If it stays with 93o, the cost is the fence and the atomic's round trip on the
block's first warp.

Its first run (43ad612, H100, as `joined_window_blocks.py orders`) also held a bare atomic (no
order at all) and stopped at the check: that build gave wrong outputs on 2048x16384x2, full-range
and quantized data (the last block read slots before their stores had landed;
results/probes/joined-window-orders-check-h100.log), so the order is not optional, and that
variant is gone. Release only passed the same check, and ran alone (4695e42).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.joined_window_blocks import CHECK_SHAPES, builds  # noqa: E402
from scripts.probes.probe import check_builds, record  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 14336, 1), (8192, 28672, 1), (128, 16384, 1)]


def order_builds() -> dict:
    source = attempts.find("93o").source
    return {"93o": (source, None), "93o, counter released only": (source, {"JOIN_ORDER": 1})}


def main():
    check_builds(order_builds(), CHECK_SHAPES)
    record("joined-window-orders", builds() | order_builds(), SHAPES)


if __name__ == "__main__":
    main()
