"""Build CUDA attempts with plain nvcc into shared libraries, for sm_90a and sm_100a, cached.

Kernel sources include no torch headers, so a build takes seconds. The cache key is the
source, every shared header and every header beside the source, the flags and nvcc's version:
editing any of them rebuilds.
"""
import collections
import functools
import hashlib
import os
import re
import shutil
import subprocess
import sysconfig
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CUDA_INCLUDE = REPO / "common" / "cuda"
BUILD_DIR = Path(os.environ.get("NVFP4_BUILD_DIR", REPO / "build"))
TARGETS = ("sm_90a", "sm_100a")
MEASURED_TARGET = "sm_90a"       # the code the recorded rows ran (H100 and H200)
# --threads 2: the two targets compile side by side (the same SASS; a cold build of every attempt,
# as CI makes, takes minutes less)
NVCC_FLAGS = ("-O3", "-std=c++17", "-shared", "-Xcompiler", "-fPIC", "-lineinfo", "-Xptxas", "-v",
              "--threads", "2")
# The device code alone (no host compile, no link): the same SASS, in about two thirds of the time
DEVICE_CODE_FLAGS = tuple(f for f in NVCC_FLAGS if f not in ("-shared", "-Xcompiler", "-fPIC")) + ("-fatbin",)
# One writer of a build or a listing at a time in this process (tests/conftest.py builds ahead on a
# second thread): another thread asking for it waits, then finds it made.
_LOCKS = collections.defaultdict(threading.Lock)


class BuildError(RuntimeError):
    pass


