"""Tables generated from results/: the terminal table of a run and the README sections.

README.md and each attempt's README carry marker lines; everything between them is
generated here from results/<gpu>.csv, never typed by hand.
"""
import re
import statistics

import pandas as pd

from . import attempts, problem, results

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
GPUS = {"h100": "H100 80GB HBM3 (SXM)", "h200": "H200"}


def _shape(row) -> str:
    return f"{row['m']}x{row['k']}x{row['l']}"


def timing_table(rows) -> str:
    """The table `make attempt-NN` prints."""
    df = pd.DataFrame(rows)
    df["shape"] = df.apply(_shape, axis=1)
    df["x_floor"] = df.mean_us / df.floor_us
    df["x_sol"] = df.mean_us / df.sol_us
    cols = ["attempt", "shape", "mode", "mean_us", "median_us", "std_us", "runs", "floor_us",
            "x_floor", "sol_us", "x_sol", "gb_s"]
    return df[cols].to_string(index=False, float_format=lambda v: f"{v:.2f}")


def _main_rows(gpu: str) -> pd.DataFrame:
    df = results.load(gpu)
    df = df[(df.config == "") & (df.data == "gpumode") & (df.attempt != "launch-probe")]
    bench = {f"{m}x{k}x{l}" for m, k, l in problem.BENCHMARK_SHAPES}
    df = df.assign(shape=df.apply(_shape, axis=1)) if len(df) else df.assign(shape=[])
    return df[df["shape"].isin(bench)]


def _geomean(values) -> float:
    return statistics.geometric_mean(values) if len(values) else float("nan")


def summary(gpu: str) -> pd.DataFrame:
    """Per attempt and mode: geomean time, floor, SoL over the three benchmark shapes."""
    df = _main_rows(gpu)
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


def results_table(gpu: str) -> str:
    """The README's table: each attempt's mean time per benchmark shape, both modes."""
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
    df = _main_rows(gpu)
    if df.empty:
        return ""
    distinct = lambda col: ", ".join(sorted(set(map(str, df[col]))))  # noqa: E731
    return (f"\n_Measured by `make bench` on {distinct('gpu')}, driver {distinct('driver')}, "
            f"CUDA {distinct('cuda')}, torch {distinct('torch')}, commits {distinct('git_sha')}, "
            f"{df.measured_at.min()[:10]} to {df.measured_at.max()[:10]}. Floor = attempt 99 "
            f"timed in the same run and mode; SoL = bytes / datasheet bandwidth. "
            f"Source: `results/{gpu}.csv`._\n")


def attempt_table(attempt, gpu: str) -> str:
    """An attempt README's Result section: its rows, and the speedup over its parent."""
    df = _main_rows(gpu)
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


def _replace_between_markers(path, body: str) -> None:
    text = path.read_text()
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise ValueError(f"{path} has no {BEGIN} ... {END} markers")
    path.write_text(pattern.sub(lambda _: f"{BEGIN}\n{body}\n{END}", text))


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
    r = df.iloc[0]
    lines.append(f"\n_{r.gpu}, driver {r.driver}, CUDA {r.cuda}, torch {r.torch}, commit {r.git_sha}, "
                 f"{r.measured_at[:10]}; `make latency`._")
    return "\n".join(lines)


def _replace_latency(gpu):
    path = results.REPO / "docs" / "methodology.md"
    text = path.read_text()
    pattern = re.compile("<!-- latency:begin -->.*?<!-- latency:end -->", re.S)
    path.write_text(pattern.sub(lambda _: f"<!-- latency:begin -->\n{latency_table(gpu)}\n<!-- latency:end -->", text))


def sweep_table(attempt_number: str, gpu: str) -> str:
    """Geomean over the benchmark shapes of every swept configuration, as a grid."""
    df = results.load(gpu)
    df = df[(df.attempt == attempt_number) & (df.config != "")]
    if df.empty:
        return f"_No sweep recorded on {gpu} yet._"
    settings = df.config.str.split(",").apply(lambda kv: dict(x.split("=") for x in kv))
    df = df.assign(**{name: settings.str[name].astype(int) for name in settings.iloc[0]})
    rows, cols = sorted(settings.iloc[0])
    grid = df.groupby([rows, cols]).mean_us.apply(_geomean).unstack(cols)
    best = grid.min().min()
    lines = [f"Geomean of the three benchmark shapes, us, gpumode mode, {df.gpu.iloc[0]}, commit "
             f"{df.git_sha.iloc[0]}; rows {rows}, columns {cols}; in bold, the configurations within "
             f"0.5% of the fastest.", "",
             f"| {rows} \\ {cols} | " + " | ".join(map(str, grid.columns)) + " |",
             "|---|" + "---:|" * len(grid.columns)]
    for r, values in grid.iterrows():
        cells = [f"**{v:.2f}**" if v <= 1.005 * best else f"{v:.2f}" for v in values]
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def update_readmes(gpu: str = "h100") -> None:
    _replace_between_markers(results.REPO / "README.md", results_table(gpu))
    _replace_latency(gpu)
    sweep = attempts.find("05").path / "README.md"
    if "<!-- sweep:begin -->" in sweep.read_text():
        text = sweep.read_text()
        pattern = re.compile("<!-- sweep:begin -->.*?<!-- sweep:end -->", re.S)
        sweep.write_text(pattern.sub(lambda _: f"<!-- sweep:begin -->\n{sweep_table('05', gpu)}\n"
                                                "<!-- sweep:end -->", text))
    for attempt in attempts.all_attempts():
        _replace_between_markers(attempt.path / "README.md", attempt_table(attempt, gpu))
