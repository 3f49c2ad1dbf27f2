// 02a no-shared-b: 02 without shared memory. Each warp reads its K-tile of B and SFB straight
// from global memory (after the first row, the block's other rows find it in L2 or L1), so the
// two barriers per tile are gone. Still one warp per output element, 32 consecutive A bytes per
// tile (coalesced), and a warp-shuffle reduction.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

constexpr int THREADS_PER_ROW = 32;  // one warp per row
constexpr int ROWS_PER_BLOCK = 8;    // divides M (a multiple of 128): a block never spans batches
constexpr int TILE_K = 64;           // K is only guaranteed a multiple of 64: no partial tiles

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

__device__ __forceinline__ float warp_reduce_sum(float v) {
#pragma unroll
  for (int offset = THREADS_PER_ROW / 2; offset > 0; offset >>= 1) {
    v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
  }
  return v;
}

__global__ void nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                                  __half* __restrict__ c, int m, int k,
                                  long long b_batch_stride, long long sfb_batch_stride) {
  const int lane = threadIdx.x;
  // Row index over all batches; a, sfa and c are [L][M][...] so (l*M + r) addresses them directly.
  const long long row = static_cast<long long>(blockIdx.x) * ROWS_PER_BLOCK + threadIdx.y;
  const long long batch = row / m;
  const uint8_t* a_row = a + row * (k / 2);
  const uint8_t* sfa_row = sfa + row * (k / 16);
  const uint8_t* b_row = b + batch * b_batch_stride;
  const uint8_t* sfb_row = sfb + batch * sfb_batch_stride;

  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += TILE_K) {
    // TILE_K / 2 == 32 bytes: lane i takes byte i, so the warp's A reads are one 32-byte segment.
    const uint32_t ab = a_row[k0 / 2 + lane];
    const uint32_t bb = b_row[k0 / 2 + lane];
    const float scale = decode_e4m3(sfa_row[k0 / 16 + lane / 8]) * decode_e4m3(sfb_row[k0 / 16 + lane / 8]);
    const float dot = decode_e2m1(ab & 0xFu) * decode_e2m1(bb & 0xFu) +
                      decode_e2m1(ab >> 4) * decode_e2m1(bb >> 4);
    acc += dot * scale;
  }

  acc = warp_reduce_sum(acc);
  if (lane == 0) c[row] = __float2half_rn(acc);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  const long long rows = static_cast<long long>(m) * l;
  const dim3 grid(static_cast<unsigned>(rows / ROWS_PER_BLOCK));
  const dim3 block(THREADS_PER_ROW, ROWS_PER_BLOCK);
  nvfp4_gemv_kernel<<<grid, block, 0, stream>>>(a, b, sfa, sfb, c, m, k,
                                                b_batch_stride, sfb_batch_stride);
  return static_cast<int>(cudaGetLastError());
}
