"""93z (where 93f's one wave leaves warps unused, a block of 32 warps an SM, its tiles' windows
dealt evenly over them) beside 93f, timed as the floor check times its strategies (rotated
interleaved rounds, common/floor.py); rows in results/probes/windows-dealt-<gpu>.csv. 93z's rule
takes 7168x16384x1 and, among the decode shapes, 8192x8192x1, 6144x4096x1, 4096x14336x1 and
8192x28672x1; it leaves 8448x16384x1 (93f's grid already fills the SMs: the probe grid_fill's
fullest), 4096x7168x8 and 7168x2048x4 (several waves) to 93f's launch, a control of the noise. 93z
is checked by the GPU tests on every data class before it is timed. From the repository root on a
GPU:
    python3 scripts/probes/windows_dealt.py

Written before any GPU ran it (93z's README holds the same prediction). On the H200, 7168x16384x1
clean: 93z 2 to 4 points closer to the floor than 93f, gpumode level within a point; the other
dealt shapes level within a point (6144x4096x1 a point either way); the shapes 93z leaves to 93f's
launch level within noise. Falsifier: 93z not at least 2 points closer than 93f on 7168x16384x1
in clean mode.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import check_and_record  # noqa: E402

BUILDS = {"93f": (attempts.find("93f").source, None), "93z": (attempts.find("93z").source, None)}
SHAPES = [(7168, 16384, 1), (8192, 8192, 1), (6144, 4096, 1), (4096, 14336, 1), (8192, 28672, 1),
          (8448, 16384, 1), (4096, 7168, 8), (7168, 2048, 4)]
# dealt over one batch and over three, and a shape 93z leaves to 93f's launch
CHECK_SHAPES = [(7168, 16384, 1), (1024, 12288, 3), (512, 4096, 2)]


def main():
    check_and_record("windows-dealt", BUILDS, CHECK_SHAPES, SHAPES, None)


if __name__ == "__main__":
    main()
