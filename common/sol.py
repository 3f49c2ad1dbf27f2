"""Speed of light: the bytes a shape must move over the bandwidth of the GPU in use."""
import re

from .problem import problem_bytes

# Datasheet DRAM bandwidth, bytes per second.
DATASHEET_BANDWIDTH = {"h100": 3.35e12, "h100-pcie": 2.0e12, "h200": 4.8e12}
# The task's own B200 speed of light (at 1.5 GHz), microseconds, for reference only.
B200_TASK_SOL_US = {(7168, 16384, 1): 8.622, (4096, 7168, 8): 17.275, (7168, 2048, 4): 4.317}


def gpu_key(device_name: str) -> str:
    """'NVIDIA H100 80GB HBM3' -> 'h100'; the key names results/<key>.csv."""
    name = device_name.lower()
    for key in ("h200", "h100", "b200", "gb200"):
        if key in name:
            return f"{key}-pcie" if "pcie" in name and key == "h100" else key
    return re.sub(r"[^a-z0-9]+", "-", name.removeprefix("nvidia ")).strip("-")


def datasheet_sol_us(m: int, k: int, l: int, gpu: str) -> float | None:
    """Microseconds to move the problem's bytes at datasheet bandwidth; None if unknown."""
    bandwidth = DATASHEET_BANDWIDTH.get(gpu)
    return None if bandwidth is None else problem_bytes(m, k, l) / bandwidth * 1e6


def gbps(m: int, k: int, l: int, microseconds: float) -> float:
    """Effective bandwidth in GB/s (1e9 bytes) of a run over the problem's bytes."""
    return problem_bytes(m, k, l) / (microseconds * 1e-6) / 1e9
