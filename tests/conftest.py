import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

HAS_GPU = torch.cuda.is_available()
gpu = pytest.mark.skipif(not HAS_GPU, reason="needs an NVIDIA GPU (torch.cuda.is_available() is False)")


def pytest_report_header(config):
    return f"GPU: {torch.cuda.get_device_name() if HAS_GPU else 'none (GPU tests skip)'}"
