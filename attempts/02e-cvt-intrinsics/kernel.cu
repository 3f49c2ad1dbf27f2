// 02e cvt-intrinsics: 02d with the hand decoders replaced by the CUDA conversion intrinsics:
// __nv_cvt_fp4x2_to_halfraw2 turns a byte of A or B into two halves, __nv_cvt_fp8_to_halfraw a
// scale into a half. The values are widened to float and the arithmetic is 02d's.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

constexpr int THREADS_PER_ROW = 32;
constexpr int ROWS_PER_BLOCK = 8;
constexpr int TILE_K = 64;  // elements per lane step: 32 bytes of A/B, one word of 4 scales each

// One K tile of one row: A and B as 8 words each (word w holds elements 8w..8w+7), the 4 scales.
struct Tile {
  uint4 a0, a1, b0, b1;
  uint32_t sfa, sfb;
};

__device__ __forceinline__ Tile load_tile(const uint8_t* a_row, const uint8_t* b_row,
                                          const uint8_t* sfa_row, const uint8_t* sfb_row, int tile) {
  const uint4* a_ptr = reinterpret_cast<const uint4*>(a_row + tile * (TILE_K / 2));
  const uint4* b_ptr = reinterpret_cast<const uint4*>(b_row + tile * (TILE_K / 2));
  Tile t;
  t.a0 = __ldg(a_ptr);
  t.a1 = __ldg(a_ptr + 1);
  t.b0 = __ldg(b_ptr);
  t.b1 = __ldg(b_ptr + 1);
  t.sfa = __ldg(reinterpret_cast<const uint32_t*>(sfa_row + tile * (TILE_K / 16)));
  t.sfb = __ldg(reinterpret_cast<const uint32_t*>(sfb_row + tile * (TILE_K / 16)));
  return t;
}

__device__ __forceinline__ __half2 e2m1x2_to_half2(uint32_t byte) {
  const __half2_raw raw = __nv_cvt_fp4x2_to_halfraw2(static_cast<__nv_fp4x2_storage_t>(byte), __NV_E2M1);
  return __half2(raw);
}

__device__ __forceinline__ __half e4m3_to_half(uint32_t byte) {
  return __half(__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(byte), __NV_E4M3));
}

// 16 elements of one scale block (two words of A, two of B) -> their dot product in float
// (exact: e2m1 products are multiples of 1/4 up to 36).
__device__ __forceinline__ float block_dot(uint32_t a_w0, uint32_t a_w1, uint32_t b_w0, uint32_t b_w1) {
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const float2 pa = __half22float2(e2m1x2_to_half2((a_w0 >> (8 * j)) & 0xFFu));
    const float2 pb = __half22float2(e2m1x2_to_half2((b_w0 >> (8 * j)) & 0xFFu));
    sum += pa.x * pb.x + pa.y * pb.y;
  }
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const float2 pa = __half22float2(e2m1x2_to_half2((a_w1 >> (8 * j)) & 0xFFu));
    const float2 pb = __half22float2(e2m1x2_to_half2((b_w1 >> (8 * j)) & 0xFFu));
    sum += pa.x * pb.x + pa.y * pb.y;
  }
  return sum;
}

// One tile: per block, the scale product sfa*sfb is formed in float, then block sum times scale
// is accumulated in float.
__device__ __forceinline__ float tile_dot(const Tile& t, float acc) {
  const uint32_t a[8] = {t.a0.x, t.a0.y, t.a0.z, t.a0.w, t.a1.x, t.a1.y, t.a1.z, t.a1.w};
  const uint32_t b[8] = {t.b0.x, t.b0.y, t.b0.z, t.b0.w, t.b1.x, t.b1.y, t.b1.z, t.b1.w};
#pragma unroll
  for (int blk = 0; blk < 4; ++blk) {
    const float sum = block_dot(a[2 * blk], a[2 * blk + 1], b[2 * blk], b[2 * blk + 1]);
    const float scale = __half2float(e4m3_to_half((t.sfa >> (8 * blk)) & 0xFFu)) *
                        __half2float(e4m3_to_half((t.sfb >> (8 * blk)) & 0xFFu));
    acc += sum * scale;
  }
  return acc;
}

// Shuffle within each group of THREADS_PER_ROW lanes. A block smaller than a warp leaves the
// warp's upper lanes unused, so the mask names only the lanes that exist.
__device__ __forceinline__ float row_reduce_sum(float v) {
  constexpr int kBlockThreads = THREADS_PER_ROW * ROWS_PER_BLOCK;
  constexpr unsigned kMask = kBlockThreads >= 32 ? 0xFFFFFFFFu : (1u << kBlockThreads) - 1u;
#pragma unroll
  for (int offset = THREADS_PER_ROW / 2; offset > 0; offset >>= 1) {
    v += __shfl_down_sync(kMask, v, offset, THREADS_PER_ROW);
  }
  return v;
}

__global__ void nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                                  __half* __restrict__ c, int m, int k,
                                  long long b_batch_stride, long long sfb_batch_stride) {
  const int lane = threadIdx.x % THREADS_PER_ROW;
  // Row index over all batches; a, sfa and c are [L][M][...] so (l*M + r) addresses them directly.
  const long long row = static_cast<long long>(blockIdx.x) * ROWS_PER_BLOCK + threadIdx.x / THREADS_PER_ROW;
  const long long batch = row / m;
  const uint8_t* a_row = a + row * (k / 2);
  const uint8_t* sfa_row = sfa + row * (k / 16);
  const uint8_t* b_row = b + batch * b_batch_stride;
  const uint8_t* sfb_row = sfb + batch * sfb_batch_stride;
  const int num_tiles = k / TILE_K;

  float acc = 0.0f;
  for (int tile = lane; tile < num_tiles; tile += THREADS_PER_ROW) {
    const Tile t = load_tile(a_row, b_row, sfa_row, sfb_row, tile);
    acc = tile_dot(t, acc);
  }

  acc = row_reduce_sum(acc);
  if (lane == 0) c[row] = __float2half_rn(acc);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  // ROWS_PER_BLOCK divides M (a multiple of 128): the grid covers every row and no block spans batches.
  const long long rows = static_cast<long long>(m) * l;
  const dim3 grid(static_cast<unsigned>(rows / ROWS_PER_BLOCK));
  nvfp4_gemv_kernel<<<grid, THREADS_PER_ROW * ROWS_PER_BLOCK, 0, stream>>>(a, b, sfa, sfb, c, m, k,
                                                                          b_batch_stride, sfb_batch_stride);
  return static_cast<int>(cudaGetLastError());
}
