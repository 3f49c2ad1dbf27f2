"""Do the kernels with the math run the SMs at a lower clock than the floor? A GPU near its power
limit lowers its SM clock, and a kernel that keeps the integer pipes busy beside a full-speed
read draws more power than a read alone; at a lower clock the same instructions per byte take a
larger share of the issue slots and the loads' latency in cycles falls behind.

Each kernel runs for RUN_SECONDS per shape twice: back to back, CALLS_PER_GRAPH calls a CUDA
graph (no clearing between calls: the shapes are larger than L2, so every call streams A from DRAM),
and as the harness times it in clean mode (common/timing.py, a read of 256 MiB before each call),
while nvidia-smi samples the SM and memory clocks, the power draw and the active clock-event
reasons every SAMPLE_MS. The samples of the
first SETTLE_SECONDS of a run are dropped. The kernels: the floor (its clean-mode choice), 76, and
two plain reads (43's split and the tile-windows order: the warps-in-flight probe at 32 warps an
SM and the floor check's read order). Records results/probes/clocks-under-load-<gpu>.csv. Run from
the repository root on a GPU:
    python3 scripts/probes/clocks_under_load.py
"""
import datetime
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, floor, problem, results, sol, timing  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402
from scripts.probes.warm_translations import KERNELS  # noqa: E402

SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (57344, 8192, 1)]   # A larger than either GPU's L2
RUN_SECONDS = 2.0
SETTLE_SECONDS = 0.3
SAMPLE_MS = 20
CALLS_PER_GRAPH = 500
REASONS = "clocks_event_reasons.active"    # "clocks_throttle_reasons.active" before driver 535
FIELDS = ["timestamp", "clocks.sm", "clocks.mem", "power.draw", REASONS]


def sampler(log: Path) -> subprocess.Popen:
    return subprocess.Popen(["nvidia-smi", f"--query-gpu={','.join(FIELDS)}", "--format=csv,noheader,nounits",
                             f"--loop-ms={SAMPLE_MS}", f"--filename={log}"])


def parse(lines: str) -> pd.DataFrame:
    rows = [[f.strip() for f in line.split(",")] for line in lines.splitlines() if line.count(",") == 4]
    df = pd.DataFrame(rows, columns=FIELDS)
    df["t"] = [datetime.datetime.strptime(s, "%Y/%m/%d %H:%M:%S.%f").timestamp() for s in df.timestamp]
    for column in FIELDS[1:4]:
        df[column] = pd.to_numeric(df[column], errors="coerce")
    return df


def graph_of(kernel, data) -> torch.cuda.CUDAGraph:
    """CALLS_PER_GRAPH calls in one CUDA graph: launched from Python one at a time, the calls
    would leave the GPU idle between them (the host takes longer per call than the GPU)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        kernel(data)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(CALLS_PER_GRAPH):
            kernel(data)
    return graph


def run_back_to_back(kernel, data) -> tuple:
    """(wall start, wall end, calls, GPU us per call) of RUN_SECONDS of calls."""
    graph = graph_of(kernel, data)
    graph.replay()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0, calls = time.time(), 0
    start.record()
    while time.time() - t0 < RUN_SECONDS:
        graph.replay()
        calls += CALLS_PER_GRAPH
        torch.cuda.synchronize()
    end.record()
    end.synchronize()
    return t0, time.time(), calls, start.elapsed_time(end) * 1e3 / calls


def run_as_timed(kernel, data) -> tuple:
    """The same, as the harness times a call in clean mode (L2 cleared by a read before each)."""
    t0 = time.time()
    timed = timing.time_call(kernel, data, "clean", max_seconds=RUN_SECONDS, max_runs=10**7, rel_err=0)
    return t0, time.time(), timed.runs, timed.mean_us


RUNS = {"back to back": run_back_to_back, "timed, clean": run_as_timed}


def main():
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    floors = floor.Floor(gpu)
    kernels = {name: attempts.load_library(source, defines, name) for name, (source, defines) in KERNELS.items()}
    windows = []
    log = RESULTS_DIR / "probes" / f"clocks-under-load-{gpu}.smi.log"
    smi = sampler(log)
    time.sleep(1.0)
    try:
        for shape in SHAPES:
            data = problem.generate_input(*shape, seed=problem.TASK_SEED)
            for name, kernel in {"floor": floors.kernel(data, shape, "clean"), **kernels}.items():
                for how, run in RUNS.items():
                    t0, t1, calls, us = run(kernel, data)
                    windows.append({"strategy": name, "m": shape[0], "k": shape[1], "l": shape[2], "run": how,
                                    "t0": t0 + SETTLE_SECONDS, "t1": t1, "calls": calls, "us_per_call": us})
            del data
    finally:
        time.sleep(0.5)
        smi.send_signal(signal.SIGINT)
        smi.wait(timeout=10)
    samples = parse(log.read_text())
    log.unlink()
    rows = []
    for w in windows:
        s = samples[(samples.t >= w["t0"]) & (samples.t <= w["t1"])]
        rows.append({**{k: v for k, v in w.items() if k not in ("t0", "t1")},
                     "gb_s": sol.gbps(w["m"], w["k"], w["l"], w["us_per_call"]), "samples": len(s),
                     "sm_mhz_mean": s["clocks.sm"].mean(), "sm_mhz_min": s["clocks.sm"].min(),
                     "mem_mhz_mean": s["clocks.mem"].mean(), "power_w_mean": s["power.draw"].mean(),
                     "power_w_max": s["power.draw"].max(),
                     "event_reasons": ";".join(sorted(set(s[REASONS].astype(str)))),
                     **results.provenance()})
    df = pd.DataFrame(rows)
    out = RESULTS_DIR / "probes" / f"clocks-under-load-{gpu}.csv"
    df.to_csv(out, index=False, float_format="%.4f")
    print(df[["strategy", "m", "k", "l", "run", "us_per_call", "gb_s", "samples", "sm_mhz_mean", "sm_mhz_min",
              "mem_mhz_mean", "power_w_mean", "power_w_max", "event_reasons"]].to_string(index=False))
    print(f"recorded {len(df)} rows in {out}")


if __name__ == "__main__":
    main()
