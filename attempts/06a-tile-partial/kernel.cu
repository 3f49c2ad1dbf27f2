// 06a tile-partial: 06 with the accumulation order of the seed's fused tile: the four scaled
// block sums of a tile are summed in f32 into the tile's partial, which is added to the lane's
// accumulator once per tile instead of once per block.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_cvt.cuh"
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

// Launch shape, the one place to edit: 16 x 8 won `make sweep-05` on the H100 (the rows with a
// config in results/h100.csv, tabled in 05's README). Below 32 lanes per row a warp serves
// several rows and reduces with a sub-warp shuffle;
// ROWS_PER_BLOCK divides 128, hence M.
#ifndef THREADS_PER_ROW
#define THREADS_PER_ROW 16
#endif
#ifndef ROWS_PER_BLOCK
#define ROWS_PER_BLOCK 8
#endif
static_assert(THREADS_PER_ROW == 4 || THREADS_PER_ROW == 8 || THREADS_PER_ROW == 16 || THREADS_PER_ROW == 32,
              "THREADS_PER_ROW must be 4, 8, 16 or 32");
static_assert(ROWS_PER_BLOCK >= 1 && ROWS_PER_BLOCK <= 16 && (ROWS_PER_BLOCK & (ROWS_PER_BLOCK - 1)) == 0,
              "ROWS_PER_BLOCK must be 1, 2, 4, 8 or 16");
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

// 16 elements of one scale block (two words of A, two of B) -> f16x2 per-lane sums. Each half
// lane adds 8 products; e2m1 products are multiples of 1/4 up to 36, so the sums are exact.
// Plain asm (not volatile): the statement is a pure function of its operands.
__device__ __forceinline__ uint32_t block_dot(uint32_t a_w0, uint32_t a_w1, uint32_t b_w0, uint32_t b_w1) {
  uint32_t sum;
  asm("{\n"
      ".reg .b8 %%a<4>, %%b<4>;\n"
      ".reg .b32 %%fa<4>, %%fb<4>, %%p;\n"
      "mov.b32 {%%a0, %%a1, %%a2, %%a3}, %1;\n"
      "mov.b32 {%%b0, %%b1, %%b2, %%b3}, %3;\n"
      NVFP4_CVT_E2M1X2("%%fa0", "%%a0") NVFP4_CVT_E2M1X2("%%fa1", "%%a1")
      NVFP4_CVT_E2M1X2("%%fa2", "%%a2") NVFP4_CVT_E2M1X2("%%fa3", "%%a3")
      NVFP4_CVT_E2M1X2("%%fb0", "%%b0") NVFP4_CVT_E2M1X2("%%fb1", "%%b1")
      NVFP4_CVT_E2M1X2("%%fb2", "%%b2") NVFP4_CVT_E2M1X2("%%fb3", "%%b3")
      "mul.rn.f16x2 %%p, %%fa0, %%fb0;\n"
      "fma.rn.f16x2 %%p, %%fa1, %%fb1, %%p;\n"
      "fma.rn.f16x2 %%p, %%fa2, %%fb2, %%p;\n"
      "fma.rn.f16x2 %%p, %%fa3, %%fb3, %%p;\n"
      "mov.b32 {%%a0, %%a1, %%a2, %%a3}, %2;\n"
      "mov.b32 {%%b0, %%b1, %%b2, %%b3}, %4;\n"
      NVFP4_CVT_E2M1X2("%%fa0", "%%a0") NVFP4_CVT_E2M1X2("%%fa1", "%%a1")
      NVFP4_CVT_E2M1X2("%%fa2", "%%a2") NVFP4_CVT_E2M1X2("%%fa3", "%%a3")
      NVFP4_CVT_E2M1X2("%%fb0", "%%b0") NVFP4_CVT_E2M1X2("%%fb1", "%%b1")
      NVFP4_CVT_E2M1X2("%%fb2", "%%b2") NVFP4_CVT_E2M1X2("%%fb3", "%%b3")
      "fma.rn.f16x2 %%p, %%fa0, %%fb0, %%p;\n"
      "fma.rn.f16x2 %%p, %%fa1, %%fb1, %%p;\n"
      "fma.rn.f16x2 %%p, %%fa2, %%fb2, %%p;\n"
      "fma.rn.f16x2 %%p, %%fa3, %%fb3, %%p;\n"
      "mov.b32 %0, %%p;\n"  // written last: %0 may share a register with an input
      "}\n"
      : "=r"(sum)
      : "r"(a_w0), "r"(a_w1), "r"(b_w0), "r"(b_w1));
  return sum;
}

