// Probe "loop_spans": when each of 93f's warps starts and ends its window loop, on which SM and
// scheduler (closing-the-gap section 93). The probe window_spans stamped every window in a loop
// of its own, and any stamp inside the loop moved ptxas's schedule (B's load after A's, not
// first) and slowed the calls. Here 93f's kernel is copied line for line with two hooks, before
// and after its window loops, whose stamps are stored at once: the loop keeps 93f's schedule (one
// instruction more). With LOOP_STAMPS 0 the hooks are empty and the copy is 93f's kernel
// instruction for instruction (tests/test_build.py compares the two). A stamp is lane 0's store
// of the SM clock and the global timer's low half; the loop's start adds the SM and the warp's
// slot (%warpid: its scheduler is slot % 4, closing-the-gap section 91). The buffer is set by
// timeline_set (as timeline.cu's); 93f's dispatch launches the copy on 93f's grids (the H200's
// path, no scale runs). The build's cache key does not cover the included file: the probe passes
// its source id.
// With DEALT 1, 93zc's kernel.cu instead (93f's kernels and 93zc's block of 32 warps an SM taking
// its windows by ticket, or with TICKETS 0 dealt in turn), and 93zc's dealt kernel is the one
// copied and stamped, on the shapes 93zc's rule takes (the others run 93zc's own launch, unstamped).
#ifndef DEALT
#define DEALT 0
#endif
#define nvfp4_gemv attempt_nvfp4_gemv
#if DEALT
#include "../../attempts/93zc-windows-by-ticket/kernel.cu"
#else
#include "../../attempts/93f-b-words-at-use/kernel.cu"
#endif
#undef nvfp4_gemv

#ifndef LOOP_STAMPS
#define LOOP_STAMPS 1
#endif
// 0: the products left out, a fold of every loaded word in their place (93f's loads alone; the
// loop is then not 93f's, and the sums are not an answer).
#ifndef PRODUCTS
#define PRODUCTS 1
#endif

#if !PRODUCTS
__device__ __forceinline__ void window_dot_or_fold(uint32_t, const WindowLoads& w, float (&acc)[ROWS_PER_WARP]) {
  uint32_t x = w.b_bytes.x ^ w.b_bytes.y ^ w.b_bytes.z ^ w.b_bytes.w ^ w.sfb_two;
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) x ^= w.a_rows[r].x ^ w.a_rows[r].y ^ w.a_rows[r].z ^ w.a_rows[r].w ^ w.sfa_rows[r];
  acc[0] += __uint_as_float(x & 0x807FFFFFu);  // finite; every word kept (a word left unused narrows its load)
}
#define window_dot window_dot_or_fold
#endif

// A warp's record, 32-bit words: the loop's start (SM clock, global timer), its end (the same),
// its SM + 1 (0: not written) and its slot.
constexpr int RECORD_WORDS = 6;
__constant__ uint32_t* loop_stamps;

extern "C" int timeline_set(void* stamps) {
  return static_cast<int>(cudaMemcpyToSymbol(loop_stamps, &stamps, sizeof(stamps)));
}

#if LOOP_STAMPS
// The warp's record, from the launch's indices alone (nothing held across the loop).
__device__ __forceinline__ uint32_t* warp_record() {
  const unsigned warp = (blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  return loop_stamps + static_cast<size_t>(warp) * RECORD_WORDS;
}
__device__ __forceinline__ uint2 now() {
  uint32_t clock;
  unsigned long long global;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clock));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(global));
  return make_uint2(clock, static_cast<uint32_t>(global));
}
__device__ __forceinline__ void stamp_loop_start() {
  const uint2 t = now();
  if (threadIdx.x % 32 == 0) {
    uint32_t sm, slot;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
    uint32_t* record = warp_record();
    record[0] = t.x, record[1] = t.y, record[4] = sm + 1, record[5] = slot;
  }
}
__device__ __forceinline__ void stamp_loop_end() {
  const uint2 t = now();
  if (threadIdx.x % 32 == 0) {
    uint32_t* record = warp_record();
    record[2] = t.x, record[3] = t.y;
  }
}
#define LOOP_START() stamp_loop_start()
#define LOOP_END() stamp_loop_end()
#else
#define LOOP_START()
#define LOOP_END()
#endif

