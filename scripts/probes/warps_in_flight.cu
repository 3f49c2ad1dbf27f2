// Probe "warps-in-flight": 43's reads without its math, with the number of warps an SM may hold
// limited, to see how DRAM throughput depends on how many 512-byte row runs are requested at once.
// 27, 33, 44 and 46 put more requests in flight and found DRAM no faster or slower (docs/
// closing-the-gap.md, sections 7, 11 and 12); this asks where the throughput of 43's pattern peaks.
// Loads only; the loaded words are XOR-folded and the fold decides nothing (c is written as zeros).
//
// As 43: a warp owns 4 rows and reads them a window at a time (each load instruction 512
// contiguous bytes of one row, the scales first, A and its scales with strong loads under an L2
// evict_first policy, B and its scales through __ldg), one window in flight. A block is one warp;
// unused dynamic shared memory lets at most WARPS_PER_SM of them share an SM. K is split into S
// contiguous parts so that the grid fills that many warps per SM where the tiles alone do not
// (S = resident warps / tiles, at most the windows; no sum across parts: the probe sums nothing).
// WINDOWS_IN_FLIGHT 2 doubles the bytes a warp has in flight with registers instead of warps: a
// warp issues the loads of two consecutive windows before it folds either (an odd last window of
// a split alone). Its A loads go from the second window's last row down to the first window's
// first row, which the first fold uses: ptxas keeps strong loads in order (27), so all 8 are out
// before the warp waits. 63 registers (64 on sm_100a): 32 warps an SM still fit.
// PARTS_OF n > 0 splits K into parts of n windows instead, however many warps that makes: the
// tiles' reads then run in waves of short-lived warps that the GPU hands to whichever SM is free,
// as the floor's short blocks are, where the default leaves each SM its fixed share.
// HALF_WINDOWS 1 reads as 52 does: 8 rows a warp over windows of 512 elements, so each load
// instruction covers 256 contiguous bytes of a row (8 a lane) and each lane one scale byte a row.
// SCALE_RUNS n > 0 reads A's scales in runs of n windows instead of 64 bytes of each row every
// window: at the start of every n windows of its part, each of a warp's 4 rows' scales for those
// windows in one load instruction (64n bytes a row, 16 a lane, up to 8 windows), the way a kernel
// that stages them would read them; A, B and B's scales as before.
// NC_LOADS 1 reads A and its scales as the floor's chosen configurations mostly do
// (ld.global.nc.L1::no_allocate, under the same evict_first policy) instead of 43's strong loads
// (ld.relaxed.gpu), the one difference between the two kinds of load no probe had isolated.
// PART_MAJOR 1 numbers the blocks part-major (block = part x tiles + tile) instead of tile-major:
// the GPU still hands them out as SMs free up, but the warps resident at once then read one or two
// columns of every row, as 43's wave does, where tile-major short parts read a few tiles' rows
// from end to end.
// STAGGER 1 starts each warp at a window of its part that depends on its tile, wrapping round to
// the part's start, so that the warps of a wave read different columns of their rows where 43's
// (all at the same step of parts of the same length) read the same one.
// A_FETCH_BYTES 128 or 256 adds `.L2::128B` or `.L2::256B` to A's loads (L2 fetches the aligned
// 128 or 256 bytes around a miss from DRAM, not only the sectors asked for); SF_FETCH_BYTES to its
// scales' loads, whose 64 bytes a row a window then bring the row's next one or three windows'
// scales into L2.
// Runs on shapes with K a multiple of 1024. Timed beside the floor by
// scripts/probes/warps_in_flight.py and scripts/probes/bytes_in_flight.py (one and two windows),
// half_windows.py, short_parts.py, scale_runs.py, nc_loads.py, staggered_windows.py,
// row_locality.py and l2_fetch_size.py; outputs
// in results/probes/<probe>-<gpu>.csv.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

