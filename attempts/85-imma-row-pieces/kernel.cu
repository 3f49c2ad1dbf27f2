// 85 imma-row-pieces: 84's products (int8 IMMA on 32-row tiles, 18's decode) with A and its scales
// brought into shared memory by the copy engine, row by row, instead of loaded by the lanes. 84's
// loads put 64 bytes of each of 8 rows in one instruction and a warp's 32 rows side by side, the
// scattered order the row-locality probe put far from the floor; its profile on the H200 waits on
// them (long_scoreboard about 70% of the stalls, a third of the issue slots used, DRAM under half
// its peak). Here a block is a tile's 32 rows over a piece of K of at most 1 KB a row: one bulk
// copy a row for A and one for its scales, each a run of the row end to end, as the floor's
// bulk-copy strategy reads; the bytes on their way hold no registers. The block's warps then take
// the piece's 64-byte chunks in turn and read their fragments from shared memory at the lanes'
// places of 84 (rows padded so that a load touches each bank once). The GPU's block scheduler is
// the pipeline, as in 82: a block copies, multiplies and exits. Pieces of one tile are the parts of
// 84 (the last block of a tile adds their row sums in part order: bitwise repeatable); the parts
// are now as many as the piece size and three waves of blocks ask for.
// Both targets build this int8 code: the sm_100a build does not use Blackwell's e2m1 conversion.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

constexpr int MMA_ROWS = 16;              // the mma's M: lane (g, t) holds rows g and g + 8
constexpr int TILE_ROWS = 2 * MMA_ROWS;   // two mma tiles a warp share each decoded chunk of B
constexpr int LANE_ROWS = TILE_ROWS / 8;  // rows g, g + 8, g + 16, g + 24
constexpr int CHUNK_K = 128;              // elements per row per chunk: 64 bytes, 16 per lane, 8 scale blocks
constexpr int PIECE_CHUNKS = 16;          // a block's piece of K: 1 KB of each row, 32 KB of A
constexpr int WARPS = 4;                  // a block's warps; warp w takes the piece's chunks w, w + 4, ...
constexpr int MIN_WAVES = 3;              // parts enough for this many waves of blocks (a guess, not tuned)
// Shared-memory rows: A's 1 KB padded to 1088 bytes, so that rows g and g + 1 (a load's 8-lane
// phase: 4 lanes of 16 bytes each) fall in opposite halves of the 32 banks. A row's scales are
// copied from the 16-byte boundary at or below their first byte (the copy engine moves 16-byte
// units): at most 160 bytes, padded to 176 (rows 48 bytes apart modulo 128).
constexpr int A_ROW_BYTES = PIECE_CHUNKS * CHUNK_K / 2 + 64;
constexpr int SFA_ROW_BYTES = PIECE_CHUNKS * CHUNK_K / 16 + 48;

__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
  return d;
}

// Twice the e2m1 magnitude for EEM = 0..7 (0, 1, 2, 3, 4, 6, 8, 12) and its negation, as the 8
// bytes of two prmt sources. With a nibble SEEM as prmt selector, S = 1 selects "replicate the
// sign of the chosen byte", which is 0 for the magnitude table: the look-up keeps only the
// non-negative elements. XOR-ing the signs first keeps only the negative ones.
constexpr uint32_t kMagLo = 0x03020100u, kMagHi = 0x0C080604u;
constexpr uint32_t kNegLo = 0xFDFEFF00u, kNegHi = 0xF4F8FAFCu;

// A: the four nibbles in the low 16 bits of `sel` -> 2|v| of the non-negative ones as int8 (0 for
// the negative ones); applied to sel ^ 0x8888, 2|v| of the negative ones. mag_lo is kMagLo held in
// a register (see the kernel).
__device__ __forceinline__ uint32_t a_nonneg(uint32_t mag_lo, uint32_t sel) {
  return prmt(mag_lo, kMagHi, sel);
}

// B: the four nibbles in the low 16 bits of `sel` -> 2v as signed int8, and -2v.
__device__ __forceinline__ void b_signed(uint32_t sel, uint32_t& plus, uint32_t& minus) {
  const uint32_t mag = sel & 0x7777u;
  const uint32_t pos = prmt(kMagLo, kMagHi, mag);
  const uint32_t neg = prmt(kNegLo, kNegHi, mag);
  const uint32_t pick = ((sel >> 1) & 0x4444u) | 0x3210u;  // byte i from pos, or from neg if S
  plus = prmt(pos, neg, pick);
  minus = prmt(neg, pos, pick);
}

