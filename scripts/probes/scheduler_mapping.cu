// Which of an SM's four schedulers issues for a warp (closing-the-gap section 91)? Sections 85-90
// read their results through one assumption, never measured: an SM's warp slots are dealt to its
// schedulers in turn, slot w (%warpid) to scheduler w % 4. One block of 16 warps runs alone on one
// SM; the warps named in a mask each run CHAINS independent FFMA chains, which alone issue about
// one instruction a cycle, the others leave at once. Two such warps on one scheduler take about
// twice as long as one alone; on two schedulers, as long. Each warp records its slot and, if it
// ran, the cycles its loop took (clock64).
#include <cuda_runtime.h>
#include <cstdint>
#include "warp_sets.cuh"

constexpr int CHAINS = 8;        // FFMA's latency is about 4 cycles: 8 chains keep one warp issuing
constexpr int BLOCK_WARPS = 16;

__global__ void __launch_bounds__(32 * BLOCK_WARPS, 1)
contend(unsigned warps_running, int rounds, float factor, unsigned long long* records) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned slot;
  if (!warp_runs(warps_running, records, slot)) return;
  unsigned long long* record = records + 2 * warp;  // slot + 1, cycles
  float v[CHAINS];
#pragma unroll
  for (int i = 0; i < CHAINS; ++i) v[i] = factor * (lane + i);
  const long long start = clock64();
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int i = 0; i < CHAINS; ++i) v[i] = fmaf(v[i], factor, 1.0f);
  }
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < CHAINS; ++i) sum += v[i];
  const long long end = clock64();
  if (lane == 0) record[0] = slot + 1ull, record[1] = static_cast<unsigned long long>(end - start);
  if (sum == -1.0f) record[1] = 0;  // never (factor > 0): keeps the chains from being dropped
}

// records: 2 words a warp of the block. One block, so one SM, alone on the GPU.
extern "C" int scheduler_contend(unsigned warps_running, int rounds, float factor, unsigned long long* records,
                                 cudaStream_t stream) {
  contend<<<1, 32 * BLOCK_WARPS, 0, stream>>>(warps_running, rounds, factor, records);
  return static_cast<int>(cudaGetLastError());
}