// 93f's nvfp4_gemv_kernel, line for line but for the two hooks.
template <bool SHORT_WINDOW,  // K is not a multiple of WINDOW_K: the short window's code is built in
          bool RUNS>          // full windows in pairs, their scales in runs
__global__ void __launch_bounds__(MAX_SPLITS * 32, 1)
loop_spans_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
              const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
              __half* __restrict__ c, int m, int k,
              long long b_batch_stride, long long sfb_batch_stride,
              int splits, int batch0, unsigned split_reciprocal) {
  const int split = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);
  const int lane = threadIdx.x % 32;
  const unsigned batch = batch0 + blockIdx.y;
  const long long row0 = (static_cast<long long>(batch) * (m / TILE_ROWS) + blockIdx.x) * TILE_ROWS;
  LanePtrs p;
  p.a = a + row0 * (k / 2) + 16 * lane;
  p.sfa = sfa + row0 * (k / 16) + 2 * lane;
  p.b = b + batch * b_batch_stride + 16 * lane;
  p.sfb = sfb + batch * sfb_batch_stride + 2 * lane;
  const int full_windows = k / WINDOW_K;
  const int windows = windows_of(k);
  const int w_begin = part_start(split, windows, split_reciprocal);
  const int w_end = split + 1 == splits ? windows : part_start(split + 1, windows, split_reciprocal);
  const int split_full_end = w_end < full_windows ? w_end : full_windows;
  uint32_t lane_id;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);
  float acc[ROWS_PER_WARP];
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) acc[r] = 0.0f;
  extern __shared__ ShortWindow short_window[];
  const bool short_last = SHORT_WINDOW && w_end == windows;
  if (short_last) stage_short_window(p, k / 2, k / 16, full_windows, (k - full_windows * WINDOW_K) / 32, lane, short_window[0]);
  const uint8_t* sfa_run = sfa + row0 * (k / 16) + 4 * lane;
  int window = w_begin;
  LOOP_START();
  for (; RUNS && window + 1 < split_full_end; window += 2) {
    uint32_t runs[ROWS_PER_WARP] = {};
    if (SCALE_RUNS) load_scale_runs(sfa_run, k / 16, window, runs);
    window_dot(mag_lo, pair_window_loads(p, k / 2, k / 16, window, runs, lane, 0), acc);
    window_dot(mag_lo, pair_window_loads(p, k / 2, k / 16, window + 1, runs, lane, 1), acc);
  }
  for (; window < split_full_end + short_last; ++window) {
    if (window < split_full_end) {
      window_dot(mag_lo, window_loads(p, k / 2, k / 16, window), acc);
    } else {
      const int lanes = (k - full_windows * WINDOW_K) / 32;
      wait_short_window();
      if (lanes <= DEALT_MAX_LANES) {
        dealt_short_window_dot(mag_lo, short_window[0], lanes, lane, acc);
      } else {
        window_dot(mag_lo, staged_loads(short_window[0], lane), acc);
      }
    }
  }
  LOOP_END();

  row_partials(acc, lane);
  if (splits == 1) {
    row_sum_finish(acc[0]);
    if (lane % kLanesPerRow == 0) c[row0 + lane / kLanesPerRow] = __float2half_rn(acc[0]);
    return;
  }
  static_assert(kLanesPerRow == 8, "a row's partials are two float4 in shared memory");
  float4* split_partials = reinterpret_cast<float4*>(short_window + (SHORT_WINDOW ? 1 : 0));
  reinterpret_cast<float*>(split_partials + 8 * split)[lane] = acc[0];
  if (split != 0) return partials_stored(splits);
  wait_for_partials(splits);
  if (threadIdx.x < TILE_ROWS) {
    float total = 0.0f;
#pragma unroll 4
    for (int s = 0; s < splits; ++s) {
      const float4 lo = split_partials[8 * s + 2 * threadIdx.x], hi = split_partials[8 * s + 2 * threadIdx.x + 1];
      total += ((lo.x + lo.y) + (lo.z + lo.w)) + ((hi.x + hi.y) + (hi.z + hi.w));
    }
    c[row0 + threadIdx.x] = __float2half_rn(total);
  }
}