// Two e4m3 in the low 16 bits -> two floats (one hardware cvt to f16x2, exact).
__device__ __forceinline__ float2 e4m3x2_to_float2(uint32_t two) {
  uint32_t h2;
  asm("{\n.reg .b16 lo, hi;\nmov.b32 {lo, hi}, %1;\ncvt.rn.f16x2.e4m3x2 %0, lo;\n}\n" : "=r"(h2) : "r"(two));
  return __half22float2(*reinterpret_cast<const __half2*>(&h2));
}

// d += A (16 x 32 int8, rows g and g + 8 in a0/a2 and a1/a3) * B (32 x 8 int8, column g in b0/b1).
__device__ __forceinline__ void imma(int (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                     uint32_t b0, uint32_t b1) {
  asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// L2 evict_first for A and SFA (41): they are read once, and in GPU MODE's timing L2 is cleared by
// writing, so each line they displace is a dirty line written back during the call.
__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

// The block's copies complete on one mbarrier, which counts their arrivals and bytes (82's helpers).
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(arrivals) : "memory");
}
// One of the phase's arrivals, expecting `bytes` more from the copies completing on bar.
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
// `bytes` (a multiple of 16) from global to shared memory by the copy engine, under the L2
// evict_first policy, completion counted on bar. A CTA's own shared address is a valid
// shared::cluster address (no cluster is launched).
__device__ __forceinline__ void bulk_copy(void* dst, const uint8_t* src, uint32_t bytes, uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
               ::"r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar)), "l"(policy_evict_first())
               : "memory");
}

// One chunk of the lane's operands (84's loads, here from shared memory); zeros past K (the upper
// half of a half chunk) and, for B, in the lanes whose column takes no block (beta not 0 or 1).
struct ChunkLoads {
  uint4 a[LANE_ROWS];          // rows g + 8r
  uint32_t sfa[LANE_ROWS];     // two e4m3 scales each, in the low 16 bits
  uint2 b;
  uint32_t sfb;
};

// The chunk's products, two mma tiles (rows g, g + 8 and g + 16, g + 24) against one decode of B.
// K slots are virtual (a dot product is invariant under one permutation of A and B alike), so each
// lane feeds its own bytes: the non-negative magnitudes of 4 elements in a0/a1 against +2b, the
// negative ones in a2/a3 against -2b. Column 2t + beta carries B's block beta of lane t's slice
// (from B's lane g = 2t + beta; the other lanes hold zeros). The words of block 0 accumulate in
// d[.][0] and those of block 1 in d[.][1], so column 2t of d[.][0] and column 2t + 1 of d[.][1]
// hold 4x the dot products of exactly the two blocks whose scales the lane loaded (int32, exact);
// their other column, never read, is what masking B per block would have zeroed. Each is scaled in
// f32 by sfa * sfb / 4.
__device__ __forceinline__ void chunk_dot(uint32_t mag_lo, const ChunkLoads& ch, float (&acc)[LANE_ROWS]) {
  uint32_t plus[2][2], minus[2][2];  // [word of the block][half word]
  b_signed(ch.b.x, plus[0][0], minus[0][0]);
  b_signed(ch.b.x >> 16, plus[0][1], minus[0][1]);
  b_signed(ch.b.y, plus[1][0], minus[1][0]);
  b_signed(ch.b.y >> 16, plus[1][1], minus[1][1]);
  float2 sb = e4m3x2_to_float2(ch.sfb);
  sb.x *= 0.25f;  // the int8 operands are twice the e2m1 values
  sb.y *= 0.25f;
  // One mma tile after the other: its A words and fragments are dead before the next one's begin.
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const uint32_t lo4[4] = {ch.a[2 * h].x, ch.a[2 * h].y, ch.a[2 * h].z, ch.a[2 * h].w};
    const uint32_t hi4[4] = {ch.a[2 * h + 1].x, ch.a[2 * h + 1].y, ch.a[2 * h + 1].z, ch.a[2 * h + 1].w};
    int d[2][4] = {};  // [scale block][fragment]
#pragma unroll
    for (int w = 0; w < 4; ++w) {
      const uint32_t lo = lo4[w], hi = hi4[w];
      const uint32_t lo_neg = lo ^ 0x88888888u, hi_neg = hi ^ 0x88888888u;
      imma(d[w / 2], a_nonneg(mag_lo, lo), a_nonneg(mag_lo, hi), a_nonneg(mag_lo, lo_neg), a_nonneg(mag_lo, hi_neg),
           plus[w & 1][0], minus[w & 1][0]);
      // The upper nibbles come down by a multiply-high by 2^16, on the FMA pipe (76's reason).
      imma(d[w / 2], a_nonneg(mag_lo, __umulhi(lo, 1u << 16)), a_nonneg(mag_lo, __umulhi(hi, 1u << 16)),
           a_nonneg(mag_lo, __umulhi(lo_neg, 1u << 16)), a_nonneg(mag_lo, __umulhi(hi_neg, 1u << 16)),
           plus[w & 1][1], minus[w & 1][1]);
    }
    const float2 sa_lo = e4m3x2_to_float2(ch.sfa[2 * h]), sa_hi = e4m3x2_to_float2(ch.sfa[2 * h + 1]);
    acc[2 * h] = fmaf(static_cast<float>(d[0][0]), sa_lo.x * sb.x, acc[2 * h]);
    acc[2 * h] = fmaf(static_cast<float>(d[1][1]), sa_lo.y * sb.y, acc[2 * h]);
    acc[2 * h + 1] = fmaf(static_cast<float>(d[0][2]), sa_hi.x * sb.x, acc[2 * h + 1]);
    acc[2 * h + 1] = fmaf(static_cast<float>(d[1][3]), sa_hi.y * sb.y, acc[2 * h + 1]);
  }
}

