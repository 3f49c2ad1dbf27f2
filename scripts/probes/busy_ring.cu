// Probe "busy-ring": 49's ring of 4-row tensor copies with a stand-in for the math between a
// stage's arrival and the next wait, copied either by the warps that compute (49, 50) or by a
// producer warp that does nothing else. The copy-engine probe found 49's copies alone within a few
// percent of the floor; 50, the same copies with the math, is about a fifth slower. This probe asks
// whether the math's issue slots alone cost that, and whether a copier that does not compute wins
// it back (closing-the-gap, section 14).
//
// A consumer warp owns BOX_ROWS = 4 rows over a contiguous part of K (K split S ways, as 43 and
// the copy-engine probe split it) and steps through it a stage at a time: a stage is one tensor
// box of its 4 rows x 512 bytes of A and the box of their scales, as in 49 and 50. Per stage, each
// lane reads its 16 bytes of each row and 2 bytes of each row's scales from shared memory (50's
// reads) and then runs WORK rounds of the stand-in: per round, for each of the 16 words it read, a
// LOP3, a PRMT and a dp4a. ptxas puts back the PRMT's table constant before each PRMT (an IMAD.MOV),
// so a round is 69 instructions, not the 48 this probe was written for: WORK = 4 (about 360 a stage
// with the reads and copies) is the count of 43's and 50's loops, WORK = 8 about 1.5 times it
// (closing-the-gap, section 14, from the profile). WORK = 0 leaves only the reads.
//   PRODUCER = 0: the consumer's lane 0 refills a slot after the warp has read it, before the
//                 stand-in (49's order). A block is one consumer warp.
//   PRODUCER = 1: a block is CONSUMERS consumer warps (their tiles consecutive, the same part of
//                 K) and one producer warp whose lane 0 issues every copy of the block: for each
//                 stage, for each consumer, it waits for the slot to be read (an "empty" barrier
//                 the consumer's lane 0 arrives on) and refills it.
// CONSUMERS_PER_SM caps the consumer warps an SM holds (through unused shared memory), so both
// organizations run the same number of computing warps. B is not read. K a multiple of 256.
// Timed beside the floor, 43 and 50 by scripts/probes/busy_ring.py; outputs in
// results/probes/busy-ring-<gpu>.csv.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cudaTypedefs.h>  // CUtensorMap, PFN_cuTensorMapEncodeTiled
#include "nvfp4_gemv.h"    // the entry point this file defines (contract 1)

#ifndef PRODUCER
#define PRODUCER 0
#endif
#ifndef CONSUMERS
#define CONSUMERS 8        // consumer warps a block with a producer
#endif
#ifndef CONSUMERS_PER_SM
#define CONSUMERS_PER_SM 32
#endif
#ifndef NSTAGES
#define NSTAGES 2
#endif
#ifndef WORK
#define WORK 8             // stand-in rounds a stage (48 instructions each)
#endif

constexpr int BOX_ROWS = 4, BOX_BYTES = 512;
constexpr int BLOCK_CONSUMERS = PRODUCER ? CONSUMERS : 1;
constexpr int BLOCK_THREADS = 32 * (BLOCK_CONSUMERS + PRODUCER);
struct __align__(128) Stage {
  uint8_t a[BOX_ROWS][BOX_BYTES];
  uint8_t sfa[BOX_ROWS][BOX_BYTES / 8];
};
struct __align__(128) WarpRing {
  Stage stage[NSTAGES];
  uint64_t full[NSTAGES];   // the stage's copies have landed
  uint64_t empty[NSTAGES];  // the consumer has read the stage (PRODUCER only)
};
constexpr uint32_t kMagic = 0x9E3779B9u;

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
__device__ __forceinline__ void mbar_init(uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
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
__device__ __forceinline__ void tensor_copy(void* dst, const CUtensorMap& map, int x, int y, uint64_t* bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint"
               " [%0], [%1, {%2, %3}], [%4], %5;"
               ::"r"(smem_addr(dst)), "l"(reinterpret_cast<uint64_t>(&map)), "r"(x), "r"(y), "r"(smem_addr(bar)),
               "l"(policy_evict_first())
               : "memory");
}
__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t d;
  asm volatile("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
  return d;
}

