// 38 double-stage: 37 with two stages per warp: the next unit's copies and scales are issued
// before the current unit's math, so a warp keeps a unit in flight while it computes (37 issued,
// waited and computed in turn). 41 KB of shared memory per block: 5 blocks per SM.
// 37 staged-row-runs: 35 with A read in runs of 256 bytes of a row per load instruction, through
// shared memory. A warp's unit is 4 chunks: each of its 8 copies per lane (cp.async, 16 bytes)
// reads 256 contiguous bytes of each of two rows, and the mma fragments (rows g and g+8 at byte
// 16t of each chunk) are read back from the warp's stage. 35's loads each read 64 bytes of 8 rows;
// the row-runs probe (scripts/probes/) reads the same bytes in whole-row runs much closer to the
// floor. SFA, B and the math are 35's.
// 35 cluster-occupancy: 34 with S chosen so that the split grid's clusters fit in one wave: the
// largest S whose clusters of S blocks the GPU can hold all at once (cudaOccupancyMaxActiveClusters),
// where 34 counted single blocks and clusters of 4 spilled into a second wave.
// 34 cluster-splitk: 26 with the split tiles' partial sums added through distributed shared memory.
// The S blocks of a split tile form one thread block cluster (sm_90): each leaves its 16 row sums
// in its own shared memory, and after a cluster barrier block 0 of the cluster reads the others'
// (distributed shared memory) and adds them in split order. No workspace, no atomic counter, no
// round trip to L2; S is capped at the largest cluster (16). The sm_100a path is 26's (hardware
// e2m1 decode and HMMA), compiled and disassembled, not run: no Blackwell GPU is available.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cooperative_groups.h>
#include "nvfp4_cvt.cuh"   // NVFP4_HW_E2M1: the target has cvt.rn.f16x2.e2m1x2
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

// Launch shape: S blocks per 16-row tile (dispatch below), each block's K range split over
// WARPS_PER_BLOCK warps (chunks dealt round-robin), the warps' partial row sums added in shared
// memory in a fixed order, the blocks' sums through the cluster's shared memory in a fixed order.
#ifndef WARPS_PER_BLOCK
#define WARPS_PER_BLOCK 4
#endif
static_assert(WARPS_PER_BLOCK >= 1 && WARPS_PER_BLOCK <= 32, "WARPS_PER_BLOCK must be 1..32");
constexpr int TILE_ROWS = 16;   // the mma's M: lane (g = lane/4, t = lane%4) holds rows g and g+8
constexpr int CHUNK_K = 128;    // elements per row per warp step: 64 bytes, 16 per lane, 8 scale blocks
constexpr int UNIT_CHUNKS = 4;  // a warp's unit of work: 4 chunks, 256 bytes of each of the 16 rows
// A stage row: the unit's 256 bytes of one row, then 64 unused, so that rows g and g+1 fall in
// different banks when the fragments are read (8 rows x 64 bytes in 4 conflict-free wavefronts).
constexpr int STAGE_ROW_BYTES = UNIT_CHUNKS * CHUNK_K / 2 + 64;

// One K chunk of one tile, one lane's part: its 16 bytes (blocks 2t and 2t+1 of the chunk) of
// rows g and g+8 and their scales.
struct Chunk {
  uint4 a_lo, a_hi;         // rows g and g+8
  uint32_t sfa_lo, sfa_hi;  // two e4m3 scales each, in the low 16 bits
};
// The B side of a chunk, one lane's part (see the column map at tile_dot).
struct BChunk {
  uint2 b;                  // the 8 bytes (one scale block) of B that this lane's mma column owns
  uint32_t sfb;             // the two e4m3 B scales of blocks 2t and 2t+1
};

