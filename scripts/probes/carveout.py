"""Does a kernel's shared-memory carveout cost a call its start? scripts/probes/carveout.cu builds
93f, and the floor's read (99 in its default configuration), with every kernel's preferred
carveout set before the first launch; each is timed beside the plain build, as the floor check
times its strategies (rotated interleaved rounds after the harness's clearing, common/floor.py).
93f's builds are first checked against the reference on full-range and quantized data; the
floor's read computes no answer. Rows in results/probes/carveout-<gpu>.csv. From the repository
root on a GPU:
    python3 scripts/probes/carveout.py

Why (closing-the-gap section 86): the probe register_quarters found that the SM places no block of
a kernel beside another kernel's under a different carveout; an SM changes its split of L1 and
shared memory only when idle. Each timed call follows the clearing kernel; if the change costs a
call's start, a carveout matched to the clearer's moves the short calls most.

Written before any GPU ran it. If changing the carveout between the clearing and the call is
free: every variant within a point of its plain build on every shape and mode. If it costs the
start: on 4096x4096x1 and 7168x2048x4 (calls of a few microseconds) at least one variant of 93f
or of the floor's read at least 2 points from its plain build in one mode, and the long calls
within a point.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record, included_source  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
FLOOR_READ = "99"
CARVEOUTS = (0, 100)  # percent of the most shared memory: the most L1, the most shared memory


def variant(of: str, carveout: int) -> tuple:
    return SOURCE, {"CARVEOUT_OF": 0 if of == "93f" else 1, "CARVEOUT": carveout, **included_source(of)}


CHECKED = {"93f": (attempts.find("93f").source, None)} | {
    f"93f, carveout {c}%": variant("93f", c) for c in CARVEOUTS}
UNCHECKED = {"99": (attempts.find(FLOOR_READ).source, None)} | {
    f"99, carveout {c}%": variant(FLOOR_READ, c) for c in CARVEOUTS}
SHAPES = [(4096, 4096, 1), (7168, 2048, 4), (7168, 16384, 1), (4096, 7168, 8), (1024, 2048, 1)]
CHECK_SHAPES = [(7168, 2048, 4), (1024, 2112, 3)]


def main():
    check_and_record("carveout", CHECKED, CHECK_SHAPES, SHAPES, UNCHECKED)


if __name__ == "__main__":
    main()
