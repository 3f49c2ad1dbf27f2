"""The kernel of record (93f) beside the floor in rotated rounds, on the benchmark and the decode
shapes, with its own rule: the probes' way of timing (interleaved rounds, each kernel's time over
the floor's of the same round, common/floor.py) next to the harness's (`make bench`, the floor
timed in the same run but not in the same rounds). Rows in results/probes/record-rounds-<gpu>.csv.
From the repository root on a GPU:
    python3 scripts/probes/record_rounds.py

Written before it ran, after the probe next_window_staged: on the H100 the harness read 93f's
4096x4096x1 at 1.125 times the floor in clean mode (its decode run at 3c4a32d), while five probes
this session and last timed 93f's code on that shape (with the H200's rule, the same one-window
grid) at 1.066 to 1.104 of the floor of their rounds, 93f's own time agreeing within a few percent
and the floor's differing more. Prediction: within a point or two of the harness's ratios on the
long calls, 2 to 5 points below them on 4096x4096x1; if so, the decode target's miss on that shape
is partly the way it is timed, and the harness's ratio for calls of a few microseconds needs the
rounds' pairing.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from common import attempts, problem  # noqa: E402
from scripts.probes.probe import record  # noqa: E402

SHAPES = problem.BENCHMARK_SHAPES + problem.DECODE_SHAPES


def builds() -> dict:
    return {"93f": (attempts.find("93f").source, None)}


def main():
    record("record-rounds", builds(), SHAPES)


if __name__ == "__main__":
    main()
