"""What holds a warp of 93f between two windows on the H200: each window's load-to-use span under
the call's load, its products, and the bytes an SM has on their way (closing-the-gap section 93).
scripts/probes/window_spans.cu runs 93f's H200 loop on 93f's grids with every window stamped when
its loads are sent, when all of them have landed and when its products are done; with PRODUCTS 0
the same loads without the products. Each call runs alone after the L2 is cleared as the harness
clears it, CALLS calls per kernel, shape and mode, and one warp alone on the GPU reads 16 windows
(the unloaded span). Per call: the medians of the spans (a warp's first window apart from the
rest), the time between a window's products and the next window's loads, and per SM the bytes on
their way on average (each window's A and scales times its load-to-use span, over the SM's time)
and the SM's rate. Rows in results/probes/window-spans-<gpu>.csv, the medians by window
ordinal in window-spans-by-window-<gpu>.csv; then the stamped builds timed beside 93f and the
floor (what the stamps cost: window-spans-timed-<gpu>.csv). From the repository root on a GPU:
    python3 scripts/probes/window_spans.py

Written before any GPU ran it. Section 69 read the H200's gap as each warp's time away from its
loads: a warp has no bytes on their way while it multiplies. Two ways that can cost. If DRAM's
latency under load is set by its queue (it serves what it is given at its rate), warps away leave
the queue shorter and the spans shorter, and time away costs little; if the latency holds whatever
the load, the rate is the bytes on their way over that latency, and time away costs in proportion.
Predicted (H200, clean mode, the windows after a warp's first): one warp alone 0.6 to 1.0 us a
window; 93f's loads alone at 1.6 to 2.6 us (most of it queue); with the products, the products
0.2 to 0.6 us a window and the loads' span shorter than alone's by less than the products' span,
so that a warp's round (load, products, next sends) is longer than alone's: latency that does
not fall as far as the load does. The SMs' bytes on their way: 40 to 60 KB with the loads alone,
less with the products. Falsifier: the loads' span with the products shorter than alone's by the
products' span or more (then the queue absorbs the time away and something else sets the gap).

Its first run (2dc1bbc, three stamps a window; rows replaced by the second run's) fired the
falsifier, and the stamps cost: the stamped 93f read 7168x16384x1 clean at 1.36 times the floor
against 93f's 1.135 (a window loop of 403 instructions against 93f's 344: each stamp held in a
register across the products made ptxas compute the window's addresses anew). Written before the
second run, which stores each stamp to shared memory as soon as it is read (93f's loop at 394
instructions with all three stamps, 382 with the sends and landings, 349 with the sends alone):
with the sends alone, every call within 3 points of 93f's and a warp's later rounds (send to
send) on 7168x16384x1 clean 1.9 to 2.4 us, longer than the loads alone's rounds by 0.2 to 0.6 us;
with the sends and landings, a window's load-to-use span under 93f's load between the lone warp's
and the loads alone's. Falsifier: the sends alone further than 5 points from 93f's calls (the
rounds are then not 93f's).
"""
import ctypes
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, problem, sol  # noqa: E402
from common.timing import MODES, L2Clearer  # noqa: E402
from scripts.probes.probe import included_source, record, write_tables  # noqa: E402
from scripts.probes.timeline import warmed_up  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
# 93f's one-wave long rows (2 parts of 8 windows a tile), two shapes of several waves (one part a
# tile: 7 and 8 windows a warp) and the longest rows of the decode set (2 parts of 14).
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (57344, 8192, 1), (8192, 28672, 1)]
KERNELS = {"93f, stamped": {}, "93f's loads alone, stamped": {"PRODUCTS": 0},
           "93f, sends and landings stamped": {"STAMPS": 2}, "93f, sends stamped": {"STAMPS": 1}}
