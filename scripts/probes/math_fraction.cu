// Probe "math-fraction": 76's split (a block per 4-row tile, S warps over contiguous parts of K, a
// window of 4 rows x 512 bytes a step, the warps' sums added in shared memory) with part of its
// math taken out, to see what the math costs on top of the loads. 43's loads alone read the split's
// order in 76's time on the H200; with the scales in 128-byte runs the loads alone come several
// points closer to the floor, and 91 (the runs with the math) does not in clean mode (closing-the-
// gap, sections 47 and 48). If the math sets a second limit there, taking rows out of it moves
// the runs' build and not 76's.
//   ROWS_MULTIPLIED 4: 76's arithmetic (dp4a products, on both targets); 2: the first two rows'
//                   products only, the other rows' loaded words folded by XOR; 0: no products and
//                   no decode of B, every loaded word folded (76's blocks with its loads alone).
//   SCALE_RUNS 0: each window's scales read 2 bytes a lane a row, as 76; 1: windows in pairs, each
//              row's scales for a pair in one 128-byte run (4 bytes a lane) handed out by
//              shuffles, as 91.
// The output is meaningless (partial sums and folds); timed beside the floor, 76, 91 and 43's
// loads alone by scripts/probes/math_fraction.py, rows in results/probes/math-fraction-<gpu>.csv.
// K a multiple of 1024.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

#ifndef ROWS_MULTIPLIED
#define ROWS_MULTIPLIED 4
#endif
#ifndef SCALE_RUNS
#define SCALE_RUNS 0
#endif
static_assert(ROWS_MULTIPLIED == 0 || ROWS_MULTIPLIED == 2 || ROWS_MULTIPLIED == 4, "0, 2 or 4 rows");
// For the probe time_away (closing-the-gap section 69): after each window's work the warp sleeps
// about DELAY_NS nanoseconds (nanosleep: no instructions issued meanwhile), once the window's
// loads have come (the sleep's length depends on the fold), before its next loads.
#ifndef DELAY_NS
#define DELAY_NS 0
#endif
// And for the probe sleep_length: SLEEP_ONLY=1 keeps the loop and its sleeps and drops the loads
// and the work, so that the call's time, less the empty loop's, is the warps' sleeps.
#ifndef SLEEP_ONLY
#define SLEEP_ONLY 0
#endif
// And for the probe lead_alone (closing-the-gap section 89): L1_LOADS=1 reads A and its scales at
// CTA scope, where they may hit in L1; COPIES_AHEAD 0 copies each window's sectors through L1
// (93y's 4-byte cp.async.ca, three a window) just before its loads, 1 the next window's just after
// this window's loads, a pass ahead; -1 none.
#ifndef L1_LOADS
#define L1_LOADS 0
#endif
#ifndef COPIES_AHEAD
#define COPIES_AHEAD -1
#endif
static_assert(COPIES_AHEAD < 0 || L1_LOADS, "the copies are read back from L1");

constexpr int ROWS = 4;
constexpr int MAX_SPLITS = 32;
constexpr int WINDOW_K = 1024;

__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
  return d;
}
// 76's tables: twice the e2m1 magnitudes, and their negations, as prmt sources.
constexpr uint32_t kMagLo = 0x03020100u, kMagHi = 0x0C080604u;
constexpr uint32_t kNegLo = 0xFDFEFF00u, kNegHi = 0xF4F8FAFCu;

