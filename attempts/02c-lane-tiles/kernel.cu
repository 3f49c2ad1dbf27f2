// 02c lane-tiles: 02b with the work of a row split by whole 64-element K tiles instead of by
// bytes: each lane owns tiles lane, lane + THREADS_PER_ROW, ... and reads a tile's 32 bytes of A
// and of B and its 4 SFA and 4 SFB scales itself, still one byte per load. A scale is decoded
// once per 16-element block instead of once per byte.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

constexpr int THREADS_PER_ROW = 32;
constexpr int ROWS_PER_BLOCK = 8;
constexpr int TILE_K = 64;  // elements per lane step: 32 bytes of A/B, 4 scales each

// e2m1 code SEEM: (-1)^S * 2^(EE-1) * (1 + M/2) for EE > 0, (-1)^S * M/2 for EE = 0.
__device__ __forceinline__ float decode_e2m1(uint32_t code) {
  const uint32_t exp = (code >> 1) & 0x3u;
  const uint32_t man = code & 0x1u;
  // In quarters: EE > 0 gives (2 + M) << EE, EE = 0 gives 2 * M; exact in float.
  const float mag = static_cast<float>(exp ? (2u + man) << exp : 2u * man) * 0.25f;
  return (code & 0x8u) ? -mag : mag;
}

// e4m3fn byte SEEEEMMM: bias 7, subnormals for EEEE = 0, no infinities, S1111111 is NaN.
__device__ __forceinline__ float decode_e4m3(uint32_t byte) {
  const uint32_t exp = (byte >> 3) & 0xFu;
  const uint32_t man = byte & 0x7u;
  float mag;
  if (exp == 0xFu && man == 0x7u) {
    mag = __int_as_float(0x7FC00000);                              // NaN
  } else if (exp == 0) {
    mag = static_cast<float>(man) * 0.001953125f;                  // M * 2^-9
  } else {
    mag = __int_as_float(((exp + 120u) << 23) | (man << 20));      // rebias 7 -> 127
  }
  return (byte & 0x80u) ? -mag : mag;
}

// 16 elements of one scale block (8 bytes of A, 8 of B) -> their dot product in float (exact:
// e2m1 products are multiples of 1/4 up to 36).
__device__ __forceinline__ float block_dot(const uint8_t* a_blk, const uint8_t* b_blk) {
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    const uint32_t ab = a_blk[j];
    const uint32_t bb = b_blk[j];
    sum += decode_e2m1(ab & 0xFu) * decode_e2m1(bb & 0xFu) + decode_e2m1(ab >> 4) * decode_e2m1(bb >> 4);
  }
  return sum;
}

// One tile, read byte by byte: per block, the scale product sfa*sfb is formed in float, then
// block sum times scale is accumulated in float.
__device__ __forceinline__ float tile_dot(const uint8_t* a_row, const uint8_t* b_row,
                                          const uint8_t* sfa_row, const uint8_t* sfb_row, int tile, float acc) {
  const uint8_t* a_tile = a_row + tile * (TILE_K / 2);
  const uint8_t* b_tile = b_row + tile * (TILE_K / 2);
#pragma unroll
  for (int blk = 0; blk < 4; ++blk) {
    const float sum = block_dot(a_tile + 8 * blk, b_tile + 8 * blk);
    const float scale = decode_e4m3(sfa_row[tile * (TILE_K / 16) + blk]) *
                        decode_e4m3(sfb_row[tile * (TILE_K / 16) + blk]);
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
    acc = tile_dot(a_row, b_row, sfa_row, sfb_row, tile, acc);
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
