// Where does the GPU place a grid of blocks that all fit at once (closing-the-gap sections 88 and
// 90)? 93u launches, where one-warp tiles run in several waves, only the blocks the GPU holds and
// gives each a fixed share of the tiles by its index; how evenly the SMs share the work then
// depends on which blocks land on which SM. Each block records its SM and holds it for hold_ns of
// the global timer, so that every block of the grid is resident at once, as 93u's are. Blocks of
// one warp (93u's) or of several (93f's split tiles, 93z's dealt blocks: the probe dealt_placement).
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

// per_sm > 0: dynamic shared memory that lets an SM hold per_sm blocks at most (the kernels whose
// grids are placed hold as many by their registers; this kernel's few registers would let an SM
// hold more), found by the occupancy query; 0: none (one-warp blocks, 32 an SM by the GPU's own
// bound on blocks).
extern "C" int block_placement(int grid_x, int grid_y, int warps, int per_sm, long long hold_ns, unsigned* sm_of_block,
                               cudaStream_t stream) {
  int shared = 0;
  if (per_sm > 0) {
    int device = 0, per_sm_bytes = 0, per_block_bytes = 0, held = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&per_sm_bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
    cudaDeviceGetAttribute(&per_block_bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    cudaFuncSetAttribute(placed, cudaFuncAttributeMaxDynamicSharedMemorySize, per_block_bytes);
    cudaFuncSetAttribute(placed, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
    // the most shared memory a block at which an SM still holds per_sm of them
    for (shared = per_sm_bytes / per_sm < per_block_bytes ? per_sm_bytes / per_sm : per_block_bytes; shared > 0;
         shared -= 128) {
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&held, placed, 32 * warps, shared);
      if (held >= per_sm) break;
    }
    if (held != per_sm) return -1;
  }
  placed<<<dim3(grid_x, grid_y), 32 * warps, shared, stream>>>(hold_ns, sm_of_block);
  return cudaGetLastError();
}
