"""Which of an SM's four schedulers holds each warp slot, and how 93f's one-wave grids fill them
(closing-the-gap section 91). Sections 85-90 read their results through an assumption that no
probe had measured: slot w (%warpid) belongs to scheduler w % 4, and an SM fills its slots in turn,
so that its busiest scheduler holds a quarter of its warps, rounded up (section 90's levels of
93f's one-wave times by the most warps a scheduler holds; 93za's stagger by %warpid / 4).

Two measurements:
- contention (scripts/probes/scheduler_mapping.cu), rows in results/probes/scheduler-mapping-<gpu>.csv:
  one block of 16 warps alone on an SM; the warps of each set run a loop of independent FFMA chains
  that alone issues about one instruction a cycle; per running warp, its slot, the running warps
  whose slots agree with its own modulo 4 (itself included: `sharing`) and its loop's cycles over
  those of warp 0 running alone in the same call.
- slots (scripts/probes/block_placement.cu, warp_placement), rows in
  results/probes/scheduler-mapping-slots-<gpu>.csv: the one-wave K = 16384 grids of the
  probe grid_fill (93f's blocks on the H200, as many an SM as its 64 registers allow, held resident
  at once), each warp recording its SM and slot; per call, the most warps an SM holds, the most
  warps one scheduler holds (slot % 4) on any SM, and the SMs whose busiest scheduler holds more
  than a quarter of the SM's warps rounded up.
From the repository root on a GPU:
    python3 scripts/probes/scheduler_mapping.py

Written before any GPU ran it. If slot w is scheduler w % 4: warps of slots 0 and 4, 0 and 8, 0
and 12 each take about twice the cycles of one alone, of slots 0 and 1, 0 and 2, 0 and 3 about as
many; four warps of slots 0, 4, 8, 12 about four times, of slots 0-3 about once; all 16 about four
times. Falsifier: a pair whose slots differ modulo 4 at 1.5 times or more, or one whose slots agree
modulo 4 below 1.5 times. And if slots are filled in turn, on every SM of every `slots` grid the
busiest scheduler holds the SM's warps / 4, rounded up (section 90's levels: 6, 7 and 8 warps on
grid_fill's shapes); an SM above that would put section 90's levels on the slots' order instead.
"""
import ctypes
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import build  # noqa: E402
from scripts.probes.block_placement import CALLS, HOLD_NS, placement_run, record_rows  # noqa: E402
from scripts.probes.grid_fill import SHAPES as FILL_SHAPES, TILE_ROWS, WARPS_AN_SM, h200_grid  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
BLOCK_WARPS = 16                # scheduler_mapping.cu's block
ROUNDS = 4096                   # 8 FFMA a round: about 32,768 cycles for a warp alone
FACTOR = 0.999
# The warps of the block that run (by their index in the block, which the rows map to slots)
WARP_SETS = [(0,), (0, 1), (0, 2), (0, 3), (0, 4), (0, 8), (0, 12), (0, 1, 2, 3), (0, 4, 8, 12),
             tuple(range(BLOCK_WARPS))]
SLOT_SHAPES = [shape for shape in FILL_SHAPES if shape[1] == 16384]


def contend_rows(records, warps: tuple, alone_cycles: float, call: int) -> list:
    """One row per running warp: its slot, the running warps on its slot's scheduler (slot % 4,
    itself included), its cycles and their ratio to warp 0's alone (records: a [BLOCK_WARPS, 2]
    array of slot + 1 and cycles, as scheduler_mapping.cu writes them)."""
    scheduler = {w: (int(records[w][0]) - 1) % 4 for w in warps}
    return [{"warps": ",".join(map(str, warps)), "call": call, "warp": w, "slot": int(records[w][0]) - 1,
             "sharing": sum(s == scheduler[w] for s in scheduler.values()), "cycles": int(records[w][1]),
             "over_alone": records[w][1] / alone_cycles} for w in warps]


