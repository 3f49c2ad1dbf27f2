"""Generated fragments: every measured number in the prose comes from results/ and profiles/.

A markdown file marks what is generated, and `make table` rewrites it:

    <!-- gen:fig h100 07 us geomean gpumode -->51.49<!-- /gen -->           one value, inline
    <!-- gen:table results h100 -->                                        a block
    ...
    <!-- /gen -->

Values (`fig GPU ATTEMPT QUANTITY [SHAPE|geomean] [MODE]`), over the gpumode-data rows of
results/<gpu>.csv without a config; SHAPE is any recorded shape (7168x16384x1, 128x16384x1, ...),
geomean means over the three benchmark shapes, MODE defaults to gpumode:
    us          mean time per call          floor     the floor (99) timed beside it
    x_floor     us / floor                  x_sol     us / datasheet speed of light
    x_floor3    x_floor to three decimals (where a target's bound lies within the rounding)
    gb_s        problem bytes / time        speedup:NN   NN's time / this attempt's time
`fig GPU ATTEMPT profile COLUMN [SHAPE]` reads profiles/<gpu>/<attempt>.csv (first benchmark
shape by default); `fig GPU ATTEMPT stall-site SHAPE RANK` the share of all stall samples at the
RANK-th instruction of profiles/<gpu>/stall-sites/<attempt>.csv, `fig GPU KERNEL
probe-site:PROBE SHAPE RANK` the same of a probe's kernel (profiles/<gpu>/probes/<probe>-sites.csv);
`fig GPU KERNEL timeline:COLUMN
SHAPE MODE` a column of the timeline probe's run (ns); `fig GPU KERNEL ring-timeline:NAME:COLUMN
SHAPE MODE` one of a ring's stamped run, results/probes/NAME-<gpu>.csv (ns; sm_ghz in GHz); `fig GPU KERNEL room:COLUMN SHAPE MODE` a
column of its `room` run (results/probes/timeline-room-<gpu>.csv); `fig GPU KEY=VALUE&KEY=VALUE
probe-median:PROBE:COLUMN DIGITS` the median of a column over the calls of a probe whose rows are
calls (results/probes/PROBE-<gpu>.csv), of the rows whose KEY columns hold those values (as
written, or with spaces as underscores), as its probe-medians table shows it. Blocks: `table NAME ARGS...` with the names in TABLES (common/reports.py).
tests/test_generated.py fails when any generated fragment differs from what the data gives.
"""
import re
import statistics
from pathlib import Path

import pandas as pd

from . import attempts, problem, reports, results
from .build import REPO

FRAGMENT = re.compile(r"<!-- gen:(?P<spec>[^>]*?) -->(?P<body>.*?)<!-- /gen -->", re.S)
BENCH = [f"{m}x{k}x{l}" for m, k, l in problem.BENCHMARK_SHAPES]


class FragmentError(ValueError):
    pass


def documents() -> list[Path]:
    """Every markdown file that may hold generated fragments."""
    return sorted([REPO / "README.md", *REPO.glob("docs/*.md"), *REPO.glob("attempts/*/README.md"),
                   *REPO.glob("profiles/*/README.md")])


def _rows(gpu: str, attempt: str, mode: str) -> pd.DataFrame:
    df = reports.main_rows(gpu, every_shape=True)
    return df[(df.attempt == attempt) & (df["mode"] == mode)]


def _value(rows: pd.DataFrame, quantity: str, where: str, gpu: str, mode: str) -> float:
    def at(column):
        if where == "geomean":
            bench = rows[rows["shape"].isin(BENCH)]
            if len(bench) != len(BENCH):
                raise FragmentError(f"no complete benchmark rows for a geomean in {gpu} {mode}")
            return statistics.geometric_mean(bench[column])
        hit = rows[rows["shape"] == where]
        if hit.empty:
            raise FragmentError(f"no row for shape {where} in {gpu} {mode}")
        return float(hit[column].iloc[0])
    if quantity == "us":
        return at("mean_us")
    if quantity == "floor":
        return at("floor_us")
    if quantity == "x_floor":
        return at("mean_us") / at("floor_us")
    if quantity == "x_sol":
        return at("mean_us") / at("sol_us")
    if quantity == "gb_s":
        return at("gb_s")
    raise FragmentError(f"unknown quantity {quantity!r}")