@functools.cache
def nvcc_version() -> str:
    try:
        out = subprocess.run(["nvcc", "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise BuildError(f"nvcc is needed to build CUDA attempts and was not found: {e}") from e
    return out.stdout.strip().splitlines()[-1]


def _gencode(target: str) -> str:
    arch = target.removeprefix("sm_")
    return f"-gencode=arch=compute_{arch},code=sm_{arch}"


def build(source: Path, defines: dict | None = None, targets=TARGETS) -> Path:
    """Compile `source` into a cached .so; return its path. ptxas's report sits beside it."""
    return _compile(source, defines, targets, NVCC_FLAGS, ".so")


def device_code(source: Path, defines: dict | None = None, targets=TARGETS) -> Path:
    """Compile `source`'s device code alone into a cached .fatbin, for what reads only its SASS and
    ptxas's report (sass, resource_usage, build_id: the same as its library's); nothing loads it."""
    return _compile(source, defines, targets, DEVICE_CODE_FLAGS, ".fatbin")


def measured_code(source: Path, defines: dict | None = None) -> Path:
    """What reads only the code the GPUs run (sm_90a): a variant (defines) as sm_90a device code
    alone, the same code as in its two-target library; without defines the source's own library,
    one build shared with everything that loads or disassembles it."""
    return device_code(source, defines, (MEASURED_TARGET,)) if defines else build(source)


def _compile(source: Path, defines: dict | None, targets, base_flags: tuple, suffix: str) -> Path:
    source = Path(source).resolve()
    defines = dict(sorted((defines or {}).items()))
    flags = [*base_flags, f"-I{CUDA_INCLUDE}", *map(_gencode, targets),
             *(f"-D{k}={v}" for k, v in defines.items())]
    key = hashlib.sha256()
    for path in [source, *sorted(CUDA_INCLUDE.glob("*.cuh")), *sorted(source.parent.glob("*.cuh"))]:
        key.update(path.name.encode() + path.read_bytes())
    key.update(" ".join(flags).encode() + nvcc_version().encode())
    out_dir = BUILD_DIR / source.parent.name / key.hexdigest()[:16]
    library = out_dir / (source.stem + suffix)
    with _LOCKS[library]:
        if library.exists():
            return library
        out_dir.mkdir(parents=True, exist_ok=True)
        tmp = out_dir / (library.name + f".tmp{os.getpid()}")
        proc = subprocess.run(["nvcc", *flags, str(source), "-o", str(tmp)],
                              capture_output=True, text=True)
        (out_dir / "ptxas.log").write_text(proc.stdout + proc.stderr)
        if proc.returncode != 0:
            raise BuildError(f"nvcc failed on {source}:\n{proc.stderr[-4000:]}")
        tmp.rename(library)           # atomic: a concurrent reader never sees half a library
    return library


_PTXAS_FUNCTION = re.compile(r"Compiling entry function '(\S+)' for '(sm_\w+)'")
_PTXAS_USAGE = re.compile(r"Used (\d+) registers")
_PTXAS_SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")


def resource_usage(library: Path) -> list[dict]:
    """Registers and spills per kernel and target, from the ptxas report of a build."""
    rows, current = [], None
    for line in (Path(library).parent / "ptxas.log").read_text().splitlines():
        if m := _PTXAS_FUNCTION.search(line):
            current = {"kernel": m.group(1), "target": m.group(2)}
        elif current and (m := _PTXAS_SPILL.search(line)):
            current.update(spill_stores=int(m.group(1)), spill_loads=int(m.group(2)))
        elif current and (m := _PTXAS_USAGE.search(line)):
            current["registers"] = int(m.group(1))
            rows.append(current)
            current = None
    return rows


def cuda_tool(name: str) -> str:
    """A CUDA binary tool (cuobjdump, nvdisasm) from the toolkit, or from its PyPI wheel."""
    found = shutil.which(name)
    if found:
        return found
    wheel = Path(sysconfig.get_paths()["purelib"]) / "nvidia" / "cu13" / "bin" / name
    if wheel.exists():
        return str(wheel)
    raise BuildError(f"{name} not found: install the CUDA toolkit or nvidia-cuda-{name}")


@functools.cache
def _disassembler_id() -> str:
    """A short hash of cuobjdump's version: a kept listing is this disassembler's."""
    out = subprocess.run([cuda_tool("cuobjdump"), "--version"], capture_output=True, text=True, check=True)
    return hashlib.sha256(out.stdout.encode()).hexdigest()[:8]


def _functions_only(listing: str) -> str:
    """cuobjdump's listing less its ELF sections that hold no function (a library's device-link
    stub) and trailing blanks: a library and its device code alone then read the same."""
    sections = re.split(r"^(?=Fatbin elf code:)", listing, flags=re.M)
    kept = [s for s in sections if "Function : " in s or not s.startswith("Fatbin elf code:")]
    return "\n".join(line.rstrip() for line in "".join(kept).split("\n"))


def sass(library: Path, target: str) -> str:
    """The SASS of one target's code in a built library or device code (build, device_code), less
    its ELF sections that hold no function. Disassembling takes about as long as compiling and the
    suite reads most listings several times, so each is kept beside its build (whose directory is
    keyed by its content), named by the disassembler's version."""
    library = Path(library)
    kept = library.parent / f"{library.stem}.{target}.{_disassembler_id()}.functions.sass"
    with _LOCKS[kept]:
        if kept.exists():
            return kept.read_text()
        env = {**os.environ, "NVDISASM_PATH": str(Path(cuda_tool("nvdisasm")).parent)}
        proc = subprocess.run([cuda_tool("cuobjdump"), "-sass", "-arch", target, str(library)],
                              capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise BuildError(f"cuobjdump failed on {library}: {proc.stderr.strip()}")
        listing = _functions_only(proc.stdout)
        tmp = kept.with_name(kept.name + f".tmp{os.getpid()}")
        tmp.write_text(listing)
        tmp.rename(kept)              # atomic, as a build's library
    return listing


_SASS_INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s*(.*?)\s*;", re.M)
_SASS_FUNCTION = re.compile(r"^\s*Function : (\S+)", re.M)


def build_id(library: Path) -> str:
    """The identity of a built library's measured code: a hash of its sm_90a SASS (kernel names
    and instructions, without addresses or encodings). A recorded row names it, so a change of a
    shared header or flag that alters an attempt's code is seen (tests/test_history.py)."""
    text = sass(library, MEASURED_TARGET)
    digest = hashlib.sha256()
    for line in text.splitlines():
        if m := _SASS_FUNCTION.match(line):
            digest.update(b"F " + m.group(1).encode() + b"\n")
        elif m := _SASS_INSTRUCTION.match(line):
            digest.update(" ".join(m.group(1).split()).encode() + b"\n")
    return "sass:" + digest.hexdigest()[:12]


def source_id(source: Path) -> str:
    """The identity of a Python attempt: a hash of its source."""
    return "py:" + hashlib.sha256(Path(source).read_bytes()).hexdigest()[:12]
