"""The NVFP4 and MXFP4 formats, bit-exact, on plain torch tensors.

Codes travel as uint8 tensors: e2m1 codes are 0..15 (bit 3 = sign, bits 2-1 = exponent with
bias 1, bit 0 = mantissa), packed two per byte with element 2i in the LOW nibble; e4m3fn and
UE8M0 scales are their raw bytes. Decoding goes through uint8 views because torch cannot
convert float4_e2m1fn_x2 to float (and on CUDA trying poisons the context).
"""
import torch

E2M1_MAX = 6.0
E4M3_MAX = 448.0
E4M3_MIN_NORMAL = 2.0 ** -6          # torchao's clamp floor for block scales
NVFP4_BLOCK = 16
MXFP4_BLOCK = 32

# Value of every e2m1 code: 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives.
E2M1_VALUES = torch.tensor(
    [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0],
    dtype=torch.float32,
)


def _as_uint8(t: torch.Tensor) -> torch.Tensor:
    if t.dtype in (torch.float4_e2m1fn_x2, torch.float8_e4m3fn):
        return t.view(torch.uint8)
    if t.dtype != torch.uint8:
        raise TypeError(f"expected raw uint8 codes, got {t.dtype}")
    return t


# ---------------------------------------------------------------------------- e2m1

def decode_e2m1(codes: torch.Tensor) -> torch.Tensor:
    """e2m1 codes (uint8, 0..15) -> float32."""
    codes = _as_uint8(codes)
    if codes.numel() and int(codes.max()) > 15:
        raise ValueError("e2m1 codes are 4-bit: values must be 0..15")
    return E2M1_VALUES.to(codes.device)[codes.long()]


def encode_e2m1(x: torch.Tensor) -> torch.Tensor:
    """float -> e2m1 codes, round to nearest even, saturating at +-6, sign kept (-0.1 -> -0).

    The thresholds are the midpoints between neighbouring values; at a tie the even code
    (mantissa bit 0) wins, hence '>' on ties that round down and '>=' on ties that round up.
    """
    x = x.float()
    if not torch.isfinite(x).all():
        raise ValueError("encode_e2m1: input must be finite")
    mag = x.abs()
    code = (
        (mag > 0.25).to(torch.uint8) + (mag >= 0.75) + (mag > 1.25) + (mag >= 1.75)
        + (mag > 2.5) + (mag >= 3.5) + (mag > 5.0)
    )
    sign = torch.signbit(x).to(torch.uint8) << 3
    return code.to(torch.uint8) | sign


def pack_e2m1(codes: torch.Tensor) -> torch.Tensor:
    """(..., 2n) codes -> (..., n) bytes, element 2i in the low nibble."""
    codes = _as_uint8(codes)
    if codes.shape[-1] % 2:
        raise ValueError("pack_e2m1 needs an even number of elements in the last dimension")
    return codes[..., 0::2] | (codes[..., 1::2] << 4)


def unpack_e2m1(packed: torch.Tensor) -> torch.Tensor:
    """(..., n) bytes -> (..., 2n) codes."""
    packed = _as_uint8(packed)
    return torch.stack([packed & 0xF, packed >> 4], dim=-1).flatten(-2)


# ---------------------------------------------------------------------------- e4m3fn

def decode_e4m3(raw: torch.Tensor) -> torch.Tensor:
    """e4m3fn bytes -> float32: bias 7, subnormals 2^-9 steps, 0x7F/0xFF are NaN, no inf."""
    raw = _as_uint8(raw).to(torch.int32)
    sign = torch.where(raw & 0x80 != 0, -1.0, 1.0)
    exp = (raw >> 3) & 0xF
    mant = (raw & 0x7).float()
    normal = (1.0 + mant / 8.0) * torch.exp2(exp.float() - 7.0)
    subnormal = mant / 8.0 * 2.0 ** -6
    value = sign * torch.where(exp == 0, subnormal, normal)
    return torch.where((raw & 0x7F) == 0x7F, torch.nan, value)


def encode_e4m3(x: torch.Tensor) -> torch.Tensor:
    """float -> e4m3fn bytes, round to nearest even, saturating at +-448.

    torch's own cast rounds correctly but does not saturate (500 -> NaN), so clamp first.
    """
    x = x.float()
    if torch.isnan(x).any():
        raise ValueError("encode_e4m3: input must not be NaN")
    return x.clamp(-E4M3_MAX, E4M3_MAX).to(torch.float8_e4m3fn).view(torch.uint8)


# ---------------------------------------------------------------------------- NVFP4