def fig(gpu: str, attempt: str, quantity: str, where: str = "geomean", mode: str = "gpumode") -> str:
    if quantity == "profile":
        return profile_value(gpu, attempt, where, mode if mode != "gpumode" else BENCH[0])
    if quantity == "stall-site":
        return stall_site_share(gpu, attempt, where, int(mode))
    if quantity.startswith("probe:"):
        return probe_value(gpu, *quantity.split(":")[1:], strategy=attempt.replace("_", " "), shape=where, mode=mode)
    if quantity.startswith("probe-row:"):
        return probe_row_value(gpu, *quantity.split(":")[1:], strategy=attempt.replace("_", " "), key=where)
    if quantity.startswith("probe-site:"):
        path = REPO / "profiles" / gpu / "probes" / f"{quantity.split(':', 1)[1]}-sites.csv"
        return _site_share(path, where, int(mode), name=attempt.replace("_", " "))
    if quantity.startswith("probe-profile:"):
        return probe_profile_value(gpu, *quantity.split(":")[1:], name=attempt.replace("_", " "), shape=where)
    if quantity.startswith("probe-median:"):
        return probe_median_value(gpu, *quantity.split(":")[1:], selector=attempt, digits=where)
    if quantity.startswith("ring-timeline:"):
        _, name, column = quantity.split(":")
        return ring_timeline_value(gpu, name, attempt.replace("_", " "), column, where, mode)
    if quantity.startswith("timeline:"):
        return timeline_value(gpu, attempt.replace("_", " "), quantity.split(":", 1)[1], where, mode)
    if quantity.startswith("room:"):
        return room_value(gpu, attempt.replace("_", " "), quantity.split(":", 1)[1], where, mode)
    number = attempts.find(attempt).number
    if quantity.startswith("speedup:"):
        other = attempts.find(quantity.split(":", 1)[1]).number
        mine = _value(_rows(gpu, number, mode), "us", where, gpu, mode)
        theirs = _value(_rows(gpu, other, mode), "us", where, gpu, mode)
        return f"{theirs / mine:.2f}"
    if quantity == "x_floor3":
        return f"{_value(_rows(gpu, number, mode), 'x_floor', where, gpu, mode):.3f}"
    value = _value(_rows(gpu, number, mode), quantity, where, gpu, mode)
    if quantity in ("x_floor", "x_sol"):
        return f"{value:.2f}"
    return f"{value:,.0f}" if quantity == "gb_s" else f"{value:,.2f}"


def _profile_rows(path: Path, shape: str) -> pd.DataFrame:
    """The rows of one shape in a profile summary under profiles/ (every value as text)."""
    if not path.exists():
        raise FragmentError(f"no profile summary {path.relative_to(REPO)}")
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    return df[df["shape"] == shape]


def profile_value(gpu: str, attempt: str, column: str, shape: str) -> str:
    path = REPO / "profiles" / gpu / f"{attempts.find(attempt).name}.csv"
    hit = _profile_rows(path, shape)
    if hit.empty or column not in hit.columns:
        raise FragmentError(f"{path.relative_to(REPO)} has no {column} for {shape}")
    return hit[column].iloc[0]


