// Probe "copy-engine": 49's reads without its math, and the same bytes read by the copy engine in
// other shapes of copy, to see what rate the TMA delivers A and its scales at on Hopper, and on
// what it depends. 49 (a ring of 4-row tensor copies per warp on 43's loop) was slower than 43's
// register loads on the H100 with DRAM further from its peak (attempts/49-warp-copy-ring).
// Copies only: each lane XOR-folds one word of each landed stage, and the fold decides nothing
// (c is written as zeros).
//
// A block is one warp with a ring of NSTAGES stages in dynamic shared memory; lane 0 issues a
// stage's copies on the stage's mbarrier, the warp waits for it, folds, and lane 0 refills the
// slot with the stage NSTAGES on (49's ring). The ring's size alone sets how many warps share an
// SM. What a stage holds:
//   FLAT = 0: a tensor box of BOX_ROWS rows x BOX_BYTES of A and the box of their scales
//             (BOX_ROWS x BOX_BYTES / 8); a warp owns BOX_ROWS rows and steps along them, K split
//             into S contiguous parts so that the grid fills the resident warps (as 43 splits).
//   FLAT = 1: one contiguous piece of BOX_ROWS x BOX_BYTES bytes of A and one of its scales
//             (1/8 of that), by plain bulk copies of the arrays as flat ranges: the floor's order,
//             through the copy engine. Warp w takes pieces w, w + W, ... (W warps in the grid).
// B is not read (1/M of the bytes). Rows of scales must be 16-byte aligned: K a multiple of 256.
// Timed beside the floor by scripts/probes/copy_engine.py; outputs in
// results/probes/copy-engine-<gpu>.csv.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cudaTypedefs.h>  // CUtensorMap, PFN_cuTensorMapEncodeTiled
#include "nvfp4_gemv.h"    // the entry point this file defines (contract 1)

#ifndef FLAT
#define FLAT 0
#endif
#ifndef BOX_ROWS
#define BOX_ROWS 4
#endif
#ifndef BOX_BYTES
#define BOX_BYTES 512      // bytes of a row of A per stage (at most 2048: 256 elements of 8 bytes)
#endif
#ifndef NSTAGES
#define NSTAGES 2
#endif

constexpr int STAGE_A = BOX_ROWS * BOX_BYTES, STAGE_SFA = STAGE_A / 8;
struct __align__(128) Stage {
  uint8_t a[STAGE_A];
  uint8_t sfa[STAGE_SFA];
};
struct __align__(128) WarpRing {
  Stage stage[NSTAGES];
  uint64_t full[NSTAGES];
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
__device__ __forceinline__ void bulk_copy(void* dst, const uint8_t* src, uint32_t bytes, uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
               " [%0], [%1], %2, [%3], %4;"
               ::"r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar)), "l"(policy_evict_first())
               : "memory");
}

// The kernel: stages [first, first + count) of the warp's sequence through its ring. Stage i of
// the sequence is, for FLAT = 0, column (first + i) of the warp's box row `row0`; for FLAT = 1,
// piece first + i * stride of the flat arrays.
__global__ void __launch_bounds__(32)
read_copy_engine_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ sfa, __half* __restrict__ c,
                        int m, int k, long long rows, int splits, long long pieces,
                        const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_sfa) {
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
#if FLAT
  const long long first = blockIdx.x, stride = gridDim.x;
  const long long count = first < pieces ? (pieces - first + stride - 1) / stride : 0;
  auto issue = [&](long long i, int slot) {
    if (lane == 0) {
      const long long piece = first + i * stride;
      mbar_expect_tx(&ring.full[slot], sizeof(Stage));
      bulk_copy(ring.stage[slot].a, a + piece * STAGE_A, STAGE_A, &ring.full[slot]);
      bulk_copy(ring.stage[slot].sfa, sfa + piece * STAGE_SFA, STAGE_SFA, &ring.full[slot]);
    }
  };
#else
  const long long tile = blockIdx.x / splits;
  const int split = blockIdx.x % splits;
  const int row0 = static_cast<int>(tile * BOX_ROWS);
  const int columns = (k / 2 + BOX_BYTES - 1) / BOX_BYTES;  // the last box may run past K: not read
  const int first = static_cast<int>(static_cast<long long>(split) * columns / splits);
  const int count = static_cast<int>(static_cast<long long>(split + 1) * columns / splits) - first;
  auto issue = [&](int i, int slot) {
    if (lane == 0) {
      const int x = (first + i) * (BOX_BYTES / 8);  // A's map counts 8-byte elements, the scales' bytes
      mbar_expect_tx(&ring.full[slot], sizeof(Stage));
      tensor_copy(ring.stage[slot].a, map_a, x, row0, &ring.full[slot]);
      tensor_copy(ring.stage[slot].sfa, map_sfa, x, row0, &ring.full[slot]);
    }
  };
#endif
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
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  for (long long i = static_cast<long long>(blockIdx.x) * 32 + lane; i < rows; i += gridDim.x * 32LL) c[i] = out;
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

static long long resident_warps() {
  static long long resident = 0;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaFuncSetAttribute(read_copy_engine_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, sizeof(WarpRing));
    cudaFuncSetAttribute(read_copy_engine_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                         cudaSharedmemCarveoutMaxShared);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_copy_engine_kernel, 32, sizeof(WarpRing));
    resident = static_cast<long long>(sms) * (per_sm > 0 ? per_sm : 1);
  }
  return resident;
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  if (k % 256 != 0) return static_cast<int>(cudaErrorInvalidValue);  // see the header
  const long long rows = static_cast<long long>(m) * l, resident = resident_warps();
  CUtensorMap map_a = {}, map_sfa = {};
#if FLAT
  const long long pieces = rows * (k / 2) / STAGE_A;  // whole pieces only: the remainder is not read
  const long long grid = pieces < resident ? pieces : resident;
  const int splits = 1;
#else
  const long long pieces = 0, tiles = rows / BOX_ROWS;
  const long long columns = (k / 2 + BOX_BYTES - 1) / BOX_BYTES;
  long long s = resident / tiles;
  s = s < 1 ? 1 : s > columns ? columns : s;
  const int splits = static_cast<int>(s);
  const long long grid = tiles * splits;
  // Re-encoded every call: a probe's host time is not what it measures (calls are queued ahead).
  if (!encode_rows_map(&map_a, a, CU_TENSOR_MAP_DATA_TYPE_UINT64, 8, rows, k / 2, BOX_BYTES) ||
      !encode_rows_map(&map_sfa, sfa, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, rows, k / 16, BOX_BYTES / 8)) {
    return static_cast<int>(cudaErrorInvalidValue);
  }
#endif
  read_copy_engine_kernel<<<static_cast<unsigned>(grid), 32, sizeof(WarpRing), stream>>>(
      a, sfa, c, m, k, rows, splits, pieces, map_a, map_sfa);
  return static_cast<int>(cudaGetLastError());
}
