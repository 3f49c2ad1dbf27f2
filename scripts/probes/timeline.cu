// Probe "timeline": where a call's time goes inside the GPU, warp by warp. Each warp writes when
// it started, when its last window of A had arrived and when it ended, as SM clock counts (%clock,
// one multiprocessor's cycles) and global-timer nanoseconds (%globaltimer, for the spans across
// SMs), with the SM it ran on. Windows of the single-window loop are stamped (the shapes whose
// warps run one window on the H100); with PAIR_STAMPS 1 the pairs' loop stamps each window's
// arrival too, into shared memory (a stamp held in a register there spills). Two kernels, by FLOOR:
//   FLOOR 0: 95's kernel on Hopper for K a multiple of 1024 (its split, one-window parts and
//            runs by rule, dp4a products), instruction for instruction but for the stamps;
//            PRODUCTS 0 folds each loaded word by XOR instead (no products, no decode of B), so
//            that what remains after the last arrival is the warp's end alone.
//            BLOCK_WARPS 8 gives it 98's grid (several one-window tiles a block); SHALLOW_SUMS 1
//            95a's end (its output then 95a's), 2 the same with the partials in a static array
//            (1 KB a block, up to 8 splits: the probe's shapes) instead of shared memory asked for
//            at launch. OTHERS_LEAVE 1 (with SHALLOW_SUMS 1) 93c's end: a split tile's other warps
//            signal the barrier, stamp their end and leave; the first waits and adds.
//            ALL_BYTES_STAMPED 1 stamps a window's arrival once every row of A and its scales are
//            in, instead of where the products first read row 0.
//   FLOOR 1: 99's read (the floor's kernel), its configuration by THREADS, UNROLL and LOAD_HINT;
//            LAUNCH_SMEM bytes of shared memory asked for at launch and not used (does a block
//            that holds shared memory reach its SM later?).
// A stamp "after an arrival" is a clock read predicated on a value computed from the loaded words,
// so it cannot issue before they are in registers. Stamps go to the buffer that timeline_set names (none: the
// kernels skip them). The output is 95's where PRODUCTS is 1 and the floor's flag otherwise.
// Run by scripts/probes/timeline.py; rows in results/probes/timeline-<gpu>.csv.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)
#include "stamps.cuh"

#ifndef FLOOR
#define FLOOR 0
#endif
#ifndef PRODUCTS
#define PRODUCTS 1
#endif
// 0: 95's grid (a block a tile); 8: 98's (several one-window tiles a block, up to 8 warps)
#ifndef BLOCK_WARPS
#define BLOCK_WARPS 0
#endif
// 1: 95a's end (a split tile's row partials added in shared memory) instead of 95's; 2: the same
// with the partials in a static array
#ifndef SHALLOW_SUMS
#define SHALLOW_SUMS 0
#endif
// 1: 93c's end (the other warps of a split tile leave at once) in 95a's
#ifndef OTHERS_LEAVE
#define OTHERS_LEAVE 0
#endif
// 1: the pairs' loop stamps each window's arrival (7168x16384x1, 4096x14336x1 on the H100)
#ifndef PAIR_STAMPS
#define PAIR_STAMPS 0
#endif
// 1: a one-window loop's arrival stamped once all four rows of A and their scales are in (a value
// of every row's load and every scale's, before the products); 0: where the products first read
// row 0's A (95's stamp)
#ifndef ALL_BYTES_STAMPED
#define ALL_BYTES_STAMPED 0
#endif

// One warp's record, 32-bit words (the low halves of the clocks; differences taken modulo 2^32):
// SM + 1 (0: not written), global start (ns), start (SM clock), -, then the arrival of its last
// window and its end (SM clocks), its global end (ns), -.
constexpr int STAMP_FIELDS = 8;

