"""How many cycles 93f's products keep a warp from its next loads, its window already in its
registers, alone on its scheduler and beside others (closing-the-gap section 92).
scripts/probes/products_alone.cu runs one block of 32 warps alone on one SM; the warps of each set
load one window of 93f's four rows (K = 1024, real data) and then run 93f's window_dot on it ROUNDS
times, its words changed each round by a value ptxas cannot know. Per running warp: its slot, the
running warps on its scheduler (slot % 4, itself included: `sharing`, as scheduler_mapping counts
it), its cycles a round, and that over the round's instructions in the build's SASS (a lone warp
issuing every cycle would read 1). Rows in results/probes/products-alone-<gpu>.csv. From the
repository root on a GPU:
    python3 scripts/probes/products_alone.py

Written before any GPU ran it. Section 91 found one FFMA-bound warp alone leaving part of its
scheduler's cycles unissued; 93f's products have fewer independent chains (each row's dp4a sums,
the look-ups feeding them). Predicted: a lone warp's round takes 1.5 to 2.5 cycles an instruction;
with 2 warps on its scheduler each round takes less than twice a lone warp's (the second fills
the first's gaps); with 7 or 8 (93f's one-wave 7168x16384x1 holds 7 on its busiest scheduler) the
scheduler issues close to one instruction a cycle, each warp's round then about the sharing warps
times the round's instructions. Falsifier: a lone warp under 1.2 cycles an instruction (its own
rate is then not what its time away is made of), or 8 warps on a scheduler at under 0.8
instructions a cycle in all (the scheduler then does not saturate on this code).

Its first run (4af4c29, 93f alone) held the first two and fired the falsifier: 8 warps on a
scheduler issue about three quarters of an instruction a cycle. Written before the second run,
which adds 93t's products (its SASS round: 286 instructions against 93f's 331, 48 fewer on the
ALU pipe, PRMT 96 to 80, LOP3 65 to 45 and SHF 12 to none, and 3 more IMAD): if the mix caps the
scheduler, 93t's round with 8 warps on a scheduler is shorter than 93f's by more than its share of
fewer instructions (a seventh), and a lone warp's by about that share. Falsifier: 93t's 8-warp
round not shorter than 93f's by at least half that share (a fourteenth).

`python3 scripts/probes/products_alone.py profile` runs Nsight Compute (full set, --clock-control
none) on one launch of each attempt's products for a warp alone, 8 warps on one scheduler and the
whole block, and writes profiles/<gpu>/probes/products-alone.csv: profile.py's summary columns and
every stall reason's share. Written before it ran: a warp alone waits mostly on `wait` (the fixed
latencies of its dependent chains); with 8 warps on one scheduler `math_pipe_throttle` is among
the top two reasons and the ALU pipe (PRMT, LOP3, SHF, IADD3: a warp instruction every two cycles)
is busy on at least three fifths of that scheduler's cycles (a quarter of that, at least 15%, of
the SM's, as ncu counts a pipe over an SM's four); 93t's ALU pipe less busy than 93f's by about
the quarter fewer ALU-pipe instructions of its round. Falsifier: with 8 warps on one scheduler, `math_pipe_throttle`
under a fifth of 93f's stalls (the cap is then not the ALU pipe's rate).
"""
import ctypes
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, build, problem, sol  # noqa: E402
from common.build import REPO  # noqa: E402
from scripts import load_path  # noqa: E402
from scripts.probes.block_placement import record_rows  # noqa: E402
from scripts.probes.probe import included_source  # noqa: E402
from profiles.profile import REPORTS, STALL, kernel_summary, profile_command, raw_page  # noqa: E402
from scripts.probes.scheduler_mapping import contend_rows, warp_set_calls  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
# The attempts whose products are timed: 93f's, and 93t's (section 88: B's signs in A's selectors,
# fewer PRMT and LOP3 a window), whose kernel.cu has the same window functions.
ATTEMPTS = ("93f", "93t")
BLOCK_WARPS = 32                # products_alone.cu's block, 64 registers a thread: the whole SM
K = 1024                        # one window
ROUNDS = 256
# The warps that run, by index in the block (warps 4 apart share a scheduler, section 91): 1, 2,
# 4, 7 and 8 on one scheduler; one on each; 7 on each (93f's one-wave 7168x16384x1); 8 on each.
WARP_SETS = [(0,), (0, 4), (0, 4, 8, 12), tuple(range(0, 28, 4)), tuple(range(0, 32, 4)), (0, 1, 2, 3),
             tuple(range(28)), tuple(range(32))]


def defines(number: str = "93f") -> dict:
    """The build of products_alone.cu that includes attempt `number`'s kernel.cu (93f's: none more)."""
    own = {} if number == "93f" else {"ATTEMPT_KERNEL": f'"../../{attempts.find(number).source.relative_to(build.REPO)}"'}
    return {**own, **included_source(number)}


def round_instructions(sass: str) -> int:
    """The instructions of window_products's timed loop (its only loop), in a listing of the build
    (build.sass)."""
    (loop,) = [loop for kernel, loop in load_path.sass_loops(sass) if "window_products" in kernel]
    return len(loop)