#ifndef WARPS_PER_SM
#define WARPS_PER_SM 32
#endif
#ifndef WINDOWS_IN_FLIGHT
#define WINDOWS_IN_FLIGHT 1
#endif
static_assert(WINDOWS_IN_FLIGHT == 1 || WINDOWS_IN_FLIGHT == 2, "WINDOWS_IN_FLIGHT must be 1 or 2");
#ifndef PARTS_OF
#define PARTS_OF 0
#endif
#ifndef HALF_WINDOWS
#define HALF_WINDOWS 0
#endif
#ifndef SCALE_RUNS
#define SCALE_RUNS 0
#endif
#ifndef NC_LOADS
#define NC_LOADS 0
#endif
#ifndef PART_MAJOR
#define PART_MAJOR 0
#endif
#ifndef STAGGER
#define STAGGER 0
#endif
#ifndef A_FETCH_BYTES
#define A_FETCH_BYTES 0  // 128 or 256: A's loads with .L2::128B or .L2::256B
#endif
#ifndef SF_FETCH_BYTES
#define SF_FETCH_BYTES 0  // the same for its scales' loads
#endif
static_assert(!STAGGER || WINDOWS_IN_FLIGHT == 1, "STAGGER reads 43's windows one at a time");
static_assert(!SCALE_RUNS || (WINDOWS_IN_FLIGHT == 1 && !HALF_WINDOWS), "SCALE_RUNS reads 43's windows one at a time");
static_assert(SCALE_RUNS >= 0 && SCALE_RUNS <= 8, "a run is at most a lane's 16 bytes a row: 8 windows");

#if HALF_WINDOWS
constexpr int ROWS_PER_WARP = 8;
constexpr int WINDOW_K = 512;  // 256 bytes of a row per load instruction, 8 per lane
using RowRun = uint2;          // a lane's bytes of one row in one window
using ScaleRun = unsigned char;  // and their scales
#else
constexpr int ROWS_PER_WARP = 4;
constexpr int WINDOW_K = 1024;  // 512 bytes of a row per load instruction, 16 per lane
using RowRun = uint4;
using ScaleRun = unsigned short;
#endif
constexpr int LANE_BYTES = WINDOW_K / 2 / 32, LANE_SCALES = WINDOW_K / 16 / 32;
constexpr int SMEM_PER_SM = 228 * 1024;
constexpr int SMEM_RESERVED_PER_BLOCK = 1024;  // the runtime's share of each block's shared memory
// Unused dynamic shared memory per block: WARPS_PER_SM blocks fit in an SM's 228 KB, one more does not.
constexpr int RESIDENCY_PAD_BYTES = SMEM_PER_SM / (WARPS_PER_SM + 1) + 1 - SMEM_RESERVED_PER_BLOCK;
static_assert(SMEM_PER_SM / (RESIDENCY_PAD_BYTES + SMEM_RESERVED_PER_BLOCK) == WARPS_PER_SM, "pad");
constexpr uint32_t kMagic = 0x9E3779B9u;

#if NC_LOADS
#define LD_STREAM "ld.global.nc.L1::no_allocate"
#else
#define LD_STREAM "ld.relaxed.gpu.global"
#endif
#define FETCH_128 ".L2::128B"
#define FETCH_256 ".L2::256B"
#define FETCH_0 ""
#define FETCH_OF(bytes) FETCH_OF_(bytes)
#define FETCH_OF_(bytes) FETCH_##bytes
#define A_FETCH FETCH_OF(A_FETCH_BYTES)
#define SF_FETCH FETCH_OF(SF_FETCH_BYTES)

