"""When each of 93f's warps starts and ends its window loop on the H200, and on which SM and
scheduler (closing-the-gap section 93). scripts/probes/loop_spans.cu is 93f's kernel, copied line
for line, with a stamp before and after its window loops (the loop keeps 93f's schedule), on 93f's
grids. Each call runs alone after the L2 is cleared as the harness clears it, CALLS calls per
shape and mode. Per call: the call's span (the first loop's start to the last loop's end, global
timer), the warps' loop spans (SM clock), and when the warps' loops end, as shares of the call's
span (a quarter, half, three quarters and all of them); per call and scheduler load (the warps
an SM's scheduler holds, slot % 4, section 91) and per rank on its scheduler (the order of its
warps' starts, and its place among the scheduler's slots, slot // 4), how long its warps' loops
take and when they end. With PRODUCTS 0 the same loop without its products (93f's loads alone, a
fold of the words in their place); with DEALT 1 93zc's block of 32 warps an SM (section 94), its
windows by ticket and dealt in turn (TICKETS 0), on the shapes its rule takes. Rows in
results/probes/loop-spans-<gpu>.csv and loop-spans-schedulers-<gpu>.csv; every warp of the first
clean call on the one-wave shape in loop-spans-warps-<gpu>.csv; then the stamped builds timed
beside 93f and the floor (what the stamps cost: loop-spans-timed-<gpu>.csv). From the repository
root on a GPU:
    python3 scripts/probes/loop_spans.py

Written before any GPU ran it. The probe window_spans (its stamped loops, whose calls were slower
than 93f's) found each warp's rounds shortening as the call went on, and the windows' loads
coming in near the lone warp's time late in the call: the memory system idle while some warps
still run. If 93f's one-wave calls end on warps that fall behind, its warps' loops end spread
out: predicted, on 7168x16384x1 clean, half of the warps' loops ended by 65 to 85 percent of the
call's span, and the warps of the schedulers that hold the most warps (7 of 27 on the busiest)
taking longer than those of schedulers holding fewer, by up to a seventh. On the shapes of several
waves (one warp a tile there) the spans' spread is what ends the last wave. Falsifier: half of the
loops of 7168x16384x1 ending after 90 percent of the call's span (then they end together, and the
models' shortening rounds were their own).

Its first run (a7f69a9, 93f alone; rows replaced by the second run's) held: half of the loops of
7168x16384x1 clean had ended by 0.81 of the span, and a warp's end followed its rank on its
scheduler, the first rank's median about 3.7 us before the seventh's, the warps of schedulers
holding 7 taking a few percent longer than those holding 6. Written before the second run, which
adds the loads alone: the order comes from the products (the warps' issue, the oldest warp first
where several are ready), so without them the ranks' median ends lie within 0.7 us of each other
on 7168x16384x1 clean and half of the loops end after 0.9 of the span. Falsifier: the loads
alone's ends following rank by more than half as much as 93f's (then the order is the memory's
service, not the issue).

Its second run (595b0be) held in direction (the loads alone's ranks end within about a microsecond,
a third of 93f's spread) and missed the 0.7 us. Written before the third run, which adds 93zc's
block of 32 warps an SM (DEALT 1; 93zc lost to 93f, and in clean mode its tickets were level with
the windows dealt in turn, section 94): inside one block, whose warps all start at once, the order
of the ends follows the warps' places on their schedulers as in 93f's grid, so with the windows
dealt in turn the ranks' (slot // 4) median ends spread over at least a tenth of the span on
7168x16384x1 clean, and with the tickets over less than half of that. Falsifier: the windows dealt
in turn ending within a twentieth of the span across ranks (then one block has no such order, and
the tickets had nothing to even out).
"""
import sys
from pathlib import Path

import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, problem, sol  # noqa: E402
from common.timing import MODES, L2Clearer  # noqa: E402
from scripts.probes.probe import included_source, record, write_tables  # noqa: E402
from scripts.probes.timeline import warmed_up  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
# The benchmark shapes (one wave, then one warp a tile of 7 and of 2 windows), and two decode
# shapes of long rows (one warp a tile in several waves; two parts of 14 windows in one).
SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4), (57344, 8192, 1), (8192, 28672, 1)]
KERNELS = {"93f, loops stamped": {}, "93f's loads alone, loops stamped": {"PRODUCTS": 0},
           "93zc, loops stamped": {"DEALT": 1}, "93zc's windows dealt in turn, loops stamped": {"DEALT": 1, "TICKETS": 0}}
# 93zc's builds are stamped where its rule takes the shape (93z's: one wave leaving warps unused)
DEALT_SHAPES = [(7168, 16384, 1), (8192, 28672, 1)]
CALLS = 3
FIELDS = ["start", "global_start", "end", "global_end", "sm", "slot"]
WRAP = 1 << 32  # the clocks' low halves
ENDED_BY = (0.25, 0.5, 0.75, 1.0)


def defines(name: str = "93f, loops stamped") -> dict:
    return {**KERNELS[name], **included_source("93zc" if KERNELS[name].get("DEALT") else "93f")}


def computes(name: str) -> str | None:
    """The attempt whose output a build computes bit for bit (93zc's control too: its sums are
    added in window order whoever ran them), None for the loads alone."""
    if not KERNELS[name].get("PRODUCTS", 1):
        return None
    return "93zc" if KERNELS[name].get("DEALT") else "93f"


