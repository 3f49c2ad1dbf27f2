// How long do 93f's products keep a warp from its next loads, with its window already in its
// registers (closing-the-gap section 92)? Section 69 found a warp's time away from its loads to be
// the H200's gap; section 91 that one warp alone does not issue every cycle. 93f's kernel.cu (or
// another attempt's with the same window functions: ATTEMPT_KERNEL) is included as it is (its
// entry point renamed): one block of BLOCK_WARPS warps alone on one SM, the warps named in a mask
// each load one window of the attempt's four rows (window_loads: the rows, their scales, B and its
// scales, from real tensors), and then run window_dot on it `rounds` times, every word of the
// window XORed each round with a value ptxas cannot know (the round times a parameter that is 0),
// so that no round's products can be hoisted out of the loop. Each warp records its slot
// (%warpid) and its rounds' cycles (clock64). The build's cache key does not cover the included
// file: the probe passes its source id as a define (INCLUDED_SOURCE).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "warp_sets.cuh"

// ATTEMPT_KERNEL: the attempt whose kernel.cu is included, 93f's by default; 93t's (B's signs in
// A's selectors on 93f's loop, a twelfth fewer instructions a window) has the same window functions.
#ifndef ATTEMPT_KERNEL
#define ATTEMPT_KERNEL "../../attempts/93f-b-words-at-use/kernel.cu"
#endif
#define nvfp4_gemv attempt_nvfp4_gemv
#include ATTEMPT_KERNEL
#undef nvfp4_gemv

constexpr int BLOCK_WARPS = 32;

__device__ __forceinline__ uint4 xor4(uint4 v, uint32_t z) { return make_uint4(v.x ^ z, v.y ^ z, v.z ^ z, v.w ^ z); }

__global__ void __launch_bounds__(32 * BLOCK_WARPS, 1)
window_products(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b, const uint8_t* __restrict__ sfa,
                const uint8_t* __restrict__ sfb, int k, unsigned warps_running, int rounds, unsigned zero,
                unsigned long long* records, float* sink) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned slot;
  if (!warp_runs(warps_running, records, slot)) return;
  unsigned long long* record = records + 2 * warp;  // slot + 1, cycles
  // warp w reads rows 4w..4w+3, window 0, as 93f's warp of that tile would
  LanePtrs p;
  p.a = a + static_cast<long long>(TILE_ROWS * warp) * (k / 2) + 16 * lane;
  p.sfa = sfa + static_cast<long long>(TILE_ROWS * warp) * (k / 16) + 2 * lane;
  p.b = b + 16 * lane;
  p.sfb = sfb + 2 * lane;
  const WindowLoads window = window_loads(p, k / 2, k / 16, 0);
  uint32_t lane_id;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);  // 93f's table word
  // every loaded word used before the first clock read, on a branch: the loads have landed by then
  uint32_t landed = window.b_bytes.x ^ window.b_bytes.y ^ window.b_bytes.z ^ window.b_bytes.w ^ window.sfb_two;
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    landed ^= window.a_rows[r].x ^ window.a_rows[r].y ^ window.a_rows[r].z ^ window.a_rows[r].w ^ window.sfa_rows[r];
  }
  if (landed == zero + 0x9E3779B9u) sink[threadIdx.x] = 1.0f;  // rare: the clock is read after the wait
  float acc[ROWS_PER_WARP] = {};
  const long long start = clock64();
  for (int round = 0; round < rounds; ++round) {
    const uint32_t z = round * zero + (landed & zero);  // 0, unknown to ptxas
    WindowLoads w;
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) w.a_rows[r] = xor4(window.a_rows[r], z), w.sfa_rows[r] = window.sfa_rows[r] ^ z;
    w.b_bytes = xor4(window.b_bytes, z);
    w.sfb_two = window.sfb_two ^ z;
    window_dot(mag_lo, w, acc);
  }
  const long long end = clock64();
  if (lane == 0) record[0] = slot + 1ull, record[1] = static_cast<unsigned long long>(end - start);
  sink[threadIdx.x] = acc[0] + acc[1] + acc[2] + acc[3];
}

// One block, so one SM, alone on the GPU; a, sfa: at least 4 * BLOCK_WARPS rows of K; records: 2
// words a warp; sink: a float a thread.
extern "C" int products_alone(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb, int k,
                              unsigned warps_running, int rounds, unsigned long long* records, float* sink,
                              cudaStream_t stream) {
  window_products<<<1, 32 * BLOCK_WARPS, 0, stream>>>(a, b, sfa, sfb, k, warps_running, rounds, 0u, records, sink);
  return static_cast<int>(cudaGetLastError());
}