// The stand-in: WORK rounds over the 16 words the lane read (4 rows x 16 bytes), each word a LOP3,
// a PRMT (and the IMAD.MOV of its table) and a dp4a into one of 8 sums (so the chains are as independent as 50's). The round
// number enters every LOP3, so no round can be folded into another.
__device__ __forceinline__ void stand_in(const uint4 (&rows)[BOX_ROWS], const uint32_t (&scales)[BOX_ROWS],
                                         int (&sums)[8]) {
#pragma unroll 1
  for (uint32_t round = 0; round < WORK; ++round) {
#pragma unroll
    for (int r = 0; r < BOX_ROWS; ++r) {
      const uint32_t w[4] = {rows[r].x, rows[r].y, rows[r].z, rows[r].w};
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        int& sum = sums[(r * 4 + i) % 8];
        sum = __dp4a(static_cast<int>(prmt(0x03020100u, scales[r], w[i] ^ round)), static_cast<int>(w[i]), sum);
      }
    }
  }
}

__global__ void __launch_bounds__(BLOCK_THREADS)
busy_ring_kernel(__half* __restrict__ c, int k, long long rows, int splits,
                 const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_sfa) {
  extern __shared__ __align__(128) uint8_t ring_smem[];
  WarpRing* const rings = reinterpret_cast<WarpRing*>(ring_smem);
  const int warp = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0), lane = threadIdx.x % 32;
  // Block b: consumers of tiles (b / splits) * BLOCK_CONSUMERS + w, all over part b % splits of K.
  const long long tile0 = static_cast<long long>(blockIdx.x / splits) * BLOCK_CONSUMERS;
  const int split = blockIdx.x % splits;
  const int columns = k / 2 / BOX_BYTES;
  const int first = static_cast<int>(static_cast<long long>(split) * columns / splits);
  const int count = static_cast<int>(static_cast<long long>(split + 1) * columns / splits) - first;
  if (threadIdx.x == 0) {
    for (int w = 0; w < BLOCK_CONSUMERS; ++w) {
      for (int i = 0; i < NSTAGES; ++i) {
        mbar_init(&rings[w].full[i]);
        mbar_init(&rings[w].empty[i]);
      }
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  // Stage i of consumer w into its slot: box column first + i of its 4 rows.
  auto issue = [&](int w, int i, int slot) {
    WarpRing& ring = rings[w];
    const int x = (first + i) * (BOX_BYTES / 8), y = static_cast<int>((tile0 + w) * BOX_ROWS);
    mbar_expect_tx(&ring.full[slot], sizeof(Stage));
    tensor_copy(ring.stage[slot].a, map_a, x, y, &ring.full[slot]);
    tensor_copy(ring.stage[slot].sfa, map_sfa, x, y, &ring.full[slot]);
  };
  if (PRODUCER && warp == BLOCK_CONSUMERS) {  // the producer: lane 0 copies, the others leave
    if (lane == 0) {
      for (int i = 0; i < count; ++i) {
        const int slot = i % NSTAGES;
        for (int w = 0; w < BLOCK_CONSUMERS; ++w) {
          if (i >= NSTAGES) mbar_wait(&rings[w].empty[slot], (i / NSTAGES - 1) & 1);
          issue(w, i, slot);
        }
      }
    }
    return;
  }
  WarpRing& ring = rings[warp];
  if (!PRODUCER && lane == 0) {
    for (int s = 0; s < NSTAGES && s < count; ++s) issue(warp, s, s);
  }
  int sums[8] = {};
  uint32_t reads = 0;  // every word read, so that no read is dropped when WORK = 0
  uint32_t parity = 0;
  int slot = 0;
  for (int s = 0; s < count; ++s) {
    mbar_wait(&ring.full[slot], parity);
    const Stage& st = ring.stage[slot];
    uint4 a_rows[BOX_ROWS];
    uint32_t sfa_rows[BOX_ROWS];
#pragma unroll
    for (int r = 0; r < BOX_ROWS; ++r) {
      sfa_rows[r] = *reinterpret_cast<const unsigned short*>(&st.sfa[r][2 * lane]);
      a_rows[r] = *reinterpret_cast<const uint4*>(&st.a[r][16 * lane]);
      reads ^= sfa_rows[r] ^ a_rows[r].x ^ a_rows[r].y ^ a_rows[r].z ^ a_rows[r].w;
    }
    __syncwarp();
    if (lane == 0) {
      if (PRODUCER) {
        mbar_arrive(&ring.empty[slot]);
      } else if (s + NSTAGES < count) {
        issue(warp, s + NSTAGES, slot);
      }
    }
    stand_in(a_rows, sfa_rows, sums);
    if (++slot == NSTAGES) {
      slot = 0;
      parity ^= 1;
    }
  }
  uint32_t fold = reads;
#pragma unroll
  for (int i = 0; i < 8; ++i) fold ^= static_cast<uint32_t>(sums[i]);
  // Every c element is written (by the consumers of each tile's first part); the fold decides
  // only whether to 0 or 1, which it never does.
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  if (split == 0 && lane < BOX_ROWS) c[(tile0 + warp) * BOX_ROWS + lane] = out;
}

static bool encode_rows_map(CUtensorMap* map, const uint8_t* base, CUtensorMapDataType type, int element_bytes,
                            long long rows, int row_bytes, int box_bytes) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (encode == nullptr) {
    cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&encode), 12000,
                                         cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      encode = nullptr;
      return false;
    }
  }
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(row_bytes / element_bytes), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(row_bytes)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_bytes / element_bytes), BOX_ROWS};
  const cuuint32_t steps[2] = {1, 1};
  return encode(map, type, 2, const_cast<uint8_t*>(base), dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// A block's shared memory: its rings, or more, so that an SM holds at most CONSUMERS_PER_SM
// consumer warps (228 KB an SM, 1 KB of it reserved a block).
constexpr size_t kRingBytes = sizeof(WarpRing) * BLOCK_CONSUMERS;
constexpr size_t kCapBytes = 228 * 1024 / (CONSUMERS_PER_SM / BLOCK_CONSUMERS) - 1024;
constexpr size_t kBlockBytes = kRingBytes > kCapBytes ? kRingBytes : kCapBytes;
static_assert(kBlockBytes <= 227 * 1024, "a block's rings must fit its shared memory");

static long long resident_consumers() {
  static long long resident = 0;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaFuncSetAttribute(busy_ring_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBlockBytes);
    cudaFuncSetAttribute(busy_ring_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                         cudaSharedmemCarveoutMaxShared);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, busy_ring_kernel, BLOCK_THREADS, kBlockBytes);
    resident = static_cast<long long>(sms) * (per_sm > 0 ? per_sm : 1) * BLOCK_CONSUMERS;
  }
  return resident;
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  if (k % 256 != 0) return static_cast<int>(cudaErrorInvalidValue);  // see the header
  const long long rows = static_cast<long long>(m) * l, tiles = rows / BOX_ROWS;
  const long long columns = k / 2 / BOX_BYTES;  // windows of 1024 elements: whole on the shapes it runs
  long long s = resident_consumers() / tiles;
  s = s < 1 ? 1 : s > columns ? columns : s;
  const int splits = static_cast<int>(s);
  CUtensorMap map_a = {}, map_sfa = {};
  // Re-encoded every call: a probe's host time is not what it measures (calls are queued ahead).
  if (!encode_rows_map(&map_a, a, CU_TENSOR_MAP_DATA_TYPE_UINT64, 8, rows, k / 2, BOX_BYTES) ||
      !encode_rows_map(&map_sfa, sfa, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, rows, k / 16, BOX_BYTES / 8)) {
    return static_cast<int>(cudaErrorInvalidValue);
  }
  const long long grid = tiles / BLOCK_CONSUMERS * splits;  // tiles: a multiple of 32
  busy_ring_kernel<<<static_cast<unsigned>(grid), BLOCK_THREADS, kBlockBytes, stream>>>(
      c, k, rows, splits, map_a, map_sfa);
  return static_cast<int>(cudaGetLastError());
}
