"""What every probe script does once it has named its kernels: time them beside the floor as the
floor check times its strategies (rotated interleaved rounds, common/floor.py), record the rows in
results/probes/<probe>-<gpu>.csv, and print each one's time over the floor's."""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import floor, sol  # noqa: E402
from common.results import RESULTS_DIR  # noqa: E402


def record(probe: str, others: dict, shapes: list) -> None:
    """others: name -> (source, defines), as floor.compare takes them."""
    gpu = sol.gpu_key(torch.cuda.get_device_name())
    df = floor.compare(shapes=shapes, others=others)
    floors = df[df.strategy == "floor"].set_index(["m", "k", "l", "mode"])
    df["x_floor"] = [1 / floor.paired_ratio(floors.loc[(r.m, r.k, r.l, r.mode)], r) for r in df.itertuples()]
    out = RESULTS_DIR / "probes" / f"{probe}-{gpu}.csv"
    out.parent.mkdir(exist_ok=True)
    df.to_csv(out, index=False, float_format="%.4f")
    table = df.pivot_table(index=["m", "k", "l", "mode"], columns="strategy", values="x_floor", sort=False)
    print(table.to_string(float_format=lambda v: f"{v:.3f}"))
    print(f"recorded {len(df)} rows in {out}")
