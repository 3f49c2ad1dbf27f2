"""Nsight Compute profiles of the CUDA attempts, summarised into small committed CSVs.

    python profiles/profile.py run 07      # ncu on attempt 07, three benchmark shapes
    python profiles/profile.py run all     # every CUDA attempt, one ncu process each
    python profiles/profile.py summarize 07  # the summary again, from the report already in build/
    python profiles/profile.py sites 76 7168x16384x1 walk   # where the warps of one kernel wait

`run` launches ncu (full set, --clock-control none, never touching clocks) on this script's
`target` command, which calls the attempt once per benchmark shape inside the NVTX range
`profile-NN` (warm-up calls stay outside it, so ncu sees the kernels of exactly three calls, each after
a one-element fill that marks where it starts). The full
report stays in build/profiles/ (not in git); the summary goes to profiles/<gpu>/NN-slug.csv,
and the generated tables and figures that read it (`make table`) are regenerated.

`sites` reads the instruction-level samples (the report's source page, SASS) of the kernel whose
name matches a pattern, launched by one benchmark shape's call, and writes its most sampled
instructions to profiles/<gpu>/stall-sites/NN-slug.csv: where that kernel's warps wait, and why.
"""
import argparse
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from common import attempts, fragments, problem, sol  # noqa: E402

REPORTS = REPO / "build" / "profiles"
STALL = re.compile(r"smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio")
METRICS = {   # summary column -> ncu metric (a tuple: the first name the report has)
    "duration_us": "gpu__time_duration.sum",
    "dram_pct_of_peak": ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                         "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
    "dram_bytes_per_s": "dram__bytes.sum.per_second",
    "dram_bytes": ("dram__bytes.sum",),
    "dram_read_bytes": ("dram__bytes_read.sum",),
    "dram_write_bytes": ("dram__bytes_write.sum",),
    "dram_peak_bytes_per_cycle": ("dram__bytes.sum.peak_sustained",),
    "dram_cycles_per_s": ("dram__cycles_elapsed.avg.per_second",),
    "l1_hit_pct": "l1tex__t_sector_hit_rate.pct",
    "l2_hit_pct": "lts__t_sector_hit_rate.pct",
    "ld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "ld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "achieved_occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "registers_per_thread": "launch__registers_per_thread",
    "local_ld_sectors": "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "local_st_sectors": "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "inst_executed": "smsp__inst_executed.sum",
    "inst_issued": "smsp__inst_issued.sum",
    "issue_active_pct": "smsp__issue_active.avg.pct_of_peak_sustained_active",
    # Hopper's ALU pipe (PRMT, LOP3, SHF, IADD3) and the FMA pipe's heavy half (IMAD, IDP) each
    # take a warp instruction every two cycles: either can bind before issue does.
    # (over the kernel's elapsed cycles: the fmaheavy pipe has no "active" form in ncu's full set)
    "alu_pipe_pct": ("sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed",),
    "fma_heavy_pipe_pct": ("sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_elapsed",),
}


def cuda_attempts(which):
    chosen = attempts.all_attempts() if which == "all" else [attempts.find(which)]
    return [a for a in chosen if a.is_cuda]


# A one-element fill launched before each shape's call inside the range: where an attempt launches
# more grids on some shapes than on others (71, 72), the report is cut into calls at these.
MARKER = "FillFunctor"


def target(number):
    """Run under ncu: each benchmark shape once inside the NVTX range profile-NN, each call after a
    marker kernel."""
    import torch
    kernel = attempts.load(number)
    inputs = [problem.generate_input(*shape, seed=problem.TASK_SEED) for shape in problem.BENCHMARK_SHAPES]
    for data in inputs:
        kernel(data)                                   # warm-up, outside the range
    marker = torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push(f"profile-{number}")
    for data in inputs:
        marker.fill_(1.0)
        kernel(data)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()


def first_present(*values):
    return next((v for v in values if v == v), float("nan"))      # v == v: not NaN


def ratio(numerator, denominator):
    """numerator / denominator, NaN where the denominator is 0 (a kernel whose global loads all go
    through the TMA engine makes no load requests)."""
    return numerator / denominator if denominator else float("nan")


