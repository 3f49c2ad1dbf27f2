// Read strategy "row-blocks" (attempt 99 until the floor comparison replaced it): each block
// reads 16 consecutive rows of A and SFA, 256 threads striding together, 4 loads in flight per
// thread, and every block re-reads its batch's B and SFB row (from L2 after the first).
// Timed against 99 by `make floor-check` (common/floor.py).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

constexpr int THREADS_PER_BLOCK = 256;
constexpr int ROWS_PER_BLOCK = 16;  // divides M (a multiple of 128): a block never spans batches
constexpr int UNROLL = 4;           // independent 16-byte loads in flight per thread
constexpr uint32_t kMagic = 0x9E3779B9u;

// XOR-fold n 16-byte words starting at p; the block's threads stride through them together, so
// each step of the warp is one 512-byte coalesced read.
__device__ __forceinline__ uint32_t fold_uint4(const uint4* __restrict__ p, int n, uint32_t fold) {
  int i = threadIdx.x;
  for (; i + (UNROLL - 1) * THREADS_PER_BLOCK < n; i += UNROLL * THREADS_PER_BLOCK) {
    uint4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = __ldg(p + i + u * THREADS_PER_BLOCK);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) fold ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < n; i += THREADS_PER_BLOCK) {
    const uint4 v = __ldg(p + i);
    fold ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  return fold;
}

__global__ void __launch_bounds__(THREADS_PER_BLOCK)
read_floor_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k,
                  long long b_batch_stride, long long sfb_batch_stride) {
  // The block's rows are consecutive in memory ([L][M][...] layout): one contiguous chunk of A
  // (ROWS_PER_BLOCK * K/2 bytes) and one of SFA (ROWS_PER_BLOCK * K/16 bytes, a multiple of 64).
  const long long row0 = static_cast<long long>(blockIdx.x) * ROWS_PER_BLOCK;
  const long long batch = row0 / m;
  uint32_t fold = 0;
  fold = fold_uint4(reinterpret_cast<const uint4*>(a + row0 * (k / 2)), ROWS_PER_BLOCK * k / 32, fold);
  fold = fold_uint4(reinterpret_cast<const uint4*>(sfa + row0 * (k / 16)), ROWS_PER_BLOCK * k / 256, fold);
  // B row: K/2 bytes, a multiple of 32, read from L2 by every block of the batch, as a GEMV does.
  fold = fold_uint4(reinterpret_cast<const uint4*>(b + batch * b_batch_stride), k / 32, fold);
  // SFB row: K/16 bytes, only guaranteed a multiple of 4.
  const uint32_t* sfb_row = reinterpret_cast<const uint32_t*>(sfb + batch * sfb_batch_stride);
  for (int i = threadIdx.x; i < k / 64; i += THREADS_PER_BLOCK) fold ^= __ldg(sfb_row + i);

  // Every c element is written. The other threads store only on an impossible fold value, which
  // the compiler cannot prove, so their loads stay live at the cost of a compare.
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  if (threadIdx.x < ROWS_PER_BLOCK) {
    c[row0 + threadIdx.x] = out;
  } else if (fold == kMagic) {
    c[row0 + threadIdx.x % ROWS_PER_BLOCK] = out;
  }
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  const long long rows = static_cast<long long>(m) * l;
  const dim3 grid(static_cast<unsigned>(rows / ROWS_PER_BLOCK));
  read_floor_kernel<<<grid, THREADS_PER_BLOCK, 0, stream>>>(a, b, sfa, sfb, c, m, k,
                                                            b_batch_stride, sfb_batch_stride);
  return static_cast<int>(cudaGetLastError());
}