__device__ __forceinline__ uint32_t a_nonneg(uint32_t mag_lo, uint32_t sel) { return prmt(mag_lo, kMagHi, sel); }
__device__ __forceinline__ void b_signed(uint32_t sel, uint32_t& plus, uint32_t& minus) {
  const uint32_t mag = sel & 0x7777u;
  const uint32_t pos = prmt(kMagLo, kMagHi, mag);
  const uint32_t neg = prmt(kNegLo, kNegHi, mag);
  const uint32_t pick = ((sel >> 1) & 0x4444u) | 0x3210u;
  plus = prmt(pos, neg, pick);
  minus = prmt(neg, pos, pick);
}
__device__ __forceinline__ float2 e4m3x2_to_float2(uint32_t two) {
  uint32_t h2;
  asm("{\n.reg .b16 lo, hi;\nmov.b32 {lo, hi}, %1;\ncvt.rn.f16x2.e4m3x2 %0, lo;\n}\n" : "=r"(h2) : "r"(two));
  return __half22float2(*reinterpret_cast<const __half2*>(&h2));
}
struct BWindow {
  uint32_t plus[8], minus[8];
  float2 sfb;
};
__device__ __forceinline__ BWindow b_window(uint4 bytes, uint32_t scales) {
  BWindow f;
  const uint32_t w[4] = {bytes.x, bytes.y, bytes.z, bytes.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    b_signed(w[i], f.plus[2 * i], f.minus[2 * i]);
    b_signed(w[i] >> 16, f.plus[2 * i + 1], f.minus[2 * i + 1]);
  }
  f.sfb = e4m3x2_to_float2(scales);
  f.sfb.x *= 0.25f;
  f.sfb.y *= 0.25f;
  return f;
}
// 76's products for the first N rows of a window.
template <int N>
__device__ __forceinline__ void rows_dot(uint32_t mag_lo, const uint4* bytes, const uint32_t* scales,
                                         const BWindow& bw, float* acc) {
  float2 scale[N];
#pragma unroll
  for (int r = 0; r < N; ++r) {
    const float2 sa = e4m3x2_to_float2(scales[r]);
    scale[r] = make_float2(sa.x * bw.sfb.x, sa.y * bw.sfb.y);
  }
  int d[N][2] = {};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#pragma unroll
    for (int r = 0; r < N; ++r) {
      const uint32_t w = i == 0 ? bytes[r].x : i == 1 ? bytes[r].y : i == 2 ? bytes[r].z : bytes[r].w;
      const uint32_t neg = w ^ 0x88888888u;
      int& dr = d[r][i / 2];
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, w)), static_cast<int>(bw.plus[2 * i]), dr);
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, neg)), static_cast<int>(bw.minus[2 * i]), dr);
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(w, 1u << 16))), static_cast<int>(bw.plus[2 * i + 1]), dr);
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(neg, 1u << 16))), static_cast<int>(bw.minus[2 * i + 1]), dr);
    }
  }
#pragma unroll
  for (int r = 0; r < N; ++r) {
    acc[r] = fmaf(static_cast<float>(d[r][0]), scale[r].x, acc[r]);
    acc[r] = fmaf(static_cast<float>(d[r][1]), scale[r].y, acc[r]);
  }
}

__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
#if L1_LOADS
#define STREAM_LOAD "ld.relaxed.cta.global.L1::evict_first.L2::cache_hint"
#else
#define STREAM_LOAD "ld.relaxed.gpu.global.L2::cache_hint"
#endif
__device__ __forceinline__ uint4 ld_stream_a(const uint8_t* p) {
  uint4 v;
  asm volatile(STREAM_LOAD ".v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy_evict_first()));
  return v;
}
__device__ __forceinline__ uint32_t ld_stream_sf(const uint8_t* p) {
  unsigned short v;
  asm volatile(STREAM_LOAD ".u16 %0, [%1], %2;"
               : "=h"(v) : "l"(p), "l"(policy_evict_first()));
  return v;
}
__device__ __forceinline__ uint32_t ld_stream_run(const uint8_t* p) {
  uint32_t v;
  asm volatile("ld.relaxed.gpu.global.L2::cache_hint.u32 %0, [%1], %2;"
               : "=r"(v) : "l"(p), "l"(policy_evict_first()));
  return v;
}

// 93y's copies of a window's sectors through L1 into the thread's own word of shared memory: lane
// l a word of the sector 32 (l % 16) of rows l / 16 and 2 + l / 16, lanes 0-7 of row l / 2's scales.
__device__ __forceinline__ void copy_4(uint32_t to, const uint8_t* from) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(to), "l"(from) : "memory");
}
__device__ __forceinline__ void copy_window(uint32_t to, const uint8_t* a_tile, const uint8_t* sfa_tile,
                                            long long a_row_bytes, int sfa_row_bytes, int lane, int window) {
  const uint8_t* rows = a_tile + (lane / 16) * a_row_bytes + 32 * (lane % 16) + static_cast<long long>(window) * (WINDOW_K / 2);
  copy_4(to, rows);
  copy_4(to, rows + 2 * a_row_bytes);
  if (lane < 8) copy_4(to, sfa_tile + (lane / 2) * sfa_row_bytes + 32 * (lane % 2) + window * (WINDOW_K / 16));
}

