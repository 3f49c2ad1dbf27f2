// How much room does a resident block leave beside it (closing-the-gap section 85)? 84ze's split
// tail, blocks of ten warps of 64 registers, ran after its ring blocks (19 warps of 72 registers)
// though the SM's 65,536 registers hold both. If each of the SM's four schedulers holds a quarter
// of the register file and a block's warps are dealt to the quarters in turn, the ring leaves room
// for 2, 2, 2 and 3 warps of 64 (nine), not ten.
//
// A grid of one `hold` block an SM (WARPS_A warps, REGS_A registers) holds its SM for hold_a_ns of
// the global timer; its blocks signal griddepcontrol.launch_dependents at their start, and a second
// grid of `hold` blocks (WARPS_B warps, 64 registers), launched as its programmatic dependent as
// 84ze's tail is, holds for hold_b_ns. Each block records its SM and its start and end (global
// timer, thread 0): a second-grid block that starts before the first grid's block on its SM ends
// was placed beside it.
#include <cuda_runtime.h>
#include <cstdint>

constexpr int RECORD_WORDS = 4;  // a block's: SM + 1, start and end (global timer, ns), the values' sum

__device__ __forceinline__ unsigned long long global_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
  return t;
}

// LIVE values held across the wait, so that ptxas gives the kernel about LIVE registers (a build
// test reads the counts); they change only on a branch never taken, and their sum is recorded.
// A block holds hold_ns, or with spread > 0 between hold_ns and hold_ns * (1 + spread / 100) by a
// hash of its index (blocks that end in an order of their own, as a kernel's warps do).
template <int LIVE>
__global__ void hold(long long hold_ns, unsigned long long* records, int signal, int spread) {
  if (signal) asm volatile("griddepcontrol.launch_dependents;");
  const unsigned long long start = global_now();
  if (spread > 0) hold_ns += hold_ns * spread / 100 * ((blockIdx.x * 2654435761u) >> 22) / 1024;
  uint32_t v[LIVE];
#pragma unroll
  for (int i = 0; i < LIVE; ++i) v[i] = threadIdx.x * (i + 3) ^ blockIdx.x;
  unsigned long long now;
  do {
    now = global_now();
    if (now == 1) {
#pragma unroll
      for (int i = 0; i < LIVE; ++i) v[i] = v[i] * v[(i + 1) % LIVE] + now;
    }
  } while (now - start < static_cast<unsigned long long>(hold_ns));
  uint32_t sum = 0;
#pragma unroll
  for (int i = 0; i < LIVE; ++i) sum += v[i];
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (threadIdx.x == 0) {
    unsigned long long* r = records + RECORD_WORDS * blockIdx.x;
    r[0] = sm + 1ull, r[1] = start, r[2] = global_now(), r[3] = sum;
  }
}

// The kernels by register count (LIVE tuned to ptxas 13.0's allocation; the test checks it).
using Kernel = void (*)(long long, unsigned long long*, int, int);
static Kernel kernel_of(int regs) {
  switch (regs) {
    case 64: return hold<56>;
    case 72: return hold<64>;
    case 80: return hold<72>;
    default: return nullptr;
  }
}

extern "C" int register_quarters_kernel_of(int regs) { return kernel_of(regs) != nullptr; }

// records_a: RECORD_WORDS a block of the first grid (blocks_a of them), records_b of the second.
// The first grid's blocks take smem_a bytes of dynamic shared memory (84q's ring takes most of the
// SM's); carveout, where not negative, is both kernels' preferred shared-memory carveout (percent),
// else the driver chooses each kernel's.
extern "C" int register_quarters(int regs_a, int warps_a, int blocks_a, int smem_a, long long hold_a_ns,
                                 int warps_b, int blocks_b, long long hold_b_ns, int carveout,
                                 unsigned long long* records_a, unsigned long long* records_b, cudaStream_t stream) {
  const Kernel first = kernel_of(regs_a), second = kernel_of(64);
  if (first == nullptr) return static_cast<int>(cudaErrorInvalidValue);
  const int preferred = carveout < 0 ? cudaSharedmemCarveoutDefault : carveout;
  for (const Kernel k : {first, second}) {
    cudaError_t err = cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, preferred);
    if (err != cudaSuccess) return static_cast<int>(err);
  }
  cudaError_t err = cudaFuncSetAttribute(first, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_a);
  if (err != cudaSuccess) return static_cast<int>(err);
  first<<<blocks_a, warps_a * 32, smem_a, stream>>>(hold_a_ns, records_a, 1, 0);
  cudaLaunchAttribute programmatic;
  programmatic.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  programmatic.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(blocks_b));
  config.blockDim = dim3(static_cast<unsigned>(warps_b * 32));
  config.stream = stream;
  config.attrs = &programmatic;
  config.numAttrs = 1;
  err = cudaLaunchKernelEx(&config, second, hold_b_ns, records_b, 0, 0);
  if (err != cudaSuccess) return static_cast<int>(err);
  return static_cast<int>(cudaGetLastError());
}

// One grid alone, several waves of blocks of `warps` warps of 64 registers, each holding between
// hold_ns and hold_ns * (1 + spread / 100): how many warp places an SM keeps filled while blocks
// wait, by the blocks' size (the probe's `waves`).
extern "C" int register_quarters_waves(int warps, int blocks, long long hold_ns, int spread,
                                       unsigned long long* records, cudaStream_t stream) {
  kernel_of(64)<<<blocks, warps * 32, 0, stream>>>(hold_ns, records, 0, spread);
  return static_cast<int>(cudaGetLastError());
}
