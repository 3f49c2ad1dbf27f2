"""84q and 84w, each plain and with its stamps (RING_STAMPS=1, the builds the probe ring_spans
timed), in rotated rounds as the floor check times its strategies (common/floor.py); rows in
results/probes/stamped-rounds-<gpu>.csv. The plain builds are the attempts; the stamped ones write
their stamps to a buffer alive while they run. From the repository root on a GPU:
    python3 scripts/probes/stamped_rounds.py
With `profile`, Nsight Compute on 84w's two builds on 4096x14336x1 and 4096x7168x8 (one summary row
each in profiles/<gpu>/probes/stamped-rounds.csv):
    python3 scripts/probes/stamped_rounds.py profile
With `sites`, after `profile`: each of those kernels' 16 most sampled instructions (the report's
source page), in profiles/<gpu>/probes/stamped-rounds-sites.csv:
    python3 scripts/probes/stamped_rounds.py sites

The question (closing-the-gap section 80): on 4096x14336x1 in clean mode the rounds put 84q's plain
build ahead of 84w's by several points, while `ring_spans`, timing the stamped builds one call at a
time after the GPU sat idle, put them level or 84w ahead. Written before it ran: if the stamps
change the builds, in these rounds stamped 84w is within 1 point of stamped 84q or ahead of it
while plain 84q stays at least 3 points ahead of plain 84w; if it is the method (calls back to
back against one call after an idle GPU), the stamped builds keep the plain builds' order here,
stamped 84q at least 3 points ahead of stamped 84w.

The profile, written after the rounds (the stamped build ahead) and before it ran: the two builds
execute within 3% of each other's warp instructions a byte (the stamps add a handful a stage), so
the plain build's longer time is waiting, not issue: its issue-slot use lower than the stamped
build's on both shapes.

The sites, written after the profile (the plain build waits longer) and before they ran: what the
plain build waits for longer is a full slot. On 4096x14336x1 the share of its samples at the
multiplying warps' wait for a stage (the TRYWAIT on the full barrier before the products, with the
retry it branches to) is at least 5 points above the stamped build's, while the share at the MMAs'
own waits (WARPGROUP.DEPBAR) stays within 2 points: the producers (copies or B) are late, not the
products. If the full wait's shares are within 2 points and the MMAs' waits differ instead, the
stamps changed the multiplying warps' own schedule.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import profile, profile_sites, profile_target, record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.ring_timeline import STAMPED  # noqa: E402
from scripts.probes.timeline import stamp_buffer, stamped  # noqa: E402

RINGS = ("84q", "84w")


def builds() -> dict:
    return {name: (attempts.find(n).source, defines) for n in RINGS
            for name, defines in ((n, None), (f"{n}, stamped", STAMPED))}


PROFILE_SHAPES = [(4096, 14336, 1), (4096, 7168, 8)]


def profiled() -> dict:
    return {name: build for name, build in builds().items() if name.startswith("84w")}


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else "time"
    if command == "profile":
        profile("stamped-rounds", profiled(), PROFILE_SHAPES, Path(__file__))
        return
    if command == "sites":
        profile_sites("stamped-rounds", profiled(), PROFILE_SHAPES, "ring_kernel")
        return
    stamps = stamp_buffer(SHAPES)  # where the stamped builds write, alive while they run
    for n in RINGS:
        stamped(STAMPED, stamps, attempts.find(n).source)
    if command == "target":
        profile_target(profiled(), PROFILE_SHAPES)
    else:
        record("stamped-rounds", builds(), SHAPES)


if __name__ == "__main__":
    main()
