"""Where the rolled kernel's one-window warps lose (closing-the-gap section 67): Nsight Compute
(full set, `--clock-control none`) on one 4096x4096x1 call of 93d and of 93g, both launched with
the H200's rule (scripts/probes/h200_rule_on_h100.cu), where every part is one window and 93g's
rolled loop never runs, yet 93g took 4-6 points more of the floor on both GPUs. Rows (the warps'
stall reasons as shares of all stalls, instructions, time, and each kernel's most sampled SASS
instructions) in results/probes/one-window-stalls-<gpu>.csv. From the repository root on a GPU:
    python3 scripts/probes/one_window_stalls.py

Written before it ran. If the loss is the jump over the rolled loop's code (the one-window path
fetched from two places 5.6 KB apart), 93g's warps show a larger share of no_instruction stalls
than 93d's, at the same instructions; if not, the difference sits elsewhere in the stall mix.
"""
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, problem, results, sol  # noqa: E402
from profiles import profile  # noqa: E402
from scripts.probes import h200_rule_on_h100  # noqa: E402
from scripts.probes.probe import RESULTS_DIR  # noqa: E402

SHAPE = (4096, 4096, 1)
NAMES = ("93d, the H200's rule", "93g, the H200's rule")
RANGE = "one-window"


def target():
    """Run under ncu: one call of each build inside the NVTX range, each after a marker fill."""
    import torch
    builds = h200_rule_on_h100.builds()
    kernels = [attempts.load_library(*builds[name], name) for name in NAMES]
    data = problem.generate_input(*SHAPE, seed=problem.TASK_SEED)
    for kernel in kernels:
        kernel(data)                                   # warm-up, outside the range
    marker = torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push(RANGE)
    for kernel in kernels:
        marker.fill_(1.0)
        kernel(data)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()


def main():
    import subprocess
    import shutil
    import torch
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    report = profile.REPORTS / gpu / "one-window-stalls"
    report.parent.mkdir(parents=True, exist_ok=True)
    profile.profile_command(report, RANGE, __file__, "target")
    report = report.with_suffix(".ncu-rep")
    df = profile.raw_page(report)
    kernels = df[~df["Kernel Name"].astype(str).str.contains(profile.MARKER)].reset_index(drop=True)
    if len(kernels) != len(NAMES):
        raise SystemExit(f"expected {len(NAMES)} kernels, got {len(kernels)}")
    stall_columns = [c for c in kernels.columns if profile.STALL.fullmatch(c)]
    source_page = subprocess.run([shutil.which("ncu"), "--import", str(report), "--csv", "--page", "source",
                                  "--print-source", "sass", "--kernel-name", "regex:nvfp4_gemv"],
                                 capture_output=True, text=True, check=True).stdout
    rows = []
    for i, name in enumerate(NAMES):
        kernel = kernels.iloc[i]
        stalls = {profile.STALL.fullmatch(c).group(1): pd.to_numeric(kernel[c], errors="coerce") for c in stall_columns}
        total = sum(v for v in stalls.values() if v == v)
        base = {"build": name, "duration_us": pd.to_numeric(kernel["gpu__time_duration.sum"]) / 1e3,
                "inst_executed": pd.to_numeric(kernel["smsp__inst_executed.sum"]), **results.provenance()}
        for reason, v in sorted(stalls.items(), key=lambda kv: -(kv[1] if kv[1] == kv[1] else 0)):
            rows.append({**base, "kind": "stall", "what": reason, "share_pct": round(100 * v / total, 2)})
        sites = profile.stall_sites(source_page, "x".join(map(str, SHAPE)), top=6, launch=i)
        for site in sites.itertuples():
            rows.append({**base, "kind": "site", "what": f"{site.sass} ({site.top_reason})", "share_pct": site.share_pct})
    out = RESULTS_DIR / "probes" / f"one-window-stalls-{gpu}.csv"
    pd.DataFrame(rows).to_csv(out, index=False)
    print(pd.DataFrame(rows).groupby("build").head(12).to_string(index=False))
    print(f"recorded {len(rows)} rows in {out}")


if __name__ == "__main__":
    target() if sys.argv[1:] == ["target"] else main()