// A lane's pointers into the current chunk: rows g and g+8 of SFA at this lane's slice, the B
// bytes its column owns, the B scales of its slice.
struct LanePtrs {
  const uint8_t *sfa_lo, *sfa_hi, *b_col, *sfb;
  __device__ __forceinline__ void advance(int chunks) {
    sfa_lo += chunks * (CHUNK_K / 16);
    sfa_hi += chunks * (CHUNK_K / 16);
    b_col += chunks * (CHUNK_K / 2);
    sfb += chunks * (CHUNK_K / 16);
  }
};

// The SFA of the chunk `ahead` chunks past p (its A comes from the stage). valid = false gives
// zeros (the lanes past the end of a last chunk of 64 elements, K = 64 mod 128, or past the end of
// the split): zero A, B and scales add exactly nothing.
__device__ __forceinline__ Chunk load_chunk_scales(const LanePtrs& p, int ahead, bool valid = true) {
  Chunk ch;
  if (valid) {
    const int sf_off = ahead * (CHUNK_K / 16);
    ch.sfa_lo = __ldg(reinterpret_cast<const unsigned short*>(p.sfa_lo + sf_off));
    ch.sfa_hi = __ldg(reinterpret_cast<const unsigned short*>(p.sfa_hi + sf_off));
  } else {
    ch.sfa_lo = ch.sfa_hi = 0;
  }
  return ch;
}

// 16 bytes from global to shared memory without registers (L2 only); src_bytes = 0 fills zeros.
__device__ __forceinline__ void copy16(uint8_t* dst, const uint8_t* src, int src_bytes) {
  const uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(d), "l"(src), "r"(src_bytes)
               : "memory");
}

__device__ __forceinline__ BChunk load_b_chunk(const LanePtrs& p, int ahead, bool valid = true) {
  BChunk ch;
  if (valid) {
    ch.b = __ldg(reinterpret_cast<const uint2*>(p.b_col + ahead * (CHUNK_K / 2)));
    ch.sfb = __ldg(reinterpret_cast<const unsigned short*>(p.sfb + ahead * (CHUNK_K / 16)));
  } else {
    ch.b = make_uint2(0, 0);
    ch.sfb = 0;
  }
  return ch;
}

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
// the negative ones); applied to sel ^ 0x8888, 2|v| of the negative ones.
__device__ __forceinline__ uint32_t a_nonneg(uint32_t sel) { return prmt(kMagLo, kMagHi, sel); }

// B: the four nibbles in the low 16 bits of `sel` -> 2v as signed int8, and -2v.
__device__ __forceinline__ void b_signed(uint32_t sel, uint32_t& plus, uint32_t& minus) {
  const uint32_t mag = sel & 0x7777u;
  const uint32_t pos = prmt(kMagLo, kMagHi, mag);
  const uint32_t neg = prmt(kNegLo, kNegHi, mag);
  const uint32_t pick = ((sel >> 1) & 0x4444u) | 0x3210u;  // byte i from pos, or from neg if S
  plus = prmt(pos, neg, pick);
  minus = prmt(neg, pos, pick);
}

