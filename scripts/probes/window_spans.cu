// Probe "window_spans": what holds a warp of 93f between two windows on the H200 (closing-the-gap
// section 93). Section 92 found that shorter products did not end 93f's calls sooner; section 69
// that a sleep as long as the products slows the reads as much. Here every window of every warp
// is stamped in the H200's loop of 93f (one window a pass, no scale runs): when its loads have
// been sent (the clock read right after the last of them), when all of them have landed (a clock
// read predicated on a word of each load, folded), and when its products are done (a clock read
// predicated on the row sums); STAMPS takes the later stamps away. The send-to-land span is the
// window's load-to-use time under the call's load; land-to-done its products; send to send a
// warp's round. 93f's kernel.cu is included whole (its entry point renamed): the window
// functions, the sums and the dispatch (splits_of: the same grids as 93f, whose occupancy the
// stamps keep at 64 registers) are 93f's. What differs: 93f starts a row's products while later
// rows are on their way; the landing stamp waits for the whole window first. With PRODUCTS 0 the
// products are left out (a fold of the window's words stands in for them): the same loads alone.
//
// Each warp's record, 32-bit words (clock low halves): SM + 1 (0: not written), global start (ns),
// start (SM clock), end (SM clock), global end (ns), its windows, then per window (at most
// MAX_WINDOWS) sent, landed, done (SM clocks; 0 where not stamped). The buffer is set once by
// timeline_set (stamps.cuh: timeline.py's `stamped` takes the build). The build's cache key
// does not cover the included file: the probe passes its source id.
#define nvfp4_gemv attempt_nvfp4_gemv
#include "../../attempts/93f-b-words-at-use/kernel.cu"
#undef nvfp4_gemv
#include "stamps.cuh"

#ifndef PRODUCTS
#define PRODUCTS 1
#endif
// The stamps a window gets: 3 all three; 2 its sends and landing (no wait for the products'
// sums); 1 its sends alone (no wait at all: a warp's rounds, sent to sent). Unstamped words stay 0.
#ifndef STAMPS
#define STAMPS 3
#endif

constexpr int MAX_WINDOWS = 20;
constexpr int HEADER_WORDS = 6;
constexpr int WINDOW_STAMP_WORDS = 3 * MAX_WINDOWS;
constexpr int RECORD_WORDS = HEADER_WORDS + WINDOW_STAMP_WORDS;

// One word of every load of a window, folded into one: a load writes all its registers at once, so
// the window has landed once this is computed.
__device__ __forceinline__ uint32_t fold(const WindowLoads& w) {
  uint32_t x = w.b_bytes.x ^ w.sfb_two;
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) x ^= w.a_rows[r].x ^ w.sfa_rows[r];
  return x;
}

#if !PRODUCTS
// Every word of the window folded: what stands for the products where they are left out.
__device__ __forceinline__ uint32_t every_word(const WindowLoads& w) {
  uint32_t x = w.b_bytes.x ^ w.b_bytes.y ^ w.b_bytes.z ^ w.b_bytes.w ^ w.sfb_two;
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) x ^= w.a_rows[r].x ^ w.a_rows[r].y ^ w.a_rows[r].z ^ w.a_rows[r].w ^ w.sfa_rows[r];
  return x;
}
#endif

// A warp's record: its tile's (over all batches) times splits, plus its split.
__device__ __forceinline__ uint32_t* record_of(uint32_t* stamps, long long row0, int splits, int split) {
  return stamps + (row0 / TILE_ROWS * splits + split) * RECORD_WORDS;
}

