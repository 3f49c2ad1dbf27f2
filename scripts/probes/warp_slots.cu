// Which warp slot (%warpid) each warp of a block takes (closing-the-gap section 71): 93n pairs warp
// w with warp w ^ 4 on the reading that an SM deals a block's warps to its four schedulers in turn,
// a scheduler being the slot modulo 4 (not documented). Blocks of 2, 4 and 8 warps, 64 blocks an SM
// in all, each warp holding its place a while so that blocks overlap as a kernel's do; per block
// size it prints how often warp w's slot is w modulo 4 away from warp 0's, and how often warps w and
// w ^ 4 share a slot modulo 4. The outputs in results/probes/ came from:
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//        scripts/probes/warp_slots.cu -o build/warp_slots
//   build/warp_slots > results/probes/warp-slots-<gpu>.txt
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void record_slots(unsigned* slots, long long cycles) {
  unsigned slot;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
  if (threadIdx.x % 32 == 0) slots[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = slot;
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  for (int warps : {2, 4, 8}) {
    const int blocks = prop.multiProcessorCount * 64 / warps;
    unsigned* slots = nullptr;
    cudaMalloc(&slots, blocks * warps * sizeof(unsigned));
    record_slots<<<blocks, warps * 32>>>(slots, 200000);
    const cudaError_t err = cudaDeviceSynchronize();
    std::vector<unsigned> host(blocks * warps);
    cudaMemcpy(host.data(), slots, host.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaFree(slots);
    long dealt = 0, shared = 0, pairs = 0;
    for (int b = 0; b < blocks; ++b) {
      const unsigned* s = &host[b * warps];
      bool in_turn = true;
      for (int w = 1; w < warps; ++w) in_turn &= (s[w] - s[0]) % 4 == static_cast<unsigned>(w % 4);
      dealt += in_turn;
      for (int w = 0; w + 4 < warps; ++w, ++pairs) shared += s[w] % 4 == s[w + 4] % 4;
    }
    std::printf("blocks of %d warps: warp w at warp 0's slot + w modulo 4 in %ld of %d blocks", warps, dealt, blocks);
    if (pairs) std::printf("; warps w and w + 4 on one slot modulo 4 in %ld of %ld pairs", shared, pairs);
    std::printf(" (%s)\n", cudaGetErrorString(err));
  }
  return 0;
}
