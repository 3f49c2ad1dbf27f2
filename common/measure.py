"""Checking and timing attempts next to the floor: what `make attempt-NN` and `make bench` run.

The floor (the fastest plain read for the shape and mode, common/floor.py) is timed in the same
process, on the same shape and mode, interleaved with the kernel: FLOOR_ROUNDS rounds of (each of
the floor's finalists, kernel), each a full `time_call`. The kernel's statistics pool its rounds;
each finalist's time is the median of its round means, so one disturbed round cannot move it
(docs/methodology.md shows how much a floor taken once moved within a run), and the floor is the
faster finalist, so a choice made once per process from short passes cannot leave the kernel
beside the slower of two close reads.
A kernel measured below FLOOR_BROKEN times its floor stops the run: nothing is printed as a
result and nothing is recorded, since either the floor or the timing is wrong.
"""
import itertools
import statistics
import sys
import time

import torch

from . import attempts, floor, problem, reports, results, sol
from .check import check_output, poison
from .reference import reference_gpu
from .timing import MODES, Timing, time_call

FLOOR_ROUNDS = 3
ROUND_SECONDS = 0.2          # wall-time cap of one round's time_call
FLOOR_BROKEN = 0.97          # a kernel faster than this fraction of its floor stops the run
EMPTY_KERNEL_LIMIT_US = 6.0


class FloorBroken(RuntimeError):
    """A kernel timed faster than the floor measured beside it."""


def require_gpu():
    if not torch.cuda.is_available():
        print("error: this target runs kernels and needs an NVIDIA GPU, but none is visible "
              "here (torch.cuda.is_available() is False)", file=sys.stderr)
        raise SystemExit(2)


class Inputs:
    """Inputs and their references, generated once per process."""

    def __init__(self):
        self._cache = {}

    def get(self, shape, data="gpumode", seed=problem.TASK_SEED):
        key = (shape, data, seed)
        if key not in self._cache:
            inputs = problem.generate_input(*shape, seed=seed, data=data)
            self._cache[key] = (inputs, *reference_gpu(inputs))
        return self._cache[key]


INPUTS = Inputs()
_warmed_up = False


def check_attempt(kernel, attempt, inputs: Inputs, shapes, classes, seed=problem.TASK_SEED):
    """Run the attempt on each shape and data class with poisoned outputs; return failures."""
    failures = []
    for shape, data in itertools.product(shapes, classes):
        x, ref, abs_sum = inputs.get(shape, data, seed)
        poison(x[6])
        out = kernel(x)
        torch.cuda.synchronize()
        result = check_output(out, ref, abs_sum, shape[1], data)
        print(f"  check {attempt.number} {'x'.join(map(str, shape)):>14} {data:9} {result.message}")
        if not result.ok:
            failures.append((shape, data, result.message))
    return failures


def require_healthy_timing():
    """Refuse to measure when an empty kernel does not time at a few microseconds: then the
    events would bracket more than the kernel (see docs/methodology.md)."""
    empty = lambda _: torch.cuda._sleep(0)  # noqa: E731
    for mode in MODES:
        t = time_call(empty, None, mode, max_seconds=0.5)
        if t.median_us > EMPTY_KERNEL_LIMIT_US:
            print(f"error: an empty kernel times at {t.median_us:.1f} us in {mode} mode (limit "
                  f"{EMPTY_KERNEL_LIMIT_US} us): the timings would not be the kernel's; nothing "
                  "measured", file=sys.stderr)
            raise SystemExit(3)


def warm_up(kernel, data, seconds=1.0):
    """Bring clocks and memory out of idle before the first timing of a process."""
    global _warmed_up
    if _warmed_up:
        return
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(50):
            kernel(data)
        torch.cuda.synchronize()
    _warmed_up = True


