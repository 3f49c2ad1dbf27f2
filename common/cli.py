"""Command line of the worklog; the Makefile's targets call it.

    python -m common.cli run 07          build, check, time the benchmark shapes, record
    python -m common.cli bench           the same for every attempt
    python -m common.cli sweep 05        the launch-configuration sweep declared in 05's README
    python -m common.cli latency         shows that host launch latency stays out of the timings
    python -m common.cli check 07        correctness only, on the test shapes
    python -m common.cli table           regenerate README tables from results/
    python -m common.cli diff 07         the attempt's kernel against its parent's
    python -m common.cli sass 03         SASS instruction counts per target (no GPU needed)
    python -m common.cli submission 07   a GPU MODE submission file generated from the attempt
"""
import argparse
import collections
import itertools
import re
import statistics
import subprocess
import sys
import time

import torch

from . import attempts, problem, reports, results, sol, submission
from .check import check_output, poison
from .reference import reference_gpu
from .timing import MODES, time_call

FLOOR = "99"
EMPTY_KERNEL_LIMIT_US = 6.0


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
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(50):
            kernel(data)
        torch.cuda.synchronize()


def measure(attempts_to_run, shapes, modes, config_defines=None, record=True):
    """Check, then time each attempt and the floor on each shape and mode; print and record."""
    global _warmed_up
    require_gpu()
    require_healthy_timing()
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    rows, failed = [], []
    floor_kernel = attempts.load(FLOOR)
    if not _warmed_up:       # bring clocks and memory out of idle before the first timing
        warm_up(floor_kernel, INPUTS.get(shapes[0])[0])
        _warmed_up = True
    for attempt in attempts_to_run:
        kernel = attempts.load(attempt.number, config_defines)
        classes = [] if attempt.number == FLOOR else ["gpumode"]   # 99 is no GEMV
        failures = check_attempt(kernel, attempt, INPUTS, shapes, classes)
        if failures:
            failed.append(attempt.number)
            continue
        for shape, mode in itertools.product(shapes, modes):
            data = INPUTS.get(shape)[0]
            # The floor is timed right before the kernel, same shape and mode: the machine
            # drifts by several percent over minutes, and a ratio must not mix two moments.
            floor = time_call(floor_kernel, data, mode)
            t = time_call(kernel, data, mode,
                          nvtx_name=f"{attempt.number} {'x'.join(map(str, shape))}")
            config = ",".join(f"{k}={v}" for k, v in sorted((config_defines or {}).items()))
            rows.append({"attempt": attempt.number, "config": config,
                         "m": shape[0], "k": shape[1], "l": shape[2], "mode": mode,
                         "data": "gpumode", **vars(t), "floor_us": floor.mean_us,
                         "sol_us": sol.datasheet_sol_us(*shape, gpu),
                         "gb_s": sol.gbps(*shape, t.mean_us), **results.provenance()})
    if rows:
        print(reports.timing_table(rows))
        if record:
            print(f"recorded {len(rows)} rows in {results.record(gpu, rows).relative_to(results.REPO)}")
    if failed:
        print(f"error: attempts {', '.join(failed)} failed the check; nothing timed for them",
              file=sys.stderr)
        raise SystemExit(1)
    return rows


def cmd_run(args):
    measure([attempts.find(n) for n in args.attempts], problem.BENCHMARK_SHAPES, args.modes)


def cmd_bench(args):
    chosen = [attempts.find(n) for n in args.attempts] if args.attempts else attempts.all_attempts()
    measure(chosen, problem.BENCHMARK_SHAPES, args.modes)


def cmd_sweep(args):
    attempt = attempts.find(args.attempt)
    grid = attempt.meta.get("sweep")
    if not grid:
        raise SystemExit(f"error: attempt {attempt.number} declares no sweep in its README")
    names = sorted(grid)
    rows = []
    for values in itertools.product(*(grid[n] for n in names)):
        rows += measure([attempt], problem.BENCHMARK_SHAPES, ["gpumode"],
                        config_defines=dict(zip(names, values)))
    by_config = {}
    for row in rows:
        by_config.setdefault(row["config"], []).append(row["mean_us"])
    ranked = sorted(by_config.items(), key=lambda kv: statistics.geometric_mean(kv[1]))
    print("\nconfigurations by geomean of the three benchmark shapes (gpumode mode):")
    for config, times in ranked:
        print(f"  {statistics.geometric_mean(times):9.2f} us  {config}")


