// Which work lowers the SM clock for as long as a call lasts (closing-the-gap section 84)? Every
// ring kernel's stamps read its SMs at about 1.79 GHz where the floor's and 93f's read 1.95-1.97.
// Each kernel here keeps one pipe busy for a fixed number of SM clocks and records, per block,
// its SM clock and the global timer at its start and end (thread 0, after a block barrier), so
// that the clock's rate over the call is the cycles over the nanoseconds. Blocks of a warpgroup,
// four an SM (the ring's 16 multiplying warps). The pipes:
//   0 nothing but the loop's clock reads      1 FFMA chains          2 PRMT and LOP3 chains
//   3 dp4a chains (93f's products)            4 HMMA f16 (mma.sync)  5 IMMA s8 (mma.sync)
//   6 QGMMA e4m3 (wgmma, A from registers, B from shared memory: 84q's m64n8k32); sm_90a only,
//     on other targets the same loop as 0.
#include <cuda_runtime.h>
#include <cstdint>

constexpr int THREADS = 128;

__device__ __forceinline__ uint32_t global_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
  return static_cast<uint32_t>(t);
}
__device__ __forceinline__ uint32_t clock_now() {
  uint32_t t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t) :: "memory");
  return t;
}

// One pass of a pipe's work on four independent chains, x[] carried from pass to pass.
template <int PIPE>
__device__ __forceinline__ void pass(uint32_t (&x)[4], uint32_t b_desc_low) {
#pragma unroll
  for (int i = 0; i < 8; ++i) {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if (PIPE == 1) {
        x[c] = __float_as_uint(fmaf(__uint_as_float(x[c]), 0.999f, 1e-3f));
      } else if (PIPE == 2) {
        uint32_t d;
        asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(x[c]), "r"(0x0C080604u), "r"(x[c] & 0x7777u));
        x[c] = d ^ (x[c] >> 3);
      } else if (PIPE == 3) {
        x[c] = static_cast<uint32_t>(__dp4a(static_cast<int>(x[c]), 0x01020304, static_cast<int>(x[c] >> 1)));
      }
    }
  }
  if (PIPE == 4) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%4, %5}, {%0, %1, %2, %3};"
                   : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]) : "r"(0x3C003C00u), "r"(0x3C003C00u), "r"(0u), "r"(0u));
    }
  } else if (PIPE == 5) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%4, %5}, {%0, %1, %2, %3};"
                   : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]) : "r"(0x01010101u), "r"(0x01010101u), "r"(0u), "r"(0u));
    }
  } else if (PIPE == 6) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    const uint64_t desc = static_cast<uint64_t>(b_desc_low) | (static_cast<uint64_t>(128 >> 4) << 16) |
                          (static_cast<uint64_t>(256 >> 4) << 32);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, 1, 1, 1;"
                   : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3])
                   : "r"(0x38383838u), "r"(0x38383838u), "r"(0u), "r"(0u), "l"(desc));
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#endif
  }
}

// Per block: SM + 1, global start (ns), start, end (SM clocks), global end (ns), the chains' sum.
template <int PIPE>
__global__ void __launch_bounds__(THREADS) busy(uint32_t* records, long long cycles) {
  __shared__ __align__(128) uint8_t b_matrices[1024];  // zeros: the wgmma's B (its sums stay 0)
  for (int i = threadIdx.x; i < 1024 / 4; i += THREADS) reinterpret_cast<uint32_t*>(b_matrices)[i] = 0;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t g0 = global_now(), c0 = clock_now();
  const uint32_t b_desc_low = (static_cast<uint32_t>(__cvta_generic_to_shared(b_matrices)) & 0x3FFFF) >> 4;
  uint32_t x[4] = {threadIdx.x + 1u, threadIdx.x + 2u, threadIdx.x + 3u, threadIdx.x + 4u};
  // The block leaves the loop as one, every 16 passes: the warpgroup's wgmma must be issued by all
  // four of its warps the same number of times (a loop left by each thread on its own clock hung).
  const long long start = clock64();
  do {
#pragma unroll 1
    for (int n = 0; n < 16; ++n) pass<PIPE>(x, b_desc_low);
  } while (!__syncthreads_or(threadIdx.x == 0 && clock64() - start >= cycles));
  const uint32_t c1 = clock_now(), g1 = global_now();
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  const uint32_t sum = x[0] + x[1] + x[2] + x[3];
  if (threadIdx.x == 0) {
    uint32_t* r = records + 6 * blockIdx.x;
    r[0] = sm + 1, r[1] = g0, r[2] = c0, r[3] = c1, r[4] = g1, r[5] = sum;
  }
}

using Kernel = void (*)(uint32_t*, long long);
constexpr Kernel KERNELS[] = {busy<0>, busy<1>, busy<2>, busy<3>, busy<4>, busy<5>, busy<6>};

// records: 6 words a block, blocks = 4 a multiprocessor.
extern "C" int clock_by_pipe(int pipe, long long cycles, uint32_t* records, int blocks, cudaStream_t stream) {
  if (pipe < 0 || pipe >= static_cast<int>(sizeof(KERNELS) / sizeof(KERNELS[0]))) return static_cast<int>(cudaErrorInvalidValue);
  KERNELS[pipe]<<<blocks, THREADS, 0, stream>>>(records, cycles);
  return static_cast<int>(cudaGetLastError());
}
