// Where does a prefetch leave a line on Hopper? One warp prepares LINES lines of a chain (each line's
// first 8 bytes hold the next line's address) in one of five ways, sleeps SLEEP_NS so that whatever
// it sent has come, and then lane 0 walks the chain, one dependent load a line, timed in SM cycles:
// the cycles a load are L1's latency, L2's or DRAM's, whichever holds the lines.
//   0 nothing sent: each load goes to DRAM;
//   1 prefetch.global.L1 a lane (93x's prefetch, CCTL.E.PF1);
//   2 prefetch.global.L2 a lane (46's);
//   3 a 4-byte load a lane at CTA scope, L1::evict_last (the load's value kept: a touch);
//   4 the touch of 3, then the walk at GPU scope (93f's loads, which do not read L1);
//   5 a 4-byte copy a lane through L1 into shared memory (93y's cp.async.ca) under A's L2
//     evict_first policy (93y's copies carry none; 93m's copies with one stopped on an illegal
//     instruction on the H100).
// The walk's loads are 93x's (CTA scope, L1::evict_first) but in way 4.
#include <cuda_runtime.h>
#include <cstdint>

__device__ __forceinline__ uint64_t walk_cta(uint64_t p) {
  uint64_t v;
  asm volatile("ld.relaxed.cta.global.L1::evict_first.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ uint64_t walk_gpu(uint64_t p) {
  uint64_t v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ uint64_t global_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void l1_prefetch_kernel(int way, const uint8_t* lines, int count, long long sleep_ns, long long* out) {
  const int lane = threadIdx.x;
  uint32_t touched = 0;
  for (int i = lane; i < count; i += 32) {
    const uint8_t* line = lines + 128 * i;
    if (way == 1) asm volatile("prefetch.global.L1 [%0];" :: "l"(line));
    if (way == 2) asm volatile("prefetch.global.L2 [%0];" :: "l"(line));
    if (way == 5) {
      extern __shared__ uint32_t words[];
      uint64_t policy;
      asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
      const uint32_t to = static_cast<uint32_t>(__cvta_generic_to_shared(words + lane));
      asm volatile("cp.async.ca.shared.global.L2::cache_hint [%0], [%1], 4, %2;" :: "r"(to), "l"(line + 8), "l"(policy) : "memory");
    }
    if (way == 3 || way == 4) {
      uint32_t v;
      asm volatile("ld.relaxed.cta.global.L1::evict_last.u32 %0, [%1];" : "=r"(v) : "l"(line + 8));
      touched ^= v;
    }
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  const uint64_t until = global_ns() + sleep_ns;
  while (global_ns() < until) __nanosleep(1000);
  __syncwarp();
  if (lane != 0) return;
  uint64_t p = reinterpret_cast<uint64_t>(lines);
  const long long start = clock64();
  for (int i = 0; i < count; ++i) p = way == 4 ? walk_gpu(p) : walk_cta(p);
  const long long cycles = clock64() - start;
  out[0] = cycles;
  out[1] = static_cast<long long>(p) ^ touched;  // the walk's end and the touches: kept
}

extern "C" int l1_prefetch(int way, const uint8_t* lines, int count, long long sleep_ns, long long* out,
                           cudaStream_t stream) {
  l1_prefetch_kernel<<<1, 32, 32 * sizeof(uint32_t), stream>>>(way, lines, count, sleep_ns, out);
  return static_cast<int>(cudaGetLastError());
}