// D += A x B, m16n8k32, int8 in, int32 accumulate. Lane (g, t): a0/a2 row g, a1/a3 row g+8, k
// slots 4t..4t+3 (a0, a1, b0) and 16+4t..16+4t+3 (a2, a3, b1); d0/d1 row g, d2/d3 row g+8,
// columns 2t and 2t+1; b0/b1 are column g.
__device__ __forceinline__ void imma(int (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                     uint32_t b0, uint32_t b1) {
  asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// Two e4m3 in the low 16 bits -> two floats (one hardware cvt to f16x2, exact).
__device__ __forceinline__ float2 e4m3x2_to_float2(uint32_t two) {
  uint32_t h2;
  asm("{\n.reg .b16 lo, hi;\nmov.b32 {lo, hi}, %1;\ncvt.rn.f16x2.e4m3x2 %0, lo;\n}\n" : "=r"(h2) : "r"(two));
  return __half22float2(*reinterpret_cast<const __half2*>(&h2));
}

// B fragments of one chunk: the owned block's two words, each half as +2b and -2b, and the two B
// scales of this lane's slice as floats with the 1/4 of the int8 operands folded in.
struct BFrag {
  uint32_t plus[2][2], minus[2][2];  // [word][half]
  float2 sfb;
};

#if NVFP4_HW_E2M1
// Blackwell: one word (8 e2m1) -> four f16x2 (elements 0-1, 2-3, 4-5, 6-7), hardware cvt.
__device__ __forceinline__ void cvt_word_f16x2(uint32_t w, uint32_t (&h)[4]) {
  asm("{\n.reg .b8 q0, q1, q2, q3;\nmov.b32 {q0, q1, q2, q3}, %4;\n"
      "cvt.rn.f16x2.e2m1x2 %0, q0;\ncvt.rn.f16x2.e2m1x2 %1, q1;\n"
      "cvt.rn.f16x2.e2m1x2 %2, q2;\ncvt.rn.f16x2.e2m1x2 %3, q3;\n}\n"
      : "=r"(h[0]), "=r"(h[1]), "=r"(h[2]), "=r"(h[3]) : "r"(w));
}

// D += A x B, m16n8k16, f16 in, f32 accumulate. Lane (g, t): a0/a2 row g, a1/a3 row g+8, k slots
// 2t..2t+1 (a0, a1, b0) and 8+2t..8+2t+1 (a2, a3, b1); d as for the IMMA.
__device__ __forceinline__ void hmma(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                     uint32_t b0, uint32_t b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
#endif

__device__ __forceinline__ BFrag b_frag(const BChunk& ch) {
  BFrag f;
#if NVFP4_HW_E2M1
  // f16x2 of the owned block's elements: plus[w][h] feeds b0 of mma (w, h) (elements 4h, 4h+1 of
  // word w), minus[w][h] feeds b1 (elements 4h+2, 4h+3); f16 B is signed, no negated copy.
  uint32_t h0[4], h1[4];
  cvt_word_f16x2(ch.b.x, h0);
  cvt_word_f16x2(ch.b.y, h1);
  f.plus[0][0] = h0[0]; f.minus[0][0] = h0[1]; f.plus[0][1] = h0[2]; f.minus[0][1] = h0[3];
  f.plus[1][0] = h1[0]; f.minus[1][0] = h1[1]; f.plus[1][1] = h1[2]; f.minus[1][1] = h1[3];
  f.sfb = e4m3x2_to_float2(ch.sfb);     // the f16 operands are the e2m1 values themselves
  return f;
#else
  b_signed(ch.b.x, f.plus[0][0], f.minus[0][0]);
  b_signed(ch.b.x >> 16, f.plus[0][1], f.minus[0][1]);
  b_signed(ch.b.y, f.plus[1][0], f.minus[1][0]);
  b_signed(ch.b.y >> 16, f.plus[1][1], f.minus[1][1]);
  f.sfb = e4m3x2_to_float2(ch.sfb);
  f.sfb.x *= 0.25f;  // the int8 operands are twice the e2m1 values
  f.sfb.y *= 0.25f;
  return f;
#endif
}

// One chunk of one tile. The mma's k slots are virtual: thread t's slots in mma (w, h) hold
// elements 8w+4h..8w+4h+3 of its own 32 (words w = 0..3, halves h), non-negative ones in a0/a1,
// negative ones in a2/a3. Column map: block 2t+beta of thread t's slice (words 2beta, 2beta+1)
// accumulates in column 2t+beta, so B is non-zero only in lanes with g = 2t+beta (mask_beta), and
// d0..d3 are exactly 4x the dot products of blocks 2t, 2t+1 of rows g, g+8: the ones whose scales
// this lane loaded.
__device__ __forceinline__ void tile_dot(const Chunk& ch, const BFrag& bf, uint32_t mask0,
                                         uint32_t mask1, float& acc_lo, float& acc_hi) {
  const uint32_t lo[4] = {ch.a_lo.x, ch.a_lo.y, ch.a_lo.z, ch.a_lo.w};
  const uint32_t hi[4] = {ch.a_hi.x, ch.a_hi.y, ch.a_hi.z, ch.a_hi.w};
#if NVFP4_HW_E2M1
  // Blackwell: mma (w, h) takes elements 4h..4h+3 of word w, as on sm_90, from hardware f16x2.
  float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
  for (int w = 0; w < 4; ++w) {
    const uint32_t mask = w < 2 ? mask0 : mask1;
    uint32_t fl[4], fh[4];
    cvt_word_f16x2(lo[w], fl);
    cvt_word_f16x2(hi[w], fh);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      hmma(d, fl[2 * h], fh[2 * h], fl[2 * h + 1], fh[2 * h + 1],
           bf.plus[w & 1][h] & mask, bf.minus[w & 1][h] & mask);
    }
  }
#else
  int d[4] = {0, 0, 0, 0};
#pragma unroll
  for (int w = 0; w < 4; ++w) {
    const uint32_t mask = w < 2 ? mask0 : mask1;
    const uint32_t lo_neg = lo[w] ^ 0x88888888u, hi_neg = hi[w] ^ 0x88888888u;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      imma(d, a_nonneg(lo[w] >> (16 * h)), a_nonneg(hi[w] >> (16 * h)),
           a_nonneg(lo_neg >> (16 * h)), a_nonneg(hi_neg >> (16 * h)),
           bf.plus[w & 1][h] & mask, bf.minus[w & 1][h] & mask);
    }
  }
#endif
  const float2 sa_lo = e4m3x2_to_float2(ch.sfa_lo), sa_hi = e4m3x2_to_float2(ch.sfa_hi);
  acc_lo = fmaf(static_cast<float>(d[0]), sa_lo.x * bf.sfb.x, acc_lo);
  acc_lo = fmaf(static_cast<float>(d[1]), sa_lo.y * bf.sfb.y, acc_lo);
  acc_hi = fmaf(static_cast<float>(d[2]), sa_hi.x * bf.sfb.x, acc_hi);
  acc_hi = fmaf(static_cast<float>(d[3]), sa_hi.y * bf.sfb.y, acc_hi);
}

__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32, 5)   // 5 blocks per SM, as shared memory allows
nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k,
                  long long b_batch_stride, long long sfb_batch_stride,
                  int splits) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  // Block = (tile, split); row index over all batches: a, sfa and c are [L][M][...] so (l*M + r)
  // addresses them directly.
  const long long tile = blockIdx.x / splits;
  const int split = blockIdx.x % splits;
  const long long row0 = tile * TILE_ROWS;
  const long long batch = row0 / m;
  const int beta = g - 2 * t;   // column g owns block 2t+beta of thread t's slice when beta is 0 or 1
  LanePtrs p;
  p.sfa_lo = sfa + (row0 + g) * (k / 16) + 2 * t;
  p.sfa_hi = p.sfa_lo + 8LL * (k / 16);
  p.b_col = b + batch * b_batch_stride + 16 * t + 8 * (beta & 1);
  p.sfb = sfb + batch * sfb_batch_stride + 2 * t;
  const uint32_t mask0 = beta == 0 ? ~0u : 0u, mask1 = beta == 1 ? ~0u : 0u;
  const int full_chunks = k / CHUNK_K;         // then one chunk of 64 elements if K = 64 mod 128
  const int chunks = (k + CHUNK_K - 1) / CHUNK_K;
  const int c_begin = static_cast<int>(static_cast<long long>(split) * chunks / splits);
  const int c_end = static_cast<int>(static_cast<long long>(split + 1) * chunks / splits);
  const int split_full_end = c_end < full_chunks ? c_end : full_chunks;

  // The warp's stage, and this lane's copies: byte 16 * (lane % 16) of the unit's 256 in rows
  // 2i + lane / 16, i = 0..7 (chunk (lane % 16) / 4 of the unit, at its byte 16 * (lane % 4)).
  __shared__ __align__(16) uint8_t stage[2][WARPS_PER_BLOCK][TILE_ROWS][STAGE_ROW_BYTES];
  const uint8_t* const a_copy = a + (row0 + lane / 16) * (k / 2) + 16 * (lane % 16);
  const int copy_chunk = (lane % 16) / 4, copy_slice = lane % 4;

  float acc_lo = 0.0f, acc_hi = 0.0f;
  int unit = c_begin + UNIT_CHUNKS * warp;   // warp w: units of chunks 4w..4w+3, then 16 further on
  p.advance(unit);
  constexpr int STEP = UNIT_CHUNKS * WARPS_PER_BLOCK;
  const auto valid_chunk = [&](int c, int slice) {
    return c < split_full_end || (c == full_chunks && c < c_end && slice < 2);
  };
  // Issue unit u (`ahead` chunks past p): A's whole 256-byte row runs into stage `buf` as one
  // commit group (empty past the split's end; zeros past its last chunk and the half chunk's 32
  // bytes), and its SFA into ch.
  const auto issue = [&](int u, int ahead, int buf, Chunk (&ch)[UNIT_CHUNKS]) {
    if (u < c_end) {
      const bool copy_valid = valid_chunk(u + copy_chunk, copy_slice);
      const uint8_t* src = copy_valid ? a_copy + static_cast<long long>(u) * (CHUNK_K / 2) : a;
      uint8_t* const dst = &stage[buf][warp][lane / 16][16 * (lane % 16)];
#pragma unroll
      for (int i = 0; i < TILE_ROWS / 2; ++i)
        copy16(dst + 2 * i * STAGE_ROW_BYTES, src + (copy_valid ? 2LL * i * (k / 2) : 0), copy_valid ? 16 : 0);
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#pragma unroll
    for (int j = 0; j < UNIT_CHUNKS; ++j) ch[j] = load_chunk_scales(p, ahead + j, valid_chunk(u + j, t));
  };
  Chunk ch[UNIT_CHUNKS];
  int buf = 0;
  issue(unit, 0, buf, ch);
  for (; unit < c_end; unit += STEP) {
    Chunk next[UNIT_CHUNKS];
    __syncwarp();   // every lane has read stage buf ^ 1 (two units ago) before it is refilled
    issue(unit + STEP, STEP, buf ^ 1, next);
    asm volatile("cp.async.wait_group 1;\n" ::: "memory");
    __syncwarp();   // every lane's copies of this unit are in stage buf
#pragma unroll
    for (int j = 0; j < UNIT_CHUNKS; ++j) {   // B last: a few KB shared by the SM's blocks, in L1
      const BChunk bc = load_b_chunk(p, j, valid_chunk(unit + j, t));
      ch[j].a_lo = *reinterpret_cast<const uint4*>(&stage[buf][warp][g][64 * j + 16 * t]);
      ch[j].a_hi = *reinterpret_cast<const uint4*>(&stage[buf][warp][g + 8][64 * j + 16 * t]);
      tile_dot(ch[j], b_frag(bc), mask0, mask1, acc_lo, acc_hi);
      ch[j] = next[j];
    }
    p.advance(STEP);
    buf ^= 1;
  }

  // Row sums: the four lanes of a row group, then the warps in a fixed order.
  acc_lo += __shfl_xor_sync(0xFFFFFFFFu, acc_lo, 1);
  acc_lo += __shfl_xor_sync(0xFFFFFFFFu, acc_lo, 2);
  acc_hi += __shfl_xor_sync(0xFFFFFFFFu, acc_hi, 1);
  acc_hi += __shfl_xor_sync(0xFFFFFFFFu, acc_hi, 2);
  __shared__ float partial[WARPS_PER_BLOCK][TILE_ROWS];
  if (t == 0) {
    partial[warp][g] = acc_lo;
    partial[warp][g + 8] = acc_hi;
  }
  __syncthreads();
  float sum = 0.0f;
  if (threadIdx.x < TILE_ROWS) {
    sum = partial[0][threadIdx.x];
#pragma unroll
    for (int w = 1; w < WARPS_PER_BLOCK; ++w) sum += partial[w][threadIdx.x];
  }
  if (splits == 1) {
    if (threadIdx.x < TILE_ROWS) c[row0 + threadIdx.x] = __float2half_rn(sum);
    return;
  }
  // Split tile: the cluster is the tile's S blocks, its rank the split. Block 0 adds the others'
  // sums in split order once all have written theirs; the second barrier keeps every block's
  // shared memory alive until block 0 has read it.
  __shared__ float tile_sum[TILE_ROWS];
  const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  if (threadIdx.x < TILE_ROWS) tile_sum[threadIdx.x] = sum;
  cluster.sync();
  if (split == 0 && threadIdx.x < TILE_ROWS) {
    float total = sum;
    for (int s = 1; s < splits; ++s) total += cluster.map_shared_rank(tile_sum, s)[threadIdx.x];
    c[row0 + threadIdx.x] = __float2half_rn(total);
  }
  cluster.sync();
}

