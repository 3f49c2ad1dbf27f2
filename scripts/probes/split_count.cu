// 93c with the number of parts a tile's K is split into chosen otherwise than by its rule, the
// kernel's code unchanged (93c's kernel.cu included, its entry point renamed):
//   SPLITS_MODE 0: 93c's rule (the control)
//               1: twice the rule's S (at most one part a window)
//               2: parts of two windows (S = windows / 2, rounded up): one pair a warp
//               3: parts of one window (S = windows): a warp a window
// S is at most 32 (a block of 1024 threads), as in 93c. The build's cache key does not cover the
// included file: the probe passes its source id as a define (INCLUDED_SOURCE).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

#ifndef SPLITS_MODE
#define SPLITS_MODE 0
#endif

#define nvfp4_gemv attempt_nvfp4_gemv
#include "../../attempts/93c-others-leave-at-once/kernel.cu"
#undef nvfp4_gemv

static int probe_splits(int m, int k, int l) {
  const int rule = splits_of(m, k, l), windows = windows_of(k);
  int s = SPLITS_MODE == 1 ? 2 * rule : SPLITS_MODE == 2 ? (windows + 1) / 2 : SPLITS_MODE == 3 ? windows : rule;
  if (s > windows) s = windows;
  return s > MAX_SPLITS ? MAX_SPLITS : s;
}

// 93c's launch with probe_splits' S in place of splits_of's.
extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  constexpr int kMaxGridY = 65535;
  const int s = probe_splits(m, k, l);
  const bool short_window = k % WINDOW_K != 0;
  const unsigned split_reciprocal = s == 1 ? 0u : static_cast<unsigned>(((1ull << 32) + s - 1) / s);
  for (int batch0 = 0; batch0 < l; batch0 += kMaxGridY) {
    const int batches = l - batch0 < kMaxGridY ? l - batch0 : kMaxGridY;
    const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(batches));
    (short_window ? (scale_runs() ? nvfp4_gemv_kernel<true, true> : nvfp4_gemv_kernel<true, false>)
                  : (scale_runs() ? nvfp4_gemv_kernel<false, true> : nvfp4_gemv_kernel<false, false>))
        <<<grid, s * 32, (short_window ? sizeof(ShortWindow) : 0) + (s > 1 ? s * 32 * sizeof(float) : 0), stream>>>(
        a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s, batch0, split_reciprocal);
  }
  return static_cast<int>(cudaGetLastError());
}
