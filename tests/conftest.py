import os
import random
import sys
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


def sm90a_build(source, defines=None):
    """build.build for a test that reads only the sm_90a code. A variant (with defines) is compiled
    for sm_90a alone: the same sm_90a code as its two-target build (the cubin is identical), in
    about 60% of the CPU time. Without defines it is the shared two-target build."""
    return build.build(source, defines, targets=(build.MEASURED_TARGET,) if defines else build.TARGETS)
