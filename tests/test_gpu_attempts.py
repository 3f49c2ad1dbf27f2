"""Every attempt on every task test shape, on two shapes whose warps step through several
windows, and on fresh random shapes, for each data class: correct where its README says so, an
expected failure (strict) where it names the mechanism. An attempt's `test_defines` (front
matter) are checked the same way, each as a build of its own.

Attempts that form sfa*sfb in fp16 (`fp16_scale_product: true`) are held to exactly that
mechanism on every input: where some block's scale product exceeds fp16's 65504 the check
must fail with a NaN/inf mismatch, and everywhere else it must pass: quantized data with
large block scales can reach such blocks, so a fixed expectation per data class could be
wrong in either direction."""
import itertools
import random

import pytest
import torch

from common import attempts, nvfp4, problem
from common.check import check_output, poison
from common.reference import reference_gpu
from conftest import HAS_GPU, RUN_SEED, gpu

GEMV_ATTEMPTS = [a for a in attempts.all_attempts() if a.correct_on]   # 99 computes nothing
CAPABILITY = torch.cuda.get_device_capability() if torch.cuda.is_available() else (0, 0)
# Fresh shapes and seeds on every run, drawn from the run seed (conftest.RUN_SEED). Test ids name
# the attempt, class and shape slot only (fresh1..3): the same on every collection, so a failure
# re-runs by id, with NVFP4_TEST_SEED=<the printed seed> for the same shapes and inputs.
FRESH = random.Random(RUN_SEED)


# Shapes on which the dp4a attempts' warps step through several windows: 2176 tiles of 4 rows are
# more than half of 132 SMs x 32 warps, so a warp owns its rows' whole K, 3 windows of 1024 (and a
# short fourth at K = 3136). The task's shapes split K into parts of one or two windows. K = 10240
# is past the H100's one-window parts (61's rule), so that GPU too runs parts of several windows:
# 4 parts of 2 or 3 windows for 1024 tiles, and whole rows of 10 windows and a short eleventh.
# K = 12288 over 3 batches: 72's window jobs on both GPUs, their tiles numbered across batches.
LONG_PARTS = [(4352, 3072, 2), (4352, 3136, 2), (4096, 10240, 1), (4352, 10304, 2), (1024, 12288, 3)]
# 300 batches of 32 tiles: more batches than resident blocks, so 74's walk runs one block a batch
# (grid y 300), each of its groups walking 4 tiles.
MANY_BATCHES = [(128, 2048, 300)]
# Rows of 16 windows and more that a warp walks over several tiles: 76's rule sends them to the
# walk on the H100 (4 tiles a warp over 2 batches; 5, the last step short, at 28 windows); the
# H200 runs them in 70's split.
LONG_ROWS = [(2048, 16384, 2), (2176, 28672, 1)]
# Rows of 9 windows on the H100 in 93o's joined blocks: 2 blocks a tile, of 5 and 4 windows, the
# second block's fifth warp leaving at once; over 2 batches.
JOINED_ROWS = [(1152, 9216, 2)]
# Rows of 7 windows in groups of two warps a block, over 3 batches, the last block's groups short
# of a step: 79's walk, which runs wherever a warp walks 4 tiles or more.
WALK_GROUPS = [(3328, 7168, 3)]
# 8192 tiles of 4 windows, the fourth short: more than one wave of the H200's one-warp blocks, so
# 93q and 93r send the last rows of each batch to their tail grid, each warp one window (the short
# one included).
TAIL_ROWS = [(16384, 3136, 2)]


def fresh_shapes(count=3):
    return [(128 * FRESH.randint(1, 24), 64 * FRESH.randint(1, 96), FRESH.randint(1, 4))
            for _ in range(count)]


def variants(attempt):
    """The builds to check: the attempt's own, and each of its `test_defines` (front matter)."""
    yield None, ""
    for defines in attempt.meta.get("test_defines") or []:
        yield defines, "[" + ",".join(f"{k}={v}" for k, v in defines.items()) + "]"


def cases():
    for attempt in GEMV_ATTEMPTS:
        if HAS_GPU and not attempt.runs_on(CAPABILITY):
            continue                  # test_refuses_a_gpu_it_does_not_support covers it
        for (defines, label), data in itertools.product(variants(attempt), problem.DATA_CLASSES):
            marks = [gpu]
            if data in attempt.expected_failures:
                marks.append(pytest.mark.xfail(reason=attempt.expected_failures[data], strict=True))
            elif data not in attempt.correct_on:
                continue
            fixed = [(s, "x".join(map(str, s))) for s in problem.TEST_SHAPES + LONG_PARTS + MANY_BATCHES + LONG_ROWS + JOINED_ROWS + WALK_GROUPS + TAIL_ROWS]
            fresh = [(s, f"fresh{i}") for i, s in enumerate(fresh_shapes(), 1)]
            for shape, slot in fixed + fresh:
                seed = FRESH.randint(0, 2**31 - 1)
                yield pytest.param(attempt, defines, shape, data, seed, marks=marks,
                                   id=f"{attempt.number}{label}-{data}-{slot}")


def test_every_attempt_declares_every_data_class():
    for attempt in GEMV_ATTEMPTS:
        declared = set(attempt.correct_on) | set(attempt.expected_failures)
        assert declared == set(problem.DATA_CLASSES), attempt.name
        assert not set(attempt.correct_on) & set(attempt.expected_failures), attempt.name


_kernels = {}


def scale_product_overflows_fp16(inputs) -> bool:
    """Whether some block's sfa*sfb is beyond fp16's largest finite value."""
    sfa = nvfp4.decode_e4m3(inputs[2].view(torch.uint8).cpu()).double()
    sfb = nvfp4.decode_e4m3(inputs[3][:1].view(torch.uint8).cpu()).double()
    return bool(((sfa * sfb).abs() > 65504).any())


@pytest.mark.parametrize("attempt,defines,shape,data,seed", list(cases()))
def test_attempt_matches_reference(attempt, defines, shape, data, seed):
    key = (attempt.number, str(defines))
    if key not in _kernels:
        _kernels[key] = attempts.load(attempt.number, defines)
    inputs = problem.generate_input(*shape, seed=seed, data=data)
    ref, abs_sum = reference_gpu(inputs)
    poison(inputs[6])
    out = _kernels[key](inputs)
    torch.cuda.synchronize()
    result = check_output(out, ref, abs_sum, shape[1], data)
    where = f"shape {shape}, defines {defines}, input seed {seed}, NVFP4_TEST_SEED={RUN_SEED}"
    if attempt.meta.get("fp16_scale_product") and data not in attempt.expected_failures \
            and scale_product_overflows_fp16(inputs):
        assert result.nonfinite_mismatch > 0, f"sfa*sfb overflows fp16 here, yet: {result.message} ({where})"
    else:
        assert result.ok, f"{result.message} ({where})"


@gpu
@pytest.mark.parametrize("attempt", [a for a in GEMV_ATTEMPTS if a.meta.get("min_capability")],
                         ids=lambda a: a.number)
def test_runs_or_refuses_clearly_on_this_gpu(attempt):
    """An attempt that needs a newer GPU refuses this one with one clear error before any launch
    (where it does run, the correctness cases above cover it)."""
    if attempt.runs_on(CAPABILITY):
        return
    inputs = problem.generate_input(128, 256, 1, seed=0)
    poison(inputs[6])
    with pytest.raises(NotImplementedError, match="compute capability"):
        attempts.load(attempt.number)(inputs)
    assert (inputs[6].view(torch.int16) == 0x7E5A).all(), "it wrote c before refusing"