// The four scale products sfa*sfb as two f16x2 words (blocks 0,1 and blocks 2,3), formed in half.
__device__ __forceinline__ void scale_products(uint32_t sfa, uint32_t sfb, uint32_t& s01, uint32_t& s23) {
  asm("{\n"
      ".reg .b16 %%alo, %%ahi, %%blo, %%bhi;\n"
      ".reg .b32 %%a01, %%a23, %%b01, %%b23;\n"
      "mov.b32 {%%alo, %%ahi}, %2;\n"
      "mov.b32 {%%blo, %%bhi}, %3;\n"
      "cvt.rn.f16x2.e4m3x2 %%a01, %%alo;\n"
      "cvt.rn.f16x2.e4m3x2 %%a23, %%ahi;\n"
      "cvt.rn.f16x2.e4m3x2 %%b01, %%blo;\n"
      "cvt.rn.f16x2.e4m3x2 %%b23, %%bhi;\n"
      "mul.rn.f16x2 %0, %%a01, %%b01;\n"
      "mul.rn.f16x2 %1, %%a23, %%b23;\n"
      "}\n"
      : "=r"(s01), "=r"(s23)
      : "r"(sfa), "r"(sfb));
}

__device__ __forceinline__ float2 f16x2_to_float2(uint32_t bits) {
  __half2_raw raw;
  raw.x = static_cast<unsigned short>(bits & 0xFFFFu);
  raw.y = static_cast<unsigned short>(bits >> 16);
  return __half22float2(__half2(raw));
}

// One tile: per block, the scale product sfa*sfb is formed in half (it overflows past 65504),
// then block sum times scale is summed in float into the tile's partial, which is added to the
// lane's accumulator once.
__device__ __forceinline__ float tile_dot(const Tile& t, float acc) {
  const uint32_t a[8] = {t.a0.x, t.a0.y, t.a0.z, t.a0.w, t.a1.x, t.a1.y, t.a1.z, t.a1.w};
  const uint32_t b[8] = {t.b0.x, t.b0.y, t.b0.z, t.b0.w, t.b1.x, t.b1.y, t.b1.z, t.b1.w};
  uint32_t s01, s23;
  scale_products(t.sfa, t.sfb, s01, s23);
  const float2 scale01 = f16x2_to_float2(s01);
  const float2 scale23 = f16x2_to_float2(s23);
  const float scale[4] = {scale01.x, scale01.y, scale23.x, scale23.y};
  float partial = 0.0f;
#pragma unroll
  for (int blk = 0; blk < 4; ++blk) {
    const float2 sum = f16x2_to_float2(block_dot(a[2 * blk], a[2 * blk + 1], b[2 * blk], b[2 * blk + 1]));
    partial += (sum.x + sum.y) * scale[blk];
  }
  return acc + partial;
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
  int tile = lane;
  for (; tile + THREADS_PER_ROW < num_tiles; tile += 2 * THREADS_PER_ROW) {
    const Tile t0 = load_tile(a_row, b_row, sfa_row, sfb_row, tile);
    const Tile t1 = load_tile(a_row, b_row, sfa_row, sfb_row, tile + THREADS_PER_ROW);
    acc = tile_dot(t0, acc);
    acc = tile_dot(t1, acc);
  }
  if (tile < num_tiles) {  // this lane's odd last tile
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
