// The probe racecheck_hand_off's kernel: four warps hand a value a lane over in shared memory, as
// 84zc's warpgroups hand their sums over, and the last to come adds them. ordered_by = 0: each lane
// writes its value and counts itself in with an acq_rel atomic at CTA scope; the lane that comes
// fourth acquires the other three's values and adds them. ordered_by = 1: the same writes, then a
// block barrier, then warp 0 adds. Both are free of races; the probe asks racecheck which it sees so.
#include <cuda_runtime.h>
#include <cstdint>

constexpr int WARPS = 4;

__global__ void hand_off(float* __restrict__ out, int ordered_by) {
  __shared__ float values[WARPS][32];
  __shared__ unsigned came[32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) came[lane] = 0;
  __syncthreads();
  values[warp][lane] = static_cast<float>(32 * warp + lane + 1);
  bool adds;
  if (ordered_by == 0) {
    unsigned before;
    const uint32_t address = static_cast<uint32_t>(__cvta_generic_to_shared(&came[lane]));
    asm volatile("atom.acq_rel.cta.shared::cta.add.u32 %0, [%1], 1;" : "=r"(before) : "r"(address) : "memory");
    adds = before == WARPS - 1;
  } else {
    __syncthreads();
    adds = warp == 0;
  }
  if (adds) {
    float sum = 0.0f;
    for (int w = 0; w < WARPS; ++w) sum += values[w][lane];
    out[lane] = sum;
  }
}

extern "C" int racecheck_hand_off(float* out, int ordered_by, cudaStream_t stream) {
  hand_off<<<1, WARPS * 32, 0, stream>>>(out, ordered_by);
  return static_cast<int>(cudaGetLastError());
}
