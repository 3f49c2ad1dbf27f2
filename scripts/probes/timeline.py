"""Where a call's time goes inside the GPU (closing-the-gap section 53): scripts/probes/timeline.cu
stamps every warp's start, the arrival of its last window of A, and its end, in 95's kernel, in
95's kernel without its products, in 95's kernel on 98's grid, in 95a's (95 with its split sums
finished in shared memory) and in 95a's with its partials in a static array, and in the floor's
read, alone and with 512 bytes of shared memory a block asked for at launch (99 in the configuration the recorded
floor check found fastest for the shape and mode). Each call runs alone after the L2 is cleared
as the harness clears it. Per SM: how long its warps took to start, when its last bytes had come,
and how long after them it ended (the tail); the medians over SMs and the last SM, in ns (SM
clocks over the global timer, fitted per call). Rows in results/probes/timeline-<gpu>.csv; the
per-warp stamps of one call per kernel and mode of the first shape in
results/probes/timeline-<gpu>-warps.csv. Then the stamped builds, stamps written, are timed beside
95, 95a and the floor as the floor check times its strategies: what the stamps cost, and 95a
against 95 on these shapes (results/probes/timeline-timed-<gpu>.csv). From the repository root on a GPU:
    python3 scripts/probes/timeline.py
With `pairs`, the shapes whose warps run the pairs' loop on the H100 instead, with 95a's kernel
(93a's code there) stamping each pair's second window, with and without products: their rows join
timeline-<gpu>.csv, the stamps' cost timeline-pairs-timed-<gpu>.csv:
    python3 scripts/probes/timeline.py pairs
With `room`, whether a warp that has left makes room for the next block before its own block
ends (closing-the-gap section 60): 95a's kernel with its end and with 93c's (the other warps of a
split tile leave at once) on shapes of several waves, one call per kernel and mode; per SM, the
warp places held by the blocks resident when each block starts, and the warps an SM holds on
average while blocks wait (results/probes/timeline-room-<gpu>.csv):
    python3 scripts/probes/timeline.py room
On the H200 the same run takes the H200's grid, one-warp blocks in several waves as 93f's
(closing-the-gap section 87). Written before it ran there: 93f's grid is not short of warps while
blocks wait (the reading of 93s's loss, section 87), so 95a's one-warp blocks hold at least 31 of
32 warps on 7168x2048x4 and 28672x4096x1 (the probe register_quarters' one-warp blocks of spread
lengths held about 29); if they hold 30 or fewer, the turns do cost 93f's grid and 93s's blocks of
four lost what they gained at their ends.
With `bytes`, whether a window's scales are the last of its bytes to come (closing-the-gap section
62): 95a's kernel with its stamp (where the products first read row 0) and stamped once all four
rows and their scales are in, on the one-window shapes; rows join timeline-<gpu>.csv, the stamps'
cost timeline-bytes-timed-<gpu>.csv:
    python3 scripts/probes/timeline.py bytes
"""
import ctypes
import sys
from pathlib import Path

import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, floor, problem, results, sol  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402
from common.timing import MODES, L2Clearer  # noqa: E402
from scripts.probes.probe import record  # noqa: E402
from scripts.probes.register_quarters import resident_warps  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
# Shapes whose warps run one window on the H100 (61's rule): one wave (4096x4096x1) to seven
# (28672x4096x1). The pairs' loop (7168x16384x1, 4096x14336x1) has its own kernels: PAIR_SHAPES.
SHAPES = [(4096, 4096, 1), (8192, 8192, 1), (7168, 2048, 4), (4096, 7168, 8), (28672, 4096, 1)]
KERNELS = {"95": {"FLOOR": 0}, "95 without products": {"FLOOR": 0, "PRODUCTS": 0},
           "95 in 98's blocks": {"FLOOR": 0, "BLOCK_WARPS": 8}, "95a": {"FLOOR": 0, "SHALLOW_SUMS": 1},
           "95a, partials in a static array": {"FLOOR": 0, "SHALLOW_SUMS": 2}}
# The pairs' shapes, and 95a with the pairs' loop stamped (only each pair's second window: a stamp
# in the first spills; a warp's last window is a pair's second where its part is whole pairs).
PAIR_SHAPES = [(7168, 16384, 1), (4096, 14336, 1)]
PAIR_KERNELS = {"95a, pairs stamped": {"FLOOR": 0, "SHALLOW_SUMS": 1, "PAIR_STAMPS": 1},
                "95a without products, pairs stamped": {"FLOOR": 0, "SHALLOW_SUMS": 1, "PAIR_STAMPS": 1, "PRODUCTS": 0}}
