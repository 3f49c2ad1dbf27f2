"""Attempts: discovery, metadata, and the entry point of contract 1 (docs/contracts.md).

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

    def runs_on(self, capability: tuple[int, int]) -> bool:
        """Whether the attempt runs on a GPU of this compute capability (front matter
        `min_capability: "10.0"`; elsewhere it refuses with one clear error)."""
        needed = str(self.meta.get("min_capability") or "0.0")
        return capability >= tuple(int(x) for x in needed.split("."))

    @property
    def parent(self) -> "Attempt | None":
        parent = self.meta.get("parent")
        return find(str(parent)) if parent else None


# The front matter of an attempt's README (docs/contracts.md, contract 4). tests/test_contracts.py
# holds every attempt to it: a misspelt key would otherwise silently drop a test.
REQUIRED_KEYS = {"attempt", "slug", "title", "parent", "source", "seed_b200_us", "correct_on",
                 "expected_failures", "targets"}
OPTIONAL_KEYS = {"fp16_scale_product", "nondeterministic", "sweep", "min_capability", "test_defines"}
RESULT_MARKERS = ("<!-- results:begin -->", "<!-- results:end -->")


def front_matter_errors(attempt: "Attempt") -> list[str]:
    """Everything wrong with an attempt's front matter and README sections (empty: all good)."""
    from .problem import DATA_CLASSES
    try:
        meta = attempt.meta
    except (ValueError, yaml.YAMLError) as e:
        return [str(e)]
    errors = []
    keys = set(meta)
    errors += [f"missing key {k!r}" for k in sorted(REQUIRED_KEYS - keys)]
    errors += [f"unknown key {k!r} (allowed: {', '.join(sorted(REQUIRED_KEYS | OPTIONAL_KEYS))})"
               for k in sorted(keys - REQUIRED_KEYS - OPTIONAL_KEYS)]
    if str(meta.get("attempt")) != attempt.number:
        errors.append(f"attempt {meta.get('attempt')!r} does not match the directory's {attempt.number!r}")
    if meta.get("slug") != attempt.slug:
        errors.append(f"slug {meta.get('slug')!r} does not match the directory's {attempt.slug!r}")
    parent = str(meta.get("parent") or "")
    if parent and parent not in {a.number for a in all_attempts()}:
        errors.append(f"parent {parent!r} is not an attempt")
    correct = set(meta.get("correct_on") or [])
    failing = set(meta.get("expected_failures") or {})
    unknown = (correct | failing) - set(DATA_CLASSES)
    if unknown:
        errors.append(f"unknown data classes {sorted(unknown)}")
    if correct & failing:
        errors.append(f"data classes both correct and expected to fail: {sorted(correct & failing)}")
    if correct and correct | failing != set(DATA_CLASSES):
        errors.append(f"data classes not declared: {sorted(set(DATA_CLASSES) - correct - failing)}")
    expected_targets = ["sm_90a", "sm_100a"] if attempt.is_cuda else ["python"]
    if meta.get("targets") != expected_targets:
        errors.append(f"targets {meta.get('targets')!r}, expected {expected_targets}")
    text = (attempt.path / "README.md").read_text()
    errors += [f"README lacks the marker {m}" for m in RESULT_MARKERS if m not in text]
    return errors


def all_attempts() -> list[Attempt]:
    return list(_scan(ATTEMPTS_DIR.stat().st_mtime_ns))


@functools.lru_cache(maxsize=4)
def _scan(version: int) -> tuple[Attempt, ...]:
    """The attempts' directories, listed once per version of the folder (`version`, its mtime,
    changes when one is added or removed): the generated documents look attempts up by number
    thousands of times."""
    found = []
    for path in sorted(ATTEMPTS_DIR.iterdir()):
        if path.is_dir() and (path / "README.md").exists() and "-" in path.name:
            number, slug = path.name.split("-", 1)
            found.append(Attempt(number, slug, path))
    return tuple(found)


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
    custom_kernel.build_id = build.source_id(attempt.source)
    return custom_kernel


