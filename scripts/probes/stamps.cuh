// The probes' stamps (timeline.cu, window_spans.cu): the buffer a probe's kernels write their
// records to, set once by timeline_set (timeline.py's `stamped` takes any build that defines it),
// and the clocks they read: the SM clock, the global timer's low half, and the SM clock read only
// once a value has landed.
#pragma once
#include <cstdint>

static uint32_t* stamps_buffer;  // passed to the kernels as a parameter: no load before a stamp

extern "C" int timeline_set(void* stamps) {
  stamps_buffer = static_cast<uint32_t*>(stamps);
  return 0;
}

__device__ __forceinline__ uint32_t clock_now() {
  uint32_t t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t) :: "memory");
  return t;
}
__device__ __forceinline__ uint32_t global_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
  return static_cast<uint32_t>(t);
}
// The clock, read only once `word` is in its register (the predicate depends on it, and the SM
// issues a warp's instructions in order).
__device__ __forceinline__ uint32_t clock_after(uint32_t word) {
  uint32_t t;
  asm volatile("{\n.reg .pred p;\nsetp.eq.u32 p, %1, 0x9E3779B9;\nmov.u32 %0, 0;\n"
               "@!p mov.u32 %0, %%clock;\n}" : "=r"(t) : "r"(word) : "memory");
  return t;
}
