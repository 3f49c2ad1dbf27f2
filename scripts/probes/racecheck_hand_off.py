"""Does compute-sanitizer's racecheck follow an atomic's release and acquire in shared memory? Four
warps hand a value a lane over and the last to come adds them (scripts/probes/racecheck_hand_off.cu),
ordered by an acq_rel atomic at CTA scope, as 84zc hands its warpgroups' sums over, or by a block
barrier; each run under racecheck, its sums checked. Rows in results/probes/racecheck-hand-off-<gpu>.csv
(strategy: the order; key: the tool), read by the figures `probe-row:racecheck-hand-off:COLUMN`.
From the repository root on a GPU:
    python3 scripts/probes/racecheck_hand_off.py

Written after 84zc's compute-sanitizer record (racecheck: hazards between its hand-over's writes
and the last warpgroup's reads, which the atomic orders) and before this probe ran. Predicted: if
racecheck orders shared memory by barriers only, it reports hazards on the atomic's hand-off and
none on the barrier's, and then 84zc's reports are the tool's; if it reports none on either, 84zc's
hand-over has a race this kernel does not show, to be found before its record is trusted.
"""
import ctypes
import subprocess
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import build, sol  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402

SOURCE = Path(__file__).with_suffix(".cu")
ORDERS = {"atomic": 0, "block barrier": 1}  # the hand-off ordered by an acq_rel atomic, or by a barrier
WARPS = 4
SUMS_OK = "hand-off sums ok"  # the target's word that its sums were checked (racecheck's exit code replaces its own)


def target(ordered_by: int) -> None:
    """One hand-off on the GPU, its sums checked (lane l: the four warps' 32 w + l + 1)."""
    import torch
    library = ctypes.CDLL(str(build.build(SOURCE)))
    out = torch.zeros(32, device="cuda")
    status = library.racecheck_hand_off(ctypes.c_void_p(out.data_ptr()), ordered_by,
                                        ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    torch.cuda.synchronize()
    expected = torch.tensor([sum(32 * w + lane + 1 for w in range(WARPS)) for lane in range(32)],
                            dtype=torch.float32, device="cuda")
    if status != 0 or not torch.equal(out, expected):
        raise SystemExit(f"hand-off {ordered_by}: status {status}, sums {out.tolist()}")
    print(SUMS_OK, flush=True)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "target":
        return target(int(sys.argv[2]))
    import torch
    from common import results
    from profiles.sanitize import run_under
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    rows = []
    for order, ordered_by in ORDERS.items():
        code, errors, tail = run_under("racecheck", [sys.executable, __file__, "target", str(ordered_by)])
        print(f"{order:15} racecheck exit {code}, {errors} hazards reported", flush=True)
        if code not in (0, 99):
            print(tail)
        rows.append({"strategy": order, "key": "racecheck", "exit_code": code, "hazards": errors, "sums_ok": SUMS_OK in tail,
                     **results.provenance()})
    out = RESULTS_DIR / "probes" / f"racecheck-hand-off-{gpu}.csv"
    pd.DataFrame(rows).to_csv(out, index=False)
    print(f"recorded {len(rows)} rows in {out}")


if __name__ == "__main__":
    main()