def kernel_summary(kernel: pd.Series, stall_columns, input_bytes: int) -> dict:
    """The summary columns of one profiled kernel."""
    def value(name):
        names = METRICS[name] if isinstance(METRICS[name], tuple) else (METRICS[name],)
        found = [kernel[n] for n in names if n in kernel.index]
        return pd.to_numeric(found[0], errors="coerce") if found else float("nan")
    stalls = {STALL.fullmatch(c).group(1): pd.to_numeric(kernel[c], errors="coerce") for c in stall_columns}
    total = sum(v for v in stalls.values() if v == v) or float("nan")
    top = sorted(stalls.items(), key=lambda kv: -(kv[1] if kv[1] == kv[1] else 0))[:3]
    row = {"kernel": kernel["Kernel Name"],
           "duration_us": value("duration_us") / 1e3,
           "dram_pct_of_peak": first_present(
               value("dram_pct_of_peak"),      # else: achieved over peak bytes per second
               100 * value("dram_bytes_per_s")
               / (value("dram_peak_bytes_per_cycle") * value("dram_cycles_per_s"))),
           "dram_gb_s": value("dram_bytes_per_s") / 1e9,
           "dram_bytes_over_problem_bytes": first_present(
               value("dram_bytes"), value("dram_read_bytes") + value("dram_write_bytes"))
           / input_bytes,
           "l1_hit_pct": value("l1_hit_pct"), "l2_hit_pct": value("l2_hit_pct"),
           "sectors_per_ld_request": ratio(value("ld_sectors"), value("ld_requests")),
           "achieved_occupancy_pct": value("achieved_occupancy_pct"),
           "registers_per_thread": value("registers_per_thread"),
           "local_spill_bytes": 32 * (value("local_ld_sectors") + value("local_st_sectors")),
           "inst_executed_per_byte": value("inst_executed") / input_bytes,
           "inst_issued_per_byte": value("inst_issued") / input_bytes,
           "issue_slot_util_pct": value("issue_active_pct"),
           "alu_pipe_pct": value("alu_pipe_pct"), "fma_heavy_pipe_pct": value("fma_heavy_pipe_pct")}
    for i, (reason, v) in enumerate(top, 1):
        row[f"stall_{i}"] = reason
        row[f"stall_{i}_share_pct"] = 100 * v / total
    return row


# Over the kernels of one call: these add up, these are averaged over time, the rest are the
# longest kernel's (an attempt such as 08 launches a split-K kernel and a finishing pass).
SUMMED = ("duration_us", "dram_bytes_over_problem_bytes", "local_spill_bytes",
          "inst_executed_per_byte", "inst_issued_per_byte")
TIME_WEIGHTED = ("dram_pct_of_peak", "dram_gb_s", "issue_slot_util_pct", "alu_pipe_pct",
                 "fma_heavy_pipe_pct")


def profile_command(report: Path, nvtx_range: str, *argv: str) -> None:
    """ncu (full set, never touching clocks) on `python argv...`, only the kernels inside the NVTX
    range; the report goes to report (.ncu-rep added)."""
    subprocess.run([shutil.which("ncu"), "--set", "full", "--clock-control", "none", "--nvtx", "--nvtx-include",
                    f"{nvtx_range}/", "--export", str(report), "--force-overwrite", sys.executable, *argv],
                   check=True, stdout=subprocess.DEVNULL)


def raw_page(report: Path) -> pd.DataFrame:
    """A report's raw page: one row per profiled kernel, one column per metric."""
    raw = subprocess.run([shutil.which("ncu"), "--import", str(report), "--csv", "--page", "raw",
                          "--print-units", "base"], capture_output=True, text=True, check=True)
    # the row after the header holds the units; numbers carry thousands separators
    return pd.read_csv(io.StringIO(raw.stdout), skiprows=[1], thousands=",")