def rows_of_call(records, warps: tuple, alone_cycles: float, call: int, instructions: int) -> list:
    rows = contend_rows(records, warps, alone_cycles, call)
    for row in rows:
        row["cycles_a_round"] = row["cycles"] / ROUNDS
        row["cycles_an_instruction"] = row["cycles_a_round"] / instructions
    return rows


def launcher(number: str, stream):
    """launch(mask, records) running attempt `number`'s products (one block, the warps in the
    mask), and the instructions of its round."""
    import torch
    library_path = build.build(SOURCE, defines(number))
    instructions = round_instructions(build.sass(library_path, "sm_90a"))
    library = ctypes.CDLL(str(library_path))
    a, b, sfa, sfb, _, _, _ = problem.generate_input(4 * BLOCK_WARPS, K, 1, seed=7, data="full")
    sink = torch.zeros(32 * BLOCK_WARPS, dtype=torch.float32, device="cuda")

    def launch(mask, records):
        return library.products_alone(*(ctypes.c_void_p(t.data_ptr()) for t in (a, b, sfa, sfb)), K, ctypes.c_uint(mask),
                                      ROUNDS, ctypes.c_void_p(records.data_ptr()), ctypes.c_void_p(sink.data_ptr()), stream)
    return launch, instructions


def timed(number: str, stream) -> list:
    """The rows of every call of every warp set, for attempt `number`'s products."""
    launch, instructions = launcher(number, stream)
    return [{"attempt": number, **row, "round_instructions": instructions}
            for call, warps, records, alone in warp_set_calls(launch, WARP_SETS, BLOCK_WARPS)
            for row in rows_of_call(records, warps, alone, call, instructions)]


# `profile`: Nsight Compute on each attempt's products for these sets (a warp alone, 8 warps on one
# scheduler, the whole block), one launch each; their stall reasons say what holds a scheduler.
PROFILED_SETS = {"a warp alone": (0,), "8 warps on one scheduler": tuple(range(0, 32, 4)), "32 warps": tuple(range(32))}
PROFILED_SHAPE = f"{4 * BLOCK_WARPS}x{K}x1"   # the rows and K the block reads


def profiled_names() -> list:
    return [f"{number}, {name}" for number in ATTEMPTS for name in PROFILED_SETS]


def profile_target(stream) -> None:
    """Run under ncu: each attempt's products for each profiled set once inside the NVTX range
    "probe", after a call outside it."""
    import torch
    for number in ATTEMPTS:
        launch, _ = launcher(number, stream)
        for warps in PROFILED_SETS.values():
            for inside in (False, True):
                records = torch.zeros(BLOCK_WARPS * 2, dtype=torch.int64, device="cuda")
                torch.cuda.synchronize()
                if inside:
                    torch.cuda.nvtx.range_push("probe")
                if launch(sum(1 << w for w in warps), records) != 0:
                    raise SystemExit("launch failed")
                torch.cuda.synchronize()
                if inside:
                    torch.cuda.nvtx.range_pop()


def profile_rows(df, sms: int) -> list:
    """One summary row per profiled launch (profile.py's columns), with every stall reason's share
    of the stalls; the pipes' shares of the elapsed cycles, which ncu averages over every SM, are
    the one SM's (times the SMs: the others run nothing)."""
    stall_columns = [c for c in df.columns if STALL.fullmatch(c)]
    rows = []
    for name, (_, kernel) in zip(profiled_names(), df.iterrows()):
        row = {"name": name, "shape": PROFILED_SHAPE,
               **kernel_summary(kernel, stall_columns, problem.problem_bytes(4 * BLOCK_WARPS, K, 1))}
        for pipe in ("alu_pipe_pct", "fma_heavy_pipe_pct"):
            row[pipe] *= sms
        stalls = {STALL.fullmatch(c).group(1): pd.to_numeric(kernel[c], errors="coerce") for c in stall_columns}
        total = sum(v for v in stalls.values() if v == v)
        row |= {f"stall_{reason}_share_pct": 100 * v / total for reason, v in stalls.items() if v == v and v > 0}
        rows.append(row)
    return rows


def profile(gpu: str, sms: int) -> None:
    report = REPORTS / gpu / "probe-products-alone"
    report.parent.mkdir(parents=True, exist_ok=True)
    profile_command(report, "probe", str(Path(__file__).resolve()), "target")
    df = raw_page(report.with_suffix(".ncu-rep"))
    if len(df) != len(profiled_names()):
        raise RuntimeError(f"{report}: expected {len(profiled_names())} kernels, got {len(df)}")
    out = REPO / "profiles" / gpu / "probes" / "products-alone.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = pd.DataFrame(profile_rows(df, sms))
    rows.to_csv(out, index=False, float_format="%.4g")
    print(rows[["name", "duration_us", "issue_slot_util_pct", "alu_pipe_pct", "fma_heavy_pipe_pct",
                "stall_1", "stall_1_share_pct", "stall_2", "stall_2_share_pct", "stall_3", "stall_3_share_pct"]].to_string())


def main():
    import torch
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    command = sys.argv[1] if len(sys.argv) > 1 else "time"
    if command == "target":
        profile_target(stream)
    elif command == "profile":
        profile(gpu, torch.cuda.get_device_properties(0).multi_processor_count)
    else:
        record_rows("products-alone", gpu, [row for number in ATTEMPTS for row in timed(number, stream)])


if __name__ == "__main__":
    main()
