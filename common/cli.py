"""Command line of the worklog; the Makefile's targets call it.

    python -m common.cli run 07          build, check, time the benchmark shapes, record
    python -m common.cli bench           the same for every attempt
    python -m common.cli sweep 05        the launch-configuration sweep declared in 05's README
    python -m common.cli latency         shows that host launch latency stays out of the timings
    python -m common.cli floor           99 against every other plain-read strategy, all shapes
    python -m common.cli check 07        correctness only, on the test shapes
    python -m common.cli table           regenerate README tables from results/
    python -m common.cli sass 03         SASS instruction counts per target (no GPU needed)
    python -m common.cli submission 07   a GPU MODE submission file generated from the attempt
"""
import argparse
import collections
import itertools
import re
import statistics
import sys

import torch

from . import attempts, floor, fragments, problem, reports, results, sol, submission
from .measure import FloorBroken, Inputs, check_attempt, measure, require_gpu
from .timing import MODES, time_call

SHAPE_SETS = {"benchmark": problem.BENCHMARK_SHAPES, "decode": problem.DECODE_SHAPES,
              "small": problem.SMALL_SHAPES, "odd": problem.ODD_SHAPES}


def shapes_of(names):
    return [shape for name in names for shape in SHAPE_SETS[name]]


def cmd_run(args):
    measure([attempts.find(n) for n in args.attempts], shapes_of(args.shapes), args.modes)


def cmd_bench(args):
    chosen = [attempts.find(n) for n in args.attempts] if args.attempts else attempts.all_attempts()
    measure(chosen, shapes_of(args.shapes), args.modes)


def cmd_sweep(args):
    attempt = attempts.find(args.attempt)
    grid = attempt.meta.get("sweep")
    if not grid:
        raise SystemExit(f"error: attempt {attempt.number} declares no sweep in its README")
    names = sorted(grid)
    require_gpu()
    rows, floors = [], floor.Floor(sol.gpu_key(torch.cuda.get_device_name()))  # chosen once, for every configuration
    for values in itertools.product(*(grid[n] for n in names)):
        rows += measure([attempt], problem.BENCHMARK_SHAPES, ["gpumode"],
                        config_defines=dict(zip(names, values)), floors=floors)
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
                     "mode": mode, "data": "", **t.stats(), "floor_us": None, "sol_us": None,
                     "gb_s": None, "first_result_s": None, "build": "", "floor_config": "", "floor_build": "",
                     **results.provenance()})
        print(f"empty kernel, {mode:8} {'(GPU idle before each call)' if mode == 'none' else '(L2 cleared before each call)':32}"
              f" mean {t.mean_us:6.2f} us  median {t.median_us:6.2f} us  ({t.runs} runs)")
    if args.record:
        results.record(gpu, rows)


def cmd_floor(args):
    """99 against every other plain-read strategy, side by side; fails if one is faster."""
    require_gpu()
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    df = floor.compare(shapes=shapes_of(args.shapes))
    table = floor.verdicts(df)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    print(f"recorded {len(df)} rows in {floor.record(gpu, df).relative_to(results.REPO)}")
    broken = table[~table.holds]
    if len(broken):
        print(f"error: 99 is not the fastest read on {len(broken)} shape/mode pairs (by more than "
              f"{floor.TOLERANCE:.0%}): {', '.join(broken['shape'] + ' ' + broken['mode'])}",
              file=sys.stderr)
        raise SystemExit(1)


def cmd_check(args):
    require_gpu()
    attempt = attempts.find(args.attempt)
    kernel = attempts.load(attempt.number)
    classes = attempt.correct_on if args.data == "declared" else problem.DATA_CLASSES
    shapes = problem.TEST_SHAPES if args.shapes == "test" else problem.BENCHMARK_SHAPES
    failures = check_attempt(kernel, attempt, Inputs(), shapes, classes)
    raise SystemExit(1 if failures else 0)


def cmd_table(args):
    for path in fragments.update_all():
        print(f"regenerated {path.relative_to(results.REPO)}")


def cmd_submission(args):
    try:
        path = submission.write(args.attempt, results.git_sha())
    except ValueError as e:
        raise SystemExit(f"error: {e}")
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


def cmd_builds(args):
    """The build id of every attempt (what a recorded row names), from a local build."""
    for attempt in attempts.all_attempts():
        if attempt.is_cuda:
            print(attempt.number, attempts.build.build_id(attempts.build.build(attempt.source)))
        else:
            print(attempt.number, attempts.build.source_id(attempt.source))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m common.cli", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="check and time attempts on the benchmark shapes")
    p.add_argument("attempts", nargs="+")
    p.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    p.add_argument("--shapes", nargs="+", default=["benchmark"], choices=SHAPE_SETS)
    p.set_defaults(fn=cmd_run)
    p = sub.add_parser("bench", help="run every attempt (or those named)")
    p.add_argument("attempts", nargs="*")
    p.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    p.add_argument("--shapes", nargs="+", default=["benchmark"], choices=SHAPE_SETS)
    p.set_defaults(fn=cmd_bench)
    p = sub.add_parser("sweep", help="the launch sweep an attempt declares")
    p.add_argument("attempt")
    p.set_defaults(fn=cmd_sweep)
    p = sub.add_parser("latency", help="show that launch latency stays out of the timings")
    p.add_argument("--no-record", dest="record", action="store_false")
    p.set_defaults(fn=cmd_latency)
    p = sub.add_parser("floor", help="99 against every other plain-read strategy")
    p.add_argument("--shapes", nargs="+", default=list(SHAPE_SETS), choices=SHAPE_SETS)
    p.set_defaults(fn=cmd_floor)
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
    p = sub.add_parser("builds", help="the build id of every attempt")
    p.set_defaults(fn=cmd_builds)
    args = parser.parse_args(argv)
    try:
        args.fn(args)
    except (KeyError, attempts.build.BuildError, attempts.ContractError) as e:
        print(f"error: {e.args[0] if e.args else e}", file=sys.stderr)
        raise SystemExit(2)
    except FloorBroken as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(4)


if __name__ == "__main__":
    main()