# Shapes of several waves of one-window parts on the H100 (blocks of 2, 7, 4, 8 and 3 warps: at 32
# warps an SM, 7 and 3 leave places no whole block fills), 95a's end and 93c's: does a warp that
# has left give its room to the next block?
ROOM_SHAPES = [(7168, 2048, 4), (4096, 7168, 8), (28672, 4096, 1), (8192, 8192, 1), (8192, 3072, 4)]
TILE_ROWS = 4  # timeline.cu's rows a tile
ROOM_KERNELS = {"95a": KERNELS["95a"], "95a, others leave": {**KERNELS["95a"], "OTHERS_LEAVE": 1}}
# Are a window's scales the last of its bytes? 95a's stamp (where the products first read row 0)
# beside the same kernel stamped once all four rows and their scales are in (closing-the-gap
# section 62), on the one-window shapes.
BYTES_KERNELS = {"95a, row 0 stamped": KERNELS["95a"],
                 "95a, rows and scales stamped": {**KERNELS["95a"], "ALL_BYTES_STAMPED": 1}}
# the attempt whose output each stamped copy of a kernel computes, bit for bit
COMPUTES = {"95": "95", "95 in 98's blocks": "95", "95a": "95a", "95a, partials in a static array": "95a",
            "95a, pairs stamped": "95a", "95a, others leave": "95a"} | {name: "95a" for name in BYTES_KERNELS}
# Does a block that holds shared memory reach its SM later? The floor's read asks for some, unused.
FLOOR_SHARED_MEMORY = {"LAUNCH_SMEM": 512}
CALLS = 7
# timeline.cu's record: 32-bit words, the clocks' low halves
FIELDS = ["sm", "global_start", "start", "_", "last_arrival", "end", "global_end", "_"]
CLOCKS = ["start", "last_arrival", "end"]
# The floor's candidates that timeline.cu can build: 99's configurations.
FLOOR_CONFIGS = floor.configs()


def floor_defines(gpu: str, shape: tuple, mode: str) -> tuple[str, dict]:
    """The floor check's fastest configuration of 99 for the shape and mode (99's defaults where it
    chose a read order or holds no row), as timeline.cu's defines."""
    config = floor.checked_fastest(gpu).get((*shape, mode), "")
    if config not in FLOOR_CONFIGS:
        config = ""
    return config, {"FLOOR": 1, **(FLOOR_CONFIGS[config] or {})}


def stamped_call(kernel, data, mode: str, stamps: torch.Tensor, fields=FIELDS, clocks=CLOCKS) -> pd.DataFrame:
    """One call after the L2 is cleared; every warp's record as a row (a record of 8 words named
    by `fields`, those in `clocks` SM clocks)."""
    stamps.zero_()
    L2Clearer(mode)()
    kernel(data)
    torch.cuda.synchronize()
    return records(stamps, fields, clocks)