struct WindowLoads {
  uint4 a_rows[ROWS];
  uint32_t sfa_rows[ROWS];
  uint4 b_bytes;
  uint32_t sfb_two;
};
// A window's A and B (the scales are the caller's), A from the last row to the first.
__device__ __forceinline__ void load_a_b(WindowLoads& w, const uint8_t* a, const uint8_t* b, const uint8_t* sfb,
                                         long long a_row_bytes, int window) {
  const long long off = static_cast<long long>(window) * (WINDOW_K / 2);
#pragma unroll
  for (int r = ROWS - 1; r >= 0; --r) w.a_rows[r] = ld_stream_a(a + r * a_row_bytes + off);
  w.b_bytes = __ldg(reinterpret_cast<const uint4*>(b + off));
  w.sfb_two = __ldg(reinterpret_cast<const unsigned short*>(sfb + window * (WINDOW_K / 16)));
}
// The products of the first ROWS_MULTIPLIED rows; the other rows' words, and B's when no row is
// multiplied, folded into `fold`.
__device__ __forceinline__ void window_work(uint32_t mag_lo, const WindowLoads& w, float (&acc)[ROWS], uint32_t& fold) {
#if ROWS_MULTIPLIED > 0
  rows_dot<ROWS_MULTIPLIED>(mag_lo, w.a_rows, w.sfa_rows, b_window(w.b_bytes, w.sfb_two), acc);
#else
  fold ^= w.b_bytes.x ^ w.b_bytes.y ^ w.b_bytes.z ^ w.b_bytes.w ^ w.sfb_two;
#endif
#pragma unroll
  for (int r = ROWS_MULTIPLIED; r < ROWS; ++r) {
    fold ^= w.a_rows[r].x ^ w.a_rows[r].y ^ w.a_rows[r].z ^ w.a_rows[r].w ^ w.sfa_rows[r];
  }
}

__global__ void __launch_bounds__(MAX_SPLITS * 32, 1)
math_fraction_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                     const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                     __half* __restrict__ c, int m, int k, long long b_batch_stride,
                     long long sfb_batch_stride, int splits) {
  const int split = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);  // warp-uniform, as 76
  const int lane = threadIdx.x % 32;
  const unsigned batch = blockIdx.y;
  const long long row0 = (static_cast<long long>(batch) * (m / ROWS) + blockIdx.x) * ROWS;
  const uint8_t* a_lane = a + row0 * (k / 2) + 16 * lane;
  const uint8_t* sfa_lane = sfa + row0 * (k / 16) + 2 * lane;
  const uint8_t* b_lane = b + batch * b_batch_stride + 16 * lane;
  const uint8_t* sfb_lane = sfb + batch * sfb_batch_stride + 2 * lane;
  const int windows = k / WINDOW_K;
  const int w_begin = split * windows / splits, w_end = (split + 1) * windows / splits;
  uint32_t lane_id;  // 76's mag_lo
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);
  float acc[ROWS] = {};
  uint32_t fold = 0;
  int window = w_begin;
#if SCALE_RUNS
  const uint8_t* sfa_run = sfa + row0 * (k / 16) + 4 * lane;
  const int half = 16 * (lane % 2);
  for (; window + 1 < w_end; window += 2) {
    uint32_t runs[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) runs[r] = ld_stream_run(sfa_run + r * (k / 16) + window * (WINDOW_K / 16));
#pragma unroll
    for (int second = 0; second < 2; ++second) {
      WindowLoads w;
      load_a_b(w, a_lane, b_lane, sfb_lane, k / 2, window + second);
#pragma unroll
      for (int r = 0; r < ROWS; ++r) w.sfa_rows[r] = __shfl_sync(0xFFFFFFFFu, runs[r], 16 * second + lane / 2) >> half;
      window_work(mag_lo, w, acc, fold);
    }
  }
