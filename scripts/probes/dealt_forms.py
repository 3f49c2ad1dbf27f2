"""Why did 93z's dealt windows lose to 93f? (closing-the-gap section 90). The probe windows_dealt
read every shape 93z deals further from the floor than 93f, and the shapes whose warps take the
fewest windows furthest (6144x4096x1, about one and a half a warp). Beside 93f and 93z, two forms
of the same deal built with 93z's switches: blocks of 8 warps, four an SM (DEALT_WARPS_A_BLOCK=8),
and block b taking the tiles b, b + blocks, ... (DEALT_STRIDED=1), so that the SMs read consecutive
tiles side by side as 93f's blocks do, where 93z gives each block a run of consecutive tiles. Timed
as the floor check times its strategies (rotated interleaved rounds, common/floor.py), each build
first checked against the reference on full-range and quantized data; rows in
results/probes/dealt-forms-<gpu>.csv. With `profile`, Nsight Compute on 93f and 93z
(profiles/<gpu>/probes/dealt-forms.csv). From the repository root on a GPU:
    python3 scripts/probes/dealt_forms.py
    python3 scripts/probes/dealt_forms.py profile

Written before any GPU ran it. Three readings, one per form: if the blocks of 32 warps cost (their
start, or their end at one barrier), the 8-warp blocks come back to within 2 points of 93f on
6144x4096x1 and 4096x14336x1 in clean mode; if each SM's own run of tiles costs (the order DRAM
sees), the strided form does; if the deal itself costs (a warp's share in two runs, and the last
windows read by the warps that have one more), neither does, and the profile shows the dealt
grid's warps waiting on memory as 93f's do with fewer bytes a second.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import PROFILE_COMMANDS, check_and_record, time_or_profile  # noqa: E402

DEALT = attempts.find("93z").source
BUILDS = {
    "93f": (attempts.find("93f").source, None),
    "93z": (DEALT, None),
    "93z, blocks of 8 warps": (DEALT, {"DEALT_WARPS_A_BLOCK": 8}),
    "93z, tiles strided": (DEALT, {"DEALT_STRIDED": 1}),
}
# dealt: about 7, 1.5, 3.5 and 4 windows a warp
SHAPES = [(7168, 16384, 1), (6144, 4096, 1), (4096, 14336, 1), (8192, 8192, 1)]
# dealt over one batch and over three
CHECK_SHAPES = [(7168, 16384, 1), (1024, 12288, 3)]
PROFILED = {name: BUILDS[name] for name in ("93f", "93z")}
PROFILED_SHAPES = [(6144, 4096, 1), (4096, 14336, 1), (7168, 16384, 1)]


def main():
    if sys.argv[1:] and sys.argv[1] in PROFILE_COMMANDS:
        time_or_profile("dealt-forms", BUILDS, PROFILED, PROFILED_SHAPES, Path(__file__))
    else:
        check_and_record("dealt-forms", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
