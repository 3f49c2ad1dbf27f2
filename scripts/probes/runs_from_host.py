"""84x (84w with each block's run of rows from the host's quotient and remainder, no 64-bit division
in the kernel) beside 84w, 84q and 93f, timed as the floor check times its strategies (rotated
interleaved rounds, common/floor.py); rows in results/probes/runs-from-host-<gpu>.csv. Every build
is first checked against the reference (the probe stages_split's shapes). Then 84q, 84w and 84x
stamped and timed by events call after call, as the probe ring_spans does
(results/probes/runs-from-host-spans-<gpu>.csv). From the repository root on a GPU:
    python3 scripts/probes/runs_from_host.py

Written before any GPU ran 84x; the prediction is 84x's README's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.probes.ring_spans import check_then_span  # noqa: E402


def main():
    check_then_span("runs-from-host", ("93f", "84q", "84w", "84x"), ("84q", "84w", "84x"))


if __name__ == "__main__":
    main()