def calls(report: Path, df: pd.DataFrame, shapes) -> list:
    """The report's kernels cut into one frame per call: at the markers where the report has them,
    else (reports taken before the markers) into equal counts."""
    is_marker = df["Kernel Name"].astype(str).str.contains(MARKER)
    if is_marker.any():
        starts = list(df.index[is_marker]) + [len(df)]
        found = [df.iloc[a + 1:b] for a, b in zip(starts, starts[1:])]
        if len(found) == len(shapes) and all(len(c) for c in found):
            return found
        raise RuntimeError(f"{report}: expected {len(shapes)} marked calls, got {[len(c) for c in found]} kernels")
    if len(df) == 0 or len(df) % len(shapes):
        raise RuntimeError(f"{report}: expected the same number of kernels for each of the "
                           f"{len(shapes)} shapes, got {len(df)}")
    per_call = len(df) // len(shapes)
    return [df.iloc[i * per_call:(i + 1) * per_call] for i in range(len(shapes))]


def summarize(report: Path, gpu: str) -> pd.DataFrame:
    df = raw_page(report).reset_index(drop=True)
    shapes = problem.BENCHMARK_SHAPES
    stall_columns = [c for c in df.columns if STALL.fullmatch(c)]
    rows = []
    for (m, k, l), call in zip(shapes, calls(report, df, shapes)):
        kernels = pd.DataFrame([kernel_summary(kernel, stall_columns, problem.problem_bytes(m, k, l))
                                for _, kernel in call.iterrows()])
        row = kernels.loc[kernels.duration_us.idxmax()].to_dict()
        weights = kernels.duration_us / kernels.duration_us.sum()
        row |= {c: kernels[c].sum() for c in SUMMED}
        row |= {c: (kernels[c] * weights).sum(min_count=1) for c in TIME_WEIGHTED}   # NaN if absent
        row["longest_kernel_us"] = kernels.duration_us.max()        # the main grid's own time
        rows.append({"shape": f"{m}x{k}x{l}", "kernels": len(call), **row})
    return pd.DataFrame(rows)


SITES = 12          # instructions kept per kernel, most sampled first
SITE_SAMPLES = "Warp Stall Sampling (All Samples)"
SITE_REASONS = {"long_sb": "long_scoreboard", "short_sb": "short_scoreboard", "lg": "lg_throttle",   # as in
                "mio": "mio_throttle", "math": "math_pipe_throttle", "no_inst": "no_instruction"}  # the summaries


def report_source_page(report: Path, kernel_pattern: str) -> str:
    """A report's source page (SASS, each instruction's samples) of the kernels matching a pattern."""
    return subprocess.run([shutil.which("ncu"), "--import", str(report), "--csv", "--page", "source",
                           "--print-source", "sass", "--kernel-name", f"regex:{kernel_pattern}"],
                          capture_output=True, text=True, check=True).stdout


def launches(source_page: str) -> list[str]:
    """A source page's tables, one a launch, in launch order."""
    # Each a '"Kernel Name",...' line and then the table; ncu 2025.3 prints each block twice, identical.
    split = re.split(r'^"Kernel Name".*$', source_page, flags=re.M)
    return list(dict.fromkeys(block.strip() for block in split if block.strip()))


def stall_sites(source_page: str, shape: str, top: int = SITES, launch: int | None = None) -> pd.DataFrame:
    """The `top` most sampled instructions of one launch on a source page (`ncu --page source --csv
    --print-source sass`): share_pct of all that launch's samples, issued or stalled, and the reason
    sampled most often there. `launch` picks one where the page holds several (0 the first)."""
    blocks = launches(source_page)
    if launch is None and len(blocks) != 1:
        raise ValueError(f"the source page holds {len(blocks)} different launches; name one")
    if launch is not None and not 0 <= launch < len(blocks):
        raise ValueError(f"no launch {launch}: the source page holds {len(blocks)}")
    page = pd.read_csv(io.StringIO(blocks[launch or 0]), thousands=",", na_values="-")
    reasons = [c for c in page.columns if c.startswith("stall_") and not c.endswith("(Not Issued)")]
    page[reasons] = page[reasons].fillna(0)
    page["samples"] = page[SITE_SAMPLES].fillna(0)
    top_rows = page.nlargest(top, "samples")
    reason = top_rows[reasons].idxmax(axis=1)
    return pd.DataFrame({
        "shape": shape,
        "sass": top_rows["Source"].str.strip(),
        "stall_samples": top_rows["samples"].astype(int),
        "share_pct": (100 * top_rows["samples"] / page["samples"].sum()).round(2),
        "long_scoreboard_samples": top_rows["stall_long_sb"].astype(int),
        "top_reason": [SITE_REASONS.get(r[len("stall_"):], r[len("stall_"):]) for r in reason],
        "top_reason_samples": [int(top_rows.at[i, r]) for i, r in reason.items()],
    })


