// 01 naive-decode: one thread per output element, everything decoded by hand in float.
// Adjacent threads walk rows K/2 bytes apart, so every load of a warp touches 32 different
// cache lines: uncoalesced on purpose, the starting point of the climb.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

constexpr int THREADS_PER_BLOCK = 128;  // divides M (a multiple of 128): no bounds check needed

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

__global__ void nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                                  __half* __restrict__ c, int m, int k,
                                  long long b_batch_stride, long long sfb_batch_stride) {
  // Row index over all batches; a, sfa and c are [L][M][...] so (l*M + r) addresses them directly.
  const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long batch = row / m;
  const uint8_t* a_row = a + row * (k / 2);
  const uint8_t* sfa_row = sfa + row * (k / 16);
  const uint8_t* b_row = b + batch * b_batch_stride;
  const uint8_t* sfb_row = sfb + batch * sfb_batch_stride;

  float acc = 0.0f;
  for (int i = 0; i < k / 2; ++i) {  // byte i holds elements 2i (low nibble) and 2i+1 (high)
    const uint32_t ab = a_row[i];
    const uint32_t bb = b_row[i];
    const float scale = decode_e4m3(sfa_row[i / 8]) * decode_e4m3(sfb_row[i / 8]);
    const float dot = decode_e2m1(ab & 0xFu) * decode_e2m1(bb & 0xFu) +
                      decode_e2m1(ab >> 4) * decode_e2m1(bb >> 4);
    acc += dot * scale;
  }
  c[row] = __float2half_rn(acc);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  const long long rows = static_cast<long long>(m) * l;
  const dim3 grid(static_cast<unsigned>(rows / THREADS_PER_BLOCK));
  nvfp4_gemv_kernel<<<grid, THREADS_PER_BLOCK, 0, stream>>>(a, b, sfa, sfb, c, m, k,
                                                            b_batch_stride, sfb_batch_stride);
  return static_cast<int>(cudaGetLastError());
}