__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
#if HALF_WINDOWS
__device__ __forceinline__ uint2 ld_stream_a(const uint8_t* p) {
  uint2 v;
  asm volatile(LD_STREAM ".L2::cache_hint" A_FETCH ".v2.u32 {%0, %1}, [%2], %3;"
               : "=r"(v.x), "=r"(v.y) : "l"(p), "l"(policy_evict_first()));
  return v;
}
__device__ __forceinline__ uint32_t ld_stream_sf(const uint8_t* p) {
  uint32_t v;
  asm volatile(LD_STREAM ".L2::cache_hint" SF_FETCH ".u8 %0, [%1], %2;"
               : "=r"(v) : "l"(p), "l"(policy_evict_first()));
  return v;
}
#else
__device__ __forceinline__ uint4 ld_stream_a(const uint8_t* p) {
  uint4 v;
  asm volatile(LD_STREAM ".L2::cache_hint" A_FETCH ".v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy_evict_first()));
  return v;
}
__device__ __forceinline__ uint32_t ld_stream_sf(const uint8_t* p) {
  unsigned short v;
  asm volatile(LD_STREAM ".L2::cache_hint" SF_FETCH ".u16 %0, [%1], %2;"
               : "=h"(v) : "l"(p), "l"(policy_evict_first()));
  return v;
}
#endif
__device__ __forceinline__ uint32_t fold4(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }
__device__ __forceinline__ uint32_t fold4(uint2 v) { return v.x ^ v.y; }

// N consecutive windows from `window` on: the loads of all of them (SFA, then A, then B and SFB)
// before any A is folded, so that N windows are in flight.
template <int N>
__device__ __forceinline__ void read_windows(uint32_t& fold, const uint8_t* a_lane, const uint8_t* sfa_lane,
                                             const uint8_t* b_lane, const uint8_t* sfb_lane, int k, int window) {
  uint32_t sfa_rows[N][ROWS_PER_WARP];
  RowRun a_rows[N][ROWS_PER_WARP];
#pragma unroll
  for (int w = 0; w < N; ++w) {
    const int sf_off = (window + w) * (WINDOW_K / 16);
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) sfa_rows[w][r] = ld_stream_sf(sfa_lane + r * (k / 16) + sf_off);
  }
#pragma unroll
  for (int w = N - 1; w >= 0; --w) {
    const long long off = static_cast<long long>(window + w) * (WINDOW_K / 2);
#pragma unroll
    for (int r = ROWS_PER_WARP - 1; r >= 0; --r) a_rows[w][r] = ld_stream_a(a_lane + r * (k / 2) + off);
  }
  RowRun b_words[N];
  uint32_t sfb_words[N];
#pragma unroll
  for (int w = 0; w < N; ++w) {
    b_words[w] = __ldg(reinterpret_cast<const RowRun*>(b_lane + static_cast<long long>(window + w) * (WINDOW_K / 2)));
    sfb_words[w] = __ldg(reinterpret_cast<const ScaleRun*>(sfb_lane + (window + w) * (WINDOW_K / 16)));
  }
#pragma unroll
  for (int w = 0; w < N; ++w) {
    fold ^= fold4(b_words[w]) ^ sfb_words[w];
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) fold ^= sfa_rows[w][r] ^ fold4(a_rows[w][r]);
  }
}