// 93f's nvfp4_gemv_kernel<false, false> (K a multiple of 1024, one window a pass), stamped.
__global__ void __launch_bounds__(MAX_SPLITS * 32, 1)
window_spans_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                    const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                    __half* __restrict__ c, int m, int k,
                    long long b_batch_stride, long long sfb_batch_stride,
                    int splits, int batch0, unsigned split_reciprocal, uint32_t* __restrict__ stamps) {
  const uint32_t global_start = global_now(), start = clock_now();
  const int split = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);
  const int lane = threadIdx.x % 32;
  const unsigned batch = batch0 + blockIdx.y;
  const long long row0 = (static_cast<long long>(batch) * (m / TILE_ROWS) + blockIdx.x) * TILE_ROWS;
  // The window stamps go to the warp's place in shared memory as they are taken (a pointer to its
  // record in global memory, held across the loop, made ptxas compute each window's addresses
  // anew), and to the record at the end; the split's partials follow them.
  extern __shared__ uint32_t shared_words[];
  uint32_t* window_stamps = shared_words + split * WINDOW_STAMP_WORDS;
  // its start written at once (held in registers across the loop, it too cost the addresses)
  if (lane == 0) {
    uint32_t* record = record_of(stamps, row0, splits, split);
    record[1] = global_start, record[2] = start;
  }
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
  // each stamp stored as soon as it is read: one held across the products costs the addresses too
  const bool stamping = lane == 0;
  for (int window = w_begin; window < w_end; ++window) {
    uint32_t* stamp = window_stamps + 3 * (window - w_begin);  // no warp runs more than MAX_WINDOWS (host)
    const WindowLoads w = window_loads(p, k / 2, k / 16, window);
    const uint32_t sent = clock_now();  // after the last of the window's strong loads (both volatile)
    if (stamping) stamp[0] = sent;
    if (STAMPS >= 2) {
      const uint32_t landed = clock_after(fold(w));
      if (stamping) stamp[1] = landed;
    }
#if PRODUCTS
    window_dot(mag_lo, w, acc);
#else
    acc[0] += __uint_as_float(every_word(w) & 0x807FFFFFu);  // finite; every word kept: a word left unused
                                                             // narrows its load (ptxas)
#endif
    if (STAMPS >= 3) {
      const uint32_t done = clock_after(__float_as_uint(acc[0]) ^ __float_as_uint(acc[1]) ^
                                        __float_as_uint(acc[2]) ^ __float_as_uint(acc[3]));
      if (stamping) stamp[2] = done;
    }
  }

  row_partials(acc, lane);
  if (splits == 1) {
    row_sum_finish(acc[0]);
    if (lane % kLanesPerRow == 0) c[row0 + lane / kLanesPerRow] = __float2half_rn(acc[0]);
  } else {
    float4* split_partials = reinterpret_cast<float4*>(shared_words + splits * WINDOW_STAMP_WORDS);  // 128 bytes a split
    reinterpret_cast<float*>(split_partials + 8 * split)[lane] = acc[0];
    if (split != 0) {
      partials_stored(splits);
    } else {
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
  }
  const uint32_t end = clock_now(), global_end = global_now();
  if (lane == 0) {
    uint32_t* record = record_of(stamps, row0, splits, split);
    uint32_t sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    record[0] = sm + 1, record[3] = end, record[4] = global_end;
    record[5] = w_end - w_begin;
    for (int j = 0; j < 3 * (w_end - w_begin); ++j) record[HEADER_WORDS + j] = window_stamps[j];
  }
}

// 93f's grids (its dispatch's splits_of), K a multiple of 1024 and at most MAX_WINDOWS windows a
// warp; else an invalid-value error, no launch.
extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  const int s = splits_of(m, k, l);
  if (k % WINDOW_K != 0 || (windows_of(k) + s - 1) / s > MAX_WINDOWS || l > 65535 || stamps_buffer == nullptr) {
    return static_cast<int>(cudaErrorInvalidValue);
  }
  const unsigned split_reciprocal = s == 1 ? 0u : static_cast<unsigned>(((1ull << 32) + s - 1) / s);
  const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(l));
  const size_t shared = s * WINDOW_STAMP_WORDS * sizeof(uint32_t) + (s > 1 ? s * 32 * sizeof(float) : 0);
  window_spans_kernel<<<grid, s * 32, shared, stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s, 0, split_reciprocal, stamps_buffer);
  return static_cast<int>(cudaGetLastError());
}

// One warp alone on the GPU: the first tile's rows over all of K (at most MAX_WINDOWS windows), its
// record the buffer's first. Its sums are not an answer (c's first 4 rows only).
extern "C" int window_spans_lone(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                                 __half* c, int m, int k, cudaStream_t stream) {
  if (k % WINDOW_K != 0 || k / WINDOW_K > MAX_WINDOWS || stamps_buffer == nullptr) return static_cast<int>(cudaErrorInvalidValue);
  window_spans_kernel<<<1, 32, WINDOW_STAMP_WORDS * sizeof(uint32_t), stream>>>(a, b, sfa, sfb, c, m, k, 0, 0, 1, 0, 0u,
                                                                            stamps_buffer);
  return static_cast<int>(cudaGetLastError());
}
