"""Input generator, reference, check, speed of light: everything that runs without a GPU."""
import math

import pytest
import torch

from common import nvfp4, problem, sol
from common.check import POISON_BITS, check_output, poison
from common.reference import reference

SMALL = (128, 256, 2)


def gen(data, shape=SMALL, seed=7):
    return problem.generate_input(*shape, seed=seed, data=data, device="cpu")


@pytest.mark.parametrize("data", problem.DATA_CLASSES)
def test_generator_matches_gpu_modes_layout(data):
    m, k, l = SMALL
    a, b, sfa, sfb, sfa_p, sfb_p, c = gen(data)
    assert (a.shape, a.dtype, a.stride()) == ((m, k // 2, l), torch.float4_e2m1fn_x2, (k // 2, 1, m * k // 2))
    assert (b.shape, b.stride()) == ((128, k // 2, l), (k // 2, 1, 128 * k // 2))
    assert (sfa.shape, sfa.dtype, sfa.stride()) == ((m, k // 16, l), torch.float8_e4m3fn, (k // 16, 1, m * k // 16))
    assert sfb.shape == (128, k // 16, l)
    assert sfa_p.shape == (32, 4, m // 128, 4, k // 64, l) and sfb_p.shape == (32, 4, 1, 4, k // 64, l)
    assert torch.equal(nvfp4.from_sf_permuted(sfa_p.view(torch.uint8)), sfa.view(torch.uint8))
    assert (c.shape, c.dtype, c.stride()) == ((m, 1, l), torch.float16, (1, 1, m))
    assert c.abs().sum() > 0                              # pre-filled, not zeros


@pytest.mark.parametrize("data", problem.DATA_CLASSES)
def test_same_seed_same_tensors_other_seed_other_tensors(data):
    one, two, other = gen(data), gen(data), gen(data, seed=8)
    for x, y in zip(one, two):
        assert torch.equal(x.view(torch.uint8) if x.element_size() == 1 else x,
                           y.view(torch.uint8) if y.element_size() == 1 else y)
    assert not torch.equal(one[0].view(torch.uint8), other[0].view(torch.uint8))


def test_gpumode_class_is_gpu_modes_weak_distribution():
    a, _, sfa, _, _, _, _ = gen("gpumode", (256, 1024, 1))
    assert set(a.view(torch.uint8).unique().tolist()) == {0, 1, 2, 3}
    assert set(sfa.float().unique().tolist()) == {0.0, 1.0, 2.0}


def test_full_class_spans_every_code_and_fits_fp16():
    x = gen("full", (512, 2048, 2))
    a_codes = nvfp4.unpack_e2m1(x[0].view(torch.uint8))
    assert set(a_codes[..., 0::2].unique().tolist()) == set(range(16))   # low nibbles
    assert set(a_codes[..., 1::2].unique().tolist()) == set(range(16))   # high nibbles
    scales = torch.cat([x[2].view(torch.uint8).flatten(), x[3].view(torch.uint8)[:1].flatten()])
    values = nvfp4.decode_e4m3(scales)
    assert (values == 448).any() and (values == -448).any()
    assert ((values.abs() < 2 ** -6) & (values != 0)).any()                # subnormals
    ref, _ = reference(x)
    assert ref.abs().max() < 65504
    # blocks with a zero dot product keep scale pairs beyond fp16: the inf*0 trap is armed
    sfa, sfb = nvfp4.decode_e4m3(x[2].view(torch.uint8)), nvfp4.decode_e4m3(x[3].view(torch.uint8))[:1]
    assert ((sfa * sfb).abs() > 65504).any()


def test_quantized_class_scales_are_torchao_style():
    x = gen("quantized", (256, 1024, 1))
    sfa = nvfp4.decode_e4m3(x[2].view(torch.uint8))
    assert sfa.min() >= 2 ** -6 and sfa.max() <= 448
    codes = nvfp4.unpack_e2m1(x[0].view(torch.uint8))
    assert len(codes.unique()) == 16


def test_bad_shapes_are_refused():
    for shape in [(100, 256, 1), (128, 96, 1), (128, 256, 0)]:
        with pytest.raises(ValueError):
            problem.generate_input(*shape, seed=0, device="cpu")
    with pytest.raises(ValueError):
        problem.generate_input(128, 256, 1, seed=0, data="uniform", device="cpu")


def hand_problem():
    """M=128, K=64, L=1: row r has a = 1.5 everywhere and sfa = 2 on block 0 only, b = 0.5/-1."""
    m, k, l = 128, 64, 1
    a = torch.full((l, m, k // 2), 0x33, dtype=torch.uint8)                 # 1.5, 1.5
    b = torch.zeros((l, 128, k // 2), dtype=torch.uint8)
    b[0, 0, 0] = 0xA1                                                          # 0.5 (low), -1 (high)
    sfa = torch.zeros((l, m, k // 16), dtype=torch.uint8)
    sfa[..., 0] = nvfp4.encode_e4m3(torch.tensor(2.0))
    sfa[0, 5, 1] = nvfp4.encode_e4m3(torch.tensor(448.0))
    sfb = nvfp4.encode_e4m3(torch.full((l, 128, k // 16), 0.25))
    perm = lambda t: t.permute(1, 2, 0)                                     # noqa: E731
    return (perm(a).view(torch.float4_e2m1fn_x2), perm(b).view(torch.float4_e2m1fn_x2),
            perm(sfa).view(torch.float8_e4m3fn), perm(sfb).view(torch.float8_e4m3fn),
            None, None, torch.zeros((m, 1, l), dtype=torch.float16))


def test_reference_on_a_hand_computed_case():
    ref, abs_sum = reference(hand_problem())
    # per 16-block: sum over 8 pairs of 1.5*0.5*s + 1.5*(-1)*s, with s = sfa*sfb; only b's
    # first byte is non-zero, so only block 0 contributes: 1.5*(0.5 - 1) * 2 * 0.25 = -0.375
    assert ref[0, 0, 0].item() == -0.375
    assert abs_sum[0, 0, 0].item() == 1.5 * 1.5 * 2 * 0.25
    assert torch.all(ref == -0.375)


def test_check_accepts_exact_and_fails_each_defect():
    k = 256
    ref = torch.linspace(-100, 100, 256, dtype=torch.float64).reshape(128, 1, 2)
    abs_sum = ref.abs() * 10
    good = ref.half()
    assert check_output(good, ref, abs_sum, k, "full").ok
    unwritten = good.clone(); poison(unwritten[7:9])
    res = check_output(unwritten, ref, abs_sum, k, "full")
    assert not res.ok and res.unwritten == 4 and "never written" in res.message
    nan = good.clone(); nan[3, 0, 0] = float("nan")
    assert check_output(nan, ref, abs_sum, k, "full").nonfinite_mismatch == 1
    off = good.clone(); off[100, 0, 1] += 0.5                               # one block dropped
    assert check_output(off, ref, abs_sum, k, "full").out_of_tolerance == 1
    assert not check_output(good.float(), ref, abs_sum, k, "full").ok      # wrong dtype
    # GPU MODE's looser check on gpumode data: 1e-3 + 1e-3|ref|
    loose = good.clone(); loose[0, 0, 0] = float(ref[0, 0, 0]) * (1 + 5e-4)
    assert check_output(loose, ref, abs_sum, k, "gpumode").ok


def test_results_beyond_fp16_must_be_inf_of_their_sign():
    ref = torch.tensor([70000.0, -1e6, 65000.0, 1.0], dtype=torch.float64).reshape(4, 1, 1)
    abs_sum = ref.abs()
    inf = float("inf")
    good = torch.tensor([inf, -inf, 65024.0, 1.0]).half().reshape(4, 1, 1)
    assert check_output(good, ref, abs_sum, 64, "full").ok
    finite_instead = good.clone(); finite_instead[0] = 65504.0
    assert check_output(finite_instead, ref, abs_sum, 64, "full").nonfinite_mismatch == 1
    wrong_sign = good.clone(); wrong_sign[1] = inf
    assert check_output(wrong_sign, ref, abs_sum, 64, "full").nonfinite_mismatch == 1
    spurious = good.clone(); spurious[2] = inf
    assert check_output(spurious, ref, abs_sum, 64, "full").nonfinite_mismatch == 1


def test_poison_is_a_nan_that_arithmetic_does_not_produce():
    c = torch.zeros(4, dtype=torch.float16)
    poison(c)
    assert torch.isnan(c).all() and int(c.view(torch.int16)[0]) == POISON_BITS
    assert int((torch.tensor([0.0]).half() / 0).view(torch.int16)) != POISON_BITS


def test_problem_bytes_and_speed_of_light():
    mb = [problem.problem_bytes(*s) / 1e6 for s in problem.BENCHMARK_SHAPES]
    assert [round(x, 2) for x in mb] == [66.08, 132.22, 33.09]
    h100 = [sol.datasheet_sol_us(*s, "h100") for s in problem.BENCHMARK_SHAPES]
    assert [round(x, 1) for x in h100] == [19.7, 39.5, 9.9]
    # the task's B200 figures imply ~7.66 TB/s over the same bytes
    implied = [problem.problem_bytes(*s) / (sol.B200_TASK_SOL_US[s] * 1e-6) / 1e12
               for s in problem.BENCHMARK_SHAPES]
    assert all(abs(t - 7.66) < 0.02 for t in implied)
    assert math.isclose(sol.gbps(7168, 16384, 1, 66.08), 1000, rel_tol=1e-3)


def test_gpu_keys():
    assert sol.gpu_key("NVIDIA H100 80GB HBM3") == "h100"
    assert sol.gpu_key("NVIDIA H200") == "h200"
    assert sol.gpu_key("NVIDIA H100 PCIe") == "h100-pcie"
    assert sol.datasheet_sol_us(128, 64, 1, "rtx-4090") is None
