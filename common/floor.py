"""The floor: attempt 99 in the fastest of its launch configurations, and the check that it is
the fastest honest read (`make floor-check`, python -m common.cli floor).

99 is one streaming read of the problem's bytes. No single launch configuration of it was within
TOLERANCE of the best plain read on every shape and mode of the first floor checks (a wave more or
less, or how the write-clear's dirty lines drain, moved the best one by 2-5%), so the floor of a
shape and mode is the fastest there of the candidates: 99 built in each of its configurations, and
the plain reads in the kernels' own order (READ_ORDERS: 57's tile windows, which the read-order
probe found as fast as 99 or a little faster on the largest shapes). `Floor` times every candidate per
shape and mode and process in CHOICE_PASSES rotated passes (CHOICE_SECONDS each) and keeps the
FINALISTS with the fastest medians: a run times each of them beside the kernel and divides by the
faster (common/measure.py), since on a shape where several candidates lie within a percent three
short passes can rank them wrongly. A row of results/ names the finalist that was faster beside
the kernel (floor_config: 99's defines that differ from its defaults, or a read strategy's name)
and its build (floor_build).

The check times that chosen floor beside every other plain-read strategy (each configuration on
its own, other compile-time variants of 99, and the kernels in scripts/read_strategies/) in
interleaved rounds (each round times every strategy once, so a drift of the machine touches all
alike), on the benchmark, LLM decode, small and odd shapes, in both clearing modes. Rounds are
many and short, and each starts at a different place in the order (round r at strategy
r * n / ROUNDS), so no strategy is always first or always after the same one. A strategy's time is
the median of its round means, and the floor is compared with each strategy round by round: the
median over rounds of floor / strategy in the same round. On calls of a few microseconds the round
means of every strategy move together by several percent from round to round (the H200's
1024x1024x1 failed a check that compared medians: floor and its own twin 2.9% apart); the
ratio within a round cancels what the round shares. The check fails when some strategy beats the
floor by more than TOLERANCE on some shape and mode. Rows go to results/<gpu>-floor.csv with each
round's mean (a run replaces the rows of the shapes it timed: the whole check at once, or by shape
set where one sitting cannot hold it), and the table in docs/methodology.md is generated from
them.
"""
import itertools
import math
import statistics

import pandas as pd

from . import attempts, build, problem, results, sol
from .build import REPO
from .results import RESULTS_DIR
from .timing import MODES, time_call

NUMBER = "99"
STRATEGIES_DIR = REPO / "scripts" / "read_strategies"
TOLERANCE = 0.02
ROUNDS = 9
ROUND_SECONDS = 0.1 / 3
CHOICE_PASSES = 3
CHOICE_SECONDS = 0.1 / 3
FINALISTS = 2
# The configurations the floor chooses from: every combination of these compile-time values of
# 99 (the first in each list is 99's default). Named like a results row's config: the values that
# differ from the default, by name.
CHOICES = {"LOAD_HINT": (1, 2, 0), "THREADS": (256, 512), "UNROLL": (8, 4)}
SHAPES = (problem.BENCHMARK_SHAPES + problem.DECODE_SHAPES + problem.SMALL_SHAPES
          + problem.ODD_SHAPES)
KEY = ["strategy", "m", "k", "l", "mode"]
COLUMNS = KEY + ["floor_config", "mean_us", "min_round_us", "max_round_us", "rounds", "round_us",
                 "gb_s", "gpu", "driver", "cuda", "torch", "git_sha", "measured_at"]


def configs() -> dict:
    """config name ("" for 99's defaults) -> the defines that differ from the defaults."""
    found = {}
    for values in itertools.product(*CHOICES.values()):
        defines = {name: v for (name, options), v in zip(CHOICES.items(), values) if v != options[0]}
        found[",".join(f"{n}={v}" for n, v in defines.items())] = defines or None
    return found


# Plain reads in the order of the kernels of record, chosen from beside 99: name -> (source, defines).
READ_ORDERS = {"tile-windows": (STRATEGIES_DIR / "tile_windows.cu", None),
               "tile-windows NC_LOADS=1": (STRATEGIES_DIR / "tile_windows.cu", {"NC_LOADS": 1})}


def candidates() -> dict:
    """floor_config name -> (source, defines): 99 in each configuration ("" for its defaults),
    then READ_ORDERS."""
    source = attempts.find(NUMBER).source
    return {config: (source, defines) for config, defines in configs().items()} | READ_ORDERS


def build_ids() -> set:
    """The builds a recorded floor may name (tests/test_history.py): one per candidate."""
    return {build.build_id(build.measured_code(source, defines)) for source, defines in candidates().values()}