// Lane 0 of each warp writes its start at once and the rest at its end (a 16-byte store each),
// holding its index and the last window's arrival stamp in registers between (the buffer is a
// kernel parameter, read again at the end): 95's kernel sits at 64.
struct Stamps {
  int warp;  // -1: this lane writes nothing
  uint32_t last = 0;
  __device__ Stamps(uint32_t* buffer, int warp_index, int lane) {
    const uint32_t global_start = global_now(), start = clock_now();
    warp = lane == 0 && buffer != nullptr ? warp_index : -1;
    if (warp < 0) return;
    uint32_t sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    *reinterpret_cast<uint4*>(buffer + static_cast<long long>(warp) * STAMP_FIELDS) = make_uint4(sm + 1, global_start, start, 0);
    // the record's address computed again at the end, not held: held, it spilled in 95a's build
    asm volatile("" : "+r"(warp));
  }
  // `word` depends on the window's A words: for 95, the result of its first product, which
  // ptxas places where 95 has it (after B's decode; 95 waits for all four rows at once there).
  __device__ void arrived(uint32_t word) { last = clock_after(word); }
  // The pairs' arrivals, kept in shared memory by PairArrivals, taken as this warp's last so far.
  __device__ void arrived_in_pairs();
  __device__ void end(uint32_t* buffer) {
    const uint32_t stop = clock_now(), global_stop = global_now();
    if (warp < 0) return;
    *reinterpret_cast<uint4*>(buffer + static_cast<long long>(warp) * STAMP_FIELDS + 4) = make_uint4(last, stop, global_stop, 0);
  }
};

// The pairs' loop's stamp: each window's arrival stored to the warp's slot in shared memory at
// once, so that no register holds it across the loop. The slot is the warp's place on its SM
// (%warpid, read again at each use: an index computed once and held spilled), unique among the
// block's warps for as long as they run.
__shared__ uint32_t pair_arrival[64];
__device__ __forceinline__ int warp_in_block() {
  int w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  return w;
}
struct PairArrivals {
  __device__ void arrived(uint32_t word) { pair_arrival[warp_in_block()] = clock_after(word); }
};
__device__ void Stamps::arrived_in_pairs() { last = pair_arrival[warp_in_block()]; }

#if FLOOR
// ---- 99's read, stamped ----
#ifndef THREADS
#define THREADS 256
#endif
#ifndef UNROLL
#define UNROLL 8
#endif
#ifndef LOAD_HINT
#define LOAD_HINT 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 264
#endif
#ifndef LAUNCH_SMEM
#define LAUNCH_SMEM 0
#endif
constexpr uint32_t kMagic = 0x9E3779B9u;

__device__ __forceinline__ uint4 load_streaming(const uint4* p) {
  uint4 v;
#if LOAD_HINT == 2
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy));
#elif LOAD_HINT == 1
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
#else
  v = __ldg(p);
#endif
  return v;
}

template <int U>
__device__ __forceinline__ uint32_t fold_chunk(const uint4* __restrict__ p, long long chunk, long long n) {
  const long long first = chunk * (THREADS * U) + threadIdx.x;
  uint4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const long long i = first + static_cast<long long>(u) * THREADS;
    v[u] = i < n ? load_streaming(p + i) : make_uint4(0, 0, 0, 0);
  }
  uint32_t fold = 0;
#pragma unroll
  for (int u = 0; u < U; ++u) fold ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  return fold;
}

