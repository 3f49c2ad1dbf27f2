// 93a's or 93b's kernel (AHEAD = 0 or 1), launched as on a GPU without issue to spare for the
// scale runs: every shape runs nvfp4_gemv_kernel<SHORT_WINDOW, false>, the H200's kernel, on
// whatever GPU runs the probe. 93b's H100 kernel (the one with the runs) spills, and every warp pays
// for it (closing-the-gap section 59); its kernel without the runs builds with no stack frame, so
// on the H100 this times the loop ahead itself. The attempt's own entry point is renamed and left
// unused; the one below repeats its dispatch with the runs' kernel left out. Shapes whose K is
// more than 8 windows only: there the dispatch's rule for one-window parts does not apply, so the
// parts are those the H200 would run.
// The build's cache key does not cover the included file: the probe passes its source id as a
// define (INCLUDED_SOURCE), so that an edit to the attempt rebuilds this too.
#define nvfp4_gemv nvfp4_gemv_by_its_rule
#if AHEAD
#include "../../attempts/93b-loads-a-window-ahead/kernel.cu"
#else
#include "../../attempts/93a-shallow-split-sums/kernel.cu"
#endif
#undef nvfp4_gemv

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  constexpr int kMaxGridY = 65535;
  const int s = splits_of(m, k, l);
  const bool short_window = k % WINDOW_K != 0;
#if AHEAD
  const bool slots = k / WINDOW_K > s;  // 93b's slots of B, after the row partials
  const size_t shared = (short_window ? sizeof(ShortWindow) : 0) + (s > 1 || slots ? s * 32 * sizeof(float) : 0) +
                        (slots ? s * sizeof(uint32_t[B_SLOT_WORDS][32]) : 0);
#else
  const size_t shared = (short_window ? sizeof(ShortWindow) : 0) + (s > 1 ? s * 32 * sizeof(float) : 0);
#endif
  const auto kernel = short_window ? nvfp4_gemv_kernel<true, false> : nvfp4_gemv_kernel<false, false>;
  if (shared > 48 * 1024) {
    const cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared));
    if (err != cudaSuccess) return static_cast<int>(err);
  }
  const unsigned split_reciprocal = s == 1 ? 0u : static_cast<unsigned>(((1ull << 32) + s - 1) / s);
  for (int batch0 = 0; batch0 < l; batch0 += kMaxGridY) {
    const int batches = l - batch0 < kMaxGridY ? l - batch0 : kMaxGridY;
    const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(batches));
    kernel<<<grid, s * 32, shared, stream>>>(a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s, batch0,
                                             split_reciprocal);
  }
  return static_cast<int>(cudaGetLastError());
}
