"""Tables generated from results/: the terminal table of a run and the markdown tables that
common/fragments.py writes into the README, the attempts' READMEs and docs/ (`make table`).
Nothing between the markers is typed by hand.
"""
import functools
import re
import statistics

import pandas as pd

from . import attempts, floor, problem, results
from .build import REPO

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
GPUS = {"h100": "H100 80GB HBM3 (SXM)", "h200": "H200"}


def shape_column(df: pd.DataFrame) -> pd.Series:
    """'MxKxL' for each row of a table with m, k and l columns."""
    return df.m.astype(str) + "x" + df.k.astype(str) + "x" + df.l.astype(str)


def timing_table(rows) -> str:
    """The table `make attempt-NN` prints."""
    df = pd.DataFrame(rows)
    df["shape"] = shape_column(df)
    df["x_floor"] = df.mean_us / df.floor_us
    df["x_sol"] = df.mean_us / df.sol_us
    cols = ["attempt", "shape", "mode", "mean_us", "median_us", "std_us", "runs", "floor_us",
            "x_floor", "sol_us", "x_sol", "gb_s"]
    return df[cols].to_string(index=False, float_format=lambda v: f"{v:.2f}")


def main_rows(gpu: str, every_shape: bool = False) -> pd.DataFrame:
    """An attempt's own rows (no sweep configurations, GPU MODE data), benchmark shapes only
    unless every_shape."""
    return _main_rows(gpu, every_shape, results.version(gpu)).copy()


@functools.lru_cache(maxsize=16)   # keyed on the results file's version, as results.load is
def _main_rows(gpu: str, every_shape: bool, version: tuple[int, int]) -> pd.DataFrame:
    df = results.load(gpu)
    df = df[(df.config == "") & (df.data == "gpumode") & (df.attempt != "launch-probe")]
    bench = {f"{m}x{k}x{l}" for m, k, l in problem.BENCHMARK_SHAPES}
    df = df.assign(shape=shape_column(df))
    return df if every_shape else df[df["shape"].isin(bench)]


def _geomean(values) -> float:
    return statistics.geometric_mean(values) if len(values) else float("nan")


def summary(gpu: str) -> pd.DataFrame:
    """Per attempt and mode: geomean time, floor, SoL over the three benchmark shapes."""
    return _summary(gpu, results.version(gpu)).copy()


@functools.lru_cache(maxsize=8)
def _summary(gpu: str, version: tuple[int, int]) -> pd.DataFrame:
    df = main_rows(gpu)
    out = []
    for (attempt, mode), g in df.groupby(["attempt", "mode"]):
        if len(g) != len(problem.BENCHMARK_SHAPES):
            continue
        out.append({"attempt": attempt, "mode": mode, "geomean_us": _geomean(g.mean_us),
                    "floor_us": _geomean(g.floor_us), "sol_us": _geomean(g.sol_us),
                    **{s: t for s, t in zip(g["shape"], g.mean_us)}})
    return pd.DataFrame(out)


def _fmt(v, digits=1):
    return "-" if pd.isna(v) else f"{v:,.{digits}f}"


def run_note(row, how: str, measured_at=None) -> str:
    """The provenance line under a table of one recorded run: GPU, software, commit, date (or the
    days of several timestamps), how."""
    return (f"\n_{row.gpu}, driver {row.driver}, CUDA {row.cuda}, torch {row.torch}, "
            f"commit {row.git_sha}, {days(row.measured_at if measured_at is None else measured_at)}; {how}._")


def days(measured_at) -> str:
    """The day of a timestamp, or the first to the last day of a list of them."""
    found = sorted({str(t)[:10] for t in (measured_at if isinstance(measured_at, list) else [measured_at])})
    return found[0] if len(found) == 1 else f"{found[0]} to {found[-1]}"


def results_table(gpu: str | None = None) -> str:
    """The README's table: each attempt's mean time per benchmark shape, both modes; every GPU
    with recorded results when none is named."""
    if gpu is None:
        return "\n".join(results_table(g) for g in results.gpus())
    s = summary(gpu)
    if s.empty:
        return f"_No results recorded for {gpu} yet._"
    shapes = [f"{m}x{k}x{l}" for m, k, l in problem.BENCHMARK_SHAPES]
    lines = []
    for mode in ("gpumode", "clean"):
        part = s[s["mode"] == mode].sort_values("attempt")
        if part.empty:
            continue
        lines += [f"**{GPUS.get(gpu, gpu)}, L2 cleared in `{mode}` mode** (mean us per call)", "",
                  "| attempt | " + " | ".join(shapes) + " | geomean | x floor | x SoL |",
                  "|---|" + "---:|" * (len(shapes) + 3)]
        for _, r in part.iterrows():
            name = attempts.find(r.attempt).name
            lines.append(f"| [{name}](attempts/{name}) | "
                         + " | ".join(_fmt(r[sh]) for sh in shapes)
                         + f" | {_fmt(r.geomean_us)} | {_fmt(r.geomean_us / r.floor_us, 2)}"
                         f" | {_fmt(r.geomean_us / r.sol_us, 2)} |")
        lines.append("")
    return "\n".join(lines) + provenance_note(gpu)


