"""The harness on the GPU: the shared e2m1 header, the timing method, the floor."""
from pathlib import Path

import torch

from common import attempts, build, nvfp4, problem
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
