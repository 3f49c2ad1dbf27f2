"""What a ring's timed call holds beyond its blocks: 84q, 84v and 84w built with their stamps
(RING_STAMPS=1, as ring_timeline.py builds 84q) and the floor's stamped read, each call bracketed by
CUDA events as the harness brackets it (the GPU held by a spin while the host enqueues the clearing
and the call, so that the events time the GPU alone) and stamped. Per call: the event time, the
blocks' span (the first block's start to the last block's end, global timer) and what lies outside
it (the launch before the first block, the grid's end after the last), with ring_timeline.py's
quantities; 7 calls a kernel, shape and mode after the clearing, rows in
results/probes/ring-spans-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/ring_spans.py

The question (closing-the-gap section 80): stamped, 84w's blocks spanned 4096x14336x1 in 10.3 us
against 84q's 11.3 (another session's run), yet in rotated rounds 84w took 0.6 us longer a call.
Written before it ran: if a ring's time beyond its blocks' span differs between kernels, 84w's part
outside its span on 4096x14336x1 in clean mode exceeds 84q's by at least 1 us while its span is
shorter than 84q's; if the two runs only disagreed across sessions, 84w's span in this run is longer
than 84q's and their outside parts are within half a microsecond of each other.
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, problem, sol  # noqa: E402
from common.timing import MODES, L2Clearer, spin_cycles_per_us  # noqa: E402
from scripts.probes.probe import attempt_builds, check_and_record  # noqa: E402
from scripts.probes.ring_depth import SHAPES  # noqa: E402
from scripts.probes.ring_timeline import RING_CLOCKS, RING_FIELDS, STAMPED, record_calls, ring_summary  # noqa: E402
from scripts.probes.timeline import CALLS, CLOCKS, FIELDS, floor_defines, records, stamp_buffer, summary, warmed_up  # noqa: E402
from scripts.probes.stages_split import CHECK_SHAPES  # noqa: E402

RINGS = ("84q", "84v", "84w")
HOLD_US = 2000  # the spin before the clearing: longer than the host takes to enqueue it and the call


def timed_stamped_call(kernel, data, mode: str, stamps: torch.Tensor, fields, clocks) -> tuple:
    """One stamped call after the clearing, between two events, the GPU held while the host
    enqueues them (common/timing.py's hold): its records and the events' time in ns."""
    stamps.zero_()
    clear = L2Clearer(mode)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    torch.cuda._sleep(int(HOLD_US * spin_cycles_per_us()))
    clear()
    start.record()
    kernel(data)
    end.record()
    torch.cuda.synchronize()
    return records(stamps, fields, clocks), start.elapsed_time(end) * 1e6


def spans(rings, name: str) -> None:
    """The rings `rings` (attempt numbers, each with RING_STAMPS) and the floor's read, stamped and
    timed by events, call after call; rows in results/probes/<name>-<gpu>.csv."""
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    stamps = stamp_buffer(SHAPES)
    rows = []
    for shape in SHAPES:
        data = problem.generate_input(*shape, seed=problem.TASK_SEED)
        m, k, l = shape
        stamped = {f"{n}, stamped": warmed_up(f"{n}, stamped", STAMPED, stamps, data, shape, attempts.find(n).source, n)
                   for n in rings}
        for mode in MODES:
            config, defines = floor_defines(gpu, shape, mode)
            kernels = {**stamped, "floor": warmed_up("floor", defines, stamps, data, shape)}
            for call in range(CALLS):
                for kernel_name, kernel in kernels.items():
                    ring = kernel_name != "floor"
                    fields, clocks = (RING_FIELDS, RING_CLOCKS) if ring else (FIELDS, CLOCKS)
                    blocks, event_ns = timed_stamped_call(kernel, data, mode, stamps, fields, clocks)
                    row = ring_summary(blocks) if ring else summary(blocks)
                    rows.append({"kernel": kernel_name, "floor_config": "" if ring else config, "m": m, "k": k, "l": l,
                                 "mode": mode, "call": call, **row, "event_ns": event_ns,
                                 "outside_ns": event_ns - row["call_ns"]})
    record_calls(rows, name, gpu, ["event_ns", "call_ns", "outside_ns", "last_arrival_ns", "last_arrival_max_ns",
                                   "end_max_ns", "tail_ns"])


def check_then_span(probe: str, checked, rings) -> None:
    """A new ring's probe: the attempts `checked` checked against the reference and timed in
    rotated rounds (results/probes/<probe>-<gpu>.csv), then the rings `rings` stamped and timed by
    events call after call (<probe>-spans-<gpu>.csv)."""
    check_and_record(probe, attempt_builds(*checked), CHECK_SHAPES, SHAPES)
    spans(rings, f"{probe}-spans")


def main():
    spans(RINGS, "ring-spans")


if __name__ == "__main__":
    main()
