// Probe "multiplying_warps": how many warps of a scheduler multiply at once (closing-the-gap
// section 71). 93f's H200 loop (its kernel without the scale runs, K whole windows, the H200's rule
// on any GPU), with each window stamped by the warp's lane 0: the SM clock once the window's loads
// are in (a clock read predicated on them), and again once the window's products are in
// its sums (predicated on them); with the warp's SM and slot (%warpid: a block's warps take
// consecutive slots modulo 4, scripts/probes/warp_slots.cu). 93f's device code is included as it
// is; only this kernel and its launch are the probe's. Run by scripts/probes/multiplying_warps.py.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

// 1: a window's arrival stamped once all its loads are in; 0: once row 0's A is (the first run's).
#ifndef ALL_BYTES_STAMPED
#define ALL_BYTES_STAMPED 1
#endif

#define nvfp4_gemv attempt_nvfp4_gemv
#include "../../attempts/93f-b-words-at-use/kernel.cu"
#undef nvfp4_gemv

// One warp's record, 32-bit words: SM + 1 (0: not written), slot, then per window (at most
// STAMPED_WINDOWS) its arrival and the end of its products, SM clocks' low halves.
constexpr int STAMPED_WINDOWS = 16;
constexpr int RECORD_WORDS = 2 + 2 * STAMPED_WINDOWS;
static uint32_t* stamps_buffer;

extern "C" int multiplying_set(void* stamps) {
  stamps_buffer = static_cast<uint32_t*>(stamps);
  return 0;
}

// The clock, read only once `word` is in its register (the SM issues a warp's instructions in order).
__device__ __forceinline__ uint32_t clock_after(uint32_t word) {
  uint32_t t;
  asm volatile("{\n.reg .pred p;\nsetp.eq.u32 p, %1, 0x9E3779B9;\nmov.u32 %0, 0;\n"
               "@!p mov.u32 %0, %%clock;\n}" : "=r"(t) : "r"(word) : "memory");
  return t;
}

__global__ void __launch_bounds__(MAX_SPLITS * 32, 1)
stamped_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b, const uint8_t* __restrict__ sfa,
               const uint8_t* __restrict__ sfb, __half* __restrict__ c, int m, int k,
               long long b_batch_stride, long long sfb_batch_stride, int splits, unsigned split_reciprocal,
               uint32_t* __restrict__ stamps) {
  const int split = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);
  const int lane = threadIdx.x % 32;
  const unsigned batch = blockIdx.y;
  const long long row0 = (static_cast<long long>(batch) * (m / TILE_ROWS) + blockIdx.x) * TILE_ROWS;
  LanePtrs p;
  p.a = a + row0 * (k / 2) + 16 * lane;
  p.sfa = sfa + row0 * (k / 16) + 2 * lane;
  p.b = b + batch * b_batch_stride + 16 * lane;
  p.sfb = sfb + batch * sfb_batch_stride + 2 * lane;
  const int windows = k / WINDOW_K;
  const int w_begin = part_start(split, windows, split_reciprocal);
  const int w_end = split + 1 == splits ? windows : part_start(split + 1, windows, split_reciprocal);
  uint32_t lane_id;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);
  float acc[ROWS_PER_WARP] = {};
  uint32_t* record = stamps + ((static_cast<long long>(batch) * gridDim.x + blockIdx.x) * splits + split) * RECORD_WORDS;
  if (lane == 0) {
    uint32_t sm, slot;
    asm volatile("mov.u32 %0, %%smid;\nmov.u32 %1, %%warpid;" : "=r"(sm), "=r"(slot));
    record[0] = sm + 1;
    record[1] = slot;
  }
  for (int window = w_begin; window < w_end; ++window) {
    const WindowLoads w = window_loads(p, k / 2, k / 16, window);
#if ALL_BYTES_STAMPED
    // once every load of the window is in: its four rows of A, their scales, B and B's scales
    const uint32_t arrived = clock_after(w.a_rows[0].x ^ w.a_rows[1].x ^ w.a_rows[2].x ^ w.a_rows[3].x ^
                                         w.sfa_rows[0] ^ w.sfa_rows[1] ^ w.sfa_rows[2] ^ w.sfa_rows[3] ^
                                         w.b_bytes.x ^ w.sfb_two);
#else
    const uint32_t arrived = clock_after(w.a_rows[0].x);  // row 0's A, the last of the rows sent
#endif
    window_dot(mag_lo, w, acc);
    const uint32_t done = clock_after(__float_as_uint(acc[0]) ^ __float_as_uint(acc[1]) ^
                                      __float_as_uint(acc[2]) ^ __float_as_uint(acc[3]));
    const int i = window - w_begin;
    if (lane == 0 && i < STAMPED_WINDOWS) {
      record[2 + 2 * i] = arrived;
      record[3 + 2 * i] = done;
    }
  }
  // 93f's end: each row's sum over the lanes and over the split's warps, in shared memory
  row_partials(acc, lane);
  if (splits == 1) {
    row_sum_finish(acc[0]);
    if (lane % kLanesPerRow == 0) c[row0 + lane / kLanesPerRow] = __float2half_rn(acc[0]);
    return;
  }
  extern __shared__ float4 split_partials[];
  reinterpret_cast<float*>(split_partials + 8 * split)[lane] = acc[0];
  if (split != 0) return partials_stored(splits);
  wait_for_partials(splits);
  if (threadIdx.x < TILE_ROWS) {
    float total = 0.0f;
    for (int s = 0; s < splits; ++s) {
      const float4 lo = split_partials[8 * s + 2 * threadIdx.x], hi = split_partials[8 * s + 2 * threadIdx.x + 1];
      total += ((lo.x + lo.y) + (lo.z + lo.w)) + ((hi.x + hi.y) + (hi.z + hi.w));
    }
    c[row0 + threadIdx.x] = __float2half_rn(total);
  }
}

// The H200's rule (scripts/probes/h200_rule_on_h100.cu's): S from the resident blocks, no
// one-window parts, no pairs, no runs. K must be whole windows and the grid's batches one launch.
extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  if (k % WINDOW_K != 0 || l > 65535 || stamps_buffer == nullptr) return static_cast<int>(cudaErrorInvalidValue);
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  long long s = resident_blocks(1) / tiles;
  if (s > k / WINDOW_K) s = k / WINDOW_K;
  if (s > MAX_SPLITS) s = MAX_SPLITS;
  while (s > 1 && tiles > resident_blocks(static_cast<int>(s))) --s;
  if (s < 1) s = 1;
  const int splits = static_cast<int>(s);
  const unsigned reciprocal = splits == 1 ? 0u : static_cast<unsigned>(((1ull << 32) + splits - 1) / splits);
  stamped_kernel<<<dim3(m / TILE_ROWS, l), splits * 32, splits > 1 ? splits * 32 * sizeof(float) : 0, stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, splits, reciprocal, stamps_buffer);
  return static_cast<int>(cudaGetLastError());
}
