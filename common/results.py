"""Recorded measurements: results/<gpu>.csv, one row per measurement, with provenance.

Rows come only from the harness. A new measurement of the same key (attempt, config, shape,
mode, data) replaces the old row; git keeps the history.
"""
import datetime
import functools
import os
import subprocess
from pathlib import Path

import pandas as pd
import torch

from .build import REPO

RESULTS_DIR = REPO / "results"
KEY = ["attempt", "config", "m", "k", "l", "mode", "data"]
# first_result_s: seconds from loading the attempt to its first result (build, compile, autotune).
# build / floor_build: the identity of the code measured (common.build.build_id), so a row can be
# matched against today's code (tests/test_history.py); floor_config: the configuration of 99 that
# was the floor of this shape and mode (common/floor.py).
COLUMNS = KEY + ["mean_us", "median_us", "min_us", "std_us", "runs", "floor_us", "sol_us",
                 "gb_s", "first_result_s", "build", "floor_config", "floor_build", "gpu", "driver", "cuda", "torch", "git_sha",
                 "measured_at"]
TEXT_COLUMNS = {"attempt", "config", "mode", "data", "build", "floor_config", "floor_build", "gpu", "driver",
                "cuda", "torch", "git_sha", "measured_at"}


def _run(*cmd) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True,
                              cwd=REPO).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def git_sha() -> str:
    """The commit measured, with -dirty if the tree had uncommitted changes. Where the tree travels
    without its own history (the GPU machine, whose .git is older than the tree), NVFP4_GIT_SHA
    names the commit and NVFP4_GIT_DIRTY says whether the tree sent was clean (0) or not (1), as
    the local checkout says; git is asked only where they are unset."""
    sha = os.environ.get("NVFP4_GIT_SHA") or _run("git", "rev-parse", "--short=12", "HEAD")
    if not sha:
        return "unknown"
    flag = os.environ.get("NVFP4_GIT_DIRTY")
    if flag is not None:
        dirty = flag not in ("", "0")
    else:   # results/ is what a run writes, not what it measures
        dirty = bool(_run("git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                          ":(exclude)results"))
    return sha + ("-dirty" if dirty else "")


@functools.cache
def provenance() -> dict:
    """What a measurement ran on: GPU, driver, CUDA, torch, commit, time."""
    driver = _run("nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader")
    return {
        "gpu": torch.cuda.get_device_name(),
        "driver": driver.splitlines()[0] if driver else "unknown",
        "cuda": torch.version.cuda,
        "torch": torch.__version__,
        "git_sha": git_sha(),
        "measured_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def results_path(gpu: str) -> Path:
    return RESULTS_DIR / f"{gpu}.csv"


def version(gpu: str) -> tuple[int, int]:
    """The results file's version (mtime and size), which keys the parsed copies kept for the
    generated documents: they ask for the same rows once per figure, thousands of times."""
    path = results_path(gpu)
    if not path.exists():
        return (0, 0)
    stat = path.stat()
    return (stat.st_mtime_ns, stat.st_size)


def load(gpu: str) -> pd.DataFrame:
    """The recorded rows, typed (a copy of the parse kept for this version of the file)."""
    return _cached(gpu, version(gpu)).copy()


@functools.lru_cache(maxsize=8)
def _cached(gpu: str, file_version: tuple[int, int]) -> pd.DataFrame:
    return _read(gpu)


def _read(gpu: str) -> pd.DataFrame:
    path = results_path(gpu)
    if not path.exists():
        return pd.DataFrame(columns=COLUMNS)
    df = pd.read_csv(path, dtype=str, keep_default_na=False).reindex(columns=COLUMNS, fill_value="")
    numeric = [c for c in COLUMNS if c not in TEXT_COLUMNS]
    return df.assign(**{c: pd.to_numeric(df[c], errors="coerce") for c in numeric})


def gpus() -> list[str]:
    """The GPUs with recorded results (results/<gpu>.csv), in a stable order."""
    return sorted(p.stem for p in RESULTS_DIR.glob("*.csv") if not p.stem.endswith("-floor"))


def record(gpu: str, rows: list[dict]) -> Path:
    """Append rows (each a measurement plus provenance), replacing rows with the same key."""
    new = pd.DataFrame(rows)[COLUMNS]
    # a missing text field is "" as the file reads it back: a None config would miss its key
    text = [c for c in COLUMNS if c in TEXT_COLUMNS]
    new[text] = new[text].fillna("").astype(str)
    old = _read(gpu)   # never a cached copy: what is on disk now is what the new rows join
    merged = pd.concat([old, new], ignore_index=True)
    merged = merged.drop_duplicates(subset=KEY, keep="last")
    merged = merged.sort_values(["attempt", "config", "data", "mode", "m", "k", "l"])
    RESULTS_DIR.mkdir(exist_ok=True)
    merged.to_csv(results_path(gpu), index=False, float_format="%.4f")
    return results_path(gpu)
