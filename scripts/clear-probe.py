"""Diagnose how each way of clearing L2 affects the timed call that follows it.

For each clearing operation: its own duration, then an empty kernel and the read floor (99)
on the largest benchmark shape, each timed with events after the clear (GPU held until the
batch is enqueued, as in common.timing). Prints one line per clearing operation.
"""
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import attempts, problem  # noqa: E402
from common.timing import spin_cycles_per_us  # noqa: E402

buf = torch.empty(256 << 18, dtype=torch.float32, device="cuda")     # 256 MiB
src = torch.empty_like(buf)
CLEARS = {
    "normal_ (write, randn)": lambda: buf.normal_(),
    "fill_ (write)": lambda: buf.fill_(1.0),
    "zero_ (write, memset)": lambda: buf.zero_(),
    "copy_ (read+write)": lambda: buf.copy_(src),
    "sum (read)": lambda: buf.sum(),
    "nothing": lambda: None,
}
floor = attempts.load("99")
data = problem.generate_input(7168, 16384, 1, seed=1111)
empty = lambda _: torch.cuda._sleep(0)  # noqa: E731


def timed(clear, fn, runs=30, bracket_clear=False):
    for _ in range(3):
        clear(); fn(data)
    torch.cuda.synchronize()
    torch.cuda._sleep(int(20_000 * spin_cycles_per_us()))                # hold the GPU 20 ms
    pairs = []
    for _ in range(runs):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        if bracket_clear:
            s.record(); clear(); e.record(); fn(data)
        else:
            clear(); s.record(); fn(data); e.record()
        pairs.append((s, e))
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) * 1e3 for s, e in pairs)


print(torch.cuda.get_device_name(), torch.__version__)
for name, clear in CLEARS.items():
    print(f"{name:24} clear itself {timed(clear, lambda _: None, bracket_clear=True):8.1f} us | "
          f"empty kernel after {timed(clear, empty):8.2f} us | floor 99 after {timed(clear, floor):8.2f} us")
