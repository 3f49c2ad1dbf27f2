// 99 read-floor: the measured speed of light. Reads exactly the bytes a GEMV must read (A, SFA,
// and the B and SFB row of each batch, once each) and writes every element of c, with no math
// beyond XOR-folding the loaded words so the loads cannot be removed. Not a GEMV: its output is
// never checked, only timed.
//
// One-shot streaming read: A and SFA are each one contiguous range ([L][M][...] memory order), cut
// into chunks of THREADS x unroll 16-byte words; each block reads one chunk, every thread issuing
// all its loads before it uses any, then exits. No loop, no per-row bookkeeping. The loads skip L1
// (ld.global.nc.L1::no_allocate): after GPU MODE's write-clear this leaves more of the dirty L2
// alone during the kernel (docs/methodology.md, the floor comparison). Small problems take fewer
// loads per thread so that the grid still covers the SMs. `make floor-check` times this kernel
// against the other read strategies (scripts/read_strategies/ and compile-time variants of this
// file) on every shape and fails if one of them is faster.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

#ifndef THREADS
#define THREADS 256
#endif
#ifndef UNROLL
#define UNROLL 8            // most 16-byte loads in flight per thread (fewer on small problems)
#endif
#ifndef LOAD_HINT
#define LOAD_HINT 1         // 0: __ldg; 1: L1::no_allocate; 2: that and an L2 evict_first policy
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 264      // the unroll halves until A's chunks number at least this (2 x 132 SMs)
#endif
constexpr uint32_t kMagic = 0x9E3779B9u;

__device__ __forceinline__ uint4 load_streaming(const uint4* p) {
  uint4 v;
#if LOAD_HINT == 2
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));  // hoisted by the compiler
  asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy));
#elif LOAD_HINT == 1
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
#else
  v = __ldg(p);
#endif
  return v;
}

// XOR-fold this thread's words of one chunk of THREADS x U words; words past `n` are skipped.
template <int U>
__device__ __forceinline__ uint32_t fold_chunk(const uint4* __restrict__ p, long long chunk, long long n) {
  const long long first = chunk * (THREADS * U) + threadIdx.x;
  uint4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const long long i = first + static_cast<long long>(u) * THREADS;
    v[u] = i < n ? load_streaming(p + i) : make_uint4(0, 0, 0, 0);
  }
  uint32_t fold = 0;
#pragma unroll
  for (int u = 0; u < U; ++u) fold ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  return fold;
}

// Blocks [0, a_chunks) read A, the next sfa_chunks read SFA, the last l read one batch's B and
// SFB rows each. Every block also writes its share of c (c has M*L halves, fewer than the
// blocks' threads times 8), so c is written once in full.
template <int U>
__global__ void __launch_bounds__(THREADS)
read_floor_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, long long a_words, long long sfa_words,
                  long long a_chunks, long long sfa_chunks, int k, long long outputs,
                  long long b_batch_stride, long long sfb_batch_stride) {
  const long long block = blockIdx.x;
  uint32_t fold;
  if (block < a_chunks) {
    fold = fold_chunk<U>(reinterpret_cast<const uint4*>(a), block, a_words);
  } else if (block < a_chunks + sfa_chunks) {
    fold = fold_chunk<U>(reinterpret_cast<const uint4*>(sfa), block - a_chunks, sfa_words);
  } else {
    // One batch's B row (K/2 bytes, a multiple of 32) and SFB row (K/16 bytes, a multiple of 4).
    const long long batch = block - a_chunks - sfa_chunks;
    const uint4* b_row = reinterpret_cast<const uint4*>(b + batch * b_batch_stride);
    const uint32_t* sfb_row = reinterpret_cast<const uint32_t*>(sfb + batch * sfb_batch_stride);
    fold = 0;
    for (int i = threadIdx.x; i < k / 32; i += THREADS) {
      const uint4 v = __ldg(b_row + i);
      fold ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    for (int i = threadIdx.x; i < k / 64; i += THREADS) fold ^= __ldg(sfb_row + i);
  }
  // c: thread t of block j writes outputs j*THREADS + t + n*gridDim.x*THREADS. A store happens
  // always (the value depends on the fold, which the compiler cannot predict), so no load is dead.
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  const long long stride = static_cast<long long>(gridDim.x) * THREADS;
  for (long long i = block * THREADS + threadIdx.x; i < outputs; i += stride) c[i] = out;
}

template <int U>
static void launch(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb, __half* c,
                   int k, int l, long long rows, long long b_batch_stride, long long sfb_batch_stride,
                   cudaStream_t stream) {
  const long long a_words = rows * (k / 32);      // 16-byte words: K/2 bytes per row
  const long long sfa_words = rows * (k / 256);   // K/16 bytes per row; M*K/16 is a multiple of 16
  const long long a_chunks = (a_words + THREADS * U - 1) / (THREADS * U);
  if (U > 1 && a_chunks < MIN_BLOCKS) {           // small problem: fewer loads per thread, more blocks
    launch<(U > 1 ? U / 2 : 1)>(a, b, sfa, sfb, c, k, l, rows, b_batch_stride, sfb_batch_stride, stream);
    return;
  }
  const long long sfa_chunks = (sfa_words + THREADS * U - 1) / (THREADS * U);
  const dim3 grid(static_cast<unsigned>(a_chunks + sfa_chunks + l));
  read_floor_kernel<U><<<grid, THREADS, 0, stream>>>(a, b, sfa, sfb, c, a_words, sfa_words, a_chunks,
                                                     sfa_chunks, k, rows, b_batch_stride, sfb_batch_stride);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  launch<UNROLL>(a, b, sfa, sfb, c, k, l, static_cast<long long>(m) * l, b_batch_stride,
                 sfb_batch_stride, stream);
  return static_cast<int>(cudaGetLastError());
}
