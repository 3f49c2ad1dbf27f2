import os
import random
import sys
import threading
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import build  # noqa: E402

HAS_GPU = torch.cuda.is_available()
gpu = pytest.mark.skipif(not HAS_GPU, reason="needs an NVIDIA GPU (torch.cuda.is_available() is False)")


# Fresh random shapes and seeds of the GPU tests come from one run seed: NVFP4_TEST_SEED=<it>
# replays a run exactly (the header and every failure print it).
RUN_SEED = int(os.environ.get("NVFP4_TEST_SEED") or random.SystemRandom().randint(0, 2**31 - 1))


def pytest_report_header(config):
    return [f"GPU: {torch.cuda.get_device_name() if HAS_GPU else 'none (GPU tests skip)'}",
            f"NVFP4_TEST_SEED={RUN_SEED}"]


# For a test that reads only the sm_90a code: a variant's device code for sm_90a alone (the same
# code as its two-target library, in a fraction of the time), or the source's own shared library.
sm90a_build = build.measured_code


@pytest.fixture(scope="session", autouse=True)
def attempts_built_ahead(request):
    """On a cold build cache (CI's fresh clone) the suite is mostly nvcc and cuobjdump, run one at a
    time. A second thread builds each CUDA attempt that a collected test is parametrized with, and
    its build id (test_validate asks for every one), from the last attempt back while test_build
    asks from the first; build.build and build.sass make either wait for the other."""
    params = [item.callspec.params for item in request.session.items if hasattr(item, "callspec")]
    ahead = sorted({p["attempt"] for p in params if "attempt" in p and p["attempt"].is_cuda},
                   key=lambda a: a.name, reverse=True)
    stop = threading.Event()

    def build_ahead():
        for attempt in ahead:
            if stop.is_set():
                return
            try:
                build.build_id(build.build(attempt.source))
            except build.BuildError:
                pass                      # the test that builds it reports it
    thread = threading.Thread(target=build_ahead, daemon=True)
    thread.start()
    yield
    stop.set()
    thread.join()
