"""93zc (93z's block of 32 warps an SM, its windows taken a window at a time by a ticket in shared
memory as the warps free up) beside 93f, 93z and 93zc's control (the same loop of one window,
warp w taking windows w, w + 32, ...: TICKETS=0), timed as the floor check times its strategies
(rotated interleaved rounds, common/floor.py); rows in results/probes/windows-by-ticket-<gpu>.csv.
The shapes are the probe windows_dealt's (93z's rule takes the first five; 8448x16384x1, 4096x7168x8
and 7168x2048x4 keep 93f's launch, a control of the noise). Every build is checked by the harness's
check on full-range and quantized data before it is timed. From the repository root on a GPU:
    python3 scripts/probes/windows_by_ticket.py

Written before any GPU ran it (93zc's README holds the same prediction). On the H200, 7168x16384x1
clean: 93zc 2 to 5 points closer to the floor than 93f, gpumode level with 93f or closer;
8192x28672x1 closer than 93f by 1 to 4 points; 6144x4096x1, 4096x14336x1 and 8192x8192x1 closer
than 93z, still behind 93f on 6144x4096x1; the shapes left to 93f's launch level within noise.
The control has 93zc's loop and schedule without the tickets: 93zc ahead of it where warps run many
windows. Falsifier: 93zc not at least 2 points closer than 93f on 7168x16384x1 in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402
from scripts.probes.windows_dealt import CHECK_SHAPES, SHAPES  # noqa: E402

TICKETED = attempts.find("93zc").source
BUILDS = {"93f": (attempts.find("93f").source, None), "93z": (attempts.find("93z").source, None),
          "93zc": (TICKETED, None), "93zc, windows dealt in turn": (TICKETED, {"TICKETS": 0})}


def main():
    check_and_record("windows-by-ticket", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
