"""Every attempt on every task test shape and on fresh random shapes, for each data class:
correct where its README says so, an expected failure (strict) where it names the mechanism.

Attempts that form sfa*sfb in fp16 (`fp16_scale_product: true`) are held to exactly that
mechanism on every input: where some block's scale product exceeds fp16's 65504 the check
must fail with a NaN/inf mismatch, and everywhere else it must pass: quantized data with
large block scales can reach such blocks, so a fixed expectation per data class could be
wrong in either direction."""
import random

import pytest
import torch

from common import attempts, nvfp4, problem
from common.check import check_output, poison
from common.reference import reference_gpu
from conftest import gpu

GEMV_ATTEMPTS = [a for a in attempts.all_attempts() if a.correct_on]   # 99 computes nothing
FRESH = random.SystemRandom()


def fresh_shapes(count=3):
    """Random legal shapes, new on every run (the seed is in the test id for replay)."""
    return [(128 * FRESH.randint(1, 24), 64 * FRESH.randint(1, 96), FRESH.randint(1, 4))
            for _ in range(count)]


def cases():
    for attempt in GEMV_ATTEMPTS:
        for data in problem.DATA_CLASSES:
            marks = [gpu]
            if data in attempt.expected_failures:
                marks.append(pytest.mark.xfail(reason=attempt.expected_failures[data], strict=True))
            elif data not in attempt.correct_on:
                continue
            for shape in problem.TEST_SHAPES + fresh_shapes():
                seed = FRESH.randint(0, 2**31 - 1)
                yield pytest.param(attempt, shape, data, seed, marks=marks,
                                   id=f"{attempt.number}-{data}-{'x'.join(map(str, shape))}-seed{seed}")


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


@pytest.mark.parametrize("attempt,shape,data,seed", list(cases()))
def test_attempt_matches_reference(attempt, shape, data, seed):
    if attempt.number not in _kernels:
        _kernels[attempt.number] = attempts.load(attempt.number)
    inputs = problem.generate_input(*shape, seed=seed, data=data)
    ref, abs_sum = reference_gpu(inputs)
    poison(inputs[6])
    out = _kernels[attempt.number](inputs)
    torch.cuda.synchronize()
    result = check_output(out, ref, abs_sum, shape[1], data)
    if attempt.meta.get("fp16_scale_product") and data not in attempt.expected_failures \
            and scale_product_overflows_fp16(inputs):
        assert result.nonfinite_mismatch > 0, f"sfa*sfb overflows fp16 here, yet: {result.message}"
    else:
        assert result.ok, result.message
