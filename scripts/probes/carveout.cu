// Does a kernel's shared-memory carveout cost a call its start (closing-the-gap section 86)? The
// probe register_quarters (section 85) found that the SM will not place a kernel's blocks beside
// another kernel's under a different carveout: the SM changes its split of L1 and shared memory
// only when idle. Each timed call follows the harness's clearing kernel (a sum or a fill, no
// shared memory of note), so a kernel whose carveout differs from the clearer's may wait for its
// SMs to change theirs. 93f (CARVEOUT_OF 0) or the floor's read, 99 in its default configuration
// (CARVEOUT_OF 1), included whole, with every kernel's preferred carveout set to CARVEOUT percent
// by nvfp4_gemv_setup (which the harness calls once before the first launch). The build's cache
// key does not cover the included file: the probe passes its source id (INCLUDED_SOURCE).
#if CARVEOUT_OF == 0
#include "../../attempts/93f-b-words-at-use/kernel.cu"
#define CARVEOUT_KERNELS nvfp4_gemv_kernel<false, false>, nvfp4_gemv_kernel<false, true>, \
                         nvfp4_gemv_kernel<true, false>, nvfp4_gemv_kernel<true, true>
#else
#include "../../attempts/99-read-floor/kernel.cu"
static_assert(UNROLL == 8, "the floor's read in its default configuration: kernels of 8, 4, 2 and 1 loads");
#define CARVEOUT_KERNELS read_floor_kernel<8>, read_floor_kernel<4>, read_floor_kernel<2>, read_floor_kernel<1>
#endif

template <typename... Kernels>
static int set_carveout(Kernels... kernels) {
  for (const void* kernel : {reinterpret_cast<const void*>(kernels)...}) {
    const cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT);
    if (err != cudaSuccess) return static_cast<int>(err);
  }
  return 0;
}

extern "C" int nvfp4_gemv_setup() { return set_carveout(CARVEOUT_KERNELS); }