template <int U>
__global__ void __launch_bounds__(THREADS)
read_floor_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, long long a_words, long long sfa_words,
                  long long a_chunks, long long sfa_chunks, int k, long long outputs,
                  long long b_batch_stride, long long sfb_batch_stride, uint32_t* stamp_buffer) {
  const long long block = blockIdx.x;
  Stamps stamps(stamp_buffer, static_cast<int>(block * (THREADS / 32) + threadIdx.x / 32), threadIdx.x % 32);
  uint32_t fold;
  if (block < a_chunks) {
    fold = fold_chunk<U>(reinterpret_cast<const uint4*>(a), block, a_words);
  } else if (block < a_chunks + sfa_chunks) {
    fold = fold_chunk<U>(reinterpret_cast<const uint4*>(sfa), block - a_chunks, sfa_words);
  } else {
    const long long batch = block - a_chunks - sfa_chunks;
    const uint4* b_row = reinterpret_cast<const uint4*>(b + batch * b_batch_stride);
    const uint32_t* sfb_row = reinterpret_cast<const uint32_t*>(sfb + batch * sfb_batch_stride);
    fold = 0;
    for (int i = threadIdx.x; i < k / 32; i += THREADS) {
      const uint4 v = __ldg(b_row + i);
      fold ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    for (int i = threadIdx.x; i < k / 64; i += THREADS) fold ^= __ldg(sfb_row + i);
  }
  stamps.arrived(fold);
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  const long long stride = static_cast<long long>(gridDim.x) * THREADS;
  for (long long i = block * THREADS + threadIdx.x; i < outputs; i += stride) c[i] = out;
  stamps.end(stamp_buffer);
}

template <int U>
static void launch(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb, __half* c,
                   int k, int l, long long rows, long long b_batch_stride, long long sfb_batch_stride,
                   cudaStream_t stream) {
  const long long a_words = rows * (k / 32);
  const long long sfa_words = rows * (k / 256);
  const long long a_chunks = (a_words + THREADS * U - 1) / (THREADS * U);
  if (U > 1 && a_chunks < MIN_BLOCKS) {
    launch<(U > 1 ? U / 2 : 1)>(a, b, sfa, sfb, c, k, l, rows, b_batch_stride, sfb_batch_stride, stream);
    return;
  }
  const long long sfa_chunks = (sfa_words + THREADS * U - 1) / (THREADS * U);
  const dim3 grid(static_cast<unsigned>(a_chunks + sfa_chunks + l));
  read_floor_kernel<U><<<grid, THREADS, LAUNCH_SMEM, stream>>>(a, b, sfa, sfb, c, a_words, sfa_words, a_chunks,
                                                     sfa_chunks, k, rows, b_batch_stride, sfb_batch_stride,
                                                     stamps_buffer);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  launch<UNROLL>(a, b, sfa, sfb, c, k, l, static_cast<long long>(m) * l, b_batch_stride,
                 sfb_batch_stride, stream);
  return static_cast<int>(cudaGetLastError());
}

#else
// ---- 95's kernel (Hopper, K a multiple of 1024), stamped ----
constexpr int TILE_ROWS = 4;
constexpr int ROWS_PER_WARP = TILE_ROWS;
constexpr int MAX_SPLITS = 1024 / 32;
constexpr int ONE_WINDOW_MAX_WARPS = 8;
constexpr double ONE_WINDOW_MIN_ISSUE_PER_BYTE = 0.25;
constexpr double RUNS_MIN_ISSUE_PER_BYTE = 0.25;
constexpr int WINDOW_K = 1024;

__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
  return d;
}

constexpr uint32_t kMagLo = 0x03020100u, kMagHi = 0x0C080604u;
constexpr uint32_t kNegLo = 0xFDFEFF00u, kNegHi = 0xF4F8FAFCu;

__device__ __forceinline__ uint32_t a_nonneg(uint32_t mag_lo, uint32_t sel) {
  return prmt(mag_lo, kMagHi, sel);
}

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

template <typename Stamp>  // Stamps (a register), PairArrivals (shared memory)
__device__ __forceinline__ void rows_dot(uint32_t mag_lo, const uint4 (&bytes)[ROWS_PER_WARP],
                                         const uint32_t (&scales)[ROWS_PER_WARP], const BWindow& bw,
                                         float (&acc)[ROWS_PER_WARP], Stamp* stamps) {
  float2 scale[ROWS_PER_WARP];
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    const float2 sa = e4m3x2_to_float2(scales[r]);
    scale[r] = make_float2(sa.x * bw.sfb.x, sa.y * bw.sfb.y);
  }
  int d[ROWS_PER_WARP][2] = {};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) {
      const uint32_t w = i == 0 ? bytes[r].x : i == 1 ? bytes[r].y : i == 2 ? bytes[r].z : bytes[r].w;
      const uint32_t neg = w ^ 0x88888888u;
      int& dr = d[r][i / 2];
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, w)), static_cast<int>(bw.plus[2 * i]), dr);
      if (i == 0 && r == 0 && stamps) stamps->arrived(static_cast<uint32_t>(dr));  // the window's arrival
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, neg)), static_cast<int>(bw.minus[2 * i]), dr);
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(w, 1u << 16))), static_cast<int>(bw.plus[2 * i + 1]), dr);
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(neg, 1u << 16))), static_cast<int>(bw.minus[2 * i + 1]), dr);
    }
  }
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    acc[r] = fmaf(static_cast<float>(d[r][0]), scale[r].x, acc[r]);
    acc[r] = fmaf(static_cast<float>(d[r][1]), scale[r].y, acc[r]);
  }
}

struct LanePtrs {
  const uint8_t *a, *sfa, *b, *sfb;
};

