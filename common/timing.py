"""Timing of one kernel call, GPU MODE style, with the L2 cleared before every call.

Each timed iteration enqueues: clear L2 (a long kernel), start event, the call, end event.
The clearing kernel runs for tens of microseconds, so by the time it finishes the host has
long since enqueued the call: host launch latency is hidden and the events bracket the
kernel alone (docs/methodology.md shows it, tests/test_gpu_timing.py checks it).

Clearing modes (contract 5):
- gpumode: L2 cleared by writing a buffer larger than L2 (GPU MODE writes a randn buffer),
  which leaves dirty lines that are written back during the timed kernel;
- clean:   L2 cleared by reading such a buffer: nothing dirty is left behind.
"""
import math
import statistics
import time
from contextlib import contextmanager
from dataclasses import dataclass

import torch

MODES = ("gpumode", "clean")


@dataclass
class Timing:
    mean_us: float
    median_us: float
    min_us: float
    std_us: float
    runs: int


class L2Clearer:
    """Evicts L2 before each timed call, by writing ('gpumode') or reading ('clean')."""

    def __init__(self, mode: str, device=None):
        if mode not in (*MODES, "none"):
            raise ValueError(f"unknown clearing mode {mode!r}; choose one of {MODES}")
        self.mode = mode
        props = torch.cuda.get_device_properties(device)
        nbytes = max(256 << 20, 4 * props.L2_cache_size)
        self.buffer = torch.empty(nbytes // 4, dtype=torch.float32, device=device)
        self.buffer.normal_()
        self.sink = torch.empty((), dtype=torch.float32, device=device)

    def __call__(self):
        if self.mode == "gpumode":
            self.buffer.normal_()
        elif self.mode == "clean":
            torch.sum(self.buffer, out=self.sink)


@contextmanager
def nvtx_range(name: str | None):
    """An NVTX range for profilers (the nvtx package where installed, else torch's)."""
    if name is None:
        yield
        return
    try:
        import nvtx
        with nvtx.annotate(name):
            yield
    except ImportError:
        torch.cuda.nvtx.range_push(name)
        try:
            yield
        finally:
            torch.cuda.nvtx.range_pop()


def time_call(fn, data, mode: str, *, warmup: int = 5, min_runs: int = 20,
              max_runs: int = 5000, rel_err: float = 1e-3, max_seconds: float = 2.0,
              batch: int = 20, nvtx_name: str | None = None, idle_gpu: bool = False) -> Timing:
    """Time fn(data) with CUDA events until the standard error of the mean is below
    rel_err of the mean (GPU MODE's rule), max_runs, or max_seconds of wall time.

    idle_gpu=True synchronizes before each call instead of clearing L2: the GPU then waits
    for the host, and the events measure launch latency too (used only to show the effect).
    """
    clear = L2Clearer("none" if idle_gpu else mode)
    for _ in range(warmup):
        clear()
        fn(data)
    torch.cuda.synchronize()
    times, started = [], time.perf_counter()
    while len(times) < max_runs:
        events = []
        for _ in range(batch):
            if idle_gpu:
                torch.cuda.synchronize()
            else:
                clear()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            with nvtx_range(nvtx_name):
                fn(data)
            end.record()
            events.append((start, end))
        torch.cuda.synchronize()
        times += [s.elapsed_time(e) * 1e3 for s, e in events]
        n, mean, std = len(times), statistics.fmean(times), statistics.stdev(times)
        if n >= min_runs and std / math.sqrt(n) / mean < rel_err:
            break
        if time.perf_counter() - started > max_seconds:
            break
    return Timing(mean, statistics.median(times), min(times), std, n)
