// Where does the GPU place a grid of one-warp blocks that all fit at once (closing-the-gap section
// 88)? 93u launches, where one-warp tiles run in several waves, only the blocks the GPU holds and
// gives each a fixed share of the tiles by its index; how evenly the SMs share the work then
// depends on which blocks land on which SM. Each block records its SM and holds it for hold_ns of
// the global timer, so that every block of the grid is resident at once, as 93u's are.
#include <cuda_runtime.h>
#include <cstdint>

__device__ __forceinline__ unsigned long long global_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
  return t;
}

__global__ void placed(long long hold_ns, unsigned* sm_of_block) {
  const unsigned long long start = global_now();
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    sm_of_block[blockIdx.y * gridDim.x + blockIdx.x] = sm + 1;  // 0: not written
  }
  while (global_now() - start < static_cast<unsigned long long>(hold_ns)) {
  }
}

extern "C" int block_placement(int grid_x, int grid_y, long long hold_ns, unsigned* sm_of_block, cudaStream_t stream) {
  placed<<<dim3(grid_x, grid_y), 32, 0, stream>>>(hold_ns, sm_of_block);
  return cudaGetLastError();
}
