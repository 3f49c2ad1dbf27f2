"""00b: 00a's computation under torch.compile (one idea: compile it, change nothing else).

Each operand is decoded through uint8 views (torch cannot convert float4_e2m1fn_x2 to float),
expanded to fp16 with its block scale applied, and multiplied with torch.bmm in fp32.
The whole of 00a's custom_kernel body is compiled once per process (TorchDynamo + Inductor,
default mode). The packed operands enter the compiled region as uint8 views, so that no
float4 dtype reaches Inductor's code generation; dequantize's own .view(torch.uint8) is then
a no-op. Shapes: M, K and L are marked dynamic (maybe_mark_dynamic) on every call, so the
first call compiles one graph with symbolic sizes that serves every legal shape, and a
shape's timing does not depend on which shape the process saw first (with dynamic=None
alone, the first shape would get a specialised graph and later ones a symbolic one). A size
of 1 is still specialised by Dynamo, so L = 1 and L > 1 hold one graph each; a guard that
Inductor adds for its own code generation may add a recompile. Past the recompile limit
Dynamo would run the same code eagerly (still correct, but 00a's speed).
"""
import torch

# e2m1 code -> value, indexed by the 4-bit code.
E2M1 = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0)


def dequantize(packed: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """(rows, K/2, L) e2m1 + (rows, K/16, L) e4m3 -> (L, rows, K) float32."""
    table = torch.tensor(E2M1, dtype=torch.float32, device=packed.device)
    raw = packed.view(torch.uint8).permute(2, 0, 1)
    codes = torch.stack([raw & 0xF, raw >> 4], dim=-1).flatten(-2)       # low nibble first
    values = table[codes.long()]
    scale = scales.permute(2, 0, 1).float().repeat_interleave(16, dim=-1)
    return values * scale


def gemv(a, b, sfa, sfb, c):
    a_values = dequantize(a, sfa)                       # (L, M, K)
    b_values = dequantize(b[:1], sfb[:1])               # (L, 1, K)
    out = torch.bmm(a_values, b_values.transpose(1, 2))  # (L, M, 1), fp32 accumulation
    c.copy_(out.permute(1, 2, 0))
    return c


compiled_gemv = torch.compile(gemv, dynamic=None)      # built lazily, cached for the process
# The dimensions that vary with the shape: a (M, K/2, L), b (128, K/2, L), sfa (M, K/16, L),
# sfb (128, K/16, L), c (M, 1, L).
DYNAMIC_DIMS = ((0, 1, 2), (1, 2), (0, 1, 2), (1, 2), (0, 2))


def custom_kernel(data):
    a, b, sfa, sfb, _, _, c = data
    args = (a.view(torch.uint8), b.view(torch.uint8), sfa, sfb, c)
    for tensor, dims in zip(args, DYNAMIC_DIMS):
        for dim in dims:
            torch._dynamo.maybe_mark_dynamic(tensor, dim)
    return compiled_gemv(*args)