__global__ void read_warps_in_flight_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                                            const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                                            __half* __restrict__ c, int m, int k,
                                            long long b_batch_stride, long long sfb_batch_stride, int splits) {
  const int lane = threadIdx.x;
#if PART_MAJOR
  const long long tiles = gridDim.x / splits;
  const long long tile = blockIdx.x % tiles;
  const int split = static_cast<int>(blockIdx.x / tiles);
#else
  const long long tile = blockIdx.x / splits;
  const int split = blockIdx.x % splits;
#endif
  const long long row0 = tile * ROWS_PER_WARP;
  const long long batch = row0 / m;
  const uint8_t* a_lane = a + row0 * (k / 2) + LANE_BYTES * lane;
  const uint8_t* sfa_lane = sfa + row0 * (k / 16) + (SCALE_RUNS ? 16 : LANE_SCALES) * lane;  // a run: 16 a lane
  const uint8_t* b_lane = b + batch * b_batch_stride + LANE_BYTES * lane;
  const uint8_t* sfb_lane = sfb + batch * sfb_batch_stride + LANE_SCALES * lane;
  const int windows = k / WINDOW_K;
  const int w_begin = static_cast<int>(static_cast<long long>(split) * windows / splits);
  const int w_end = static_cast<int>(static_cast<long long>(split + 1) * windows / splits);
  uint32_t fold = 0;
#if WINDOWS_IN_FLIGHT == 2
  int window = w_begin;
  for (; window + 1 < w_end; window += 2) read_windows<2>(fold, a_lane, sfa_lane, b_lane, sfb_lane, k, window);
  if (window < w_end) read_windows<1>(fold, a_lane, sfa_lane, b_lane, sfb_lane, k, window);  // an odd last one
#else  // the loop the recorded rows ran, written out: read_windows<1> compiles to other code
#if STAGGER
  const int part = w_end - w_begin;
  int window = w_begin + static_cast<int>(tile % (part > 0 ? part : 1));
  for (int step = 0; step < part; ++step, window = window + 1 == w_end ? w_begin : window + 1) {
#else
  for (int window = w_begin; window < w_end; ++window) {
#endif
    const long long off = static_cast<long long>(window) * (WINDOW_K / 2);
    const int sf_off = window * (WINDOW_K / 16);
    RowRun a_rows[ROWS_PER_WARP];
#if SCALE_RUNS
    uint32_t sfa_rows[ROWS_PER_WARP] = {};  // the runs' fold in row 0, zero elsewhere
#pragma unroll
    for (int r = ROWS_PER_WARP - 1; r >= 0; --r) a_rows[r] = ld_stream_a(a_lane + r * (k / 2) + off);
    // After A (strong loads keep their order), from the last row down to the first, which the
    // fold takes first; the fold rotates as it goes, which ptxas cannot reorder: it then issues
    // all four before it waits for any, with A's already out.
    if ((window - w_begin) % SCALE_RUNS == 0 && lane < min(SCALE_RUNS, w_end - window) * (WINDOW_K / 16) / 16) {
      RowRun runs[ROWS_PER_WARP];
#pragma unroll
      for (int r = ROWS_PER_WARP - 1; r >= 0; --r) runs[r] = ld_stream_a(sfa_lane + r * (k / 16) + sf_off);
#pragma unroll
      for (int r = 0; r < ROWS_PER_WARP; ++r) {
        const uint32_t words[4] = {runs[r].x, runs[r].y, runs[r].z, runs[r].w};
#pragma unroll
        for (uint32_t word : words) sfa_rows[0] = __funnelshift_l(sfa_rows[0], sfa_rows[0], 1) ^ word;
      }
    }
#else
    uint32_t sfa_rows[ROWS_PER_WARP];
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) sfa_rows[r] = ld_stream_sf(sfa_lane + r * (k / 16) + sf_off);
#pragma unroll
    for (int r = ROWS_PER_WARP - 1; r >= 0; --r) a_rows[r] = ld_stream_a(a_lane + r * (k / 2) + off);
#endif
    fold ^= fold4(__ldg(reinterpret_cast<const RowRun*>(b_lane + off)));
    fold ^= __ldg(reinterpret_cast<const ScaleRun*>(sfb_lane + sf_off));
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) fold ^= sfa_rows[r] ^ fold4(a_rows[r]);
  }
#endif
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  if ((split == 0 && lane < ROWS_PER_WARP) || fold == kMagic) c[row0 + lane % ROWS_PER_WARP] = out;
}

static int splits_of(int m, int k, int l) {
  static int resident = 0;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_warps_in_flight_kernel, 32, RESIDENCY_PAD_BYTES);
    resident = sms * (per_sm > 0 ? per_sm : 1);
  }
  const long long tiles = static_cast<long long>(m) * l / ROWS_PER_WARP;
  long long s = PARTS_OF > 0 ? (k / WINDOW_K + PARTS_OF - 1) / PARTS_OF : resident / tiles;
  if (s > k / WINDOW_K) s = k / WINDOW_K;
  return static_cast<int>(s < 1 ? 1 : s);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  if (k % WINDOW_K != 0) return static_cast<int>(cudaErrorInvalidValue);   // see the header
  static bool pad_allowed = false;
  if (!pad_allowed) {
    cudaFuncSetAttribute(read_warps_in_flight_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, RESIDENCY_PAD_BYTES);
    pad_allowed = true;
  }
  const long long tiles = static_cast<long long>(m) * l / ROWS_PER_WARP;
  const int s = splits_of(m, k, l);
  read_warps_in_flight_kernel<<<static_cast<unsigned>(tiles * s), 32, RESIDENCY_PAD_BYTES, stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s);
  return static_cast<int>(cudaGetLastError());
}