def time_beside_floor(kernel, finalists, data, mode, nvtx_name=None, rounds=FLOOR_ROUNDS):
    """(kernel timing pooled over the rounds, the faster finalist, its us = the median of its
    round means, its round means)."""
    samples, floor_means = [], [[] for _ in finalists]
    for _ in range(rounds):
        for f, means in zip(finalists, floor_means):
            means.append(time_call(f, data, mode, max_seconds=ROUND_SECONDS).mean_us)
        samples += time_call(kernel, data, mode, max_seconds=ROUND_SECONDS, nvtx_name=nvtx_name).samples
    floor_us, fastest = min((statistics.median(means), i) for i, means in enumerate(floor_means))
    return Timing.of(samples), finalists[fastest], floor_us, floor_means[fastest]


def measure(attempts_to_run, shapes, modes, config_defines=None, record=True, floors=None):
    """Check, then time each attempt beside the floor on each shape and mode; print and record.
    floors: a floor.Floor to reuse (its choices stand for this process), else a new one."""
    require_gpu()
    require_healthy_timing()
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    rows, failed = [], []
    floors = floors or floor.Floor(gpu)
    warm_up(floors.default, INPUTS.get(shapes[0])[0])
    config = ",".join(f"{k}={v}" for k, v in sorted((config_defines or {}).items()))
    capability = torch.cuda.get_device_capability()
    for attempt in attempts_to_run:
        if not attempt.runs_on(capability):
            print(f"  skip {attempt.number}: needs compute capability {attempt.meta['min_capability']}, "
                  f"this GPU is {capability[0]}.{capability[1]}")
            continue
        # Time to first result: what a user waits for before the first call returns (building,
        # loading, and for the Python baselines compiling or autotuning), outside the timings.
        started = time.perf_counter()
        kernel = attempts.load(attempt.number, config_defines)
        kernel(INPUTS.get(shapes[0])[0])
        torch.cuda.synchronize()
        first_result_s = time.perf_counter() - started
        is_floor = attempt.number == floor.NUMBER and not config
        classes = [] if attempt.number == floor.NUMBER else ["gpumode"]   # 99 is no GEMV
        failures = check_attempt(kernel, attempt, INPUTS, shapes, classes)
        if failures:
            failed.append(attempt.number)
            continue
        for shape, mode in itertools.product(shapes, modes):
            data = INPUTS.get(shape)[0]
            name = f"{attempt.number} {'x'.join(map(str, shape))}"
            if is_floor:              # the floor against itself is 1 by definition
                floor_kernel = floors.kernel(data, shape, mode)
                t = Timing.of(sum((time_call(floor_kernel, data, mode, max_seconds=ROUND_SECONDS,
                                             nvtx_name=name).samples for _ in range(FLOOR_ROUNDS)), []))
                floor_us = t.mean_us
            else:
                t, floor_kernel, floor_us, floor_means = time_beside_floor(
                    kernel, floors.finalists(data, shape, mode), data, mode, name)
                if t.mean_us < FLOOR_BROKEN * floor_us:
                    raise FloorBroken(
                        f"the floor is broken: attempt {attempt.number} on {'x'.join(map(str, shape))} "
                        f"({mode}) timed {t.mean_us:.2f} us, below {FLOOR_BROKEN} x the floor "
                        f"{floor_us:.2f} us (floor rounds: {', '.join(f'{f:.2f}' for f in floor_means)}); "
                        "nothing of this run is recorded")
            rows.append({"attempt": attempt.number, "config": config,
                         "m": shape[0], "k": shape[1], "l": shape[2], "mode": mode,
                         "data": "gpumode", **t.stats(), "floor_us": floor_us,
                         "sol_us": sol.datasheet_sol_us(*shape, gpu),
                         "gb_s": sol.gbps(*shape, t.mean_us), "first_result_s": first_result_s,
                         "build": (floor_kernel if is_floor else kernel).build_id,
                         "floor_config": floor_kernel.config, "floor_build": floor_kernel.build_id,
                         **results.provenance()})
    if rows:
        print(reports.timing_table(rows))
        if record:
            print(f"recorded {len(rows)} rows in {results.record(gpu, rows).relative_to(results.REPO)}")
    if failed:
        print(f"error: attempts {', '.join(failed)} failed the check; nothing timed for them",
              file=sys.stderr)
        raise SystemExit(1)
    return rows
