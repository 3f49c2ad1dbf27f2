"""Timing of one kernel call, GPU MODE style, with the L2 cleared before every call.

Each timed iteration enqueues: clear L2, start event, the call, end event. Iterations go in
batches, and each batch starts with a spin kernel that holds the GPU until the host has
enqueued the whole batch, so the GPU never waits for the host between a start and an end
event: host launch latency stays out and the events bracket the kernel alone
(docs/methodology.md shows it, tests/test_gpu_harness.py checks it). A batch the host took longer
to enqueue than the GPU had work queued is dropped, since the GPU may then have waited for the
host inside it.

Clearing modes (contract 5):
- gpumode: L2 cleared by writing a buffer larger than L2 (GPU MODE writes a randn buffer),
  which leaves dirty lines that are written back during the timed kernel;
- clean:   L2 cleared by reading such a buffer: nothing dirty is left behind.
"""
import math
import statistics
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch

MODES = ("gpumode", "clean")
MAX_HOLD_US = 50_000           # cap of the spin that holds the GPU while a batch is enqueued


@dataclass
class Timing:
    mean_us: float
    median_us: float
    min_us: float
    std_us: float
    runs: int
    samples: list = field(default_factory=list, repr=False)     # every timed call, us

    @classmethod
    def of(cls, samples: list) -> "Timing":
        return cls(statistics.fmean(samples), statistics.median(samples), min(samples),
                   statistics.stdev(samples) if len(samples) > 1 else 0.0, len(samples), samples)

    def stats(self) -> dict:
        """The recorded statistics (contract 7), without the samples."""
        return {"mean_us": self.mean_us, "median_us": self.median_us, "min_us": self.min_us,
                "std_us": self.std_us, "runs": self.runs}


class L2Clearer:
    """Evicts L2 before each timed call, by writing ('gpumode') or reading ('clean') a buffer
    of max(256 MiB, 4 x L2), allocated once per process and reused by every measurement."""

    _buffers = {}

    def __init__(self, mode: str, device=None):
        if mode not in (*MODES, "none"):
            raise ValueError(f"unknown clearing mode {mode!r}; choose one of {MODES}")
        self.mode = mode
        device = torch.device("cuda", torch.cuda.current_device() if device is None else device)
        if device not in self._buffers:
            nbytes = max(256 << 20, 4 * torch.cuda.get_device_properties(device).L2_cache_size)
            self._buffers[device] = torch.zeros(nbytes // 4, dtype=torch.float32, device=device)
        self.buffer = self._buffers[device]

    def __call__(self):
        if self.mode == "gpumode":
            self.buffer.fill_(1.0)      # a plain write: scripts/clear-probe.py shows randn's
        elif self.mode == "clean":      # write leaves the next kernel the same dirty L2
            self.buffer.sum()


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


def spin_cycles_per_us() -> float:
    """Clock cycles of torch.cuda._sleep per microsecond, measured once."""
    global _CYCLES_PER_US
    if _CYCLES_PER_US is None:
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(1000)                      # load the kernel first
        start.record()
        torch.cuda._sleep(20_000_000)
        end.record()
        end.synchronize()
        _CYCLES_PER_US = 20_000_000 / (start.elapsed_time(end) * 1e3)
    return _CYCLES_PER_US


_CYCLES_PER_US = None


def time_call(fn, data, mode: str, *, warmup: int = 6, min_runs: int = 20,
              max_runs: int = 5000, rel_err: float = 1e-3, max_seconds: float = 2.0,
              batch: int = 20, nvtx_name: str | None = None, idle_gpu: bool = False) -> Timing:
    """Time fn(data) with CUDA events until the standard error of the mean is below
    rel_err of the mean (GPU MODE's rule), max_runs, or max_seconds of wall time.

    A batch whose enqueueing took longer than the GPU had work queued (the hold before it plus
    its calls at the fastest call seen) is dropped: the GPU may have waited for the host between
    a start and an end event. The hold then grows with it.
    idle_gpu=True synchronizes before each call instead of clearing L2: the GPU then waits
    for the host, and the events measure launch latency too (used only to show the effect).
    """
    clear = L2Clearer("none" if idle_gpu else mode)
    for i in range(warmup):
        if i == 1:             # the first call may load modules: not typical of enqueue time
            enqueue_started = time.perf_counter()
        clear()
        fn(data)
    enqueue_us = (time.perf_counter() - enqueue_started) / (warmup - 1) * batch * 1e6
    torch.cuda.synchronize()
    times, started, fastest_us = [], time.perf_counter(), math.inf
    while len(times) < max_runs:
        events, last_enqueue_us = [], enqueue_us
        hold_us = 0.0 if idle_gpu else min(2 * enqueue_us, MAX_HOLD_US)
        if not idle_gpu:       # hold the GPU for twice the host's enqueue time of a batch
            torch.cuda._sleep(int(hold_us * spin_cycles_per_us()))
        enqueue_started = time.perf_counter()
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
        enqueue_us = (time.perf_counter() - enqueue_started) * 1e6
        torch.cuda.synchronize()
        # A host that stalled (descheduled, paging) for longer than the GPU had queued work (the
        # hold, then at least the batch's calls at the fastest call seen) let the GPU catch up
        # with it, and an event pair may then bracket the GPU waiting for the host: drop such a
        # batch when the stall is unusual (over twice the last enqueue time). A function whose
        # host side is always slower than its GPU work (00a) is timed as it is, host included.
        batch_times = [s.elapsed_time(e) * 1e3 for s, e in events]
        fastest_us = min(fastest_us, *batch_times)
        stalled = enqueue_us > hold_us + batch * fastest_us and enqueue_us > 2 * last_enqueue_us
        if idle_gpu or not stalled:
            times += batch_times
        if len(times) >= max(min_runs, 2):
            n, mean, std = len(times), statistics.fmean(times), statistics.stdev(times)
            if n >= min_runs and std / math.sqrt(n) / mean < rel_err:
                break
        elapsed = time.perf_counter() - started
        if elapsed > max_seconds and times:
            break
        if elapsed > 10 * max_seconds:
            raise RuntimeError("timing: the host stalled past the hold in every batch, so no "
                               "call could be timed alone; is the machine overloaded?")
    return Timing.of(times)
