// What a call pays for its launch, outside its warps' work: 93c's kernel included as it is (its
// entry point renamed), and a kernel that does no work on 93c's grid (each tile's block of S warps
// starts, its first 4 threads write the tile's outputs, and it ends), each with the launch
// properties that differ from the floor's, one at a time:
//   WORK = 1: 93c through this file; WORK = 0: 93c's grid, no work
//   ASK_SMEM = 1: the no-work grid asks for 93c's shared memory at launch (S x 128 bytes a block
//                 where S > 1; 93c always asks for it)
//   CARVEOUT >= 0: the kernel's preferred shared-memory carveout (percent of the unified L1 and
//                 shared memory; 0 asks for the most L1) set before the launch; -1 leaves the
//                 driver's default
//   HOLD_REGISTERS = 1: the no-work kernel holds 64 registers a thread, as 93c does (the floor
//                 holds 31-40)
// The build's cache key does not cover the included file: the probe passes its source id as a
// define (INCLUDED_SOURCE), so that an edit to 93c would rebuild this too.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

#ifndef WORK
#define WORK 1
#endif
#ifndef ASK_SMEM
#define ASK_SMEM 0
#endif
#ifndef CARVEOUT
#define CARVEOUT -1
#endif
#ifndef HOLD_REGISTERS
#define HOLD_REGISTERS 0
#endif

#define nvfp4_gemv attempt_nvfp4_gemv
#include "../../attempts/93c-others-leave-at-once/kernel.cu"
#undef nvfp4_gemv

// 93c's 64 registers a thread in the kernel's allocation: a path never taken (m is positive) that
// loads 60 words before it uses the last loaded first, so that all 60 are live at once.
__device__ __forceinline__ void hold_registers(__half* c, int m) {
  if (m >= 0) return;
  const uint32_t* p = reinterpret_cast<const uint32_t*>(c);
  uint32_t v[60];
#pragma unroll
  for (int i = 0; i < 60; ++i) asm volatile("ld.global.u32 %0, [%1];" : "=r"(v[i]) : "l"(p + 977 * i));
  uint32_t x = 0;
#pragma unroll
  for (int i = 59; i >= 0; --i) x = x * 3u + v[i];
  reinterpret_cast<uint32_t*>(c)[threadIdx.x] = x;
}

__global__ void __launch_bounds__(MAX_SPLITS * 32, 1)
no_work_kernel(__half* __restrict__ c, int m, int batch0) {
  if (HOLD_REGISTERS) hold_registers(c, m);
  const long long row0 = (static_cast<long long>(batch0 + blockIdx.y) * (m / TILE_ROWS) + blockIdx.x) * TILE_ROWS;
  if (threadIdx.x < TILE_ROWS) c[row0 + threadIdx.x] = __float2half_rn(0.0f);
}

// Once a process: the carveout preferred by every kernel this file launches (CARVEOUT >= 0).
static void prefer_carveout() {
  static const bool set = [] {
    if (CARVEOUT >= 0) {
      cudaFuncSetAttribute(no_work_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT);
      cudaFuncSetAttribute(nvfp4_gemv_kernel<false, false>, cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT);
      cudaFuncSetAttribute(nvfp4_gemv_kernel<false, true>, cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT);
      cudaFuncSetAttribute(nvfp4_gemv_kernel<true, false>, cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT);
      cudaFuncSetAttribute(nvfp4_gemv_kernel<true, true>, cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT);
    }
    return true;
  }();
  (void)set;
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  prefer_carveout();
  if (WORK) {
    return attempt_nvfp4_gemv(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, stream);
  }
  constexpr int kMaxGridY = 65535;
  const int s = splits_of(m, k, l);
  const size_t shared = ASK_SMEM && s > 1 ? s * 32 * sizeof(float) : 0;  // 93c's, K a multiple of 1024
  for (int batch0 = 0; batch0 < l; batch0 += kMaxGridY) {
    const int batches = l - batch0 < kMaxGridY ? l - batch0 : kMaxGridY;
    const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(batches));
    no_work_kernel<<<grid, s * 32, shared, stream>>>(c, m, batch0);
  }
  return static_cast<int>(cudaGetLastError());
}
