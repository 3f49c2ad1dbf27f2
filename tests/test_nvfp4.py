"""The format module, exact, and its quantizer bit-exact with torchao's."""
import pytest
import torch

from common import nvfp4


def test_e2m1_decodes_every_code():
    codes = torch.arange(16, dtype=torch.uint8)
    expected = [0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6]
    got = nvfp4.decode_e2m1(codes)
    assert got.tolist() == expected
    assert torch.signbit(got[8])          # code 0x8 is -0


def test_e2m1_encode_round_trips_and_rounds_to_nearest_even():
    codes = torch.arange(16, dtype=torch.uint8)
    assert torch.equal(nvfp4.encode_e2m1(nvfp4.decode_e2m1(codes)), codes)
    ties = torch.tensor([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, -0.25, -5.0])
    # each tie goes to the neighbour with an even code (mantissa bit 0)
    assert nvfp4.decode_e2m1(nvfp4.encode_e2m1(ties)).tolist() == [0, 1, 1, 2, 2, 4, 4, -0.0, -4]
    assert nvfp4.decode_e2m1(nvfp4.encode_e2m1(torch.tensor([7.0, -100.0, 0.26]))).tolist() == [6, -6, 0.5]
    assert nvfp4.encode_e2m1(torch.tensor([-0.1])).item() == 0x8      # sign survives


def test_pack_puts_even_elements_in_the_low_nibble():
    codes = torch.tensor([[0x1, 0xF, 0x7, 0x8]], dtype=torch.uint8)
    packed = nvfp4.pack_e2m1(codes)
    assert packed.tolist() == [[0xF1, 0x87]]
    assert torch.equal(nvfp4.unpack_e2m1(packed), codes)


def test_e4m3_decode_matches_torch_for_all_256_bytes():
    raw = torch.arange(256, dtype=torch.uint8)
    ours = nvfp4.decode_e4m3(raw)
    torchs = raw.view(torch.float8_e4m3fn).float()
    assert torch.equal(torch.isnan(ours), torch.isnan(torchs))
    finite = ~torch.isnan(ours)
    assert torch.equal(ours[finite], torchs[finite])
    assert torch.equal(torch.signbit(ours[finite]), torch.signbit(torchs[finite]))
    assert ours[1].item() == 2.0 ** -9 and ours[0x7E].item() == 448.0


def test_e4m3_encode_saturates_and_round_trips():
    finite = torch.tensor([c for c in range(256) if c & 0x7F != 0x7F], dtype=torch.uint8)
    assert torch.equal(nvfp4.encode_e4m3(nvfp4.decode_e4m3(finite)), finite)
    assert nvfp4.decode_e4m3(nvfp4.encode_e4m3(torch.tensor([500.0, -1e9]))).tolist() == [448, -448]
    with pytest.raises(ValueError):
        nvfp4.encode_e4m3(torch.tensor([float("nan")]))


def torchao_nvfp4():
    """torchao's NVFP4 module: the quantizer's oracle; only the tests that use it skip without it."""
    return pytest.importorskip("torchao.prototype.mx_formats.nvfp4_tensor",
                               reason="torchao is the quantizer's oracle")


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("two_level", [False, True])
def test_quantizer_is_bit_exact_with_torchao(seed, dtype, two_level):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(64, 256, generator=gen) * torch.exp(4 * torch.randn(64, 1, generator=gen))
    x[3] = 0                                                    # an all-zero row of blocks
    x[5, :16] = torch.tensor([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 6.0] * 2)  # exact ties
    x = x.to(dtype)
    pts = x.float().abs().max() / (448 * 6) if two_level else None
    ours_scale, ours_data = nvfp4.quantize_nvfp4(x, per_tensor_scale=pts)
    ref_scale, ref_data = torchao_nvfp4().nvfp4_quantize(x, per_tensor_scale=pts)
    assert torch.equal(ours_scale, ref_scale.view(torch.uint8))
    assert torch.equal(ours_data, ref_data.view(torch.uint8))


def test_dequantize_inverts_quantize_on_representable_values():
    codes = torch.arange(32, dtype=torch.uint8).reshape(1, 32) % 16
    x = nvfp4.decode_e2m1(codes) * 2.0        # amax 12 -> scale 2, exactly representable
    scales, packed = nvfp4.quantize_nvfp4(x)
    assert torch.equal(nvfp4.dequantize_nvfp4(packed, scales), x)


def test_mxfp4_round_trip_and_scale_rule():
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(8, 64, generator=gen) * 100
    scales, packed = nvfp4.quantize_mxfp4(x)
    amax = x.reshape(8, 2, 32).abs().amax(-1)
    assert torch.equal(nvfp4.decode_ue8m0(scales), torch.exp2(torch.floor(torch.log2(amax)) - 2))
    back = nvfp4.dequantize_mxfp4(packed, scales)
    # in units of the scale: rounding costs at most half of e2m1's widest gap (1), and
    # saturating a block maximum in [6, 8) to 6 at most 2
    err = (back - x).abs() / nvfp4.decode_ue8m0(scales).repeat_interleave(32, -1)
    assert err.max() <= 2.0
    exact = nvfp4.decode_e2m1(torch.arange(16, dtype=torch.uint8)).repeat(2) * 4
    s, p = nvfp4.quantize_mxfp4(exact.reshape(1, 32))
    assert torch.equal(nvfp4.dequantize_mxfp4(p, s).flatten(), exact)


@pytest.mark.parametrize("rows,k,l", [(128, 64, 1), (256, 512, 3)])
def test_sf_permuted_layout_follows_the_index_formula(rows, k, l):
    sf = torch.randint(0, 256, (rows, k // 16, l), dtype=torch.uint8)
    perm = nvfp4.to_sf_permuted(sf)
    assert perm.shape == (32, 4, rows // 128, 4, k // 64, l)
    flat = perm.permute(5, 2, 4, 0, 1, 3).contiguous().view(l, -1)     # memory order
    for batch in range(l):
        for row in range(0, rows, 7):
            for ksf in range(k // 16):
                assert flat[batch, nvfp4.sf_permuted_offset(row, ksf, k)] == sf[row, ksf, batch]
    assert torch.equal(nvfp4.from_sf_permuted(perm), sf)
