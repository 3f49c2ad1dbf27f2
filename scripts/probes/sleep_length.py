"""How long the probe time_away's sleeps are (closing-the-gap section 69): nanosleep's length is
approximate, so this times scripts/probes/math_fraction.cu with the loads and the work taken out
(SLEEP_ONLY=1), its warps doing nothing but each window's sleep on 76's grid, for each sleep of
time_away and none. On 7168x16384x1 every warp runs 8 windows in one wave on an H100 and an H200
(76's split: 2 parts of 8 windows), so the call's time less the empty loop's, over 8, is one
sleep as the warps of a full SM see it. Rotated interleaved rounds beside the floor, as the floor
check times its strategies (common/floor.py; these kernels read nothing: their times are recorded,
no ratio to the floor); rows in results/probes/sleep-length-<gpu>.csv, each sleep's length in the
column sleep_ns. From the repository root on a GPU:
    python3 scripts/probes/sleep_length.py
"""
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import floor  # noqa: E402
from scripts.probes.math_fraction import SOURCE  # noqa: E402
from scripts.probes.probe import write  # noqa: E402
from scripts.probes.time_away import SLEEPS_NS  # noqa: E402

SHAPES = [(7168, 16384, 1)]
WINDOWS_PER_WARP = 8  # 16 windows of K over 76's 2 parts on both GPUs


def builds() -> dict:
    return {f"sleep {ns} ns alone" if ns else "empty loop": (SOURCE, {"ROWS_MULTIPLIED": 0, "SLEEP_ONLY": 1, "DELAY_NS": ns})
            for ns in (0, *SLEEPS_NS)}


def with_sleep_ns(df: pd.DataFrame) -> pd.DataFrame:
    """Each row's sleep: (its time - the empty loop's, same mode) / the windows a warp runs, in ns."""
    us = df.mean_us.astype(float)
    empty = us[df.strategy == "empty loop"].groupby(df["mode"]).first()
    return df.assign(sleep_ns=[f"{(t - empty[mode]) / WINDOWS_PER_WARP * 1e3:.1f}" if name.startswith("sleep") else ""
                               for name, mode, t in zip(df.strategy, df["mode"], us)])


def main():
    write("sleep-length", with_sleep_ns(floor.compare(shapes=SHAPES, modes=floor.MODES, rounds=floor.ROUNDS,
                                                      others=builds())), over_floor=False)


if __name__ == "__main__":
    main()
