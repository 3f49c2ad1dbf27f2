"""What every probe script does once it has named its kernels: time them beside the floor as the
floor check times its strategies (rotated interleaved rounds, common/floor.py), record the rows in
results/probes/<probe>-<gpu>.csv, and print each one's time over the floor's; or profile some of
them with Nsight Compute, summarised as profiles/profile.py summarises an attempt; or first check
builds of their own against the reference."""
import sys
from pathlib import Path
from types import SimpleNamespace

import pandas as pd

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, build, floor, problem, results, sol  # noqa: E402
from common.measure import Inputs, check_attempt  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402
from common.build import REPO  # noqa: E402
from profiles.profile import (REPORTS, STALL, kernel_summary, launches, profile_command, raw_page,  # noqa: E402
                              report_source_page, stall_sites)


def included_source(number: str) -> dict:
    """The define that a probe source including attempt `number`'s kernel.cu passes to its build:
    the build's cache key covers only the probe's own file, so the included source's id goes in
    with the defines, and an edit to the attempt rebuilds the probe."""
    return {"INCLUDED_SOURCE": "0x" + build.source_id(attempts.find(number).source).split(":")[1]}


def check_builds(builds: dict, shapes: list) -> None:
    """The harness's check (poisoned outputs, reference, tolerance) of each build (name -> (source,
    defines)) on full-range and quantized data; stop at the first that fails, before anything is
    timed."""
    inputs = Inputs()
    for name, (source, defines) in builds.items():
        kernel = attempts.load_library(source, defines, name)
        if failures := check_attempt(kernel, SimpleNamespace(number=name), inputs, shapes, ["full", "quantized"]):
            raise SystemExit(f"{name} fails: {failures}")


def attempt_builds(*numbers: str) -> dict:
    """Each named attempt's own build, as check_builds and record take builds."""
    return {number: (attempts.find(number).source, None) for number in numbers}


def check_and_record(probe: str, builds: dict, check_shapes: list, shapes: list, unchecked: dict | None = None) -> None:
    """The builds checked on check_shapes, then timed and recorded on shapes beside `unchecked`,
    builds that compute no answer to check (a kernel with its products left out, say)."""
    check_builds(builds, check_shapes)
    record(probe, {**builds, **(unchecked or {})}, shapes)


def record_by_gpu(probe: str, builds, check_shapes: list, shapes: list) -> None:
    """builds(h200) -> {name: (source, defines)}: the builds for this GPU (an H200 runs the
    attempts' own rules, an H100 the H200's through h200_rule_on_h100.cu), checked, then recorded."""
    check_and_record(probe, builds("H200" in torch.cuda.get_device_name()), check_shapes, shapes)


def record(probe: str, others: dict, shapes: list, modes=floor.MODES, rounds=floor.ROUNDS) -> None:
    """others: name -> (source, defines), as floor.compare takes them."""
    write(probe, floor.compare(shapes=shapes, modes=modes, rounds=rounds, others=others))


def write_tables(gpu: str, tables: dict) -> dict:
    """Each table (name -> (rows, float format or None)) with one run's provenance as
    results/probes/<name>-<gpu>.csv; the frames by name (a stamped probe's spans and their
    companions)."""
    provenance = results.provenance()
    frames = {}
    for name, (rows, float_format) in tables.items():
        frames[name] = pd.DataFrame(rows).assign(**provenance)
        out = RESULTS_DIR / "probes" / f"{name}-{gpu}.csv"
        out.parent.mkdir(exist_ok=True)
        frames[name].to_csv(out, index=False, float_format=float_format)
    return frames


def write(probe: str, df: pd.DataFrame, over_floor: bool = True) -> None:
    """Each row's time over the floor's of its shape and mode (paired by round), recorded as
    results/probes/<probe>-<gpu>.csv and printed. over_floor=False: kernels that read nothing (their
    times are what counts), so only the floor's row gets a ratio and the times are printed."""
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    floors = df[df.strategy == "floor"].set_index(["m", "k", "l", "mode"])
    df["x_floor"] = [1 / floor.paired_ratio(floors.loc[(r.m, r.k, r.l, r.mode)], r)
                     if over_floor or r.strategy == "floor" else float("nan") for r in df.itertuples()]
    out = RESULTS_DIR / "probes" / f"{probe}-{gpu}.csv"
    out.parent.mkdir(exist_ok=True)
    df.to_csv(out, index=False, float_format="%.4f")
    shown = "x_floor" if over_floor else "mean_us"
    table = df.pivot_table(index=["m", "k", "l", "mode"], columns="strategy", values=shown, sort=False)
    print(table.to_string(float_format=lambda v: f"{v:.3f}"))
    print(f"recorded {len(df)} rows in {out}")


