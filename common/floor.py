"""Is the floor the fastest honest read? `make floor-check` (python -m common.cli floor).

Times attempt 99 beside every other plain-read strategy of the problem's bytes, in interleaved
rounds (each round times every strategy once, so a drift of the machine touches all alike), on
the benchmark, LLM decode, small and odd shapes, in both clearing modes. A strategy is the
median of its round means. The check fails when some strategy beats 99 by more than
TOLERANCE on some shape and mode: then 99 is no longer the floor and must be replaced by it.
Rows go to results/<gpu>-floor.csv (each run replaces the last), and the table in
docs/methodology.md is generated from them.
"""
import statistics

import pandas as pd
import torch

from . import attempts, problem, results, sol
from .build import REPO
from .results import RESULTS_DIR
from .timing import MODES, time_call

STRATEGIES_DIR = REPO / "scripts" / "read_strategies"
TOLERANCE = 0.02
ROUNDS = 3
ROUND_SECONDS = 0.15
SHAPES = (problem.BENCHMARK_SHAPES + problem.DECODE_SHAPES + problem.SMALL_SHAPES
          + problem.ODD_SHAPES)
KEY = ["strategy", "m", "k", "l", "mode"]
COLUMNS = KEY + ["mean_us", "min_round_us", "max_round_us", "rounds", "gb_s", "gpu", "driver",
                 "cuda", "torch", "git_sha", "measured_at"]


def strategies() -> dict:
    """name -> (source, defines): 99 as built, 99's compile-time variants, and other kernels."""
    floor = attempts.find("99").source
    found = {"99": (floor, None),
             "99 UNROLL=4": (floor, {"UNROLL": 4}),
             "99 UNROLL=16": (floor, {"UNROLL": 16}),
             "99 MIN_BLOCKS=1": (floor, {"MIN_BLOCKS": 1}),        # never fewer loads per thread
             "99 MIN_BLOCKS=1024": (floor, {"MIN_BLOCKS": 1024}),
             "99 THREADS=512": (floor, {"THREADS": 512}),
             "99 LOAD_HINT=0": (floor, {"LOAD_HINT": 0}),
             "99 LOAD_HINT=2": (floor, {"LOAD_HINT": 2})}
    for source in sorted(STRATEGIES_DIR.glob("*.cu")):
        found[source.stem.replace("_", "-")] = (source, None)
    return found


def compare(shapes=SHAPES, modes=MODES, rounds=ROUNDS) -> pd.DataFrame:
    """One row per strategy, shape and mode."""
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    kernels = {name: attempts.load_library(source, defines, name)
               for name, (source, defines) in strategies().items()}
    rows = []
    for shape in shapes:
        data = problem.generate_input(*shape, seed=problem.TASK_SEED)
        for mode in modes:
            means = {name: [] for name in kernels}
            for _ in range(rounds):
                for name, kernel in kernels.items():
                    means[name].append(time_call(kernel, data, mode, max_seconds=ROUND_SECONDS).mean_us)
            for name, values in means.items():
                mean = statistics.median(values)
                rows.append({"strategy": name, "m": shape[0], "k": shape[1], "l": shape[2],
                             "mode": mode, "mean_us": mean, "min_round_us": min(values),
                             "max_round_us": max(values), "rounds": rounds,
                             "gb_s": sol.gbps(*shape, mean), **results.provenance()})
        del data
    return pd.DataFrame(rows)[COLUMNS]


def verdicts(df: pd.DataFrame) -> pd.DataFrame:
    """Per shape and mode: 99, the fastest other strategy, their ratio, and whether 99 holds."""
    out = []
    for (m, k, l, mode), g in df.groupby(["m", "k", "l", "mode"], sort=False):
        floor = g[g.strategy == "99"].iloc[0]
        others = g[g.strategy != "99"].sort_values("mean_us")
        best = others.iloc[0]
        out.append({"shape": f"{m}x{k}x{l}", "mode": mode, "floor_us": floor.mean_us,
                    "floor_spread_pct": 100 * (floor.max_round_us - floor.min_round_us) / floor.mean_us,
                    "best_other": best.strategy, "best_other_us": best.mean_us,
                    "floor_over_best": floor.mean_us / best.mean_us,
                    "holds": floor.mean_us <= (1 + TOLERANCE) * best.mean_us})
    return pd.DataFrame(out)


def path(gpu: str):
    return RESULTS_DIR / f"{gpu}-floor.csv"


def record(gpu: str, df: pd.DataFrame):
    """One comparison is one whole run: it replaces the previous one."""
    RESULTS_DIR.mkdir(exist_ok=True)
    df.to_csv(path(gpu), index=False, float_format="%.4f")
    return path(gpu)


def load(gpu: str) -> pd.DataFrame:
    return pd.read_csv(path(gpu)) if path(gpu).exists() else pd.DataFrame(columns=COLUMNS)