def stamp_buffer(shapes) -> torch.Tensor:
    """A record for every warp of any of the shapes' grids (a tile of 4 rows has at most a part a
    window, and at most 32)."""
    return torch.zeros(max(m * l // 4 * min(32, k // 1024) for m, k, l in shapes) * len(FIELDS),
                       dtype=torch.int32, device="cuda")


def parse(stamps: torch.Tensor) -> pd.DataFrame:
    """The warps that wrote a record: SM, slot, scheduler (slot % 4) and the warps its scheduler
    held (sharing); the loop's start and end on the SM's clock counted from the SM's first start,
    and on the global timer from the call's first start."""
    words = stamps.view(-1, len(FIELDS)).cpu().numpy().astype("int64") & (WRAP - 1)
    warps = pd.DataFrame(words[words[:, 4] > 0], columns=FIELDS).assign(sm=lambda w: w.sm - 1)
    first = warps.groupby("sm").start.transform("min")
    warps[["start", "end"]] = warps[["start", "end"]].sub(first, axis=0) % WRAP
    origin = warps.global_start.min()
    warps[["global_start", "global_end"]] = (warps[["global_start", "global_end"]] - origin) % WRAP
    warps["scheduler"] = warps.slot % 4
    warps["sharing"] = warps.groupby(["sm", "scheduler"]).slot.transform("size")  # one wave: its warps
    warps["rank"] = warps.groupby(["sm", "scheduler"]).start.rank(method="first").astype(int)  # its start's order
    warps["slot_rank"] = warps.slot // 4  # its place among its scheduler's slots
    return warps


def spans(warps: pd.DataFrame) -> tuple[dict, pd.DataFrame]:
    """One call's summary, and per scheduler load (sharing) and per rank on the scheduler (the
    order of the warps' starts there) the warps' loop spans in ns and when they end, where the
    call is one wave (no slot of an SM used twice; else no rows: a scheduler's warps then come in
    turns)."""
    ns_per_cycle = ((warps.global_end - warps.global_start) % WRAP).sum() / (warps.end - warps.start).sum()
    span = (warps.end - warps.start) * ns_per_cycle
    call = warps.global_end.max()
    row = {"sm_ghz": 1 / ns_per_cycle, "warps": len(warps), "call_ns": call,
           "last_start_ns": warps.global_start.max(), "span_p50_ns": span.median(),
           "span_p90_ns": span.quantile(0.9), "span_max_ns": span.max(),
           **{f"ended_{int(100 * q)}pct_share": warps.global_end.quantile(q) / call for q in ENDED_BY}}
    if warps.duplicated(["sm", "slot"]).any():
        return row, pd.DataFrame()
    groups = [(warps.assign(span_ns=span).groupby(by)
               .agg(warps=("span_ns", "size"), span_p50_ns=("span_ns", "median"),
                    end_p50_share=("global_end", lambda e: e.median() / call)).reset_index()
               .rename(columns={by: "value"}).assign(by=by)) for by in ("sharing", "rank", "slot_rank")]
    return row, pd.concat(groups, ignore_index=True)[["by", "value", "warps", "span_p50_ns", "end_p50_share"]]


def main():
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    stamps = stamp_buffer(SHAPES)
    rows, schedulers, first_warps = [], [], []
    for mode in MODES:
        for shape in SHAPES:
            m, k, l = shape
            data = problem.generate_input(*shape, seed=problem.TASK_SEED)
            for name, kernel_defines in KERNELS.items():
                if kernel_defines.get("DEALT") and shape not in DEALT_SHAPES:
                    continue
                kernel = warmed_up(name, defines(name), stamps, data, shape, SOURCE, computes=computes(name))
                for call in range(CALLS):
                    stamps.zero_()
                    L2Clearer(mode)()
                    kernel(data)
                    torch.cuda.synchronize()
                    warps = parse(stamps)
                    row, groups = spans(warps)
                    key = {"kernel": name, "m": m, "k": k, "l": l, "mode": mode, "call": call}
                    rows.append({**key, **row})
                    schedulers += [{**key, **r} for r in groups.to_dict("records")]
                    if call == 0 and mode == "clean" and shape == SHAPES[0]:
                        first_warps.append(warps.assign(**key))
    df = write_tables(gpu, {"loop-spans": (rows, "%.4f"), "loop-spans-schedulers": (schedulers, "%.4f"),
                            "loop-spans-warps": (pd.concat(first_warps), None)})["loop-spans"]
    shown = ["call_ns", "last_start_ns", "span_p50_ns", "span_p90_ns", "span_max_ns",
             *[f"ended_{int(100 * q)}pct_share" for q in ENDED_BY], "sm_ghz"]
    print(df.groupby(["m", "k", "l", "mode", "kernel"], sort=False)[shown].median().round(3).to_string())
    print(pd.DataFrame(schedulers).groupby(["m", "k", "l", "mode", "kernel", "by", "value"], sort=False)
          [["warps", "span_p50_ns", "end_p50_share"]].median().round(3).to_string())
    print(f"recorded {len(df)} rows in results/probes/loop-spans-{gpu}.csv")
    # What the stamps cost: the stamped build timed beside 93f and the floor, writing its stamps.
    record("loop-spans-timed", {"93f": (attempts.find("93f").source, None), "93zc": (attempts.find("93zc").source, None)} |
           {name: (SOURCE, defines(name)) for name in KERNELS}, SHAPES)


if __name__ == "__main__":
    main()