// The chunks of K: whole ones, then a half chunk if K mod 128 = 64.
__host__ __device__ __forceinline__ int chunks_of(int k) { return (k + CHUNK_K - 1) / CHUNK_K; }

// The workspace of a launch in parts: a counter per tile, then each tile's part sums.
struct Workspace {
  unsigned* counters;
  float* part_sums;  // [tile][part][row]
};

// A block's shared memory: its rows' piece of A and of their scales as copied, the warps' row sums.
struct __align__(128) Piece {
  uint8_t a[TILE_ROWS][A_ROW_BYTES];
  uint8_t sfa[TILE_ROWS][SFA_ROW_BYTES];
  float warp_sums[WARPS][TILE_ROWS];
  uint64_t full;
  bool last_part;
};

// Block (tile, batch, part): the tile's 32 rows over part p's chunks [p * q + min(p, rem), ... +
// q + (p < rem)), at most PIECE_CHUNKS. Warp 0's lanes copy A's rows, warp 1's their scales, one
// bulk copy a row; every warp reads its chunks' B (8 bytes a lane, from L2) before the copies land.
// Its warps' sums are added in shared memory in warp order; with one part the block writes C, with
// several it leaves the tile's row sums in the workspace and the last to finish (a ticket from the
// tile's counter) adds the parts in part order, writes C, and sets the sums and the counter back
// to zero (84's). Bitwise repeatable: every sum has a fixed order.
__global__ void __launch_bounds__(WARPS * 32)
nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k,
                  long long b_batch_stride, long long sfb_batch_stride,
                  int batch0, int q, int rem, Workspace ws) {
  __shared__ Piece s;
  const int warp = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);  // warp-uniform, as in 70
  const int lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const int beta = g - 2 * t;  // column g takes block 2t + beta of lane t's slice when beta is 0 or 1
  const bool b_lane = beta == 0 || beta == 1;
  const unsigned batch = batch0 + blockIdx.y;
  const long long tile = static_cast<long long>(batch) * (m / TILE_ROWS) + blockIdx.x;
  const long long row0 = tile * TILE_ROWS;
  const int part = blockIdx.z;
  const int k0 = (part * q + min(part, rem)) * CHUNK_K;
  const int chunks = q + (part < rem);
  const int k_end = min(k0 + chunks * CHUNK_K, k);

  if (threadIdx.x == 0) {
    mbar_init(&s.full, 2 * TILE_ROWS);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (warp == 0) {
    const uint32_t bytes = (k_end - k0) / 2;  // a multiple of 32
    mbar_expect_tx(&s.full, bytes);
    bulk_copy(s.a[lane], a + (row0 + lane) * (k / 2) + k0 / 2, bytes, &s.full);
  } else if (warp == 1) {
    // From the 16-byte boundary at or below the row's first scale to the one at or above its
    // last: inside SFA, whose M * K / 16 * L bytes are a multiple of 16 from an aligned start.
    const uint8_t* row = sfa + (row0 + lane) * (k / 16);
    const uintptr_t first = reinterpret_cast<uintptr_t>(row + k0 / 16) & ~uintptr_t{15};
    const uintptr_t end = (reinterpret_cast<uintptr_t>(row + k_end / 16) + 15) & ~uintptr_t{15};
    mbar_expect_tx(&s.full, static_cast<uint32_t>(end - first));
    bulk_copy(s.sfa[lane], reinterpret_cast<const uint8_t*>(first), static_cast<uint32_t>(end - first), &s.full);
  }

  // The lane's chunks of B, read while the copies are on their way (84's columns: column g takes
  // block 2t + beta of lane t's slice).
  constexpr int WARP_CHUNKS = PIECE_CHUNKS / WARPS;
  const uint8_t* b_col = b + batch * b_batch_stride + k0 / 2 + 16 * t + 8 * (beta & 1);
  const uint8_t* sfb_lane = sfb + batch * sfb_batch_stride + k0 / 16 + 2 * t;
  uint2 b_chunk[WARP_CHUNKS];
  uint32_t sfb_chunk[WARP_CHUNKS];
#pragma unroll
  for (int i = 0; i < WARP_CHUNKS; ++i) {
    const int chunk = warp + WARPS * i;
    const bool valid = chunk < chunks && k0 + chunk * CHUNK_K + 32 * t < k;
    b_chunk[i] = valid && b_lane ? __ldg(reinterpret_cast<const uint2*>(b_col + chunk * (CHUNK_K / 2)))
                                 : make_uint2(0, 0);
    sfb_chunk[i] = valid ? __ldg(reinterpret_cast<const unsigned short*>(sfb_lane + chunk * (CHUNK_K / 16))) : 0;
  }
  // Where each of the lane's rows' scales begin in shared memory (their copies' skew).
  const uint8_t* a_rows[LANE_ROWS];
  const uint8_t* sfa_rows[LANE_ROWS];
#pragma unroll
  for (int r = 0; r < LANE_ROWS; ++r) {
    const int row = g + 8 * r;
    const int skew = static_cast<int>(reinterpret_cast<uintptr_t>(sfa + (row0 + row) * (k / 16) + k0 / 16) & 15);
    a_rows[r] = s.a[row] + 16 * t;
    sfa_rows[r] = s.sfa[row] + skew + 2 * t;
  }

  uint32_t lane_id;  // mag_lo as in 70's kernel: kMagLo in a register ptxas does not rematerialize
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);
  float acc[LANE_ROWS] = {};
  mbar_wait(&s.full, 0);