LONE = "one warp alone, stamped"
CALLS = 3
HEADER = ["sm", "global_start", "start", "end", "global_end", "windows"]
MAX_WINDOWS = 20                # window_spans.cu's
RECORD_WORDS = len(HEADER) + 3 * MAX_WINDOWS
WINDOW_BYTES = 4 * (512 + 64)   # a window of the warp's four rows: A and its scales
WRAP = 1 << 32                  # the clocks' low halves


def defines(name: str) -> dict:
    return {**KERNELS.get(name, {}), **included_source("93f")}


def stamp_buffer(shapes) -> torch.Tensor:
    """A record for every warp of any of the shapes' grids: a tile of 4 rows has at most a part a
    window, and at most 32."""
    return torch.zeros(max(m * l // 4 * min(32, k // 1024) for m, k, l in shapes) * RECORD_WORDS,
                       dtype=torch.int32, device="cuda")


def parse(stamps: torch.Tensor) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The warps that wrote a record (its header, clocks counted from its SM's first start) and
    their windows (warp, ordinal, sent, landed, done on the same clocks)."""
    words = stamps.view(-1, RECORD_WORDS).cpu().numpy().astype("int64") & (WRAP - 1)
    written = words[:, 0] > 0
    warps = pd.DataFrame(words[written, : len(HEADER)], columns=HEADER).assign(sm=lambda w: w.sm - 1)
    origin = warps.groupby("sm").start.transform("min").to_numpy()
    warps[["start", "end"]] = (warps[["start", "end"]].to_numpy() - origin[:, None]) % WRAP
    stamped = words[written, len(HEADER):].reshape(len(warps), MAX_WINDOWS, 3)
    ordinal = np.arange(MAX_WINDOWS)
    warp, i = np.nonzero(ordinal[None, :] < np.minimum(warps.windows.to_numpy(), MAX_WINDOWS)[:, None])
    clocks = (stamped[warp, i] - origin[warp, None]) % WRAP
    windows = pd.DataFrame({"warp": warp, "ordinal": i, "sm": warps.sm.to_numpy()[warp],
                            "sent": clocks[:, 0], "landed": clocks[:, 1], "done": clocks[:, 2]})
    return warps, windows


def spans(warps: pd.DataFrame, windows: pd.DataFrame, stamps: int = 3) -> tuple[dict, pd.DataFrame]:
    """One call's summary (ns at the SM clock the call's own stamps give), and each window's
    spans in ns (load: sent to landed; products: landed to done; between: done to the warp's next
    sent; round: sent to the next sent), NaN where the build has fewer `stamps` (window_spans.cu's
    STAMPS)."""
    ns_per_cycle = ((warps.global_end - warps.global_start) % WRAP).sum() / (warps.end - warps.start).sum()
    windows = windows.assign(landed=windows.landed if stamps >= 2 else np.nan, done=windows.done if stamps >= 3 else np.nan)
    w = windows.sort_values(["warp", "ordinal"]).assign(
        load=lambda d: (d.landed - d.sent) * ns_per_cycle,
        products=lambda d: (d.done - d.landed) * ns_per_cycle,
        between=lambda d: (d.groupby("warp").sent.shift(-1) - d.done) * ns_per_cycle,
        round=lambda d: (d.groupby("warp").sent.shift(-1) - d.sent) * ns_per_cycle)
    later = w[w.ordinal > 0]
    rounds = later.dropna(subset=["round"])  # and followed by another of the same warp
    per_sm = w.groupby("sm").agg(load_ns=("load", "sum"), windows=("load", "size"))
    sm_span_ns = warps.groupby("sm").end.max() * ns_per_cycle  # from the SM's first start
    in_flight = per_sm.load_ns * WINDOW_BYTES / sm_span_ns  # bytes on their way, on average
    row = {"sm_ghz": 1 / ns_per_cycle, "warps": len(warps), "windows_a_warp": warps.windows.median(),
           "call_ns": (warps.global_end.max() - warps.global_start.min()) % WRAP,
           "first_load_ns": w[w.ordinal == 0].load.median(),
           "load_ns": later.load.median(), "load_p90_ns": later.load.quantile(0.9),
           "products_ns": w.products.median(), "between_ns": rounds.between.median(),
           "round_ns": rounds["round"].median(),
           "away_share": (rounds.products + rounds.between).sum() / rounds["round"].sum()
           if len(rounds) and stamps >= 3 else float("nan"),
           "in_flight_kb_per_sm": in_flight.median() / 1024 if stamps >= 2 else float("nan"),
           "sm_gb_s": (per_sm.windows * WINDOW_BYTES / sm_span_ns).median()}
    return row, w


def stamped_calls(name: str, kernel, data, mode: str, stamps: torch.Tensor, shape) -> tuple[list, list]:
    """CALLS calls after the clearing: a summary row each, and the first call's medians by window
    ordinal."""
    m, k, l = shape
    rows, by_window = [], []
    for call in range(CALLS):
        stamps.zero_()
        L2Clearer(mode)()
        kernel(data)
        torch.cuda.synchronize()
        row, w = spans(*parse(stamps), KERNELS.get(name, {}).get("STAMPS", 3))
        rows.append({"kernel": name, "m": m, "k": k, "l": l, "mode": mode, "call": call, **row})
        if call == 0:
            medians = w.groupby("ordinal")[["load", "products", "between", "round"]].median().add_suffix("_ns")
            by_window += [{"kernel": name, "m": m, "k": k, "l": l, "mode": mode, "ordinal": o, **r}
                          for o, r in medians.iterrows()]
    return rows, by_window


def lone(stamps: torch.Tensor, mode: str) -> tuple[list, list]:
    """One warp alone on the GPU over all the windows (16) of the first shape's first rows."""
    m, k, l = shape = SHAPES[0]
    data = problem.generate_input(*shape, seed=problem.TASK_SEED)
    library = warmed_up(LONE, defines(LONE), stamps, data, shape, SOURCE).library
    a, b, sfa, sfb, _, _, c = data
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

    def call(_):
        if err := library.window_spans_lone(*(ctypes.c_void_p(t.data_ptr()) for t in (a, b, sfa, sfb, c)), m, k, stream):
            raise RuntimeError(f"window_spans_lone failed with CUDA error {err}")
    return stamped_calls(LONE, call, data, mode, stamps, shape)


def main():
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    stamps = stamp_buffer(SHAPES)
    rows, by_window = [], []
    for mode in MODES:
        for shape in SHAPES:
            data = problem.generate_input(*shape, seed=problem.TASK_SEED)
            for name in KERNELS:
                kernel = warmed_up(name, defines(name), stamps, data, shape, SOURCE,
                                   computes="93f" if KERNELS[name].get("PRODUCTS", 1) else None)
                r, b = stamped_calls(name, kernel, data, mode, stamps, shape)
                rows += r
                by_window += b
        r, b = lone(stamps, mode)
        rows += r
        by_window += b
    df = write_tables(gpu, {"window-spans": (rows, "%.4f"),
                            "window-spans-by-window": (by_window, "%.1f")})["window-spans"]
    shown = ["call_ns", "first_load_ns", "load_ns", "load_p90_ns", "products_ns", "between_ns", "round_ns",
             "away_share", "in_flight_kb_per_sm", "sm_gb_s", "sm_ghz"]
    print(df.groupby(["m", "k", "l", "mode", "kernel"], sort=False)[shown].median().round(3).to_string())
    print(f"recorded {len(df)} rows in results/probes/window-spans-{gpu}.csv")
    # What the stamps cost: the stamped builds timed beside 93f and the floor, writing their stamps.
    record("window-spans-timed", {"93f": (attempts.find("93f").source, None)} |
           {name: (SOURCE, defines(name)) for name in KERNELS}, SHAPES)


if __name__ == "__main__":
    main()
