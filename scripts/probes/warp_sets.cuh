// One block alone on an SM, some of its warps running (closing-the-gap sections 91 and 92): each
// warp records its slot + 1 (%warpid; its scheduler is slot % 4) and the cycles it ran, 0 if it did
// not run, in two words of `records`.
#pragma once

// The warp's slot; a warp not named in `warps_running` records it with zero cycles and is told to
// leave.
__device__ __forceinline__ bool warp_runs(unsigned warps_running, unsigned long long* records, unsigned& slot) {
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
  const int warp = threadIdx.x / 32;
  if (warps_running >> warp & 1) return true;
  if (threadIdx.x % 32 == 0) records[2 * warp] = slot + 1ull, records[2 * warp + 1] = 0;
  return false;
}