__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
__device__ __forceinline__ uint4 ld_stream_a(const uint8_t* p) {
  uint4 v;
  asm volatile("ld.relaxed.gpu.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy_evict_first()));
  return v;
}
__device__ __forceinline__ uint32_t ld_stream_sf(const uint8_t* p) {
  unsigned short v;
  asm volatile("ld.relaxed.gpu.global.L2::cache_hint.u16 %0, [%1], %2;"
               : "=h"(v) : "l"(p), "l"(policy_evict_first()));
  return v;
}

struct WindowLoads {
  uint4 a_rows[ROWS_PER_WARP];
  uint32_t sfa_rows[ROWS_PER_WARP];
  uint4 b_bytes;
  uint32_t sfb_two;
};

// The window's products, its arrival stamped where they first read A (95 waits for the four rows
// at once there); without the products, on all four rows' words.
template <typename Stamp>
__device__ __forceinline__ void window_dot(uint32_t mag_lo, const WindowLoads& w, float (&acc)[ROWS_PER_WARP],
                                           Stamp* stamps) {
#if PRODUCTS
  const BWindow bw = b_window(w.b_bytes, w.sfb_two);
#if ALL_BYTES_STAMPED
  if (stamps) {
    uint32_t every = 0;
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) every ^= w.a_rows[r].x ^ w.sfa_rows[r];
    stamps->arrived(every);
  }
  rows_dot(mag_lo, w.a_rows, w.sfa_rows, bw, acc, static_cast<Stamp*>(nullptr));
#else
  rows_dot(mag_lo, w.a_rows, w.sfa_rows, bw, acc, stamps);
#endif
#else
  if (stamps) stamps->arrived(w.a_rows[0].x ^ w.a_rows[1].x ^ w.a_rows[2].x ^ w.a_rows[3].x);
  uint32_t fold = w.b_bytes.x ^ w.sfb_two;
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    fold ^= w.a_rows[r].x ^ w.a_rows[r].y ^ w.a_rows[r].z ^ w.a_rows[r].w ^ w.sfa_rows[r];
  }
  acc[0] += __uint_as_float(fold & 0x3FFFFFFFu);
#endif
}

__device__ __forceinline__ void load_rows(const uint8_t* a, const uint8_t* sfa, long long a_row_bytes,
                                          int sfa_row_bytes, long long off, int sf_off,
                                          uint4 (&a_rows)[ROWS_PER_WARP], uint32_t (&sfa_rows)[ROWS_PER_WARP]) {
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) sfa_rows[r] = ld_stream_sf(sfa + r * sfa_row_bytes + sf_off);
#pragma unroll
  for (int r = ROWS_PER_WARP - 1; r >= 0; --r) a_rows[r] = ld_stream_a(a + r * a_row_bytes + off);
}

__device__ __forceinline__ void load_scale_runs(const uint8_t* sfa_run, int sfa_row_bytes, int window,
                                                uint32_t (&runs)[ROWS_PER_WARP]) {
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    asm volatile("ld.relaxed.gpu.global.L2::cache_hint.u32 %0, [%1], %2;"
                 : "=r"(runs[r]) : "l"(sfa_run + r * sfa_row_bytes + window * (WINDOW_K / 16)), "l"(policy_evict_first()));
  }
}

__device__ __forceinline__ WindowLoads pair_window_loads(const LanePtrs& p, long long a_row_bytes, int window,
                                                         const uint32_t (&runs)[ROWS_PER_WARP],
                                                         int lane, int second) {
  const long long off = static_cast<long long>(window) * (WINDOW_K / 2);
  const int sf_off = window * (WINDOW_K / 16);
  WindowLoads w;
#pragma unroll
  for (int r = ROWS_PER_WARP - 1; r >= 0; --r) w.a_rows[r] = ld_stream_a(p.a + r * a_row_bytes + off);
  const int from = 16 * second + lane / 2, half = 16 * (lane % 2);
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) w.sfa_rows[r] = __shfl_sync(0xFFFFFFFFu, runs[r], from) >> half;
  w.b_bytes = __ldg(reinterpret_cast<const uint4*>(p.b + off));
  w.sfb_two = __ldg(reinterpret_cast<const unsigned short*>(p.sfb + sf_off));
  return w;
}

__device__ __forceinline__ WindowLoads window_loads(const LanePtrs& p, long long a_row_bytes, int sfa_row_bytes,
                                                    int window) {
  const long long off = static_cast<long long>(window) * (WINDOW_K / 2);
  const int sf_off = window * (WINDOW_K / 16);
  WindowLoads w;
  load_rows(p.a, p.sfa, a_row_bytes, sfa_row_bytes, off, sf_off, w.a_rows, w.sfa_rows);
  w.b_bytes = __ldg(reinterpret_cast<const uint4*>(p.b + off));
  w.sfb_two = __ldg(reinterpret_cast<const unsigned short*>(p.sfb + sf_off));
  return w;
}