class Floor:
    """floor.finalists(data, shape, mode): the FINALISTS fastest candidates for that shape and
    mode, fastest first, chosen on first use in this process; floor.kernel(...) the first of them.
    Each kernel carries .config and .build_id. Given a GPU whose floor check is recorded, the
    check's fastest candidate for the shape and mode is a finalist too (after the chosen ones):
    the short choice passes can rank two candidates a percent apart wrongly, and once both
    finalists were slower than the check's fastest (the H100's 57344x8192x1 in gpumode mode)."""

    def __init__(self, gpu: str | None = None):
        self.kernels = {}
        for config, (source, defines) in candidates().items():
            kernel = attempts.load_library(source, defines, strategy_name(config))
            kernel.config = config
            self.kernels[config] = kernel
        self.default = self.kernels[""]
        self._checked = checked_fastest(gpu) if gpu else {}
        self._chosen = {}

    def finalists(self, data, shape, mode) -> list:
        if (shape, mode) not in self._chosen:
            means = {config: [] for config in self.kernels}
            for p in range(CHOICE_PASSES):
                for config in rotated(list(self.kernels), p, CHOICE_PASSES):
                    kernel = self.kernels[config]
                    means[config].append(time_call(kernel, data, mode, max_seconds=CHOICE_SECONDS).mean_us)
            medians = {config: statistics.median(values) for config, values in means.items()}
            chosen = sorted(medians, key=medians.get)[:FINALISTS]
            checked = self._checked.get((*shape, mode))
            if checked is not None and checked not in chosen:
                chosen.append(checked)
            self._chosen[(shape, mode)] = [self.kernels[config] for config in chosen]
        return self._chosen[(shape, mode)]

    def kernel(self, data, shape, mode):
        return self.finalists(data, shape, mode)[0]


def checked_fastest(gpu: str) -> dict:
    """(m, k, l, mode) -> the candidate (its config) that the recorded floor check found fastest
    there, among the candidates and the check's chosen floor; empty where nothing is recorded."""
    names = {strategy_name(config): config for config in candidates()}
    rows = load(gpu)
    rows = rows[rows.strategy.isin(names) | (rows.strategy == "floor")]
    fastest = {}
    for (m, k, l, mode), group in rows.groupby(["m", "k", "l", "mode"]):
        best = group.loc[pd.to_numeric(group.mean_us).idxmin()]
        # the check's "floor" row is the candidate named in its floor_config
        fastest[(int(m), int(k), int(l), mode)] = best.floor_config if best.strategy == "floor" else names[best.strategy]
    return fastest


def strategies() -> dict:
    """name -> (source, defines): 99 in each configuration the floor chooses from, other
    compile-time variants of 99, and other kernels."""
    source = attempts.find(NUMBER).source
    found = {strategy_name(config): (source, defines) for config, defines in configs().items()}
    found |= {"99 UNROLL=16": (source, {"UNROLL": 16}),
              "99 MIN_BLOCKS=1": (source, {"MIN_BLOCKS": 1}),        # never fewer loads per thread
              "99 MIN_BLOCKS=1024": (source, {"MIN_BLOCKS": 1024})}
    for path in sorted(STRATEGIES_DIR.glob("*.cu")):
        found[path.stem.replace("_", "-")] = (path, None)
    # the copy engine's flat pieces 4x longer (3 warps an SM): the copy-engine probe's longest
    found["bulk-copy PIECE_BYTES=32768"] = (STRATEGIES_DIR / "bulk_copy.cu", {"PIECE_BYTES": 32768})
    # and both under an L2 evict_first policy, as 99's LOAD_HINT=2 reads
    found["bulk-copy EVICT_FIRST=1"] = (STRATEGIES_DIR / "bulk_copy.cu", {"EVICT_FIRST": 1})
    found["bulk-copy PIECE_BYTES=32768,EVICT_FIRST=1"] = (STRATEGIES_DIR / "bulk_copy.cu",
                                                          {"PIECE_BYTES": 32768, "EVICT_FIRST": 1})
    # the floor's read-order candidates, one of them with the floor's loads
    # (ld.global.nc.L1::no_allocate) in place of 57's strong ones
    return found | READ_ORDERS


def strategy_name(config: str) -> str:
    """A candidate's name among strategies(): "99 <config>" for 99's, a read order's own name."""
    return config if config in READ_ORDERS else f"{NUMBER} {config}".strip()


