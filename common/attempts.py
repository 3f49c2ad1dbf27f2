"""Attempts: discovery, metadata, and the entry point of contract 1.

    from common.attempts import load
    custom_kernel = load("07")          # GPU MODE's custom_kernel(data) -> c
    c = custom_kernel(data)

An attempt is a directory attempts/NN-slug/ holding kernel.cu (CUDA, built by common.build
and called through ctypes) or kernel.py (a Python baseline exporting custom_kernel), and a
README.md whose YAML front matter holds its metadata.
"""
import ctypes
import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path

import torch
import yaml

from . import build
from .validate import validate_inputs

ATTEMPTS_DIR = build.REPO / "attempts"
ENTRY_SYMBOL = "nvfp4_gemv"


@dataclass(frozen=True)
class Attempt:
    number: str          # "07", "00a", "99"
    slug: str
    path: Path

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def source(self) -> Path:
        cu = self.path / "kernel.cu"
        return cu if cu.exists() else self.path / "kernel.py"

    @property
    def is_cuda(self) -> bool:
        return self.source.suffix == ".cu"

    @functools.cached_property
    def meta(self) -> dict:
        text = (self.path / "README.md").read_text()
        if not text.startswith("---\n"):
            raise ValueError(f"{self.path / 'README.md'} has no YAML front matter")
        return yaml.safe_load(text.split("---\n", 2)[1])

    @property
    def correct_on(self) -> list[str]:
        return list(self.meta.get("correct_on") or [])

    @property
    def expected_failures(self) -> dict:
        return dict(self.meta.get("expected_failures") or {})

    @property
    def parent(self) -> "Attempt | None":
        parent = self.meta.get("parent")
        return find(str(parent)) if parent else None


def all_attempts() -> list[Attempt]:
    found = []
    for path in sorted(ATTEMPTS_DIR.iterdir()):
        if path.is_dir() and (path / "README.md").exists() and "-" in path.name:
            number, slug = path.name.split("-", 1)
            found.append(Attempt(number, slug, path))
    return found


def find(number: str) -> Attempt:
    """The attempt numbered `number` ("7", "07", "00a", or a directory name)."""
    wanted = str(number).removeprefix("attempt-")
    for attempt in all_attempts():
        if wanted in (attempt.number, attempt.name) or (
                wanted.isdigit() and attempt.number.isdigit() and int(wanted) == int(attempt.number)):
            return attempt
    known = ", ".join(a.number for a in all_attempts())
    raise KeyError(f"no attempt {number!r}; known attempts: {known}")


def load(number: str, defines: dict | None = None):
    """GPU MODE's custom_kernel(data) -> c for an attempt; `defines` are -D flags for nvcc."""
    attempt = find(number)
    if attempt.is_cuda:
        return _load_cuda(attempt, defines)
    if defines:
        raise ValueError(f"attempt {attempt.number} is Python; it takes no compile-time defines")
    return _load_python(attempt)


def _load_python(attempt: Attempt):
    spec = importlib.util.spec_from_file_location(f"attempt_{attempt.number}", attempt.source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def custom_kernel(data):
        validate_inputs(data)
        return module.custom_kernel(data)
    custom_kernel.attempt = attempt
    return custom_kernel


def _load_cuda(attempt: Attempt, defines):
    library = ctypes.CDLL(str(build.build(attempt.source, defines)))
    entry = getattr(library, ENTRY_SYMBOL)
    entry.restype = ctypes.c_int
    entry.argtypes = [ctypes.c_void_p] * 5 + [ctypes.c_int] * 3 + [ctypes.c_longlong] * 2 + [ctypes.c_void_p]

    def custom_kernel(data):
        m, k, l = validate_inputs(data)
        a, b, sfa, sfb, _, _, c = data
        with torch.cuda.device(a.device):
            stream = torch.cuda.current_stream().cuda_stream
            err = entry(a.data_ptr(), b.data_ptr(), sfa.data_ptr(), sfb.data_ptr(), c.data_ptr(),
                        m, k, l, b.stride(2), sfb.stride(2), stream)
        if err:
            raise RuntimeError(f"attempt {attempt.number}: kernel launch failed with CUDA error {err}")
        return c
    custom_kernel.attempt = attempt
    custom_kernel.library = library
    return custom_kernel