def probe_profile_value(gpu: str, probe: str, column: str, *, name: str, shape: str) -> str:
    """One column of a probe's Nsight Compute summary (profiles/<gpu>/probes/<probe>.csv) for one of
    its kernels (probe-profile:NAME:COLUMN; in a spec the kernel's spaces are written as underscores)."""
    path = REPO / "profiles" / gpu / "probes" / f"{probe}.csv"
    rows = _profile_rows(path, shape)
    hit = rows[rows["name"] == name]
    if hit.empty or column not in hit.columns:
        raise FragmentError(f"{path.relative_to(REPO)} has no {column} of {name!r} on {shape}")
    return hit[column].iloc[0]


def probe_row_value(gpu: str, probe: str, column: str, *, strategy: str, key: str) -> str:
    """One column of a probe's row whose rows are not shapes: results/probes/<probe>-<gpu>.csv with
    `strategy` and `key` columns (probe-row:NAME:COLUMN, the key where a shape would go)."""
    path = results.RESULTS_DIR / "probes" / f"{probe}-{gpu}.csv"
    if not path.exists():
        raise FragmentError(f"no probe run {path.relative_to(REPO)}")
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    hit = df[(df.strategy == strategy) & (df.key == key)]
    if hit.empty or column not in df.columns:
        raise FragmentError(f"{path.relative_to(REPO)} has no {column} of {strategy!r} at {key}")
    return hit[column].iloc[0]


def _site_share(path: Path, shape: str, rank: int, name: str | None = None) -> str:
    """The share of all samples at the RANK-th most sampled instruction of a sites file (of one of
    its kernels, where it holds several)."""
    sites = _profile_rows(path, shape)
    if name is not None:
        sites = sites[sites["name"] == name]
    if len(sites) < rank:
        raise FragmentError(f"{path.relative_to(REPO)} has no site {rank} for {name or ''} {shape}")
    return sites["share_pct"].iloc[rank - 1]


def stall_site_share(gpu: str, attempt: str, shape: str, rank: int) -> str:
    return _site_share(REPO / "profiles" / gpu / "stall-sites" / f"{attempts.find(attempt).name}.csv", shape, rank)


def probe_value(gpu: str, probe: str, column: str = "x_floor", *, strategy: str, shape: str, mode: str) -> str:
    """One strategy's time over the floor's in a probe's run (results/probes/<probe>-<gpu>.csv),
    as its table shows it, or another column of its row (probe:NAME:COLUMN: times in us and means
    to two decimals, other columns whole numbers). In a
    spec the strategy's spaces are written as underscores."""
    path = results.RESULTS_DIR / "probes" / f"{probe}-{gpu}.csv"
    if not path.exists():
        raise FragmentError(f"no probe run {path.relative_to(REPO)}")
    df = pd.read_csv(path, keep_default_na=False)
    hit = df[(df.strategy == strategy) & (reports.shape_column(df) == shape) & (df["mode"] == mode)]
    if hit.empty:
        raise FragmentError(f"{path.relative_to(REPO)} has no {strategy!r} on {shape} {mode}")
    if column not in df.columns:
        raise FragmentError(f"{path.relative_to(REPO)} has no column {column!r}")
    value = float(hit[column].iloc[0])
    if column == "x_floor":
        return f"{value:.3f}"
    return f"{value:,.2f}" if column.endswith(("_us", "_mean")) else f"{value:,.0f}"


def probe_median_value(gpu: str, probe: str, column: str, *, selector: str, digits: str) -> str:
    """The median of one column over the calls of a probe whose rows are calls, among the rows
    that `selector` picks (KEY=VALUE pairs joined by '&', spaces as underscores; a value with
    underscores of its own matches as written), as
    reports.probe_medians() gives it."""
    picked = dict(pair.split("=", 1) for pair in selector.split("&"))
    try:
        medians = reports.probe_medians(probe, gpu, list(picked), [column])
    except KeyError as missing:
        raise FragmentError(f"probe {probe} on {gpu} has no column {missing}") from None
    hit = medians
    for key, value in picked.items():  # a value as written, or with its underscores as spaces
        hit = hit[hit[key].isin({value, value.replace("_", " ")})] if not hit.empty else hit
    if hit.empty:
        raise FragmentError(f"probe {probe} on {gpu} has no {column} where {selector}")
    return reports._fmt(hit[column].iloc[0], int(digits))