def compare(shapes=SHAPES, modes=MODES, rounds=ROUNDS, others=None) -> pd.DataFrame:
    """One row per strategy, shape and mode; strategy "floor" is the chosen floor. others: name ->
    (source, defines) timed beside it, strategies() unless given (probes time their own)."""
    floor = Floor()
    kernels = {name: attempts.load_library(source, defines, name)
               for name, (source, defines) in (others or strategies()).items()}
    rows = []
    for shape in shapes:
        data = problem.generate_input(*shape, seed=problem.TASK_SEED)
        for mode in modes:
            chosen = floor.kernel(data, shape, mode)
            timed = {"floor": chosen, **kernels}
            means = {name: [] for name in timed}
            for r in range(rounds):
                for name in rotated(list(timed), r, rounds):
                    means[name].append(time_call(timed[name], data, mode, max_seconds=ROUND_SECONDS).mean_us)
            for name, values in means.items():
                mean = statistics.median(values)
                rows.append({"strategy": name, "m": shape[0], "k": shape[1], "l": shape[2],
                             "mode": mode, "floor_config": chosen.config, "mean_us": mean,
                             "min_round_us": min(values), "max_round_us": max(values),
                             "rounds": rounds, "round_us": ";".join(f"{v:.4f}" for v in values),
                             "gb_s": sol.gbps(*shape, mean), **results.provenance()})
        del data
    return pd.DataFrame(rows)[COLUMNS]


def rotated(names: list, r: int, rounds: int) -> list:
    """The order of round r: the strategies from position r * n / rounds on, then the rest."""
    start = r * len(names) // rounds
    return names[start:] + names[:start]


def round_means(row) -> list:
    return [float(v) for v in str(row.round_us).split(";")]


def paired_ratio(floor_row, other_row) -> float:
    """The median over rounds of the floor's round mean / the other's, in the same round."""
    return statistics.median(f / o for f, o in zip(round_means(floor_row), round_means(other_row)))


def verdicts(df: pd.DataFrame) -> pd.DataFrame:
    """Per shape and mode: the floor (and its configuration), the strategy the floor fares worst
    against round by round, that paired ratio, and whether the floor holds."""
    out = []
    for (m, k, l, mode), g in df.groupby(["m", "k", "l", "mode"], sort=False):
        floor = g[g.strategy == "floor"].iloc[0]
        others = g[g.strategy != "floor"]
        ratios = [paired_ratio(floor, other) for other in others.itertuples()]
        worst = max(range(len(ratios)), key=ratios.__getitem__)
        best = others.iloc[worst]
        out.append({"shape": f"{m}x{k}x{l}", "mode": mode, "floor_config": strategy_name(floor.floor_config),
                    "floor_us": floor.mean_us,
                    "floor_spread_pct": 100 * (floor.max_round_us - floor.min_round_us) / floor.mean_us,
                    "best_other": best.strategy, "best_other_us": best.mean_us,
                    "floor_over_best": ratios[worst],
                    "holds": ratios[worst] <= 1 + TOLERANCE})
    return pd.DataFrame(out)


def round_effects(df: pd.DataFrame) -> pd.DataFrame:
    """Per shape and mode, how the round means of a check vary: the part every strategy shares
    in a round (the range over rounds of the round's mean log time, %) against what is left to
    each strategy in each round once its own level and the round's are taken out (standard
    deviation, %). A shared part larger than the rest is drift that a comparison within the round
    cancels."""
    out = []
    for (m, k, l, mode), g in df.groupby(["m", "k", "l", "mode"], sort=False):
        logs = pd.DataFrame([pd.Series(round_means(row)).map(math.log) for row in g.itertuples()])
        shared = logs.mean(axis=0)
        rest = logs.sub(logs.mean(axis=1), axis=0).sub(shared - shared.mean(), axis=1)
        out.append({"shape": f"{m}x{k}x{l}", "mode": mode,
                    "shared_range_pct": 100 * (shared.max() - shared.min()),
                    "rest_sd_pct": 100 * statistics.pstdev(rest.to_numpy().ravel())})
    return pd.DataFrame(out)


def path(gpu: str):
    return RESULTS_DIR / f"{gpu}-floor.csv"


def record(gpu: str, df: pd.DataFrame):
    """A comparison replaces the recorded rows of the shapes it timed, and keeps the others (a
    check run by shape set, `python -m common.cli floor --shapes ...`, each row with its own
    provenance); a check of every shape replaces the whole file."""
    RESULTS_DIR.mkdir(exist_ok=True)
    timed = set(zip(df.m, df.k, df.l))
    old = load(gpu)
    kept = old[[(m, k, l) not in timed for m, k, l in zip(old.m, old.k, old.l)]] if len(old) else old
    pd.concat([kept, df], ignore_index=True)[COLUMNS].to_csv(path(gpu), index=False, float_format="%.4f")
    return path(gpu)


def load(gpu: str) -> pd.DataFrame:
    if not path(gpu).exists():
        return pd.DataFrame(columns=COLUMNS)
    return pd.read_csv(path(gpu), keep_default_na=False).reindex(columns=COLUMNS, fill_value="")
