// How many blocks an SM holds at once when a kernel names a barrier by a register (closing-the-gap
// section 71): ptxas then records all 16 of a block's named barriers as used (EIATTR_NUM_BARRIERS),
// where a barrier named by an immediate n records n + 1. Three kernels that differ only in that
// record (the barrier sits in a branch never taken), launched with blocks of 64 and 256 threads;
// each block's first thread counts itself in on its SM, holds its place a while, and counts itself
// out, so the highest count seen on an SM is the blocks it held together (lowest and highest over
// SMs). Beside it, what cudaOccupancyMaxActiveBlocksPerMultiprocessor says. CSV on stdout, the GPU
// in the file's name; the outputs in results/probes/ came from:
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//        scripts/probes/barrier_occupancy.cu -o build/barrier_occupancy
//   build/barrier_occupancy > results/probes/barrier-occupancy-<gpu>.csv
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kMaxSms = 1024;
__device__ unsigned resident[kMaxSms], most[kMaxSms];

enum Form { kBarrierZeroOnly, kImmediate, kRegister };

template <Form FORM>
__global__ void hold_place(int never, long long cycles) {
  if (never < 0) {  // never negative: the barrier only decides the kernel's record
    if (FORM == kImmediate) asm volatile("bar.sync 1, 64;" ::: "memory");
    if (FORM == kRegister) asm volatile("bar.sync %0, 64;" :: "r"(never) : "memory");
  }
  if (threadIdx.x != 0) return;
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  atomicMax(&most[sm], atomicAdd(&resident[sm], 1u) + 1);
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  atomicSub(&resident[sm], 1u);
}

template <Form FORM>
void report(const char* name, int threads, int sms) {
  int api = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, hold_place<FORM>, threads, 0);
  unsigned zeros[kMaxSms] = {};
  cudaMemcpyToSymbol(most, zeros, sizeof(zeros));
  cudaMemcpyToSymbol(resident, zeros, sizeof(zeros));
  hold_place<FORM><<<sms * 64, threads>>>(0, 2000000);  // about a millisecond a block
  const cudaError_t err = cudaDeviceSynchronize();
  unsigned seen[kMaxSms];
  cudaMemcpyFromSymbol(seen, most, sizeof(seen));
  unsigned low = ~0u, high = 0;
  for (int i = 0; i < sms; ++i) {
    low = seen[i] < low ? seen[i] : low;
    high = seen[i] > high ? seen[i] : high;
  }
  if (err != cudaSuccess) std::fprintf(stderr, "%s: %s\n", name, cudaGetErrorString(err));
  std::printf("%s,%d,%u,%u,%d\n", name, threads, low, high, api);
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("strategy,key,held_min,held_max,occupancy_api\n");  // key: threads a block
  for (int threads : {64, 256}) {
    report<kBarrierZeroOnly>("barrier 0 only", threads, prop.multiProcessorCount);
    report<kImmediate>("barrier 1 by an immediate", threads, prop.multiProcessorCount);
    report<kRegister>("a barrier by a register", threads, prop.multiProcessorCount);
  }
  return 0;
}