__device__ __forceinline__ int part_start(int split, int windows, unsigned reciprocal) {
  return static_cast<int>(__umulhi(static_cast<unsigned>(split * windows), reciprocal));
}

constexpr int kLanesPerRow = 32 / ROWS_PER_WARP;
__device__ __forceinline__ void row_partials(float (&acc)[ROWS_PER_WARP], int lane) {
#pragma unroll
  for (int n = ROWS_PER_WARP, offset = 16; n > 1; n /= 2, offset /= 2) {
    const bool upper = lane & offset;
#pragma unroll
    for (int i = 0; i < n / 2; ++i) {
      const float send = upper ? acc[i] : acc[i + n / 2];
      const float keep = upper ? acc[i + n / 2] : acc[i];
      acc[i] = keep + __shfl_xor_sync(0xFFFFFFFFu, send, offset);
    }
  }
}
__device__ __forceinline__ void row_sum_finish(float& partial) {
#pragma unroll
  for (int offset = kLanesPerRow / 2; offset > 0; offset /= 2) partial += __shfl_xor_sync(0xFFFFFFFFu, partial, offset);
}
// 95's row sums: the same shuffles and adds in the same order as its one loop
__device__ __forceinline__ void row_sums(float (&acc)[ROWS_PER_WARP], int lane) {
  row_partials(acc, lane);
  row_sum_finish(acc[0]);
}

__global__ void __launch_bounds__(MAX_SPLITS * 32, 1)
nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k,
                  long long b_batch_stride, long long sfb_batch_stride,
                  int splits, int batch0, unsigned split_reciprocal, bool in_pairs, uint32_t* stamp_buffer) {
  const int split = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);
  const int lane = threadIdx.x % 32;
  const unsigned batch = batch0 + blockIdx.y;
  const unsigned tile_in_block = __shfl_sync(0xFFFFFFFFu, threadIdx.y, 0);
  const long long tile = static_cast<long long>(batch) * (m / TILE_ROWS) + blockIdx.x * blockDim.y + tile_in_block;
  Stamps stamps(stamp_buffer, static_cast<int>(tile * splits + split), lane);
  const long long row0 = tile * TILE_ROWS;
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
  float acc[ROWS_PER_WARP];
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) acc[r] = 0.0f;
  const uint8_t* sfa_run = sfa + row0 * (k / 16) + 4 * lane;
  int window = w_begin;
  PairArrivals pair_stamps;
  PairArrivals* const pairs_stamped = PAIR_STAMPS ? &pair_stamps : nullptr;
  for (; in_pairs && window + 1 < w_end; window += 2) {
    uint32_t runs[ROWS_PER_WARP] = {};
    load_scale_runs(sfa_run, k / 16, window, runs);
    // only the pair's second window is stamped (the last a warp reads): a stamp in the first
    // window's products, where the second's loads are in flight, spills
    window_dot(mag_lo, pair_window_loads(p, k / 2, window, runs, lane, 0), acc, static_cast<PairArrivals*>(nullptr));
    window_dot(mag_lo, pair_window_loads(p, k / 2, window + 1, runs, lane, 1), acc, pairs_stamped);
  }
  if (PAIR_STAMPS && window > w_begin) stamps.arrived_in_pairs();
  for (; window < w_end; ++window) window_dot(mag_lo, window_loads(p, k / 2, k / 16, window), acc, &stamps);

#if SHALLOW_SUMS
  row_partials(acc, lane);
  if (splits == 1) {
    row_sum_finish(acc[0]);
    if (lane % kLanesPerRow == 0) c[row0 + lane / kLanesPerRow] = __float2half_rn(acc[0]);
    stamps.end(stamp_buffer);
    return;
  }
#if SHALLOW_SUMS == 2
  __shared__ float4 split_partials[ONE_WINDOW_MAX_WARPS * 8];
#else
  extern __shared__ float4 split_partials[];  // 95a's: 128 bytes a split, sized at launch
#endif
  float4* tile_partials = split_partials + 8 * tile_in_block * splits;
  reinterpret_cast<float*>(tile_partials + 8 * split)[lane] = acc[0];
#if OTHERS_LEAVE
  if (split != 0) {
    asm volatile("bar.arrive 0, %0;" :: "r"(splits * 32) : "memory");
    stamps.end(stamp_buffer);
    return;
  }
  asm volatile("bar.sync 0, %0;" :: "r"(splits * 32) : "memory");
#else
  __syncthreads();