def profile_target(others: dict, shapes: list) -> None:
    """Run under ncu: each kernel once per shape inside the NVTX range "probe" (warm-ups outside)."""
    inputs = [problem.generate_input(*shape, seed=problem.TASK_SEED) for shape in shapes]
    for name, (source, defines) in others.items():
        kernel = attempts.load_library(source, defines, name)
        for data in inputs:
            kernel(data)
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_push("probe")
            kernel(data)
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_pop()


def profile(probe: str, others: dict, shapes: list, script: Path) -> None:
    """ncu (full set, --clock-control none) on `script target`, which must call profile_target with
    the same kernels and shapes; one summary row per kernel and shape in
    profiles/<gpu>/probes/<probe>.csv (one kernel a call: the probes and attempts timed here)."""
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    report = REPORTS / gpu / f"probe-{probe}"
    report.parent.mkdir(parents=True, exist_ok=True)
    profile_command(report, "probe", str(script), "target")
    df = raw_page(report.with_suffix(".ncu-rep"))
    cases = [(name, shape) for name in others for shape in shapes]
    if len(df) != len(cases):
        raise RuntimeError(f"{report}: expected {len(cases)} kernels, got {len(df)}")
    stall_columns = [c for c in df.columns if STALL.fullmatch(c)]
    rows = [{"name": name, "shape": "x".join(map(str, shape)),
             **kernel_summary(kernel, stall_columns, problem.problem_bytes(*shape))}
            for (name, shape), (_, kernel) in zip(cases, df.iterrows())]
    out = REPO / "profiles" / gpu / "probes" / f"{probe}.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(out, index=False, float_format="%.4g")
    print(pd.DataFrame(rows)[["name", "shape", "duration_us", "dram_pct_of_peak", "issue_slot_util_pct",
                              "alu_pipe_pct", "stall_1", "stall_1_share_pct"]].to_string(index=False))


def profile_sites(probe: str, others: dict, shapes: list, kernel_pattern: str, top: int = 16) -> None:
    """The `top` most sampled instructions of each kernel and shape of the probe's last `profile`
    (its report in build/profiles/), as profiles/profile.py sites reads an attempt's; rows in
    profiles/<gpu>/probes/<probe>-sites.csv."""
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    page = report_source_page((REPORTS / gpu / f"probe-{probe}").with_suffix(".ncu-rep"), kernel_pattern)
    cases = [(name, "x".join(map(str, shape))) for name in others for shape in shapes]
    if len(launches(page)) != len(cases):
        raise RuntimeError(f"probe-{probe}: expected {len(cases)} launches of {kernel_pattern}, got {len(launches(page))}")
    sites = pd.concat([stall_sites(page, shape, top, launch=i).assign(name=name)
                       for i, (name, shape) in enumerate(cases)], ignore_index=True)
    out = REPO / "profiles" / gpu / "probes" / f"{probe}-sites.csv"
    sites[["name", *sites.columns[:-1]]].to_csv(out, index=False)
    print(sites[["name", "shape", "sass", "share_pct", "top_reason"]].to_string(index=False))


PROFILE_COMMANDS = ("profile", "target", "sites")  # the commands time_or_profile runs on `profiled`


def time_or_profile(probe: str, timed: dict, profiled: dict, shapes: list, script: Path,
                    kernel_pattern: str = "nvfp4_gemv_kernel") -> None:
    """A probe script's command line: no argument times `timed` (record), `profile` runs Nsight
    Compute on `profiled` through `script target`, which runs them (profile_target), and `sites`
    reads that profile's most sampled instructions of the kernels named by `kernel_pattern`."""
    command = sys.argv[1] if len(sys.argv) > 1 else "time"
    if command == "profile":
        profile(probe, profiled, shapes, script)
    elif command == "target":
        profile_target(profiled, shapes)
    elif command == "sites":
        profile_sites(probe, profiled, shapes, kernel_pattern)
    else:
        record(probe, timed, shapes)
