"""Refuse bad input before any launch: every attempt's entry point calls `validate_inputs`."""
import torch

INPUT_NAMES = ("a", "b", "sfa", "sfb", "sfa_permuted", "sfb_permuted", "c")


class InputError(ValueError):
    """The input tuple does not match GPU MODE's nvfp4_gemv contract."""


def _expect(cond, message):
    if not cond:
        raise InputError(message)


def validate_inputs(data, require_cuda: bool = True):
    """Check GPU MODE's tuple (a, b, sfa, sfb, sfa_permuted, sfb_permuted, c); return (m, k, l)."""
    _expect(isinstance(data, (tuple, list)) and len(data) == 7,
            f"expected the 7-tuple {INPUT_NAMES}, got {type(data).__name__}"
            + (f" of length {len(data)}" if isinstance(data, (tuple, list)) else ""))
    for name, t in zip(INPUT_NAMES, data):
        _expect(isinstance(t, torch.Tensor), f"{name} is a {type(t).__name__}, not a tensor")
    a, b, sfa, sfb, sfa_p, sfb_p, c = data
    dtypes = dict(a=torch.float4_e2m1fn_x2, b=torch.float4_e2m1fn_x2, sfa=torch.float8_e4m3fn,
                  sfb=torch.float8_e4m3fn, sfa_permuted=torch.float8_e4m3fn,
                  sfb_permuted=torch.float8_e4m3fn, c=torch.float16)
    for name, t in zip(INPUT_NAMES, data):
        _expect(t.dtype == dtypes[name], f"{name} has dtype {t.dtype}, expected {dtypes[name]}")
        _expect(t.dim() == (6 if name.endswith("permuted") else 3),
                f"{name} has {t.dim()} dimensions, expected "
                f"{6 if name.endswith('permuted') else 3}")
    if require_cuda:
        for name, t in zip(INPUT_NAMES, data):
            _expect(t.is_cuda, f"{name} is on {t.device}; the kernels need CUDA tensors")
        devices = {t.device for t in data}
        _expect(len(devices) == 1, f"inputs are spread over several devices: {sorted(map(str, devices))}")

    m, half_k, l = a.shape
    k = 2 * half_k
    _expect(m > 0 and k > 0 and l > 0, f"a has an empty dimension: {tuple(a.shape)}")
    _expect(m % 128 == 0, f"M={m} is not a multiple of 128")
    _expect(k % 64 == 0, f"K={k} is not a multiple of 64")
    shapes = dict(b=(128, k // 2, l), sfa=(m, k // 16, l), sfb=(128, k // 16, l), c=(m, 1, l),
                  sfa_permuted=(32, 4, m // 128, 4, k // 64, l),
                  sfb_permuted=(32, 4, 1, 4, k // 64, l))
    for name, t in zip(INPUT_NAMES[1:], data[1:]):
        _expect(tuple(t.shape) == shapes[name],
                f"{name} has shape {tuple(t.shape)}, expected {shapes[name]} for a of shape "
                f"{tuple(a.shape)} (M={m}, K={k}, L={l})")
    strides = dict(a=(k // 2, 1, m * k // 2), b=(k // 2, 1, 128 * k // 2),
                   sfa=(k // 16, 1, m * k // 16), sfb=(k // 16, 1, 128 * k // 16), c=(1, 1, m))
    for name, t in zip(INPUT_NAMES, data):
        if name not in strides:
            continue
        # Strides of size-1 dimensions never address memory, so they may be anything.
        got = tuple(s for s, n in zip(t.stride(), t.shape) if n > 1)
        want = tuple(s for s, n in zip(strides[name], t.shape) if n > 1)
        _expect(got == want, f"{name} has strides {t.stride()}, expected {strides[name]} "
                             f"(GPU MODE's [L][rows][cols] memory order)")
        _expect(t.data_ptr() % 16 == 0, f"{name} is not 16-byte aligned")
    return m, k, l
