"""Bad input gets a clear Python exception before any launch, from every attempt's entry point."""
import pytest
import torch

from common import attempts, problem
from common.validate import InputError, validate_inputs
from conftest import gpu

SHAPE = (128, 256, 2)


def good(device="cpu"):
    return list(problem.generate_input(*SHAPE, seed=3, device=device))


def swap(data, index, tensor):
    data = list(data)
    data[index] = tensor
    return tuple(data)


def bad_inputs(device):
    """(name, input tuple, phrase the error must contain) for each way an input can be wrong."""
    d = good(device)
    a, b, sfa, sfb, sfa_p, sfb_p, c = d
    m, k, l = SHAPE
    gen = lambda shape: problem.generate_input(*shape, seed=3, device=device)  # noqa: E731
    return [
        ("not a tuple", a, "7-tuple"),
        ("six tensors", tuple(d[:6]), "7-tuple"),
        ("a as uint8", swap(d, 0, a.view(torch.uint8)), "dtype"),
        ("sfa as uint8", swap(d, 2, sfa.view(torch.uint8)), "dtype"),
        ("c as float32", swap(d, 6, c.float()), "dtype"),
        ("b with one row", swap(d, 1, b[:1]), "shape"),
        ("sfa for another K", swap(d, 2, gen((m, k + 64, l))[2]), "shape"),
        ("c for another M", swap(d, 6, c[:64]), "shape"),
        ("M not a multiple of 128",
         (a[:64], b, sfa[:64], sfb, sfa_p[:, :, :0], sfb_p, c[:64]), "multiple of 128"),
        ("K not a multiple of 64", tuple(x[:, :x.shape[1] - x.shape[1] // 8] if i in (0, 1) else x
                                         for i, x in enumerate(d)), "multiple of 64"),
        ("a not in [L][M][K/2] order", swap(d, 0, a.contiguous()), "strides"),
        ("c contiguous as (M, 1, L)", swap(d, 6, c.contiguous()), "strides"),
    ]


@pytest.mark.parametrize("case", range(12))
def test_validate_refuses_each_bad_input(case):
    name, data, phrase = bad_inputs("cpu")[case]
    with pytest.raises(InputError, match=phrase):
        validate_inputs(data, require_cuda=False)


def test_validate_accepts_gpu_modes_input_and_returns_the_shape():
    assert validate_inputs(good(), require_cuda=False) == SHAPE


@pytest.mark.parametrize("attempt", attempts.all_attempts(), ids=lambda a: a.name)
def test_every_entry_point_refuses_cpu_tensors(attempt):
    if "import triton" in attempt.source.read_text():
        pytest.importorskip("triton", reason="the Triton baseline needs triton (torch's CUDA wheels ship it)")
    kernel = attempts.load(attempt.number)
    with pytest.raises(InputError, match="CUDA"):
        kernel(tuple(good()))


@gpu
@pytest.mark.parametrize("attempt", attempts.all_attempts(), ids=lambda a: a.name)
def test_every_entry_point_refuses_bad_cuda_input_before_launch(attempt):
    kernel = attempts.load(attempt.number)
    for name, data, phrase in bad_inputs("cuda"):
        if isinstance(data, tuple) and len(data) == 7:
            c = data[6]
            before = c.clone()
        with pytest.raises(InputError, match=phrase):
            kernel(data)
        torch.cuda.synchronize()
        if isinstance(data, tuple) and len(data) == 7:
            assert torch.equal(c, before), f"{name}: output touched, so something launched"
    mixed = swap(good("cuda"), 2, good("cpu")[2])
    with pytest.raises(InputError, match="CUDA"):
        kernel(mixed)
