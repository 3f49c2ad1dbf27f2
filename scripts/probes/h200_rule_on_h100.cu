// 93d, 93g, 93h, 93j, 93k, 93f, 93l or 93m (PROBE_ATTEMPT 0-7; the kernel.cu included, its entry point renamed) launched
// with the rule the H200 takes: the split as one wave of blocks holds it, no one-window parts, no
// pairs, no scale runs, whatever the GPU's issue rate. On an H100 it runs the rolled kernel of 93g
// and its children, which their own rule never launches there. The build's cache key does not cover the
// included file: the probe passes its source id as a define (INCLUDED_SOURCE).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

#define nvfp4_gemv attempt_nvfp4_gemv
#if PROBE_ATTEMPT == 0
#include "../../attempts/93d-pairs-a-warp/kernel.cu"
#elif PROBE_ATTEMPT == 1
#include "../../attempts/93g-rows-rolled/kernel.cu"
#elif PROBE_ATTEMPT == 2
#include "../../attempts/93h-b-prefetched/kernel.cu"
#elif PROBE_ATTEMPT == 3
#include "../../attempts/93j-b-plus-only/kernel.cu"
#elif PROBE_ATTEMPT == 4
#include "../../attempts/93k-b-sent-first/kernel.cu"
#elif PROBE_ATTEMPT == 5
#include "../../attempts/93f-b-words-at-use/kernel.cu"
#elif PROBE_ATTEMPT == 6
#include "../../attempts/93l-halves-ahead/kernel.cu"
#else
#include "../../attempts/93m-next-window-staged/kernel.cu"
#endif
#undef nvfp4_gemv

// 93m's kernels without the runs hold each warp's window slots in shared memory: its own query and
// launch size count them (its nvfp4_gemv_setup allows them).
#if PROBE_ATTEMPT == 7
#define RESIDENT_BLOCKS(s) resident_blocks(s, short_window, true)
#define SHARED_BYTES(s) shared_bytes(s, short_window, false)
#else
#define RESIDENT_BLOCKS(s) resident_blocks(s)
#define SHARED_BYTES(s) ((short_window ? sizeof(ShortWindow) : 0) + (s > 1 ? s * 32 * sizeof(float) : 0))
#endif

// splits_of without its last two steps (one-window parts and pairs, both gated on the issue rate)
static int h200_splits(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const long long windows = windows_of(k);
  const bool short_window = k % WINDOW_K != 0;
  long long s = RESIDENT_BLOCKS(1) / tiles;
  if (s > windows) s = windows;
  if (s > MAX_SPLITS) s = MAX_SPLITS;
  while (s > 1 && tiles > RESIDENT_BLOCKS(static_cast<int>(s))) --s;
  return static_cast<int>(s < 1 ? 1 : s);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  constexpr int kMaxGridY = 65535;
  const int s = h200_splits(m, k, l);
  const bool short_window = k % WINDOW_K != 0;
  const unsigned split_reciprocal = s == 1 ? 0u : static_cast<unsigned>(((1ull << 32) + s - 1) / s);
  for (int batch0 = 0; batch0 < l; batch0 += kMaxGridY) {
    const int batches = l - batch0 < kMaxGridY ? l - batch0 : kMaxGridY;
    const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(batches));
    (short_window ? nvfp4_gemv_kernel<true, false> : nvfp4_gemv_kernel<false, false>)
        <<<grid, s * 32, SHARED_BYTES(s), stream>>>(
        a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s, batch0, split_reciprocal);
  }
  return static_cast<int>(cudaGetLastError());
}
