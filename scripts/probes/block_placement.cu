// Where does the GPU place a grid of blocks that all fit at once (closing-the-gap sections 88 and
// 90)? 93u launches, where one-warp tiles run in several waves, only the blocks the GPU holds and
// gives each a fixed share of the tiles by its index; how evenly the SMs share the work then
// depends on which blocks land on which SM. Each block records its SM and holds it for hold_ns of
// the global timer, so that every block of the grid is resident at once, as 93u's are. Blocks of
// one warp (93u's) or of several (93f's split tiles, 93z's dealt blocks: the probe dealt_placement).
// warp_placement records each warp's SM and slot instead (the probe scheduler_mapping).
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

// The same hold, each warp recording the slot it holds on its SM (%warpid + 1; section 91's probe
// scheduler_mapping reads a slot's scheduler as slot % 4) beside its SM (%smid + 1).
__global__ void placed_warps(long long hold_ns, unsigned* sm_of_warp, unsigned* slot_of_warp) {
  const unsigned long long start = global_now();
  if (threadIdx.x % 32 == 0) {
    unsigned sm, slot;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
    const unsigned warp = (blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
    sm_of_warp[warp] = sm + 1, slot_of_warp[warp] = slot + 1;  // 0: not written
  }
  while (global_now() - start < static_cast<unsigned long long>(hold_ns)) {
  }
}

// per_sm > 0: the dynamic shared memory that lets an SM hold per_sm blocks of `kernel` at most (the
// kernels whose grids are placed hold as many by their registers; these kernels' few registers
// would let an SM hold more), found by the occupancy query, or -1 if none does; 0: none asked
// (one-warp blocks, 32 an SM by the GPU's own bound on blocks).
static int shared_for_per_sm(const void* kernel, int warps, int per_sm) {
  if (per_sm <= 0) return 0;
  int device = 0, per_sm_bytes = 0, per_block_bytes = 0, held = 0, shared = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&per_sm_bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
  cudaDeviceGetAttribute(&per_block_bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, per_block_bytes);
  cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
  // the most shared memory a block at which an SM still holds per_sm of them
  for (shared = per_sm_bytes / per_sm < per_block_bytes ? per_sm_bytes / per_sm : per_block_bytes; shared > 0;
       shared -= 128) {
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&held, kernel, 32 * warps, shared);
    if (held >= per_sm) break;
  }
  return held == per_sm ? shared : -1;
}

extern "C" int block_placement(int grid_x, int grid_y, int warps, int per_sm, long long hold_ns, unsigned* sm_of_block,
                               cudaStream_t stream) {
  const int shared = shared_for_per_sm(reinterpret_cast<const void*>(placed), warps, per_sm);
  if (shared < 0) return -1;
  placed<<<dim3(grid_x, grid_y), 32 * warps, shared, stream>>>(hold_ns, sm_of_block);
  return cudaGetLastError();
}

// sm_of_warp and slot_of_warp: one entry a warp, block by block (blocks in x then y order).
extern "C" int warp_placement(int grid_x, int grid_y, int warps, int per_sm, long long hold_ns, unsigned* sm_of_warp,
                              unsigned* slot_of_warp, cudaStream_t stream) {
  const int shared = shared_for_per_sm(reinterpret_cast<const void*>(placed_warps), warps, per_sm);
  if (shared < 0) return -1;
  placed_warps<<<dim3(grid_x, grid_y), 32 * warps, shared, stream>>>(hold_ns, sm_of_warp, slot_of_warp);
  return cudaGetLastError();
}
