"""The task: GPU MODE's nvfp4_gemv inputs, shapes and the three data classes.

`generate_input(m, k, l, seed, data=...)` returns GPU MODE's tuple
(a, b, sfa, sfb, sfa_permuted, sfb_permuted, c) with GPU MODE's dtypes, shapes and strides:
a (M, K/2, L) float4_e2m1fn_x2 over [L][M][K/2] memory, b padded to 128 rows, scales
float8_e4m3fn, c (M, 1, L) fp16 pre-filled with random values. Every random draw comes from a
CPU torch.Generator, so the same seed gives the same tensors on any machine (GPU MODE draws on
the GPU; its distribution, not its exact bits, is what `gpumode` reproduces).
"""
import torch

from . import nvfp4

TEST_SHAPES = [(128, 256, 1), (128, 1536, 1), (128, 3072, 1), (256, 7168, 1), (2432, 4608, 2),
               (384, 7168, 2), (512, 512, 2), (512, 4096, 2), (512, 1536, 2)]
BENCHMARK_SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4)]
# LLM decode shapes (M output features x K input features, L sequences): Llama-3 8B/70B and
# Mistral-style projections, the vocabulary head of a 128k-token model, and batches of 4 and 16.
DECODE_SHAPES = [(4096, 4096, 1), (6144, 4096, 1), (28672, 4096, 1), (4096, 14336, 1),
                 (8192, 8192, 1), (57344, 8192, 1), (8192, 28672, 1), (128256, 4096, 1),
                 (4096, 4096, 4), (4096, 4096, 16)]
# Where launch and tail latency dominate, and shapes nobody tuned for (odd multiples of 128 / 64).
SMALL_SHAPES = [(128, 16384, 1), (1024, 1024, 1), (2048, 7168, 4)]
ODD_SHAPES = [(4224, 4160, 1), (1152, 5184, 3), (8320, 2112, 2)]
TASK_SEED = 1111
DATA_CLASSES = ("gpumode", "full", "quantized")
B_PADDED_ROWS = 128

E4M3_FINITE_CODES = torch.tensor([c for c in range(256) if c & 0x7F != 0x7F], dtype=torch.uint8)
FP16_BUDGET = 30000.0    # |exact result| stays below this, well inside fp16's 65504


def validate_shape(m: int, k: int, l: int) -> None:
    if m <= 0 or k <= 0 or l <= 0:
        raise ValueError(f"m, k, l must be positive, got {(m, k, l)}")
    if m % 128:
        raise ValueError(f"M={m} is not a multiple of 128")
    if k % 64:
        raise ValueError(f"K={k} is not a multiple of 64")


def _randint(gen, high, shape):
    return torch.randint(0, high, shape, generator=gen, dtype=torch.int64)


