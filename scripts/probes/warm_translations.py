"""Are address translations part of the gap? Clearing L2 by reading or writing a 256 MiB buffer
(common/timing.py) also pushes the problem's pages out of the GPU's translation caches, and a
kernel whose resident warps read all over A at once (70's split: every tile's rows from the first
wave) may wait on more page walks at its start than the floor, whose blocks read A in order.

This times, after each clearing, the same kernels twice: as the harness does, and with one byte
of every 64 KiB of each input touched between the clearing and the start event (a strided sum,
outside the timed events; about 0.05% of A's bytes, so L2 stays as cold as the clearing left it).
The kernels: 76 (the kernel of record), 43's split and the tile-windows order without the math
(the warps-in-flight probe at 32 warps an SM; the floor check's read order), beside the floor, as
the floor check times its strategies (rotated interleaved rounds, common/floor.py). Modes named
"<mode>, pages touched" are the touched runs. Records results/probes/warm-translations-<gpu>.csv.
Run from the repository root on a GPU:
    python3 scripts/probes/warm_translations.py
"""
import sys
from pathlib import Path

import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, floor, problem, timing  # noqa: E402
from scripts.probes.probe import write  # noqa: E402
from scripts.probes.warps_in_flight import SOURCE, SHAPES  # noqa: E402

TOUCH_STRIDE = 1 << 16        # bytes between touched bytes: every page, whatever its size
TOUCHED = ", pages touched"
KERNELS = {"76": (attempts.find("76").source, None),
           "43's split, loads only": (SOURCE, {"WARPS_PER_SM": 32}),
           "tile-windows": floor.READ_ORDERS["tile-windows"]}

_inputs = []                  # the tensors of the problem being timed


def touch_pages():
    """Read one byte every TOUCH_STRIDE of each input's whole allocation."""
    for t in _inputs:
        flat = torch.empty(0, dtype=torch.uint8, device=t.device)
        flat.set_(t.untyped_storage(), 0, (t.untyped_storage().nbytes(),), (1,))
        flat[::TOUCH_STRIDE].sum()


def remembered(generate):
    def generate_and_remember(*args, **kwargs):
        data = generate(*args, **kwargs)
        _inputs[:] = data[:4]   # a, b, sfa, sfb: what the kernels read
        return data
    return generate_and_remember


def clear_then_touch(clear):
    def clear_and_touch(self):
        clear(self)
        touch_pages()
    return clear_and_touch


def main():
    problem.generate_input = remembered(problem.generate_input)
    plain = floor.compare(shapes=SHAPES, others=KERNELS)
    timing.L2Clearer.__call__ = clear_then_touch(timing.L2Clearer.__call__)
    touched = floor.compare(shapes=SHAPES, others=KERNELS).assign(mode=lambda d: d["mode"] + TOUCHED)
    write("warm-translations", pd.concat([plain, touched], ignore_index=True))


if __name__ == "__main__":
    main()