def cmd_latency(args):
    """Time an (almost) empty kernel: after a clearing kernel, and on an idle GPU."""
    require_gpu()
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    empty = lambda _: torch.cuda._sleep(0)  # noqa: E731 - one launch, no work
    rows = []
    for mode in (*MODES, "none"):
        t = time_call(empty, None, mode if mode != "none" else "gpumode", idle_gpu=mode == "none")
        rows.append({"attempt": "launch-probe", "config": "", "m": 0, "k": 0, "l": 0,
                     "mode": mode, "data": "", **vars(t), "floor_us": None, "sol_us": None,
                     "gb_s": None, **results.provenance()})
        print(f"empty kernel, {mode:8} {'(GPU idle before each call)' if mode == 'none' else '(L2 cleared before each call)':32}"
              f" mean {t.mean_us:6.2f} us  median {t.median_us:6.2f} us  ({t.runs} runs)")
    if args.record:
        results.record(gpu, rows)


def cmd_check(args):
    require_gpu()
    attempt = attempts.find(args.attempt)
    kernel = attempts.load(attempt.number)
    classes = attempt.correct_on if args.data == "declared" else problem.DATA_CLASSES
    shapes = problem.TEST_SHAPES if args.shapes == "test" else problem.BENCHMARK_SHAPES
    failures = check_attempt(kernel, attempt, Inputs(), shapes, classes)
    raise SystemExit(1 if failures else 0)


def cmd_table(args):
    reports.update_readmes()


def cmd_submission(args):
    path = submission.write(args.attempt, results.git_sha())
    print(f"wrote {path.relative_to(results.REPO)}")


def cmd_sass(args):
    """Instruction counts of an attempt's SASS per target: the evidence for Hopper vs Blackwell."""
    attempt = attempts.find(args.attempt)
    if not attempt.is_cuda:
        raise SystemExit(f"attempt {attempt.number} is not a CUDA attempt")
    library = attempts.build.build(attempt.source)
    for target in attempts.build.TARGETS:
        lines = [l for l in attempts.build.sass(library, target).splitlines()
                 if re.match(r"\s*/\*[0-9a-f]{4,}\*/", l)]
        opcodes = collections.Counter(re.sub(r"^\s*/\*[0-9a-f]+\*/\s*(@!?U?P\w+\s+)?", "", l)
                                      .split()[0].split(".")[0].rstrip(";") for l in lines)
        hw_fp4 = sum("F2FP.F16.E2M1" in l for l in lines)
        top = ", ".join(f"{op} {n}" for op, n in opcodes.most_common(8))
        print(f"{attempt.name} {target}: {len(lines)} SASS instructions in the library, "
              f"{hw_fp4} of them F2FP.F16.E2M1; most frequent: {top}")


def cmd_diff(args):
    attempt = attempts.find(args.attempt)
    if attempt.parent is None:
        raise SystemExit(f"attempt {attempt.number} has no parent to diff against")
    proc = subprocess.run(["git", "diff", "--no-index", "--color=auto", "--",
                           str(attempt.parent.source.relative_to(results.REPO)),
                           str(attempt.source.relative_to(results.REPO))], cwd=results.REPO)
    raise SystemExit(0 if proc.returncode in (0, 1) else proc.returncode)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m common.cli", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="check and time attempts on the benchmark shapes")
    p.add_argument("attempts", nargs="+")
    p.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    p.set_defaults(fn=cmd_run)
    p = sub.add_parser("bench", help="run every attempt (or those named)")
    p.add_argument("attempts", nargs="*")
    p.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    p.set_defaults(fn=cmd_bench)
    p = sub.add_parser("sweep", help="the launch sweep an attempt declares")
    p.add_argument("attempt")
    p.set_defaults(fn=cmd_sweep)
    p = sub.add_parser("latency", help="show that launch latency stays out of the timings")
    p.add_argument("--no-record", dest="record", action="store_false")
    p.set_defaults(fn=cmd_latency)
    p = sub.add_parser("check", help="correctness of one attempt")
    p.add_argument("attempt")
    p.add_argument("--data", choices=["declared", "all"], default="declared")
    p.add_argument("--shapes", choices=["test", "benchmark"], default="test")
    p.set_defaults(fn=cmd_check)
    p = sub.add_parser("table", help="regenerate the README tables from results/")
    p.set_defaults(fn=cmd_table)
    p = sub.add_parser("submission", help="export an attempt as a GPU MODE submission file")
    p.add_argument("attempt")
    p.set_defaults(fn=cmd_submission)
    p = sub.add_parser("sass", help="SASS instruction counts of an attempt, per target")
    p.add_argument("attempt")
    p.set_defaults(fn=cmd_sass)
    p = sub.add_parser("diff", help="an attempt's kernel against its parent's")
    p.add_argument("attempt")
    p.set_defaults(fn=cmd_diff)
    args = parser.parse_args(argv)
    try:
        args.fn(args)
    except (KeyError, attempts.build.BuildError) as e:
        print(f"error: {e.args[0] if e.args else e}", file=sys.stderr)
        raise SystemExit(2)


if __name__ == "__main__":
    main()