def _gpumode(gen, m, k, l):
    """GPU MODE's own draw: bytes 0..3 (high nibble 0, values 0..1.5), scales {0, 1, 2}."""
    a = _randint(gen, 4, (l, m, k // 2)).to(torch.uint8)
    b = _randint(gen, 4, (l, B_PADDED_ROWS, k // 2)).to(torch.uint8)
    sfa = nvfp4.encode_e4m3(_randint(gen, 3, (l, m, k // 16)).float())
    sfb = nvfp4.encode_e4m3(_randint(gen, 3, (l, B_PADDED_ROWS, k // 16)).float())
    return a, b, sfa, sfb


def _full(gen, m, k, l):
    """Every e2m1 code in both nibbles with both signs; e4m3 scales over the whole finite range.

    Scales are drawn uniformly over all 254 finite e4m3 codes (subnormals, negatives, +-448).
    Every 8th K-block gets a large sfb (|sfb| >= 256), and in each row one of those blocks is a
    trap: its a values are all +-0 and its sfa is large too, so sfa*sfb exceeds fp16's 65504
    (a kernel that forms the scale product in fp16 gets inf * 0 = NaN there, while the exact
    contribution is 0). Every other block's sfa is redrawn among the codes that keep
    |sfa*sfb*dot| within FP16_BUDGET / (K/16), so the exact result always fits fp16.
    """
    blocks = k // 16
    a = _randint(gen, 256, (l, m, k // 2)).to(torch.uint8)
    b = _randint(gen, 256, (l, B_PADDED_ROWS, k // 2)).to(torch.uint8)
    codes = E4M3_FINITE_CODES
    values = nvfp4.decode_e4m3(codes).double().abs()                  # |value| of each code
    large = codes[values >= 256]
    sfb = codes[_randint(gen, len(codes), (l, B_PADDED_ROWS, blocks))]
    sfa = codes[_randint(gen, len(codes), (l, m, blocks))]
    hot = torch.arange(0, blocks, 8)
    sfb[:, :, hot] = large[_randint(gen, len(large), (l, B_PADDED_ROWS, len(hot)))]

    trap = hot[_randint(gen, len(hot), (l, m))]                        # one trap block per row
    signed_zeros = torch.tensor([0x00, 0x08, 0x80, 0x88], dtype=torch.uint8)
    byte = trap.unsqueeze(-1) * 8 + torch.arange(8)                    # its 8 bytes in the row
    a.scatter_(2, byte, signed_zeros[_randint(gen, 4, byte.shape)])

    dot = (nvfp4.decode_e2m1(nvfp4.unpack_e2m1(a)).double().reshape(l, m, -1, 16)
           * nvfp4.decode_e2m1(nvfp4.unpack_e2m1(b[:, :1])).double().reshape(l, 1, -1, 16)).sum(-1)
    sfb_row = nvfp4.decode_e4m3(sfb[:, :1]).double().abs()           # (l, 1, K/16)
    limit = FP16_BUDGET / blocks / (dot.abs() * sfb_row)              # inf where dot or sfb is 0
    # For each block, how many codes (sorted by magnitude) are allowed, then draw among them.
    order = torch.argsort(values)
    allowed = torch.searchsorted(values[order].contiguous(), limit.reshape(-1), right=True)
    pick = (torch.rand(allowed.shape, generator=gen, dtype=torch.float64) * allowed).long()
    redrawn = codes[order][pick.clamp(max=len(codes) - 1)].reshape(sfa.shape)
    sfa = torch.where(dot == 0, sfa, redrawn)
    sfa.scatter_(2, trap.unsqueeze(-1), large[_randint(gen, len(large), (l, m, 1))])
    return a, b, sfa, sfb


def _quantized(gen, m, k, l):
    """Heavy-tailed real data (Student-t, 3 degrees of freedom, with a few outlier channels)
    quantized to NVFP4 block by block by the project's quantizer (no per-tensor scale)."""
    sfa, a = nvfp4.quantize_nvfp4(_student_t(gen, (l, m, k)).float())
    sfb, b = nvfp4.quantize_nvfp4(_student_t(gen, (l, B_PADDED_ROWS, k)).float())
    return a, b, sfa, sfb


def _student_t(gen, shape, dof=3.0):
    """Student-t samples from a seeded generator: normal / sqrt(chi2/dof), chi2 from normals."""
    z = torch.randn(shape, generator=gen, dtype=torch.float64)
    chi2 = (torch.randn((*shape, int(dof)), generator=gen, dtype=torch.float64) ** 2).sum(-1)
    x = z / torch.sqrt(chi2 / dof)
    channel_gain = torch.where(torch.rand(shape[-1], generator=gen) < 0.01, 20.0, 1.0)
    return x * channel_gain.double()


_DRAWS = {"gpumode": _gpumode, "full": _full, "quantized": _quantized}


def generate_input(m: int, k: int, l: int, seed: int, data: str = "gpumode", device="cuda"):
    """GPU MODE's input tuple for one problem, with values from the chosen data class."""
    validate_shape(m, k, l)
    if torch.device(device).type == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("generate_input(..., device='cuda'): no GPU is visible here; pass "
                           "device='cpu' for the tensors alone (running a kernel needs a GPU)")
    if data not in _DRAWS:
        raise ValueError(f"unknown data class {data!r}; choose one of {DATA_CLASSES}")
    gen = torch.Generator().manual_seed(seed)
    a, b, sfa, sfb = _DRAWS[data](gen, m, k, l)     # (L, rows, cols) uint8, contiguous
    c = torch.randn((l, m, 1), generator=gen).half()

    def to_task(t, dtype):            # (L, rows, cols) -> (rows, cols, L) view, like GPU MODE
        return t.to(device).view(dtype).permute(1, 2, 0)

    sfa_t, sfb_t = to_task(sfa, torch.float8_e4m3fn), to_task(sfb, torch.float8_e4m3fn)
    return (to_task(a, torch.float4_e2m1fn_x2), to_task(b, torch.float4_e2m1fn_x2),
            sfa_t, sfb_t,
            nvfp4.to_sf_permuted(sfa_t.view(torch.uint8)).view(torch.float8_e4m3fn),
            nvfp4.to_sf_permuted(sfb_t.view(torch.uint8)).view(torch.float8_e4m3fn),
            c.to(device).permute(1, 2, 0))


def problem_bytes(m: int, k: int, l: int) -> int:
    """Bytes a GEMV must move: A + SFA + one B row + one SFB row + C, no padding."""
    return l * (m * k // 2 + m * k // 16 + k // 2 + k // 16 + 2 * m)
