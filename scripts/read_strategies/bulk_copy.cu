// Read strategy "bulk-copy": A and SFA read by the copy engine (cp.async.bulk) as flat ranges, in
// the floor's order: piece i is bytes [i * PIECE_BYTES, (i + 1) * PIECE_BYTES) of A and the same
// eighth of SFA. A block is one warp with a ring of NSTAGES pieces in shared memory; lane 0 issues
// a piece's two copies on the stage's mbarrier, the warp waits for it, and lane 0 refills the slot
// with the piece gridDim.x on. The grid is the warps the GPU holds at once (or the pieces, if fewer).
// Each warp also reads one batch's B and SFB row through L1, so every byte of the problem is read.
// The copy-engine probe (scripts/probes/copy_engine.py, section 13 of docs/closing-the-gap.md)
// found flat pieces of 8 KB and more within a few percent of the floor; here the floor check
// times them against it on every shape. EVICT_FIRST 1 issues the copies of A and SFA under an L2
// evict_first policy, as 99's LOAD_HINT 2 and the attempts from 41 read them: in gpumode mode they
// then displace mostly each other rather than L2's dirty lines. Timed against 99 by
// `make floor-check` (common/floor.py).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

#ifndef PIECE_BYTES
#define PIECE_BYTES 8192  // bytes of A a stage (a multiple of 128, so SFA's eighth is 16-byte sized)
#endif
#ifndef NSTAGES
#define NSTAGES 2
#endif
#ifndef EVICT_FIRST
#define EVICT_FIRST 0
#endif
constexpr uint32_t kMagic = 0x9E3779B9u;

struct __align__(128) Stage {
  uint8_t a[PIECE_BYTES];
  uint8_t sfa[PIECE_BYTES / 8];
};
struct __align__(128) WarpRing {
  Stage stage[NSTAGES];
  uint64_t full[NSTAGES];
};

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done) {
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(smem_addr(bar)), "r"(parity) : "memory");
  }
}
__device__ __forceinline__ void bulk_copy(void* dst, const uint8_t* src, uint32_t bytes, uint64_t* bar) {
#if EVICT_FIRST
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
               ::"r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar)), "l"(policy) : "memory");
#else
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar)) : "memory");
#endif
}

__global__ void __launch_bounds__(32)
read_bulk_copy_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                      const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                      __half* __restrict__ c, int k, int l, long long rows,
                      long long b_batch_stride, long long sfb_batch_stride) {
  extern __shared__ __align__(128) uint8_t ring_smem[];
  WarpRing& ring = *reinterpret_cast<WarpRing*>(ring_smem);
  const int lane = threadIdx.x;
  if (lane == 0) {
    for (int i = 0; i < NSTAGES; ++i) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&ring.full[i])) : "memory");
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncwarp();
  // A is rows * K/2 bytes, a multiple of 16; SFA an eighth of it, a multiple of 16 (rows is a
  // multiple of 128). The last piece is whatever is left of both.
  const long long a_bytes = rows * (k / 2);
  const long long pieces = (a_bytes + PIECE_BYTES - 1) / PIECE_BYTES;
  const long long first = blockIdx.x, stride = gridDim.x;
  const long long count = first < pieces ? (pieces - first + stride - 1) / stride : 0;
  auto issue = [&](long long i, int slot) {
    if (lane == 0) {
      const long long start = (first + i * stride) * PIECE_BYTES;
      const uint32_t bytes = static_cast<uint32_t>(a_bytes - start < PIECE_BYTES ? a_bytes - start : PIECE_BYTES);
      mbar_expect_tx(&ring.full[slot], bytes + bytes / 8);
      bulk_copy(ring.stage[slot].a, a + start, bytes, &ring.full[slot]);
      bulk_copy(ring.stage[slot].sfa, sfa + start / 8, bytes / 8, &ring.full[slot]);
    }
  };
  for (int s = 0; s < NSTAGES && s < count; ++s) issue(s, s);
  uint32_t fold = 0, parity = 0;
  int slot = 0;
  for (long long s = 0; s < count; ++s) {
    mbar_wait(&ring.full[slot], parity);
    fold ^= reinterpret_cast<const uint32_t*>(ring.stage[slot].a)[lane];
    __syncwarp();
    if (s + NSTAGES < count) issue(s + NSTAGES, slot);
    if (++slot == NSTAGES) {
      slot = 0;
      parity ^= 1;
    }
  }
  // One batch's B row (K/2 bytes, a multiple of 32) and SFB row (K/16 bytes, a multiple of 4);
  // the grid has at least L warps, so every batch's are read.
  const long long batch = blockIdx.x % l;
  const uint4* b_row = reinterpret_cast<const uint4*>(b + batch * b_batch_stride);
  for (int i = lane; i < k / 32; i += 32) {
    const uint4 v = __ldg(b_row + i);
    fold ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  const uint32_t* sfb_row = reinterpret_cast<const uint32_t*>(sfb + batch * sfb_batch_stride);
  for (int i = lane; i < k / 64; i += 32) fold ^= __ldg(sfb_row + i);
  // Every c element is written; the fold decides only whether to 0 or 1, which it never does.
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  for (long long i = static_cast<long long>(blockIdx.x) * 32 + lane; i < rows; i += gridDim.x * 32LL) c[i] = out;
}

static long long resident_warps() {
  static long long resident = 0;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaFuncSetAttribute(read_bulk_copy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, sizeof(WarpRing));
    cudaFuncSetAttribute(read_bulk_copy_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                         cudaSharedmemCarveoutMaxShared);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_bulk_copy_kernel, 32, sizeof(WarpRing));
    resident = static_cast<long long>(sms) * (per_sm > 0 ? per_sm : 1);
  }
  return resident;
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  const long long rows = static_cast<long long>(m) * l, resident = resident_warps();
  const long long pieces = (rows * (k / 2) + PIECE_BYTES - 1) / PIECE_BYTES;
  long long grid = pieces < resident ? pieces : resident;
  if (grid < l) grid = l;  // a warp for each batch's B row
  read_bulk_copy_kernel<<<static_cast<unsigned>(grid), 32, sizeof(WarpRing), stream>>>(
      a, b, sfa, sfb, c, k, l, rows, b_batch_stride, sfb_batch_stride);
  return static_cast<int>(cudaGetLastError());
}
