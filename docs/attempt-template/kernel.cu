// NN your-slug: TODO the one idea of this attempt, in one line (what changed against the parent).
//
// TEMPLATE (docs/attempt-template/kernel.cu), not an attempt: it compiles and writes zeros of the
// right shape, so the harness can load it, but its results are wrong. Normally an attempt starts
// as a copy of its parent's kernel.cu (`cp -r attempts/07-fused-ptx attempts/NN-your-slug`) and
// changes one idea, so that `make diff-NN` shows exactly that idea; start from this file only
// for an attempt without a parent. docs/adding-an-attempt.md is the guide.
//
// The contract (common/cuda/nvfp4_gemv.h, docs/contracts.md contract 1):
// - include "nvfp4_gemv.h" and define exactly ONE of
//     nvfp4_gemv(...)                   when the kernel needs no scratch memory (this file), or
//     nvfp4_gemv_with_workspace(...)    plus nvfp4_gemv_workspace_bytes(m, k, l), when it needs
//                                       scratch memory (split-K partials, counters; see below);
//   optionally nvfp4_gemv_setup(), called once per process after loading;
// - no torch headers: plain nvcc builds this for sm_90a and sm_100a in seconds;
// - accept every legal shape: m a multiple of 128, k a multiple of 64, any l >= 1 (Python has
//   validated the inputs before the call); every pointer is 16-byte aligned;
// - launch on `stream` and return cudaGetLastError() (0 = cudaSuccess).
//
// Memory order of GPU MODE's tensors, per batch index `batch` in [0, l):
//   a    m rows of k/2 bytes, at a + batch * m * (k/2); two e2m1 codes per byte, element 2i in
//        the LOW nibble (common/nvfp4.py);
//   sfa  m rows of k/16 e4m3 scales, at sfa + batch * m * (k/16), one per 16 elements of a row;
//   b    row 0 of a 128-row padded block: k/2 bytes at b + batch * b_batch_stride;
//   sfb  row 0 likewise: k/16 scales at sfb + batch * sfb_batch_stride;
//   c    m halves at c + batch * m.
// c[row, batch] = sum_k a[row, k] * sfa[row, k/16] * b[k] * sfb[k/16], accumulated in f32 or
// better. e2m1 -> f16x2 conversion for both targets: NVFP4_CVT_E2M1X2 in common/cuda/nvfp4_cvt.cuh.
#include "nvfp4_gemv.h"

namespace {

constexpr int kThreadsPerBlock = 256;   // TODO: the launch shape your idea needs

// TODO: the kernel. This placeholder gives one thread per output and writes zeros.
__global__ void nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                                  __half* __restrict__ c, int m, int k, int l,
                                  long long b_batch_stride, long long sfb_batch_stride) {
    const long long output = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (output >= static_cast<long long>(m) * l) return;
    // output = batch * m + row. TODO: the dot product of row `row` of A (batch `batch`) with B,
    // each 16-element block scaled by sfa * sfb, instead of zero.
    c[output] = __float2half(0.0f);
}

}  // namespace

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
    const long long outputs = static_cast<long long>(m) * l;
    const int blocks = static_cast<int>((outputs + kThreadsPerBlock - 1) / kThreadsPerBlock);
    nvfp4_gemv_kernel<<<blocks, kThreadsPerBlock, 0, stream>>>(a, b, sfa, sfb, c, m, k, l,
                                                               b_batch_stride, sfb_batch_stride);
    return static_cast<int>(cudaGetLastError());
}

// With scratch memory, replace nvfp4_gemv above by these two (the loader allocates the workspace
// once, 16-byte aligned and zero-filled, grows it on demand and passes the same buffer to every
// later call: a kernel that relies on zeros must leave it zeroed before its last kernel ends):
//
// extern "C" size_t nvfp4_gemv_workspace_bytes(int m, int k, int l) {
//     return TODO;   // bytes of scratch memory this shape needs
// }
//
// extern "C" int nvfp4_gemv_with_workspace(const uint8_t* a, const uint8_t* b, const uint8_t* sfa,
//                                          const uint8_t* sfb, __half* c, int m, int k, int l,
//                                          long long b_batch_stride, long long sfb_batch_stride,
//                                          void* workspace, cudaStream_t stream) {
//     TODO: launches on `stream`
//     return static_cast<int>(cudaGetLastError());
// }
