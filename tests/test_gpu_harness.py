"""The harness on the GPU: the shared e2m1 header, the timing method, the floor."""
import time
from pathlib import Path

import torch

from common import attempts, build, floor, nvfp4, problem
from common.check import poison
from common.timing import time_call
from conftest import gpu

PROBE = Path(__file__).parent / "cuda" / "e2m1_cvt_probe.cu"


@gpu
def test_sm90_header_decodes_all_256_bytes_like_the_format_module():
    import ctypes
    library = ctypes.CDLL(str(build.build(PROBE)))
    out = torch.zeros(256, dtype=torch.int32, device="cuda")
    assert library.e2m1x2_decode_all(ctypes.c_void_p(out.data_ptr()),
                                     ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)) == 0
    got = out.cpu().view(torch.float16).reshape(256, 2)       # (low half, high half) per byte
    expected = nvfp4.decode_e2m1(nvfp4.unpack_e2m1(torch.arange(256, dtype=torch.uint8)[:, None]))
    assert torch.equal(got.float(), expected.reshape(256, 2))
    assert torch.equal(torch.signbit(got.float()), torch.signbit(expected.reshape(256, 2)))


@gpu
def test_launch_latency_stays_out_of_the_timings():
    """An empty kernel measures a few microseconds when a clearing kernel runs ahead of it,
    and clearly more when the GPU waits idle for the host: the harness times the kernel."""
    empty = lambda _: torch.cuda._sleep(0)  # noqa: E731
    for mode in ("gpumode", "clean"):
        harness = time_call(empty, None, mode, max_seconds=0.5)
        assert harness.median_us < 6.0, (mode, harness)
    idle = time_call(empty, None, "gpumode", idle_gpu=True, max_seconds=0.5)
    assert idle.median_us > 2 * harness.median_us, (idle, harness)


@gpu
def test_a_host_stall_does_not_reach_the_timings():
    """One call whose host side stalls far longer than the hold (as a descheduled process
    would) leaves the timing where the undisturbed kernel is: its batch is dropped."""
    kernel = attempts.load("99")
    data = problem.generate_input(4096, 4096, 1, seed=0)
    calls = 0

    def stalls_once(x):
        nonlocal calls
        calls += 1
        if calls == 200:
            time.sleep(0.02)
        return kernel(x)
    quiet = time_call(kernel, data, "clean", max_runs=1000, max_seconds=5)
    stalled = time_call(stalls_once, data, "clean", max_runs=1000, rel_err=0, max_seconds=5)
    assert calls > 200
    assert max(stalled.samples) < 1000 and stalled.mean_us < 1.1 * quiet.mean_us, (quiet, stalled)


@gpu
def test_floor_holds_for_the_check_and_names_its_configuration():
    """The floor chooses one of its configurations per shape and mode, and keeps it."""
    floors = floor.Floor()
    data = problem.generate_input(1024, 4096, 2, seed=0)
    chosen = floors.kernel(data, (1024, 4096, 2), "clean")
    assert chosen.config in floor.candidates() and chosen.build_id in floor.build_ids()
    assert floors.kernel(data, (1024, 4096, 2), "clean") is chosen
    finalists = floors.finalists(data, (1024, 4096, 2), "clean")
    assert finalists[0] is chosen and len({k.config for k in finalists}) == floor.FINALISTS


@gpu
def test_timing_reports_consistent_statistics():
    kernel = attempts.load("99")
    data = problem.generate_input(1024, 4096, 2, seed=0)
    t = time_call(kernel, data, "clean", max_seconds=0.5)
    assert t.min_us <= t.median_us and t.min_us <= t.mean_us and t.runs >= 20 and t.std_us >= 0


@gpu
def test_floor_writes_every_output():
    data = problem.generate_input(2432, 4608, 2, seed=5)
    poison(data[6])
    out = attempts.load("99")(data)
    torch.cuda.synchronize()
    assert torch.isfinite(out).all()