#pragma unroll
  for (int i = 0; i < WARP_CHUNKS; ++i) {
    const int chunk = warp + WARPS * i;
    if (chunk < chunks) {
      const bool valid = k0 + chunk * CHUNK_K + 32 * t < k;
      ChunkLoads ch;
#pragma unroll
      for (int r = 0; r < LANE_ROWS; ++r) {
        ch.a[r] = valid ? *reinterpret_cast<const uint4*>(a_rows[r] + chunk * (CHUNK_K / 2)) : make_uint4(0, 0, 0, 0);
        ch.sfa[r] = valid ? *reinterpret_cast<const unsigned short*>(sfa_rows[r] + chunk * (CHUNK_K / 16)) : 0u;
      }
      ch.b = b_chunk[i];
      ch.sfb = sfb_chunk[i];
      chunk_dot(mag_lo, ch, acc);
    }
  }

  // Row sums: the four lanes of a row group, then the warps in a fixed order.
#pragma unroll
  for (int r = 0; r < LANE_ROWS; ++r) {
    acc[r] += __shfl_xor_sync(0xFFFFFFFFu, acc[r], 1);
    acc[r] += __shfl_xor_sync(0xFFFFFFFFu, acc[r], 2);
  }
  if (t == 0) {
#pragma unroll
    for (int r = 0; r < LANE_ROWS; ++r) s.warp_sums[warp][g + 8 * r] = acc[r];
  }
  __syncthreads();
  const int row = threadIdx.x;
  float total = 0.0f;
  if (row < TILE_ROWS) {
    total = s.warp_sums[0][row];
#pragma unroll
    for (int w = 1; w < WARPS; ++w) total += s.warp_sums[w][row];
  }
  const int parts = gridDim.z;
  if (parts == 1) {
    if (row < TILE_ROWS) c[row0 + row] = __float2half_rn(total);
    return;
  }
  float* const sums = ws.part_sums + tile * parts * TILE_ROWS;
  if (row < TILE_ROWS) {
    sums[part * TILE_ROWS + row] = total;
    __threadfence();  // the sums are visible GPU-wide before the ticket is taken
  }
  __syncthreads();
  if (threadIdx.x == 0) s.last_part = atomicAdd(&ws.counters[tile], 1u) == static_cast<unsigned>(parts - 1);
  __syncthreads();
  if (!s.last_part) return;
  // The sums are zeroed as they are read, and the counter after them: a later call of another
  // shape lays its counters over other bytes of the workspace, which must then be zeros too.
  if (row < TILE_ROWS) {
    __threadfence();
    float sum = 0.0f;
    for (int p = 0; p < parts; ++p) {
      sum += __ldcg(sums + p * TILE_ROWS + row);  // L2, not a stale L1 line
      sums[p * TILE_ROWS + row] = 0.0f;
    }
    c[row0 + row] = __float2half_rn(sum);
  }
  if (threadIdx.x == 0) ws.counters[tile] = 0;
}

