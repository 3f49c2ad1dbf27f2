"""Times scripts/probes/warps_in_flight.cu at several warps per SM beside the floor and 43, as the
floor check times its strategies (rotated interleaved rounds, common/floor.py), and records the rows
in results/probes/warps-in-flight-<gpu>.csv. The other probes built from that source (bytes, half
windows, short parts, scale runs, nc loads, staggered windows) record theirs through
record_variants here, on the same shapes. Run from the repository root on a GPU:
    python3 scripts/probes/warps_in_flight.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
# 43 holds up to 32 warps an SM (64 registers); its warps spend most of their time on products,
# so fewer of them have loads in flight at any moment. The probe's warps always have.
WARPS_PER_SM = [4, 8, 12, 16, 24, 32]
# K a multiple of 1024 (the probe's windows): the benchmark shapes and two long-row decode shapes.
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (8192, 8192, 1), (28672, 4096, 1)]


VARIANTS = {f"{n} warps/SM": {"WARPS_PER_SM": n} for n in WARPS_PER_SM}


def record_variants(probe: str, variants: dict, beside: tuple) -> None:
    """Every probe built from warps_in_flight.cu: its variants (name -> defines) timed on SHAPES
    beside the floor and the attempts numbered in `beside`, recorded as results/probes/<probe>-<gpu>.csv."""
    others = {name: (SOURCE, defines) for name, defines in variants.items()}
    others |= {number: (attempts.find(number).source, None) for number in beside}
    record(probe, others, SHAPES)


def main():
    record_variants("warps-in-flight", VARIANTS, ("43",))


if __name__ == "__main__":
    main()
