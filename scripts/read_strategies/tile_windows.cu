// Read strategy "tile-windows": the loads of 56 and 57 without their math. A block is one 4-row
// tile and one warp per 1024-element window of its rows (at most 32 warps; longer rows give each
// warp a contiguous run of windows), so a tile's warps read its rows end to end side by side, the
// order in which 57 came level with the floor on 57344x8192x1 (gpumode, H100). Loads as 57's: A
// and its scales with strong loads under an L2 evict_first policy (NC_LOADS 1: the floor's
// ld.global.nc.L1::no_allocate under the same policy), B and its scales through __ldg; a short
// last window is read by the lanes whose 32 elements lie below K. The dispatch is 57's: as many
// warps a tile as it has windows, never more tiles than the GPU holds at once in one wave where
// the windows allow fewer warps, more waves otherwise.
// Timed against 99 by `make floor-check` (common/floor.py).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

#ifndef NC_LOADS
#define NC_LOADS 0
#endif
constexpr int TILE_ROWS = 4;
constexpr int MAX_SPLITS = 1024 / 32;
constexpr int WINDOW_K = 1024;  // 512 bytes of a row per load instruction, 16 per lane
constexpr uint32_t kMagic = 0x9E3779B9u;

#if NC_LOADS
#define LD_STREAM "ld.global.nc.L1::no_allocate"
#else
#define LD_STREAM "ld.relaxed.gpu.global"
#endif

__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
__device__ __forceinline__ uint4 ld_stream_a(const uint8_t* p) {
  uint4 v;
  asm volatile(LD_STREAM ".L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy_evict_first()));
  return v;
}
__device__ __forceinline__ uint32_t ld_stream_sf(const uint8_t* p) {
  unsigned short v;
  asm volatile(LD_STREAM ".L2::cache_hint.u16 %0, [%1], %2;"
               : "=h"(v) : "l"(p), "l"(policy_evict_first()));
  return v;
}

// One window of the warp's 4 rows, as 57 issues it: scales, then A from the last row to the
// first, then B and its scales; XOR-folded. Lanes with valid = false load nothing.
__device__ __forceinline__ uint32_t read_window(const uint8_t* a_lane, const uint8_t* sfa_lane,
                                                const uint8_t* b_lane, const uint8_t* sfb_lane,
                                                int k, int window, bool valid) {
  if (!valid) return 0;
  const long long off = static_cast<long long>(window) * (WINDOW_K / 2);
  const int sf_off = window * (WINDOW_K / 16);
  uint32_t sfa_rows[TILE_ROWS];
  uint4 a_rows[TILE_ROWS];
#pragma unroll
  for (int r = 0; r < TILE_ROWS; ++r) sfa_rows[r] = ld_stream_sf(sfa_lane + r * (k / 16) + sf_off);
#pragma unroll
  for (int r = TILE_ROWS - 1; r >= 0; --r) a_rows[r] = ld_stream_a(a_lane + r * static_cast<long long>(k / 2) + off);
  const uint4 b_words = __ldg(reinterpret_cast<const uint4*>(b_lane + off));
  uint32_t fold = b_words.x ^ b_words.y ^ b_words.z ^ b_words.w
                  ^ __ldg(reinterpret_cast<const unsigned short*>(sfb_lane + sf_off));
#pragma unroll
  for (int r = 0; r < TILE_ROWS; ++r) fold ^= sfa_rows[r] ^ a_rows[r].x ^ a_rows[r].y ^ a_rows[r].z ^ a_rows[r].w;
  return fold;
}

__global__ void __launch_bounds__(MAX_SPLITS * 32, 1)
read_tile_windows_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                         const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                         __half* __restrict__ c, int m, int k,
                         long long b_batch_stride, long long sfb_batch_stride, int splits) {
  const int split = threadIdx.x / 32, lane = threadIdx.x % 32;
  const long long row0 = static_cast<long long>(blockIdx.x) * TILE_ROWS;
  const long long batch = row0 / m;
  const uint8_t* a_lane = a + row0 * (k / 2) + 16 * lane;
  const uint8_t* sfa_lane = sfa + row0 * (k / 16) + 2 * lane;
  const uint8_t* b_lane = b + batch * b_batch_stride + 16 * lane;
  const uint8_t* sfb_lane = sfb + batch * sfb_batch_stride + 2 * lane;
  const int full_windows = k / WINDOW_K;
  const int windows = (k + WINDOW_K - 1) / WINDOW_K;
  const int w_begin = split * windows / splits, w_end = (split + 1) * windows / splits;
  const int split_full_end = w_end < full_windows ? w_end : full_windows;
  uint32_t fold = 0;
  for (int window = w_begin; window < split_full_end; ++window) {
    fold ^= read_window(a_lane, sfa_lane, b_lane, sfb_lane, k, window, true);
  }
  if (w_end > full_windows) {
    fold ^= read_window(a_lane, sfa_lane, b_lane, sfb_lane, k, full_windows,
                        full_windows * WINDOW_K + 32 * (lane + 1) <= k);
  }
  // Every c element is written by split 0; other threads store only on an impossible fold.
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  if ((split == 0 && lane < TILE_ROWS) || fold == kMagic) c[row0 + lane % TILE_ROWS] = out;
}

// 57's dispatch (with one window a warp): S = resident warps / tiles, at most the windows and
// MAX_SPLITS, lowered until every tile's block of S warps fits at once, then raised to the
// number of windows (at most MAX_SPLITS).
static long long resident_blocks(int s) {
  static int resident[MAX_SPLITS + 1] = {};
  if (resident[s] == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_tile_windows_kernel, s * 32, 0);
    resident[s] = sms * (per_sm > 0 ? per_sm : 1);
  }
  return resident[s];
}

static int splits_of(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const long long windows = (k + WINDOW_K - 1) / WINDOW_K;
  long long s = resident_blocks(1) / tiles;
  if (s > windows) s = windows;
  if (s > MAX_SPLITS) s = MAX_SPLITS;
  while (s > 1 && tiles > resident_blocks(static_cast<int>(s))) --s;
  if (windows > s) s = windows < MAX_SPLITS ? windows : MAX_SPLITS;
  return static_cast<int>(s < 1 ? 1 : s);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const int s = splits_of(m, k, l);
  read_tile_windows_kernel<<<static_cast<unsigned>(tiles), s * 32, 0, stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s);
  return static_cast<int>(cudaGetLastError());
}