# digits of a per-kernel probe column where its table shows more than whole counts
KERNEL_VALUE_DIGITS = {"sm_ghz": 2, "held_while_waiting": 1}


def _kernel_value(df: pd.DataFrame, source: str, kernel: str, column: str, shape: str, mode: str) -> str:
    """One column of a per-kernel probe table (kernel, m, k, l, mode), as its table shows it."""
    hit = df[(df.kernel == kernel) & (reports.shape_column(df) == shape) & (df["mode"] == mode)] if len(df) else df
    if hit.empty or column not in hit.columns:
        raise FragmentError(f"{source} has no {column} of {kernel!r} on {shape} {mode}")
    value = float(hit[column].iloc[0])
    return f"{value:,.{KERNEL_VALUE_DIGITS.get(column, 0)}f}"


def timeline_value(gpu: str, kernel: str, column: str, shape: str, mode: str) -> str:
    """One quantity of the timeline probe's run (ns, a median over SMs and calls); in a spec the
    kernel's spaces are written as underscores."""
    return _kernel_value(reports.timeline_rows(gpu), f"results/probes/timeline-{gpu}.csv", kernel, column, shape, mode)


def ring_timeline_value(gpu: str, name: str, kernel: str, column: str, shape: str, mode: str) -> str:
    """One quantity (ns) of a ring stamped beside the floor's read, its rows `name`
    (scripts/probes/ring_timeline.py); in a spec the kernel's spaces are written as underscores."""
    return _kernel_value(reports.timeline_rows(gpu, name), f"results/probes/{name}-{gpu}.csv", kernel, column, shape, mode)


def room_value(gpu: str, kernel: str, column: str, shape: str, mode: str) -> str:
    """One count of the timeline probe's `room` run; in a spec the kernel's spaces are written as
    underscores."""
    return _kernel_value(reports.room_rows(gpu), f"results/probes/timeline-room-{gpu}.csv", kernel, column, shape, mode)


def render(spec: str, path: Path) -> str:
    kind, *args = spec.split()
    if kind == "fig":
        return fig(*args)
    if kind == "table":
        name, *rest = args
        if name not in reports.TABLES:
            raise FragmentError(f"unknown table {name!r}; known: {', '.join(reports.TABLES)}")
        return "\n" + reports.TABLES[name](*rest) + "\n"
    raise FragmentError(f"unknown fragment kind {kind!r}")


def regenerate(text: str, path: Path) -> str:
    """The text with every fragment (and an attempt README's results section) regenerated."""
    def one(match):
        try:
            body = render(match.group("spec"), path)
        except (FragmentError, KeyError) as e:
            raise FragmentError(f"{path.relative_to(REPO)}: <!-- gen:{match.group('spec')} -->: {e}") from e
        return f"<!-- gen:{match.group('spec')} -->{body}<!-- /gen -->"
    text = FRAGMENT.sub(one, text)
    if path.parent.parent == attempts.ATTEMPTS_DIR and reports.BEGIN in text:
        number = path.parent.name.split("-", 1)[0]
        body = reports.attempt_results(attempts.find(number))
        text = re.sub(re.escape(reports.BEGIN) + ".*?" + re.escape(reports.END),
                      lambda _: f"{reports.BEGIN}\n{body}\n{reports.END}", text, flags=re.S)
    return text


def stale() -> list[Path]:
    """Documents whose generated parts differ from what the data gives now."""
    return [p for p in documents() if regenerate(p.read_text(), p) != p.read_text()]


def update_all() -> list[Path]:
    changed = []
    for path in documents():
        text = path.read_text()
        new = regenerate(text, path)
        if new != text:
            path.write_text(new)
            changed.append(path)
    return changed