def provenance_note(gpu: str) -> str:
    df = main_rows(gpu)
    if df.empty:
        return ""
    distinct = lambda col: ", ".join(sorted(set(map(str, df[col]))))  # noqa: E731
    return (f"\n_Measured by `make bench` on {distinct('gpu')}, driver {distinct('driver')}, "
            f"CUDA {distinct('cuda')}, torch {distinct('torch')}, commits {distinct('git_sha')}, "
            f"{days(list(df.measured_at))}. Floor = attempt 99 "
            f"timed in the same run and mode; SoL = bytes / datasheet bandwidth. "
            f"Source: `results/{gpu}.csv`._\n")


def attempt_results(attempt) -> str:
    """An attempt README's Result section: its table on every GPU with results."""
    return "\n\n".join(attempt_table(attempt, gpu) for gpu in results.gpus())


def attempt_table(attempt, gpu: str) -> str:
    """An attempt README's Result section: its rows, and the speedup over its parent."""
    df = main_rows(gpu)
    mine = df[df.attempt == attempt.number]
    if mine.empty:
        return f"_Not measured on {gpu} yet._"
    lines = [f"Measured on {GPUS.get(gpu, gpu)} ({mine.gpu.iloc[0]}, driver {mine.driver.iloc[0]}, "
             f"CUDA {mine.cuda.iloc[0]}, torch {mine.torch.iloc[0]}, commit {mine.git_sha.iloc[0]}, "
             f"{mine.measured_at.iloc[0][:10]}), GPU MODE data:", "",
             "| shape | mode | mean us | median us | std us | runs | floor us | x floor | SoL us | x SoL | GB/s |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for _, r in mine.sort_values(["mode", "m"]).iterrows():
        lines.append(f"| {r['shape']} | {r['mode']} | {_fmt(r.mean_us, 2)} | {_fmt(r.median_us, 2)} | "
                     f"{_fmt(r.std_us, 2)} | {r.runs} | {_fmt(r.floor_us, 2)} | "
                     f"{_fmt(r.mean_us / r.floor_us, 2)} | {_fmt(r.sol_us, 2)} | "
                     f"{_fmt(r.mean_us / r.sol_us, 2)} | {_fmt(r.gb_s, 0)} |")
    s = summary(gpu)
    parent = attempt.parent
    for mode in ("gpumode", "clean"):
        me = s[(s.attempt == attempt.number) & (s["mode"] == mode)]
        if me.empty:
            continue
        line = f"\nGeomean ({mode}): {_fmt(me.geomean_us.iloc[0], 2)} us, " \
               f"{_fmt(me.geomean_us.iloc[0] / me.floor_us.iloc[0], 2)}x the floor"
        if parent is not None:
            pa = s[(s.attempt == parent.number) & (s["mode"] == mode)]
            if not pa.empty:
                line += (f", {_fmt(pa.geomean_us.iloc[0] / me.geomean_us.iloc[0], 2)}x faster "
                         f"than its parent {parent.number}")
        lines.append(line + ".")
    return "\n".join(lines)


def latency_table(gpu: str) -> str:
    df = results.load(gpu)
    df = df[df.attempt == "launch-probe"]
    if df.empty:
        return f"_No launch probe recorded for {gpu} yet._"
    how = {"gpumode": "harness, L2 cleared by writing", "clean": "harness, L2 cleared by reading",
           "none": "GPU idle before each call (launch path included)"}
    lines = ["| empty kernel timed by | mean us | median us | min us | runs |", "|---|---:|---:|---:|---:|"]
    for _, r in df.iterrows():
        lines.append(f"| {how.get(r['mode'], r['mode'])} | {_fmt(r.mean_us, 2)} | "
                     f"{_fmt(r.median_us, 2)} | {_fmt(r.min_us, 2)} | {r.runs} |")
    lines.append(run_note(df.iloc[0], "`make latency`"))
    return "\n".join(lines)


def sweep_table(attempt_number: str, gpu: str) -> str:
    """Geomean over the benchmark shapes of every swept configuration: a grid for two swept
    names, a column for one."""
    df = results.load(gpu)
    df = df[(df.attempt == attempt_number) & (df.config != "")]
    if df.empty:
        return f"_No sweep recorded on {gpu} yet._"
    settings = df.config.str.split(",").apply(lambda kv: dict(x.split("=") for x in kv))
    names = sorted(settings.iloc[0])
    df = df.assign(**{name: settings.str[name].astype(int) for name in names})
    if len(names) == 1:
        grid = df.groupby(names[0]).mean_us.apply(_geomean).to_frame("us")
    else:
        grid = df.groupby(names).mean_us.apply(_geomean).unstack(names[1])
    best = grid.min().min()
    header = names[0] if len(names) == 1 else f"{names[0]} \\ {names[1]}"
    lines = [f"Geomean of the three benchmark shapes, us, gpumode mode, {df.gpu.iloc[0]}, commit "
             f"{df.git_sha.iloc[0]}; {' by '.join(names)}; in bold, the configurations within "
             f"0.5% of the fastest.", "",
             f"| {header} | " + " | ".join(map(str, grid.columns)) + " |",
             "|---|" + "---:|" * len(grid.columns)]
    for r, values in grid.iterrows():
        cells = [f"**{v:.2f}**" if v <= 1.005 * best else f"{v:.2f}" for v in values]
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def summary_table(gpu: str | None = None) -> str:
    """Every attempt on one GPU: geomean over the benchmark shapes in both modes, its ratio to
    the floor and to the datasheet speed of light, and its speedup over 00a and 00c."""
    if gpu is None:
        return "\n".join(summary_table(g) for g in results.gpus())
    s = summary(gpu)
    if s.empty:
        return f"_No results recorded for {gpu} yet._"
    by = {(r.attempt, r["mode"]): r for _, r in s.iterrows()}
    lines = [f"**{GPUS.get(gpu, gpu)}** (geomean of the three benchmark shapes, us; speedups in "
             "gpumode mode)", "",
             "| attempt | gpumode us | x floor | x SoL | clean us | x floor | x SoL | vs 00a | vs 00c |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for attempt in sorted({a for a, _ in by}):
        cells = []
        for mode in ("gpumode", "clean"):
            r = by.get((attempt, mode))
            cells += ["-"] * 3 if r is None else [_fmt(r.geomean_us, 2), _fmt(r.geomean_us / r.floor_us, 2),
                                                  _fmt(r.geomean_us / r.sol_us, 2)]
        mine = by.get((attempt, "gpumode"))
        for base in ("00a", "00c"):
            ref = by.get((base, "gpumode"))
            cells.append("-" if mine is None or ref is None else _fmt(ref.geomean_us / mine.geomean_us, 2))
        name = attempts.find(attempt).name
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n" + provenance_note(gpu)


def floor_table(gpu: str) -> str:
    """`make floor-check`: the floor against the fastest other read strategy, per shape and mode."""
    df = floor.load(gpu)
    if df.empty:
        return f"_No floor comparison recorded for {gpu} yet._"
    v = floor.verdicts(df)
    lines = ["| shape | mode | floor: the chosen read | floor us | round spread | strategy closest to beating it | its us | floor / it, per round |",
             "|---|---|---|---:|---:|---|---:|---:|"]
    for _, r in v.iterrows():
        lines.append(f"| {r['shape']} | {r['mode']} | {r.floor_config} | {_fmt(r.floor_us, 2)} | "
                     f"{_fmt(r.floor_spread_pct, 1)}% | {r.best_other} | {_fmt(r.best_other_us, 2)} | "
                     f"{_fmt(r.floor_over_best, 3)} |")
    first = df.iloc[0].copy()
    first["git_sha"] = ", ".join(sorted(df.git_sha.unique()))  # one per sitting of a check run by shape set
    lines.append(run_note(first, f"`make floor-check`, {int(first.rounds)} interleaved rounds per shape "
                                 f"and mode, each in a rotated order; times: median of the round means; "
                                 f"floor / it: median of the ratios within a round; strategies: "
                                 f"{', '.join(sorted(df.strategy.unique()))}", list(df.measured_at)))
    return "\n".join(lines)


def read_strategy_table(gpu: str, strategy: str) -> str:
    """One read strategy of the last floor check against the floor, per shape and mode."""
    df = floor.load(gpu)
    mine = df[df.strategy == strategy]
    if mine.empty:
        return f"_No floor comparison with {strategy} recorded for {gpu} yet._"
    floors = df[df.strategy == "floor"].set_index(["m", "k", "l", "mode"]).mean_us
    lines = [f"| shape | mode | floor us | {strategy} us | {strategy} / floor |", "|---|---|---:|---:|---:|"]
    for _, r in mine.iterrows():
        f = floors[(r.m, r.k, r.l, r["mode"])]
        lines.append(f"| {r.m}x{r.k}x{r.l} | {r['mode']} | {_fmt(f, 2)} | {_fmt(r.mean_us, 2)} | "
                     f"{_fmt(r.mean_us / f, 2)} |")
    lines.append(run_note(mine.iloc[0], f"from `make floor-check` (results/{gpu}-floor.csv)"))
    return "\n".join(lines)


def probe_script(probe: str) -> str:
    """The script under scripts/probes/ that records a probe's rows: its name, or the longest
    dash-separated prefix of it that names one (timeline.py records timeline-timed)."""
    parts = probe.split("-")
    for n in range(len(parts), 0, -1):
        name = "_".join(parts[:n])
        if (REPO / "scripts" / "probes" / f"{name}.py").exists():
            return name
    return probe.replace("-", "_")


def probe_table(probe: str, gpu: str) -> str:
    """A read-order probe's run (results/probes/<probe>-<gpu>.csv, written by
    scripts/probes/<probe>.py): each order's time over the floor's, round by round, per shape and
    mode."""
    path = results.RESULTS_DIR / "probes" / f"{probe}-{gpu}.csv"
    if not path.exists():
        return f"_No {probe} probe recorded for {gpu} yet._"
    df = pd.read_csv(path, keep_default_na=False)
    orders = [s for s in dict.fromkeys(df.strategy) if s != "floor"]
    lines = ["| shape | mode | floor us | " + " | ".join(orders) + " |",
             "|---|---|---:|" + "---:|" * len(orders)]
    for (m, k, l, mode), g in df.groupby(["m", "k", "l", "mode"], sort=False):
        x = g.set_index("strategy").x_floor
        f = g[g.strategy == "floor"].mean_us.iloc[0]
        lines.append(f"| {m}x{k}x{l} | {mode} | {_fmt(f, 2)} | " + " | ".join(_fmt(x[o], 3) for o in orders) + " |")
    lines.append(run_note(df.iloc[0], f"`python3 scripts/probes/{probe_script(probe)}.py`; each order's "
                          f"time / the floor's, median over {int(df.rounds.iloc[0])} rotated rounds (results/probes/)"))
    return "\n".join(lines)


def probe_medians(probe: str, gpu: str, keys: list, values: list) -> pd.DataFrame:
    """A probe whose rows are calls, not shapes (results/probes/<probe>-<gpu>.csv): the median over
    its calls of each column of `values` per combination of `keys` (their values as text), in the
    run's order, with the calls counted (its first row, for the run's provenance, in
    .attrs["run"]); empty where none is recorded."""
    path = results.RESULTS_DIR / "probes" / f"{probe}-{gpu}.csv"
    if not path.exists():
        return pd.DataFrame()
    df = pd.read_csv(path, keep_default_na=False)
    df[keys] = df[keys].astype(str)
    # a quantity a row has no record of (a build without that stamp) is blank: not a number
    df[values] = df[values].apply(pd.to_numeric, errors="coerce")
    groups = df.groupby(keys, sort=False)
    medians = groups[values].median().assign(calls=groups.size()).reset_index()
    medians.attrs["run"] = df.iloc[0]
    return medians


def probe_medians_table(probe: str, gpu: str, keys: str, values: str) -> str:
    """probe_medians() as a table: `keys` comma-separated, `values` too, each with its digits after
    a colon (sm_ghz:3)."""
    keys = keys.split(",")
    digits = dict(v.split(":") for v in values.split(","))
    medians = probe_medians(probe, gpu, keys, list(digits))
    if medians.empty:
        return f"_No {probe} probe recorded for {gpu} yet._"
    lines = ["| " + " | ".join(c.replace("_", " ") for c in keys + list(digits) + ["calls"]) + " |",
             "|" + "---|" * len(keys) + "---:|" * (len(digits) + 1)]
    for r in medians.itertuples(index=False):
        cells = [getattr(r, c) for c in keys] + [_fmt(getattr(r, c), int(d)) for c, d in digits.items()]
        lines.append("| " + " | ".join(cells + [str(r.calls)]) + " |")
    lines.append(run_note(medians.attrs["run"], f"`python3 scripts/probes/{probe_script(probe)}.py`; medians over "
                          "each combination's calls (results/probes/)"))
    return "\n".join(lines)


def timeline_rows(gpu: str, name: str = "timeline") -> pd.DataFrame:
    """scripts/probes/timeline.py's run (or a ring's stamped beside the floor's, `name` as
    ring_timeline.py records it): per shape, mode and kernel, the median over its calls of each
    quantity (results/probes/<name>-<gpu>.csv), in the run's order; empty where none."""
    path = results.RESULTS_DIR / "probes" / f"{name}-{gpu}.csv"
    if not path.exists():
        return pd.DataFrame()
    df = pd.read_csv(path, keep_default_na=False)
    # a quantity a kernel has no record of (the floor's read has no ring fill) is blank: not a number
    df = df.assign(**{c: pd.to_numeric(df[c], errors="coerce") for c in df.columns if c.endswith("_ns")})
    groups = df.groupby(["m", "k", "l", "mode", "kernel"], sort=False)
    medians = groups.median(numeric_only=True).assign(calls=groups.size()).reset_index()
    return medians.merge(df.drop_duplicates(["m", "k", "l", "mode", "kernel"])[
        ["m", "k", "l", "mode", "kernel", "gpu", "driver", "cuda", "torch", "git_sha", "measured_at"]])


def timeline_table(gpu: str) -> str:
    """The timeline probe's runs: where each call's time went, per SM (medians over SMs, then over
    the calls); a table per run (the pairs' shapes are a run of their own, `timeline.py pairs`)."""
    df = timeline_rows(gpu)
    if df.empty:
        return f"_No timeline probe recorded for {gpu} yet._"
    tables = []
    for _, run in df.groupby("git_sha", sort=False):
        lines = ["| shape | mode | kernel | SM's warps start over ns | call us | SM's last bytes us | SM's tail ns (last SM) "
                 "| a warp's last bytes to its end ns |", "|---|---|---|---:|---:|---:|---:|---:|"]
        for r in run.itertuples():
            lines.append(f"| {r.m}x{r.k}x{r.l} | {r.mode} | {r.kernel} | {_fmt(r.start_spread_ns, 0)} | {_fmt(r.call_ns / 1e3, 2)} | "
                         f"{_fmt(r.last_arrival_ns / 1e3, 2)} | {_fmt(r.tail_ns, 0)} ({_fmt(r.tail_max_ns, 0)}) | "
                         f"{_fmt(r.warp_tail_ns, 0)} |")
        lines.append(run_note(run.iloc[0], f"`python3 scripts/probes/timeline.py`; one call at a time after the clearing, "
                              f"median of {int(run.calls.iloc[0])} calls; "
                              "times after the SM's first warp started, from the SM clock (results/probes/)"))
        tables.append("\n".join(lines))
    return "\n\n".join(tables)


def _stamped_calls_table(gpu: str, name: str, columns: dict, how: str) -> str:
    """A stamped probe's calls (results/probes/<name>-<gpu>.csv), per shape, mode and kernel (medians
    over the calls): `columns` maps each header to the cell it shows of a row; `how` adds to the
    note how the calls ran."""
    df = timeline_rows(gpu, name)
    if df.empty:
        return f"_No {name} probe recorded for {gpu} yet._"
    lines = ["| shape | mode | kernel | " + " | ".join(columns) + " |", "|---|---|---|" + "---:|" * len(columns)]
    for r in df.itertuples():
        lines.append(f"| {r.m}x{r.k}x{r.l} | {r.mode} | {r.kernel} | " + " | ".join(cell(r) for cell in columns.values()) + " |")
    lines.append(run_note(df.iloc[0], f"results/probes/{name}-{gpu}.csv; one call at a time after the clearing{how}, "
                          f"median of {int(df.calls.iloc[0])} calls; an SM's times after its first start (its ring "
                          "block's, or its first warp's), from the SM clock"))
    return "\n".join(lines)


def _us(ns) -> str:
    return _fmt(ns / 1e3, 2)


def ring_timeline_table(gpu: str, name: str) -> str:
    """A ring stamped beside the floor's read (scripts/probes/ring_timeline.py, its rows `name`): the
    call, the ring's fill, when the median SM and the last had their last bytes (a ring's last
    stage) and their ends, and the median SM's tail."""
    return _stamped_calls_table(gpu, name, {
        "call us": lambda r: _us(r.call_ns), "fill us": lambda r: _us(r.fill_ns),
        "last bytes us (last SM)": lambda r: f"{_us(r.last_arrival_ns)} ({_us(r.last_arrival_max_ns)})",
        "end us (last SM)": lambda r: f"{_us(r.end_ns)} ({_us(r.end_max_ns)})",
        "tail ns": lambda r: _fmt(r.tail_ns, 0)}, "")


def ring_spans_table(gpu: str, name: str) -> str:
    """Rings and the floor stamped and timed by events call after call (scripts/probes/ring_spans.py,
    its rows `name`): the events' time, the blocks' span (the first start stamp to the last end
    stamp), what lies outside it, when the median SM and the last had their last bytes, and the
    median SM's tail."""
    return _stamped_calls_table(gpu, name, {
        "events us": lambda r: _us(r.event_ns), "blocks' span us": lambda r: _us(r.call_ns),
        "outside us": lambda r: _us(r.outside_ns),
        "last bytes us (last SM)": lambda r: f"{_us(r.last_arrival_ns)} ({_us(r.last_arrival_max_ns)})",
        "tail ns": lambda r: _fmt(r.tail_ns, 0)}, ", the GPU held while the host enqueues it")


def ring_fill_table(gpu: str) -> str:
    """84q's first stage against its first share of B (scripts/probes/ring_fill.py): the fill (first
    stage's arrival after the block's start) and the B fill (the B warp's hand-over of stage 0's
    share after it), medians over SMs, and the last SM's B fill."""
    return _stamped_calls_table(gpu, "ring-fill", {
        "call us": lambda r: _us(r.call_ns), "fill us": lambda r: _us(r.fill_ns),
        "B fill us (last SM)": lambda r: f"{_us(r.b_fill_ns)} ({_us(r.b_fill_max_ns)})",
        "last bytes us": lambda r: _us(r.last_arrival_ns)}, "")


def room_rows(gpu: str) -> pd.DataFrame:
    """`timeline.py room`'s run (results/probes/timeline-room-<gpu>.csv); empty where none."""
    path = results.RESULTS_DIR / "probes" / f"timeline-room-{gpu}.csv"
    return pd.read_csv(path, keep_default_na=False) if path.exists() else pd.DataFrame()


def room_table(gpu: str) -> str:
    """`timeline.py room`: per shape, mode and kernel, the most warp places that the blocks already
    on an SM and the starting block held when a block started, how many starts went beyond the
    SM's 32, how long before its block ended a block's first warp left (SM cycles, median), and the
    warps an SM held on average while blocks waited (mean over SMs; '-' in runs before it was
    recorded)."""
    df = room_rows(gpu)
    if df.empty:
        return f"_No timeline room probe recorded for {gpu} yet._"
    if "held_while_waiting" not in df:   # runs before the column was recorded
        df = df.assign(held_while_waiting=float("nan"))
    lines = ["| shape | mode | kernel | warps a block | blocks | most warp places held at a block's start "
             "| starts beyond 32 | first warp left before its block ended, cycles | warps held while blocks wait |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in df.itertuples():
        lines.append(f"| {r.m}x{r.k}x{r.l} | {r.mode} | {r.kernel} | {r.splits} | {r.blocks:,} | "
                     f"{r.most_places_held} | {r.starts_beyond_32:,} | {_fmt(r.left_before_block_end_cycles, 0)} | "
                     f"{_fmt(pd.to_numeric(r.held_while_waiting), 1)} |")
    lines.append(run_note(df.iloc[0], "`python3 scripts/probes/timeline.py room`; one call per kernel and mode "
                          "after the clearing, every warp stamped (results/probes/)"))
    return "\n".join(lines)


# nvidia-smi's clock-event reason bits (clocks_event_reasons.active), by name
CLOCK_EVENTS = {0x1: "idle", 0x2: "application clocks", 0x4: "power cap", 0x8: "hardware slowdown",
                0x20: "software thermal", 0x40: "hardware thermal", 0x80: "power brake"}


def clock_events(reasons: str) -> str:
    """'0x0...0;0x0...4' -> 'power cap': the reasons any sample had active, or 'none'."""
    bits = 0
    for value in str(reasons).split(";"):
        bits |= int(value, 16) if value.startswith("0x") else 0
    return ", ".join(name for bit, name in CLOCK_EVENTS.items() if bits & bit) or "none"


def clocks_table(gpu: str) -> str:
    """scripts/probes/clocks_under_load.py's run: each kernel back to back, with the SM clock and
    the power draw nvidia-smi sampled meanwhile."""
    path = results.RESULTS_DIR / "probes" / f"clocks-under-load-{gpu}.csv"
    if not path.exists():
        return f"_No clocks-under-load probe recorded for {gpu} yet._"
    df = pd.read_csv(path, keep_default_na=False)
    lines = ["| shape | kernel | calls | us a call | GB/s | SM MHz, mean (lowest) | power W, mean (highest) "
             "| clock events |", "|---|---|---|---:|---:|---:|---:|:---|"]
    for r in df.itertuples():
        lines.append(f"| {r.m}x{r.k}x{r.l} | {r.strategy} | {r.run} | {_fmt(r.us_per_call, 2)} | {_fmt(r.gb_s, 0)} "
                     f"| {_fmt(r.sm_mhz_mean, 0)} ({_fmt(r.sm_mhz_min, 0)}) "
                     f"| {_fmt(r.power_w_mean, 0)} ({_fmt(r.power_w_max, 0)}) | {clock_events(r.event_reasons)} |")
    lines.append(run_note(df.iloc[0], "`python3 scripts/probes/clocks_under_load.py`; two seconds a kernel "
                          "back to back from a CUDA graph (no clearing) and two as the harness times it (clean); "
                          "nvidia-smi sampled every 20 ms (results/probes/)"))
    return "\n".join(lines)


def probe_profile_table(probe: str, gpu: str) -> str:
    """A probe's Nsight Compute summary (profiles/<gpu>/probes/<probe>.csv, written by
    `python3 scripts/probes/<probe>.py profile`): one row per kernel and shape."""
    path = REPO / "profiles" / gpu / "probes" / f"{probe}.csv"
    if not path.exists():
        return f"_No {probe} probe profile for {gpu} yet._"
    lines = ["| kernel | shape | us under ncu | DRAM % of peak | instructions / byte | issue slots % "
             "| ALU pipe % | top stall (share) |", "|:---|:---|---:|---:|---:|---:|---:|:---|"]
    for r in pd.read_csv(path).itertuples():
        lines.append(f"| {r.name} | {r.shape} | {_fmt(r.duration_us, 2)} | {_fmt(r.dram_pct_of_peak)} "
                     f"| {_fmt(r.inst_executed_per_byte, 3)} | {_fmt(r.issue_slot_util_pct)} "
                     f"| {_fmt(r.alu_pipe_pct)} | {r.stall_1} ({_fmt(r.stall_1_share_pct)}%) |")
    lines.append(f"\n_{gpu.upper()}: `python3 scripts/probes/{probe.replace('-', '_')}.py profile` "
                 f"(Nsight Compute, full set, `--clock-control none`, caches flushed before each kernel); "
                 f"instructions executed per byte of the problem; profiles/{gpu}/probes/{probe}.csv._")
    return "\n".join(lines)


def probe_sites_table(probe: str, gpu: str, shape: str, top: str = "6") -> str:
    """A probe's most sampled instructions on one shape, each kernel's first `top`
    (profiles/<gpu>/probes/<probe>-sites.csv, written by `python3 scripts/probes/<probe>.py sites`)."""
    path = REPO / "profiles" / gpu / "probes" / f"{probe}-sites.csv"
    if not path.exists():
        return f"_No {probe} stall sites for {gpu} yet._"
    sites = pd.read_csv(path)
    sites = sites[sites["shape"] == shape].groupby("name", sort=False).head(int(top))
    lines = ["| kernel | rank | SASS | share of samples % | most sampled reason |", "|:---|---:|:---|---:|:---|"]
    for name, rows in sites.groupby("name", sort=False):
        lines += [f"| {name} | {rank} | `{r.sass}` | {_fmt(r.share_pct, 2)} | {r.top_reason} |"
                  for rank, r in enumerate(rows.itertuples(), 1)]
    lines.append(f"\n_{gpu.upper()}, {shape}: `python3 scripts/probes/{probe.replace('-', '_')}.py sites` (the "
                 f"profile's source page: each instruction's warp samples, issued or stalled, over all the "
                 f"kernel's); profiles/{gpu}/probes/{probe}-sites.csv._")
    return "\n".join(lines)


def floor_rounds_table(gpu: str, most: str = "5") -> str:
    """The last floor check's round-to-round drift, on the `most` shape/mode pairs that drift most."""
    df = floor.load(gpu)
    if df.empty:
        return f"_No floor comparison recorded for {gpu} yet._"
    effects = floor.round_effects(df).sort_values("shared_range_pct", ascending=False).head(int(most))
    lines = ["| shape | mode | shared by every strategy in a round (range) | left to each strategy (sd) |",
             "|---|---|---:|---:|"]
    for _, r in effects.iterrows():
        lines.append(f"| {r['shape']} | {r['mode']} | {_fmt(r.shared_range_pct, 1)}% | {_fmt(r.rest_sd_pct, 1)}% |")
    lines.append(run_note(df.iloc[0], f"from `make floor-check` (results/{gpu}-floor.csv), log round means"))
    return "\n".join(lines)


def shapes_table(gpu: str, *numbers: str) -> str:
    """Every recorded shape of the named attempts on one GPU (benchmark, decode, small, odd):
    time and ratio to the floor timed beside it, per clearing mode."""
    df = results.load(gpu)
    df = df[(df.config == "") & (df.data == "gpumode") & df.attempt.isin(numbers)]
    if df.empty:
        return f"_No rows of {', '.join(numbers)} recorded for {gpu} yet._"
    df = df.assign(shape=shape_column(df))
    lines = [f"{GPUS.get(gpu, gpu)}: mean us per call, and x the floor timed beside it", "",
             "| shape | " + " | ".join(f"{n} {mode}" for n in numbers for mode in ("gpumode", "clean")) + " |",
             "|---|" + "---:|" * (2 * len(numbers))]
    order = df.drop_duplicates("shape").sort_values(["l", "m", "k"])["shape"]
    for shape in order:
        cells = []
        for n in numbers:
            for mode in ("gpumode", "clean"):
                r = df[(df["shape"] == shape) & (df.attempt == n) & (df["mode"] == mode)]
                cells.append("-" if r.empty else f"{_fmt(r.mean_us.iloc[0], 2)} ({_fmt(r.mean_us.iloc[0] / r.floor_us.iloc[0], 2)}x)")
        lines.append(f"| {shape} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n" + provenance_note(gpu)


PROFILE_HEADER = ("| DRAM % peak | DRAM GB/s | DRAM bytes / problem bytes | issue % | inst/byte | sectors/req | "
                  "occupancy % | regs | top stall (share %) |")
PROFILE_ALIGN = "---:|" * 9 + ":---|"


def _profile_cells(r) -> str:
    """One summarised kernel (a row of profiles/<gpu>/*.csv) as the PROFILE_HEADER cells."""
    return (f"{_fmt(r.dram_pct_of_peak, 1)} | {_fmt(r.dram_gb_s, 0)} | "
            f"{_fmt(r.dram_bytes_over_problem_bytes, 3)} | {_fmt(r.issue_slot_util_pct, 1)} | "
            f"{_fmt(r.inst_executed_per_byte, 3)} | {_fmt(r.sectors_per_ld_request, 1)} | "
            f"{_fmt(r.achieved_occupancy_pct, 1)} | {int(r.registers_per_thread)} | "
            f"{r.stall_1} ({_fmt(r.stall_1_share_pct, 0)}) |")


def profiles_table(gpu: str) -> str:
    """The key Nsight Compute metrics of every profiled attempt on one GPU (profiles/<gpu>/*.csv,
    written by `make profiles`), on the first benchmark shape."""
    paths = sorted((REPO / "profiles" / gpu).glob("*.csv"))
    if not paths:
        return f"_No profiles recorded for {gpu} yet._"
    shape = "x".join(map(str, problem.BENCHMARK_SHAPES[0]))
    lines = [f"| attempt | us ({shape}) " + PROFILE_HEADER, "|:---|---:|" + PROFILE_ALIGN]
    for path in paths:
        r = pd.read_csv(path).iloc[0]
        lines.append(f"| [{path.stem}](../../attempts/{path.stem}) | {_fmt(r.duration_us, 2)} | "
                     + _profile_cells(r))
    return "\n".join(lines)


def profile_table(gpu: str, *numbers: str) -> str:
    """The Nsight Compute summary of some attempts on one GPU, every benchmark shape (an attempt
    README's Profile section), under ncu: kernel time of one call, not the harness's timing."""
    lines = ["| attempt | shape | us under ncu " + PROFILE_HEADER, "|:---|:---|---:|" + PROFILE_ALIGN]
    for number in numbers:
        attempt = attempts.find(number)
        path = REPO / "profiles" / gpu / f"{attempt.name}.csv"
        if not path.exists():
            raise KeyError(f"no profile {path.relative_to(REPO)}")
        for r in pd.read_csv(path).itertuples():
            lines.append(f"| {attempt.number} | {r.shape} | {_fmt(r.duration_us, 2)} | " + _profile_cells(r))
    return "\n".join(lines)


# The block tables a document can ask for: <!-- gen:table NAME ARGS... -->
TABLES = {
    "results": results_table,
    "summary": summary_table,
    "floor": floor_table,
    "read-strategy": read_strategy_table,
    "floor-rounds": floor_rounds_table,
    "probe": probe_table,
    "probe-medians": probe_medians_table,
    "probe-profile": probe_profile_table,
    "probe-sites": probe_sites_table,
    "clocks": clocks_table,
    "timeline": timeline_table,
    "timeline-room": room_table,
    "ring-timeline": ring_timeline_table,
    "ring-spans": ring_spans_table,
    "ring-fill": ring_fill_table,
    "latency": latency_table,
    "sweep": sweep_table,
    "shapes": shapes_table,
    "profiles": profiles_table,
    "profile": profile_table,
}