def scheduler_load(sm_of_warp, slot_of_warp) -> pd.DataFrame:
    """Per SM: its warps, the most one scheduler (slot % 4) holds, and that count if the SM's
    warps were dealt to the schedulers in turn (a quarter, rounded up)."""
    df = pd.DataFrame({"sm": sm_of_warp, "scheduler": [s % 4 for s in slot_of_warp]})
    per_sm = df.groupby("sm").agg(warps=("scheduler", "size"),
                                  most_a_scheduler=("scheduler", lambda s: s.value_counts().max()))
    per_sm["in_turn"] = -(-per_sm.warps // 4)
    return per_sm


def slots_row(m: int, k: int, l: int, call: int, per_sm: pd.DataFrame) -> dict:
    return {"shape": f"{m}x{k}x{l}", "call": call, "sms_used": len(per_sm),
            "warps_most_an_sm": int(per_sm.warps.max()), "most_a_scheduler": int(per_sm.most_a_scheduler.max()),
            "most_in_turn": int(per_sm.in_turn.max()),
            "sms_above_in_turn": int((per_sm.most_a_scheduler > per_sm.in_turn).sum())}


def warp_set_calls(launch, warp_sets: list, block_warps: int):
    """(call, warps, records, warp 0's cycles alone in that call) for every recorded call of every
    set of warps (the first, (0,), alone): launch(mask, records) runs one block of block_warps warps
    alone on an SM, the warps in the mask running (warp_sets.cuh), and returns its status. The
    first call loads the module and is not yielded."""
    import torch
    alone = None
    for call in range(CALLS + 1):
        for warps in warp_sets:
            records = torch.zeros(block_warps * 2, dtype=torch.int64, device="cuda")
            status = launch(sum(1 << w for w in warps), records)
            torch.cuda.synchronize()
            r = records.view(-1, 2).cpu().numpy()
            if status != 0 or (r[:, 0] == 0).any() or (r[list(warps), 1] == 0).any():
                raise SystemExit(f"status {status}, or a warp left no record")
            if warps == (0,):
                alone = r[0][1]
            if call:
                yield call, warps, r, alone


def contend(stream) -> list:
    library = ctypes.CDLL(str(build.build(SOURCE)))

    def launch(mask, records):
        return library.scheduler_contend(mask, ROUNDS, ctypes.c_float(FACTOR), ctypes.c_void_p(records.data_ptr()), stream)
    return [row for call, warps, records, alone in warp_set_calls(launch, WARP_SETS, BLOCK_WARPS)
            for row in contend_rows(records, warps, alone, call)]


def slots(library, sms: int, stream) -> list:
    import torch
    rows = []
    for m, k, l in SLOT_SHAPES:
        warps = h200_grid(m, k, l)[0]
        blocks = m * l // TILE_ROWS
        for call in range(CALLS + 1):
            sm_of_warp = torch.zeros(blocks * warps, dtype=torch.int32, device="cuda")
            slot_of_warp = torch.zeros_like(sm_of_warp)
            status = library.warp_placement(blocks, 1, warps, WARPS_AN_SM // warps, ctypes.c_longlong(HOLD_NS),
                                            ctypes.c_void_p(sm_of_warp.data_ptr()), ctypes.c_void_p(slot_of_warp.data_ptr()), stream)
            torch.cuda.synchronize()
            sm, slot = sm_of_warp.cpu().numpy(), slot_of_warp.cpu().numpy()
            if status != 0 or (sm == 0).any() or (slot == 0).any():
                raise SystemExit(f"status {status}, or a warp left no record")
            if call:
                rows.append(slots_row(m, k, l, call, scheduler_load(sm - 1, slot - 1)))
    return rows


def main():
    library, gpu, sms, stream = placement_run()
    record_rows("scheduler-mapping", gpu, contend(stream))
    record_rows("scheduler-mapping-slots", gpu, slots(library, sms, stream))


if __name__ == "__main__":
    main()