// Dispatch: S = (resident blocks of the GPU) / tiles, at least 1 (then no cluster), at most
// chunks / WARPS_PER_BLOCK (every warp gets a chunk) and at most MAX_CLUSTER (one cluster per
// tile), then lowered until the GPU can hold every tile's cluster of S blocks at once: clusters
// are placed whole within one GPC, so fewer blocks fit as clusters than as single blocks.
constexpr int MAX_CLUSTER = 16;   // the largest cluster sm_90 allows (above 8: "non-portable")
static long long resident_blocks() {
  static int resident = 0;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_kernel, WARPS_PER_BLOCK * 32, 0);
    resident = sms * (per_sm > 0 ? per_sm : 1);
  }
  return resident;
}

// How many clusters of s blocks the GPU holds at once.
static long long resident_clusters(int s) {
  static int resident[MAX_CLUSTER + 1] = {};
  if (resident[s] == 0) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(s);
    config.blockDim = dim3(WARPS_PER_BLOCK * 32);
    cudaLaunchAttribute cluster;
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = s;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.attrs = &cluster;
    config.numAttrs = 1;
    int n = 0;
    cudaOccupancyMaxActiveClusters(&n, nvfp4_gemv_kernel, &config);
    resident[s] = n > 0 ? n : 1;
  }
  return resident[s];
}