#if DEALT
// 93zc's dealt kernel, line for line but for the two hooks.
__global__ void __launch_bounds__(DEALT_WARPS * 32, MAX_SPLITS / DEALT_WARPS)
dealt_spans_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                   const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                   __half* __restrict__ c, int k, long long b_batch_stride, long long sfb_batch_stride,
                   int tiles, DealtReciprocals reciprocal) {
  const int warp = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);
  const int lane = threadIdx.x % 32;
  const int windows = k / WINDOW_K;
  const int t0 = dealt_div(blockIdx.x * tiles, reciprocal.blocks);
  const int block_tiles = dealt_div((blockIdx.x + 1) * tiles, reciprocal.blocks) - t0;
  const int n = block_tiles * windows;
  uint32_t lane_id;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);
  __shared__ int next_window;
  __shared__ float window_sums[TICKET_MAX_WINDOWS][TILE_ROWS];
  if (threadIdx.x == 0) next_window = 0;
  __syncthreads();
  LOOP_START();
  for (int taken = warp;; taken += DEALT_WARPS) {
    int ticket = taken;
    if (TICKETS && lane == 0) ticket = atomicAdd(&next_window, 1);
    const int x = __shfl_sync(0xFFFFFFFFu, ticket, 0);
    if (x >= n) break;
    const int tile = dealt_div(x, reciprocal.windows), window = x - tile * windows;
    const float sum = ticket_window(mag_lo, a, b, sfa, sfb, k, b_batch_stride, sfb_batch_stride, reciprocal.batch_tiles,
                                    t0 + tile, window, lane);
    if (lane % kLanesPerRow == 0) window_sums[x][lane / kLanesPerRow] = sum;
  }
  LOOP_END();
  __syncthreads();
  if (threadIdx.x < TILE_ROWS * block_tiles) {
    const int tile = threadIdx.x / TILE_ROWS, row = threadIdx.x % TILE_ROWS;
    float total = 0.0f;
    for (int w = 0; w < windows; ++w) total += window_sums[tile * windows + w][row];
    c[static_cast<long long>(t0 + tile) * TILE_ROWS + row] = __float2half_rn(total);
  }
}

// 93zc's launch, the dealt kernel stamped.
extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  if (!windows_dealt(m, k, l)) return attempt_nvfp4_gemv(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, stream);
  const auto reciprocal = [](unsigned d) { return static_cast<unsigned>(((1ull << 32) + d - 1) / d); };
  const DealtReciprocals r{reciprocal(dealt_blocks()), reciprocal(m / TILE_ROWS), reciprocal(k / WINDOW_K)};
  dealt_spans_kernel<<<dealt_blocks(), DEALT_WARPS * 32, 0, stream>>>(a, b, sfa, sfb, c, k, b_batch_stride,
                                                                     sfb_batch_stride, m / TILE_ROWS * l, r);
  return static_cast<int>(cudaGetLastError());
}
#else
// 93f's launch on the H200's path (no scale runs, K a multiple of 1024, one launch); anything else
// an invalid-value error before any launch.
extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  const int s = splits_of(m, k, l);
  if (scale_runs() || k % WINDOW_K != 0 || l > 65535) {
    return static_cast<int>(cudaErrorInvalidValue);
  }
  const unsigned split_reciprocal = s == 1 ? 0u : static_cast<unsigned>(((1ull << 32) + s - 1) / s);
  const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(l));
  loop_spans_kernel<false, false><<<grid, s * 32, s > 1 ? s * 32 * sizeof(float) : 0, stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s, 0, split_reciprocal);
  return static_cast<int>(cudaGetLastError());
}
#endif
