// Read strategy "grid-stride": a persistent grid (BLOCKS_PER_SM blocks of 256 threads per SM)
// loops over A and SFA as flat ranges, 4 independent 16-byte loads per thread per trip; block 0
// of the grid also reads every batch's B and SFB row. Timed against 99 by `make floor-check`.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

constexpr int THREADS = 256;
constexpr int UNROLL = 4;
constexpr int BLOCKS_PER_SM = 8;
constexpr uint32_t kMagic = 0x9E3779B9u;

__device__ __forceinline__ uint32_t fold_range(const uint4* __restrict__ p, long long n) {
  const long long stride = static_cast<long long>(gridDim.x) * THREADS;
  uint32_t fold = 0;
  long long i = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x;
  for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
    uint4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = __ldg(p + i + u * stride);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) fold ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < n; i += stride) {
    const uint4 v = __ldg(p + i);
    fold ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  return fold;
}

__global__ void __launch_bounds__(THREADS)
grid_stride_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                   const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                   __half* __restrict__ c, long long a_words, long long sfa_words, int k, int l,
                   long long outputs, long long b_batch_stride, long long sfb_batch_stride) {
  uint32_t fold = fold_range(reinterpret_cast<const uint4*>(a), a_words);
  fold ^= fold_range(reinterpret_cast<const uint4*>(sfa), sfa_words);
  if (blockIdx.x == 0) {
    for (int batch = 0; batch < l; ++batch) {
      const uint4* b_row = reinterpret_cast<const uint4*>(b + batch * b_batch_stride);
      const uint32_t* sfb_row = reinterpret_cast<const uint32_t*>(sfb + batch * sfb_batch_stride);
      for (int i = threadIdx.x; i < k / 32; i += THREADS) {
        const uint4 v = __ldg(b_row + i);
        fold ^= v.x ^ v.y ^ v.z ^ v.w;
      }
      for (int i = threadIdx.x; i < k / 64; i += THREADS) fold ^= __ldg(sfb_row + i);
    }
  }
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  const long long stride = static_cast<long long>(gridDim.x) * THREADS;
  for (long long i = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x; i < outputs; i += stride) c[i] = out;
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const long long rows = static_cast<long long>(m) * l;
  grid_stride_kernel<<<sms * BLOCKS_PER_SM, THREADS, 0, stream>>>(
      a, b, sfa, sfb, c, rows * (k / 32), rows * (k / 256), k, l, rows, b_batch_stride, sfb_batch_stride);
  return static_cast<int>(cudaGetLastError());
}