# The declarations of common/cuda/nvfp4_gemv.h as ctypes signatures: (return type, arguments).
# tests/test_contracts.py parses the header and fails if the two disagree.
_GEMV_ARGS = [ctypes.c_void_p] * 5 + [ctypes.c_int] * 3 + [ctypes.c_longlong] * 2
ENTRY_POINTS = {
    "nvfp4_gemv": (ctypes.c_int, _GEMV_ARGS + [ctypes.c_void_p]),
    "nvfp4_gemv_with_workspace": (ctypes.c_int, _GEMV_ARGS + [ctypes.c_void_p] * 2),
    "nvfp4_gemv_workspace_bytes": (ctypes.c_size_t, [ctypes.c_int] * 3),
    "nvfp4_gemv_setup": (ctypes.c_int, []),
}


class ContractError(RuntimeError):
    """A built attempt does not export the entry points contract 1 asks for."""


def _symbol(library, name):
    try:
        function = getattr(library, name)
    except AttributeError:
        return None
    function.restype, function.argtypes = ENTRY_POINTS[name]
    return function


class Workspace:
    """Scratch memory of one attempt on one device: zero-filled when allocated, grown on demand."""

    def __init__(self):
        self._buffers = {}

    def get(self, nbytes: int, device) -> int:
        buffer = self._buffers.get(device)
        if buffer is None or buffer.numel() < nbytes:
            buffer = torch.zeros(max(nbytes, 16), dtype=torch.uint8, device=device)
            self._buffers[device] = buffer
        return buffer.data_ptr()


def _load_cuda(attempt: Attempt, defines):
    custom_kernel = load_library(attempt.source, defines, f"attempt {attempt.number}")
    custom_kernel.attempt = attempt
    return custom_kernel


def load_library(source: Path, defines: dict | None = None, label: str | None = None):
    """custom_kernel(data) -> c for any CUDA source implementing common/cuda/nvfp4_gemv.h
    (an attempt, or a read strategy of common/floor.py); `label` names it in errors."""
    label = label or str(source)
    path = build.build(source, defines)
    library = ctypes.CDLL(str(path))
    plain, with_workspace = _symbol(library, "nvfp4_gemv"), _symbol(library, "nvfp4_gemv_with_workspace")
    workspace_bytes, setup = _symbol(library, "nvfp4_gemv_workspace_bytes"), _symbol(library, "nvfp4_gemv_setup")
    if (plain is None) == (with_workspace is None):
        raise ContractError(f"{label} must define exactly one of nvfp4_gemv and "
                            "nvfp4_gemv_with_workspace (common/cuda/nvfp4_gemv.h)")
    if with_workspace is not None and workspace_bytes is None:
        raise ContractError(f"{label} defines nvfp4_gemv_with_workspace but not "
                            "nvfp4_gemv_workspace_bytes")
    workspace, set_up = Workspace(), []

    def custom_kernel(data):
        m, k, l = validate_inputs(data)
        if setup is not None and not set_up:    # once, on a GPU, after the first valid inputs
            if err := setup():
                raise RuntimeError(f"{label}: nvfp4_gemv_setup failed with CUDA error {err}")
            set_up.append(True)
        a, b, sfa, sfb, _, _, c = data
        with torch.cuda.device(a.device):
            stream = torch.cuda.current_stream().cuda_stream
            args = (a.data_ptr(), b.data_ptr(), sfa.data_ptr(), sfb.data_ptr(), c.data_ptr(),
                    m, k, l, b.stride(2), sfb.stride(2))
            if plain is not None:
                err = plain(*args, stream)
            else:
                err = with_workspace(*args, workspace.get(workspace_bytes(m, k, l), a.device), stream)
        if err:
            raise RuntimeError(f"{label}: kernel launch failed with CUDA error {err}")
        return c
    custom_kernel.library = library
    custom_kernel.build_id = build.build_id(path)
    return custom_kernel