def records(stamps: torch.Tensor, fields=FIELDS, clocks=CLOCKS) -> pd.DataFrame:
    """The stamps a call left: every warp's (or block's) record of 8 words named by `fields` (a
    spare word named "_" dropped), as a row, those in `clocks` SM clocks counted from its SM's first
    start."""
    words = stamps[: stamps.numel() // len(fields) * len(fields)].view(-1, len(fields)).cpu().numpy()
    warps = pd.DataFrame(words.astype("int64") & 0xFFFFFFFF, columns=fields).drop(columns="_", errors="ignore")
    warps = warps[warps.sm > 0].assign(sm=lambda w: w.sm - 1)
    # each SM's clock counted from its first warp's start, the global timer from the call's first
    # start, modulo 2^32 (the low halves wrap)
    first_start = warps.groupby("sm").start.transform("min")
    warps[clocks] = warps[clocks].sub(first_start, axis=0) % (1 << 32)
    origin = warps.global_start.min()
    warps[["global_start", "global_end"]] = (warps[["global_start", "global_end"]] - origin) % (1 << 32)
    return warps


def summary(warps: pd.DataFrame) -> dict:
    """ns per SM clock from the call's own stamps (their sums, so that the global timer's coarse
    ticks average out), then per SM: the spread of its warps' starts, its last arrival and its end
    after its first start, and its tail (end after its last arrival); per warp, the time from its
    last window's arrival to its end."""
    cycles = (warps.end - warps.start).sum()
    ns_per_cycle = (warps.global_end - warps.global_start).sum() / cycles
    per_sm = warps.groupby("sm").agg(first_start=("start", "min"), last_start=("start", "max"),
                                     last_arrival=("last_arrival", "max"), end=("end", "max"))
    spans = pd.DataFrame({
        "start_spread": per_sm.last_start - per_sm.first_start,
        "last_arrival": per_sm.last_arrival - per_sm.first_start,
        "end": per_sm.end - per_sm.first_start,
        "tail": per_sm.end - per_sm.last_arrival,
    }) * ns_per_cycle
    row = {"sm_ghz": 1 / ns_per_cycle, "sms": len(per_sm), "warps": len(warps),
           "call_ns": warps.global_end.max() - warps.global_start.min(),
           "sm_start_skew_ns": (warps.groupby("sm").global_start.min().max() - warps.global_start.min()),
           "warp_tail_ns": ((warps.end - warps.last_arrival) * ns_per_cycle).median()}
    for name, values in spans.items():
        row[f"{name}_ns"] = values.median()
        row[f"{name}_max_ns"] = values.max()
    return row


def room(warps: pd.DataFrame, splits: int) -> dict:
    """A call's blocks (a tile's `splits` warps, records in warp order) per SM: when each block
    starts, the warp places held by the blocks already there (started, their last warp not yet
    ended) and by itself; how long before its block's end a block's first warp to leave left; and
    the warps an SM held on average while blocks waited (register_quarters.py's measure, which
    counts a block's places until its last warp ends)."""
    blocks = warps.groupby(warps.index // splits).agg(sm=("sm", "first"), start=("start", "min"),
                                                     first_end=("end", "min"), end=("end", "max"))
    held = []
    for _, on_sm in blocks.groupby("sm"):
        starts, ends = on_sm.start.to_numpy(), on_sm.end.to_numpy()
        held += [((starts < t) & (ends > t)).sum() * splits + splits for t in starts]
    held = pd.Series(held)
    return {"splits": splits, "blocks": len(blocks), "most_places_held": held.max(),
            "starts_beyond_32": int((held > 32).sum()),
            "left_before_block_end_cycles": (blocks.end - blocks.first_end).median(),
            "held_while_waiting": resident_warps(blocks[["sm", "start", "end"]].to_numpy(), splits).mean()}


def room_run():
    """`room`: each kernel of ROOM_KERNELS on ROOM_SHAPES, one stamped call per mode, summarised
    by room() into results/probes/timeline-room-<gpu>.csv."""
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    stamps = stamp_buffer(ROOM_SHAPES)
    rows = []
    for shape in ROOM_SHAPES:
        data = problem.generate_input(*shape, seed=problem.TASK_SEED)
        m, k, l = shape
        for mode in MODES:
            for name, defines in ROOM_KERNELS.items():
                kernel = warmed_up(name, defines, stamps, data, shape)
                warps = stamped_call(kernel, data, mode, stamps)
                rows.append({"kernel": name, "m": m, "k": k, "l": l, "mode": mode,
                             **room(warps, len(warps) * TILE_ROWS // (m * l))})
    df = pd.DataFrame(rows).assign(**results.provenance())
    out = RESULTS_DIR / "probes" / f"timeline-room-{gpu}.csv"
    df.to_csv(out, index=False, float_format="%.1f")
    print(df.drop(columns=list(results.provenance())).to_string())
    print(f"recorded {len(df)} rows in {out}")


def stamp_buffer(shapes) -> torch.Tensor:
    """Room for a record per warp on any of the shapes: at most a warp per 512 bytes of A and its
    scales, and the batch's B."""
    room = max(m * l * (k // 2 + k // 16) // 512 + 64 * l + 1024 for m, k, l in shapes)
    return torch.zeros(room * len(FIELDS), dtype=torch.int32, device="cuda")


def warmed_up(name: str, defines: dict, stamps: torch.Tensor, data, shape, source: Path = SOURCE,
              computes: str | None = None):
    """The stamped build of `source`, called three times (the build, the launch path) and, where it
    computes an attempt's output (`computes`, else COMPUTES's entry for `name`), checked against
    that attempt bit for bit."""
    kernel = stamped(defines, stamps, source)
    for _ in range(3):
        kernel(data)
    if computes := computes or COMPUTES.get(name):
        c = data[-1].clone()
        assert torch.equal(c, attempts.load(computes)(data)), f"stamped {name} differs from {computes} on {shape}"
    return kernel


def stamped(defines: dict, stamps: torch.Tensor, source: Path = SOURCE):
    """timeline.cu (or another source defining timeline_set) built with `defines`, writing its
    stamps to `stamps`."""
    kernel = attempts.load_library(source, defines, f"timeline {source.parent.name} {defines}")
    if err := kernel.library.timeline_set(ctypes.c_void_p(stamps.data_ptr())):
        raise RuntimeError(f"timeline_set failed with CUDA error {err}")
    return kernel


# The runs of main(): shapes, kernels, whether the floor's reads run beside them, and the probe
# name of the stamps' timed cost. The first writes timeline-<gpu>.csv anew; the others replace only
# their own rows in it.
RUNS = {"": (SHAPES, KERNELS, True, "timeline-timed"),
        "pairs": (PAIR_SHAPES, PAIR_KERNELS, True, "timeline-pairs-timed"),
        "bytes": (SHAPES, BYTES_KERNELS, False, "timeline-bytes-timed")}


def joined(old: pd.DataFrame, new: pd.DataFrame, shapes) -> pd.DataFrame:
    """A later run's rows joined to those already recorded, replacing the old rows of its own
    kernels on its own shapes (and nothing else)."""
    mine = old[["m", "k", "l"]].apply(tuple, axis=1).isin(shapes) & old.kernel.isin(set(new.kernel))
    return pd.concat([old[~mine], new], ignore_index=True)


def main(run: str = ""):
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    shapes, kernels, with_floors, timed_probe = RUNS[run]
    rows, first_calls = [], []
    stamps = stamp_buffer(shapes)
    for shape in shapes:
        data = problem.generate_input(*shape, seed=problem.TASK_SEED)
        m, k, l = shape
        for mode in MODES:
            config, defines = floor_defines(gpu, shape, mode)
            floors = {"floor": defines, "floor, 512 B of shared memory a block": {**defines, **FLOOR_SHARED_MEMORY}}
            for name, kernel_defines in {**kernels, **(floors if with_floors else {})}.items():
                kernel = warmed_up(name, kernel_defines, stamps, data, shape)
                for call in range(CALLS):
                    warps = stamped_call(kernel, data, mode, stamps)
                    rows.append({"kernel": name, "floor_config": config if name.startswith("floor") else "",
                                 "m": m, "k": k, "l": l, "mode": mode, "call": call, **summary(warps)})
                    if call == 0 and shape == shapes[0] and not run:
                        first_calls.append(warps.assign(kernel=name, mode=mode))
    df = pd.DataFrame(rows).assign(**results.provenance())
    out = RESULTS_DIR / "probes" / f"timeline-{gpu}.csv"
    if run:
        df = joined(pd.read_csv(out) if out.exists() else df.iloc[:0], df, shapes)
    else:
        pd.concat(first_calls).to_csv(out.with_name(f"timeline-{gpu}-warps.csv"), index=False)
    df.to_csv(out, index=False, float_format="%.4f")
    shown = ["call_ns", "start_spread_ns", "last_arrival_ns", "end_ns", "tail_ns",
             "tail_max_ns", "warp_tail_ns", "sm_ghz"]
    print(df.groupby(["m", "k", "l", "mode", "kernel"], sort=False)[shown].median().round(1).to_string())
    print(f"recorded {len(df)} rows in {out}")
    # What the stamps cost: the stamped builds timed beside 95a (and 95) and the floor, writing
    # their stamps.
    for defines in kernels.values():
        stamped(defines, stamps)
    compared = ("95a",) if run else ("95", "95a")
    timed = {name if run else f"{name}, stamped": (SOURCE, d) for name, d in kernels.items()}
    record(timed_probe, {n: (attempts.find(n).source, None) for n in compared} | timed, shapes)


if __name__ == "__main__":
    if sys.argv[1:] == ["room"]:
        room_run()
    else:
        main(sys.argv[1] if sys.argv[1:] else "")