#endif
#if COPIES_AHEAD >= 0
  extern __shared__ uint32_t copy_words[];  // a word a thread, never read
  const uint32_t to = static_cast<uint32_t>(__cvta_generic_to_shared(copy_words + threadIdx.x));
  const uint8_t* a_tile = a + row0 * (k / 2);
  const uint8_t* sfa_tile = sfa + row0 * (k / 16);
  if (COPIES_AHEAD == 1 && window < w_end) copy_window(to, a_tile, sfa_tile, k / 2, k / 16, lane, window);
#endif
  for (; window < w_end; ++window) {
#if !SLEEP_ONLY
#if COPIES_AHEAD == 0
    copy_window(to, a_tile, sfa_tile, k / 2, k / 16, lane, window);
#endif
    WindowLoads w;
#pragma unroll
    for (int r = 0; r < ROWS; ++r) w.sfa_rows[r] = ld_stream_sf(sfa_lane + r * (k / 16) + window * (WINDOW_K / 16));
    load_a_b(w, a_lane, b_lane, sfb_lane, k / 2, window);
#if COPIES_AHEAD == 1
    if (window + 1 < w_end) copy_window(to, a_tile, sfa_tile, k / 2, k / 16, lane, window + 1);
#endif
    window_work(mag_lo, w, acc, fold);
#endif
    if (DELAY_NS > 0) __nanosleep(DELAY_NS + (fold & static_cast<uint32_t>(m) >> 31));  // M's sign bit: 0
  }
#if COPIES_AHEAD >= 0
  asm volatile("cp.async.wait_all;\n" ::: "memory");  // none lands in a later block's shared memory
#endif
  // 76's end: a row sum a row, the warps' sums added in shared memory in split order.
  float sum = acc[0] + acc[1] + acc[2] + acc[3] + (fold == 0x9E3779B9u ? 1.0f : 0.0f);
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xFFFFFFFFu, sum, offset);
  __shared__ float split_sum[MAX_SPLITS];
  if (lane == 0) split_sum[split] = sum;
  __syncthreads();
  if (threadIdx.x < ROWS) {
    float total = 0.0f;
    for (int s = 0; s < splits; ++s) total += split_sum[s];
    c[row0 + threadIdx.x] = __float2half_rn(total);
  }
}

// 76's split count without its one-window rule: as many warps as the GPU holds, every tile's
// block of S warps resident at once.
static int splits_of(int m, int k, int l) {
  static int resident[MAX_SPLITS + 1] = {};
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  auto resident_blocks = [&](int s) {
    if (resident[s] == 0) {
      int per_sm = 0;
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, math_fraction_kernel, s * 32, 0);
      resident[s] = sms * (per_sm > 0 ? per_sm : 1);
    }
    return static_cast<long long>(resident[s]);
  };
  const long long tiles = static_cast<long long>(m) * l / ROWS;
  long long s = resident_blocks(1) / tiles;
  if (s > k / WINDOW_K) s = k / WINDOW_K;
  if (s > MAX_SPLITS) s = MAX_SPLITS;
  while (s > 1 && tiles > resident_blocks(static_cast<int>(s))) --s;
  return static_cast<int>(s < 1 ? 1 : s);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  if (k % WINDOW_K != 0 || l > 65535) return static_cast<int>(cudaErrorInvalidValue);
  const int s = splits_of(m, k, l);
  const size_t copy_words = COPIES_AHEAD >= 0 ? s * 32 * sizeof(uint32_t) : 0;
  math_fraction_kernel<<<dim3(static_cast<unsigned>(m / ROWS), static_cast<unsigned>(l)), s * 32, copy_words, stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s);
  return static_cast<int>(cudaGetLastError());
}