#endif
  if (threadIdx.x < TILE_ROWS) {
    float total = 0.0f;
#pragma unroll 4
    for (int s = 0; s < splits; ++s) {
      const float4 lo = tile_partials[8 * s + 2 * threadIdx.x], hi = tile_partials[8 * s + 2 * threadIdx.x + 1];
      total += ((lo.x + lo.y) + (lo.z + lo.w)) + ((hi.x + hi.y) + (hi.z + hi.w));
    }
    c[row0 + threadIdx.x] = __float2half_rn(total);
  }
#else
  row_sums(acc, lane);
  const bool holds_row = lane % kLanesPerRow == 0;
  const int tile_row = lane / kLanesPerRow;
  if (splits == 1) {
    if (holds_row) c[row0 + tile_row] = __float2half_rn(acc[0]);
    stamps.end(stamp_buffer);
    return;
  }
  __shared__ float split_sum[MAX_SPLITS][TILE_ROWS];
  float (*tile_sum)[TILE_ROWS] = split_sum + tile_in_block * splits;
  if (holds_row) tile_sum[split][tile_row] = acc[0];
  __syncthreads();
  if (threadIdx.x < TILE_ROWS) {
    float total = tile_sum[0][threadIdx.x];
    for (int s = 1; s < splits; ++s) total += tile_sum[s][threadIdx.x];
    c[row0 + threadIdx.x] = __float2half_rn(total);
  }
#endif
  stamps.end(stamp_buffer);
}

static long long resident_blocks(int s) {
  static int resident[MAX_SPLITS + 1] = {};
  if (resident[s] == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_kernel, s * 32, 0);
    resident[s] = sms * (per_sm > 0 ? per_sm : 1);
  }
  return resident[s];
}

static double issue_per_byte() {
  static double ratio = 0.0;
  if (ratio == 0.0) {
    int device = 0, sms = 0, sm_khz = 0, mem_khz = 0, bus_bits = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, device);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device);
    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device);
    const double bytes_per_s = 2.0 * mem_khz * 1e3 * bus_bits / 8;
    ratio = bytes_per_s > 0 ? 4.0 * sms * sm_khz * 1e3 / bytes_per_s : -1.0;
  }
  return ratio;
}

static int tiles_per_block(int m, int l, int s, bool one_window) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  int tiles = 1;
  while (one_window && 2 * tiles * s <= BLOCK_WARPS && static_cast<long long>(m) * l / TILE_ROWS / (2 * tiles) >= sms) tiles *= 2;
  return tiles;
}

static int splits_of(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const long long windows = k / WINDOW_K;
  long long s = resident_blocks(1) / tiles;
  if (s > windows) s = windows;
  if (s > MAX_SPLITS) s = MAX_SPLITS;
  while (s > 1 && tiles > resident_blocks(static_cast<int>(s))) --s;
  if (windows <= ONE_WINDOW_MAX_WARPS && issue_per_byte() >= ONE_WINDOW_MIN_ISSUE_PER_BYTE) s = windows;
  return static_cast<int>(s < 1 ? 1 : s);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  if (k % WINDOW_K != 0 || l > 65535) return static_cast<int>(cudaErrorInvalidValue);  // the probe's shapes
  const int s = splits_of(m, k, l);
  const unsigned split_reciprocal = s == 1 ? 0u : static_cast<unsigned>(((1ull << 32) + s - 1) / s);
  const int tiles = tiles_per_block(m, l, s, k / WINDOW_K <= ONE_WINDOW_MAX_WARPS &&
                                                  issue_per_byte() >= ONE_WINDOW_MIN_ISSUE_PER_BYTE);
  const dim3 grid(m / TILE_ROWS / tiles, l);
  if (SHALLOW_SUMS == 2 && tiles * s > ONE_WINDOW_MAX_WARPS) return static_cast<int>(cudaErrorInvalidValue);  // the static array's size
  if (OTHERS_LEAVE && tiles > 1) return static_cast<int>(cudaErrorInvalidValue);  // its barrier counts one tile's warps
  const size_t partials_bytes = SHALLOW_SUMS == 1 && s > 1 ? tiles * s * 32 * sizeof(float) : 0;
  nvfp4_gemv_kernel<<<grid, dim3(s * 32, tiles), partials_bytes, stream>>>(a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride,
                                                 s, 0, split_reciprocal,
                                                 issue_per_byte() >= RUNS_MIN_ISSUE_PER_BYTE, stamps_buffer);
  return static_cast<int>(cudaGetLastError());
}
#endif