static int splits_of(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const long long chunks = (k + CHUNK_K - 1) / CHUNK_K;
  long long s = resident_blocks() / tiles;
  const long long most = chunks / WARPS_PER_BLOCK;
  if (s > most) s = most;
  if (s > MAX_CLUSTER) s = MAX_CLUSTER;
  while (s > 1 && tiles > resident_clusters(static_cast<int>(s))) --s;
  return static_cast<int>(s < 1 ? 1 : s);
}

extern "C" int nvfp4_gemv_setup(void) {
  return static_cast<int>(cudaFuncSetAttribute(nvfp4_gemv_kernel,
                                               cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  // TILE_ROWS divides M (a multiple of 128): no tile spans batches.
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const int s = splits_of(m, k, l);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(tiles * s));
  config.blockDim = dim3(WARPS_PER_BLOCK * 32);
  config.stream = stream;
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = s;   // blocks tile*S .. tile*S + S-1: one tile, ranks = splits
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = s > 1 ? 1 : 0;   // unsplit tiles launch as 26's do, without clusters
  cudaLaunchKernelEx(&config, nvfp4_gemv_kernel, a, b, sfa, sfb, c, m, k, b_batch_stride,
                     sfb_batch_stride, s);
  return static_cast<int>(cudaGetLastError());
}