def quantize_nvfp4(x: torch.Tensor, per_tensor_scale: torch.Tensor | None = None):
    """NVFP4-quantize the last dimension of x in blocks of 16.

    Returns (scales, packed): e4m3fn scale bytes (..., K/16) and e2m1 bytes (..., K/2).
    Block scale = amax/6 (divided by the per-tensor fp32 scale when one is given), clamped
    to [2^-6, 448], rounded to e4m3; values times the reciprocal scale, clamped to +-6 and
    rounded to nearest even. Bit-exact with torchao's nvfp4_quantize (tests/test_nvfp4.py).
    """
    if x.dtype not in (torch.float32, torch.bfloat16):
        raise TypeError(f"quantize_nvfp4 takes float32 or bfloat16, got {x.dtype}")
    if x.shape[-1] % NVFP4_BLOCK:
        raise ValueError(f"last dimension {x.shape[-1]} is not a multiple of {NVFP4_BLOCK}")
    blocks = x.float().reshape(*x.shape[:-1], -1, NVFP4_BLOCK)
    if not torch.isfinite(blocks).all():
        raise ValueError("quantize_nvfp4: input must be finite")
    block_scale = blocks.abs().amax(dim=-1) / E2M1_MAX
    if per_tensor_scale is None:
        scale_fp8 = block_scale.clamp(E4M3_MIN_NORMAL, E4M3_MAX).to(torch.float8_e4m3fn)
        reciprocal = 1.0 / scale_fp8.float()
    else:
        pts = per_tensor_scale.float()
        scale_fp8 = (block_scale / pts).clamp(E4M3_MIN_NORMAL, E4M3_MAX).to(torch.float8_e4m3fn)
        reciprocal = (1.0 / pts) / scale_fp8.float()   # this order of operations is torchao's
    scaled = (blocks * reciprocal.unsqueeze(-1)).clamp(-E2M1_MAX, E2M1_MAX)
    codes = encode_e2m1(scaled.reshape(x.shape))
    return scale_fp8.view(torch.uint8), pack_e2m1(codes)


def dequantize_nvfp4(packed: torch.Tensor, scales: torch.Tensor,
                     per_tensor_scale: torch.Tensor | None = None) -> torch.Tensor:
    """Exact float32 values of NVFP4 data (..., K/2) with scales (..., K/16)."""
    values = decode_e2m1(unpack_e2m1(packed))
    scale = decode_e4m3(scales).repeat_interleave(NVFP4_BLOCK, dim=-1)
    out = values * scale
    return out if per_tensor_scale is None else out * per_tensor_scale.float()


# ---------------------------------------------------------------------------- MXFP4

def decode_ue8m0(raw: torch.Tensor) -> torch.Tensor:
    """UE8M0 bytes -> float32 2^(byte-127); 0xFF is NaN."""
    raw = _as_uint8(raw).to(torch.int32)
    return torch.where(raw == 0xFF, torch.nan, torch.exp2(raw.float() - 127.0))


def quantize_mxfp4(x: torch.Tensor):
    """MXFP4 (OCP MX v1.0): blocks of 32, power-of-two UE8M0 scale, e2m1 values.

    Scale exponent = floor(log2(amax)) - 2 (2 = e2m1's largest exponent), the OCP rule, so
    the block maximum lands in [4, 8) and saturates to 6 at worst. (Seed 004 used
    ceil(log2(amax)), which maps blocks into [-1, 1] and leaves most e2m1 codes unused.)
    Returns (ue8m0 scale bytes (..., K/32), packed e2m1 bytes (..., K/2)).
    """
    if x.shape[-1] % MXFP4_BLOCK:
        raise ValueError(f"last dimension {x.shape[-1]} is not a multiple of {MXFP4_BLOCK}")
    blocks = x.float().reshape(*x.shape[:-1], -1, MXFP4_BLOCK)
    if not torch.isfinite(blocks).all():
        raise ValueError("quantize_mxfp4: input must be finite")
    amax = blocks.abs().amax(dim=-1)
    exponent = torch.where(amax > 0, torch.floor(torch.log2(amax)) - 2, torch.full_like(amax, -127))
    exponent = exponent.clamp(-127, 127)
    scaled = (blocks / torch.exp2(exponent).unsqueeze(-1)).clamp(-E2M1_MAX, E2M1_MAX)
    codes = encode_e2m1(scaled.reshape(x.shape))
    return (exponent + 127).to(torch.uint8), pack_e2m1(codes)


def dequantize_mxfp4(packed: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    values = decode_e2m1(unpack_e2m1(packed))
    return values * decode_ue8m0(scales).repeat_interleave(MXFP4_BLOCK, dim=-1)


# ---------------------------------------------------------------------------- 128x4 layout

def sf_permuted_offset(row: int, ksf: int, k: int) -> int:
    """Byte offset of scale (row, ksf) in one batch of the 128x4 block-scale layout."""
    return ((row // 128) * (k // 64) * 512 + (ksf // 4) * 512
            + (row % 32) * 16 + ((row % 128) // 32) * 4 + ksf % 4)


def to_sf_permuted(sf: torch.Tensor) -> torch.Tensor:
    """Scales (rows, K/16, L) -> GPU MODE's sf_permuted view (32, 4, rows/128, 4, K/64, L).

    Memory is [L][rows/128][K/64][32][4][4]: 512-byte atoms of 128 rows x 4 scales.
    """
    rows, ksf, l = sf.shape
    if rows % 128 or ksf % 4:
        raise ValueError(f"rows ({rows}) must be a multiple of 128 and K/16 ({ksf}) of 4")
    atoms = sf.permute(2, 0, 1).reshape(l, rows // 128, 4, 32, ksf // 4, 4)
    # (l, m/128, m4, m32, k/4, k4) -> memory order (l, m/128, k/4, m32, m4, k4)
    memory = atoms.permute(0, 1, 4, 3, 2, 5).contiguous()
    return memory.permute(3, 4, 1, 5, 2, 0)


def from_sf_permuted(perm: torch.Tensor) -> torch.Tensor:
    """Inverse of to_sf_permuted: (32, 4, rows/128, 4, K/64, L) -> (rows, K/16, L)."""
    m32, m4, mb, k4, kb, l = perm.shape
    atoms = perm.permute(5, 2, 1, 0, 4, 3)              # (l, m/128, m4, m32, k/4, k4)
    return atoms.reshape(l, mb * 128, kb * 4).permute(1, 2, 0)