static long long resident_blocks() {
  static long long resident = 0;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_kernel, WARPS * 32, 0);
    resident = static_cast<long long>(sms) * (per_sm > 0 ? per_sm : 1);
  }
  return resident;
}

// Dispatch: parts enough that no piece is longer than PIECE_CHUNKS, raised (up to one chunk a
// part) until the grid is MIN_WAVES waves of the blocks the GPU holds at once.
static long long parts_of(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const long long chunks = chunks_of(k);
  long long parts = (chunks + PIECE_CHUNKS - 1) / PIECE_CHUNKS;
  long long fill = (MIN_WAVES * resident_blocks() + tiles - 1) / tiles;
  if (fill > chunks) fill = chunks;
  return parts > fill ? parts : fill;
}

extern "C" size_t nvfp4_gemv_workspace_bytes(int m, int k, int l) {
  const long long parts = parts_of(m, k, l);
  if (parts == 1) return 0;
  const size_t tiles = static_cast<size_t>(m) * l / TILE_ROWS;
  const size_t counter_bytes = (tiles * sizeof(unsigned) + 15) / 16 * 16;
  return counter_bytes + tiles * parts * TILE_ROWS * sizeof(float);
}

extern "C" int nvfp4_gemv_with_workspace(const uint8_t* a, const uint8_t* b, const uint8_t* sfa,
                                         const uint8_t* sfb, __half* c, int m, int k, int l,
                                         long long b_batch_stride, long long sfb_batch_stride,
                                         void* workspace, cudaStream_t stream) {
  // TILE_ROWS divides M (a multiple of 128): no tile spans batches.
  constexpr int kMaxGridYZ = 65535;  // the grid's second (batch) and third (part) dimensions
  const long long parts = parts_of(m, k, l);
  if (parts > kMaxGridYZ) return static_cast<int>(cudaErrorNotSupported);  // K above 2^27
  const int q = static_cast<int>(chunks_of(k) / parts), rem = static_cast<int>(chunks_of(k) % parts);
  const size_t tiles = static_cast<size_t>(m) * l / TILE_ROWS;
  Workspace ws;
  ws.counters = static_cast<unsigned*>(workspace);
  ws.part_sums = reinterpret_cast<float*>(static_cast<char*>(workspace) + (tiles * sizeof(unsigned) + 15) / 16 * 16);
  for (int batch0 = 0; batch0 < l; batch0 += kMaxGridYZ) {
    const int batches = l - batch0 < kMaxGridYZ ? l - batch0 : kMaxGridYZ;
    const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(batches),
                    static_cast<unsigned>(parts));
    nvfp4_gemv_kernel<<<grid, WARPS * 32, 0, stream>>>(a, b, sfa, sfb, c, m, k, b_batch_stride,
                                                       sfb_batch_stride, batch0, q, rem, ws);
  }
  return static_cast<int>(cudaGetLastError());
}