def write_sites(attempt, shape, kernel_pattern, gpu, out_dir, source_page=None, launch=None):
    """The stall sites of one kernel of the attempt's report (or of a source page exported before)."""
    if source_page is None:
        source_page = report_source_page((REPORTS / gpu / attempt.name).with_suffix(".ncu-rep"), kernel_pattern)
    sites = stall_sites(source_page, shape, launch=launch)
    (out_dir / "stall-sites").mkdir(exist_ok=True)
    out = out_dir / "stall-sites" / f"{attempt.name}.csv"
    if out.exists():  # the other shapes' sites stay; this shape's are replaced
        kept = pd.read_csv(out)
        sites = pd.concat([kept[kept["shape"] != shape], sites], ignore_index=True)
    sites.to_csv(out, index=False)
    print(sites[sites["shape"] == shape][["sass", "share_pct", "top_reason"]].to_string(index=False))


def gpu_dirs():
    import torch
    if not torch.cuda.is_available():
        raise SystemExit("error: profiling needs an NVIDIA GPU, and none is visible here")
    if shutil.which("ncu") is None:
        raise SystemExit("error: Nsight Compute (ncu) is not on the PATH")
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    out_dir = REPO / "profiles" / gpu
    out_dir.mkdir(parents=True, exist_ok=True)
    (REPORTS / gpu).mkdir(parents=True, exist_ok=True)
    return gpu, out_dir


def write_summary(attempt, gpu, out_dir):
    summary = summarize((REPORTS / gpu / attempt.name).with_suffix(".ncu-rep"), gpu)
    summary.to_csv(out_dir / f"{attempt.name}.csv", index=False, float_format="%.4g")
    print(summary[["shape", "duration_us", "dram_pct_of_peak", "issue_slot_util_pct",
                   "stall_1", "stall_1_share_pct"]].to_string(index=False))


def run(which, profile=True):
    """Profile (or, with profile=False, only re-summarise the existing reports) and regenerate."""
    gpu, out_dir = gpu_dirs()
    for attempt in cuda_attempts(which):
        if profile:
            print(f"profiling {attempt.name} ...", flush=True)
            profile_command(REPORTS / gpu / attempt.name, f"profile-{attempt.number}", __file__, "target",
                            attempt.number)
        write_summary(attempt, gpu, out_dir)
    fragments.update_all()          # profiles/<gpu>/README.md and every Profile fragment


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "summarize", "target"):
        p = sub.add_parser(name)
        p.add_argument("attempt")
    p = sub.add_parser("sites", help="the most sampled instructions of one kernel of a report in build/")
    p.add_argument("attempt")
    p.add_argument("shape", help="the benchmark shape whose call launches the kernel, e.g. 7168x16384x1")
    p.add_argument("kernel", help="a pattern that only that kernel's name matches, e.g. walk")
    p.add_argument("--gpu", help="with --source-page: the GPU the page came from (h100, h200)")
    p.add_argument("--source-page", type=Path, help="a source page exported before, instead of the report")
    p.add_argument("--launch", type=int, help="where the pattern matches a kernel of every call: the "
                   "shape's position among the benchmark shapes (0 the first)")
    args = parser.parse_args()
    if args.command == "sites" and args.source_page and not args.gpu:
        parser.error("--source-page needs --gpu (the GPU the page came from)")
    if args.command == "sites":
        page = args.source_page.read_text() if args.source_page else None
        gpu, out_dir = (args.gpu, REPO / "profiles" / args.gpu) if page else gpu_dirs()
        write_sites(attempts.find(args.attempt), args.shape, args.kernel, gpu, out_dir, page, args.launch)
        fragments.update_all()
        return
    {"run": lambda: run(args.attempt), "summarize": lambda: run(args.attempt, profile=False),
     "target": lambda: target(args.attempt)}[args.command]()


if __name__ == "__main__":
    main()
