// 30 tma-tiles: 29 with each stage's A and SFA copied by tensor-map (TMA) copies of 16-row boxes,
// issued by one thread: four A boxes (one per warp's chunk) and one SFA box per stage, where 29
// issues one bulk copy per row segment and the compiler serialises its 32 lanes' copies into a
// 32-trip loop. Each chunk's A box lands as 16 dense rows of 64 bytes, which the quarter-warp
// reads hit without bank conflicts. Blackwell path as in 26: compiled and disassembled, not run.
#include <cuda.h>          // CUtensorMap (the encoder is fetched from the driver at run time)
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_cvt.cuh"   // NVFP4_HW_E2M1: the target has cvt.rn.f16x2.e2m1x2
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

// Launch shape: S blocks per 16-row tile (dispatch below), each block's K range split over
// WARPS_PER_BLOCK warps (chunks dealt round-robin), the warps' partial row sums added in shared
// memory in a fixed order, the blocks' sums in the workspace in a fixed order.
#ifndef WARPS_PER_BLOCK
#define WARPS_PER_BLOCK 4
#endif
static_assert(WARPS_PER_BLOCK >= 1 && WARPS_PER_BLOCK <= 32, "WARPS_PER_BLOCK must be 1..32");
constexpr int TILE_ROWS = 16;   // the mma's M: lane (g = lane/4, t = lane%4) holds rows g and g+8
constexpr int CHUNK_K = 128;    // elements per row per warp step: 64 bytes, 16 per lane, 8 scale blocks

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

// A lane's pointers into the current chunk: rows g and g+8 of A and SFA at this lane's slice, the
// B bytes its column owns, the B scales of its slice.
struct LanePtrs {
  const uint8_t *a_lo, *a_hi, *sfa_lo, *sfa_hi, *b_col, *sfb;
  __device__ __forceinline__ void advance(int chunks) {
    a_lo += chunks * (CHUNK_K / 2);
    a_hi += chunks * (CHUNK_K / 2);
    sfa_lo += chunks * (CHUNK_K / 16);
    sfa_hi += chunks * (CHUNK_K / 16);
    b_col += chunks * (CHUNK_K / 2);
    sfb += chunks * (CHUNK_K / 16);
  }
};

// Chunk `ahead` chunks past p. valid = false gives zeros (the lanes past the end of a last chunk of
// 64 elements, K = 64 mod 128): zero A, B and scales add exactly nothing.
__device__ __forceinline__ Chunk load_chunk(const LanePtrs& p, int ahead, bool valid = true) {
  Chunk ch;
  if (valid) {
    const int off = ahead * (CHUNK_K / 2), sf_off = ahead * (CHUNK_K / 16);
    ch.a_lo = __ldg(reinterpret_cast<const uint4*>(p.a_lo + off));
    ch.a_hi = __ldg(reinterpret_cast<const uint4*>(p.a_hi + off));
    ch.sfa_lo = __ldg(reinterpret_cast<const unsigned short*>(p.sfa_lo + sf_off));
    ch.sfa_hi = __ldg(reinterpret_cast<const unsigned short*>(p.sfa_hi + sf_off));
  } else {
    ch.a_lo = ch.a_hi = make_uint4(0, 0, 0, 0);
    ch.sfa_lo = ch.sfa_hi = 0;
  }
  return ch;
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

// Read a partial and clear its slot: every slot written in a call is read once by the last block
// of its tile, so the workspace is all zeros again when the kernel ends.
__device__ __forceinline__ float take(float* slot) {
  const float v = __ldcg(slot);
  __stcg(slot, 0.0f);
  return v;
}


// ---- The ring (29) ----
// A stage is one chunk per warp of the tile's 16 rows: STAGE_K elements per row. Its copies are
// one 16-row box of A per chunk and one of SFA through tensor maps of A and SFA as 2-D arrays
// (rows of K/2 and K/16 bytes), and one bulk copy each of B and SFB; a tensor map needs row
// strides that are multiples of 16 bytes, so the ring takes K a multiple of STAGE_K (K/16 then is)
// and 26's direct loads take the other K.
#ifndef NSTAGES
#define NSTAGES 4
#endif
static_assert(NSTAGES >= 2, "NSTAGES must be at least 2");
constexpr int STAGE_K = WARPS_PER_BLOCK * CHUNK_K;
static_assert(STAGE_K / 16 % 16 == 0, "a stage's scale segment must be a multiple of 16 bytes");
// A box lands dense: chunk w's A as 16 rows of 64 bytes, so a quarter warp's 16-byte reads
// (rows g and g+1) cover 128 contiguous bytes; SFA as 16 rows of STAGE_K / 16 bytes.
struct __align__(128) Stage {
  uint8_t a[WARPS_PER_BLOCK][TILE_ROWS][CHUNK_K / 2];
  uint8_t sfa[TILE_ROWS][STAGE_K / 16];
  uint8_t b[STAGE_K / 2];
  uint8_t sfb[STAGE_K / 16];
};
constexpr uint32_t STAGE_BYTES = (TILE_ROWS + 1) * (STAGE_K / 2 + STAGE_K / 16);  // copied per stage

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
// Arrive once and expect `bytes` from the copies that complete on this barrier.
__device__ __forceinline__ void mbar_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
               "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}
// Wait until the phase of the given parity has completed.
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done) {
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(smem_addr(bar)), "r"(parity) : "memory");
  }
}
// The box at (x bytes, row y) of a 2-D tensor map -> shared, by the TMA engine; completion
// counted in bytes on `bar`.
__device__ __forceinline__ void tma_box(uint32_t dst, const CUtensorMap* map, int x, int y, uint64_t* bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];"
               ::"r"(dst), "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(smem_addr(bar))
               : "memory");
}
// Global -> shared by the TMA engine; completion counted in bytes on `bar`.
__device__ __forceinline__ void bulk_copy(uint32_t dst, const uint8_t* src, uint32_t bytes, uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(dst), "l"(src), "r"(bytes), "r"(smem_addr(bar)) : "memory");
}

// The block's stages [s_begin, s_end) of its tile through the ring. Warp 0 is also the producer:
// its lane 0 issues a stage's copies (the A box of each chunk, the SFA box, B and SFB), the first
// NSTAGES at once, then stage s + NSTAGES into stage s's slot once every warp has released
// stage s. Warp w computes chunk w of every stage: the chunks of 26's order, read from shared
// memory where 26 loads them from global memory.
__device__ __forceinline__ void ring_dot(const CUtensorMap* map_a, const CUtensorMap* map_sfa, int row0,
                                         const uint8_t* b_batch, const uint8_t* sfb_batch,
                                         int s_begin, int s_end, uint32_t mask0, uint32_t mask1,
                                         float& acc_lo, float& acc_hi) {
  __shared__ Stage ring[NSTAGES];
  __shared__ uint64_t full[NSTAGES], empty[NSTAGES];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4, beta = g - 2 * t;
  if (threadIdx.x == 0) {
    for (int i = 0; i < NSTAGES; ++i) {
      mbar_init(&full[i], 1);                  // the producer's arrive, plus the stage's bytes
      mbar_init(&empty[i], WARPS_PER_BLOCK);   // one arrive per warp done with the slot
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();

  auto issue = [&](int s) {
    if (lane != 0) return;
    const int slot = s % NSTAGES;
    const int stage = s_begin + s;
    Stage& st = ring[slot];
    mbar_expect_tx(&full[slot], STAGE_BYTES);
#pragma unroll
    for (int w = 0; w < WARPS_PER_BLOCK; ++w) {
      tma_box(smem_addr(st.a[w]), map_a, (stage * WARPS_PER_BLOCK + w) * (CHUNK_K / 2), row0, &full[slot]);
    }
    tma_box(smem_addr(st.sfa), map_sfa, stage * (STAGE_K / 16), row0, &full[slot]);
    bulk_copy(smem_addr(st.b), b_batch + stage * (STAGE_K / 2LL), STAGE_K / 2, &full[slot]);
    bulk_copy(smem_addr(st.sfb), sfb_batch + stage * (STAGE_K / 16LL), STAGE_K / 16, &full[slot]);
  };
  const int n = s_end - s_begin;
  if (warp == 0) {
    for (int s = 0; s < NSTAGES && s < n; ++s) issue(s);
  }
  const int col = 16 * t, sf_col = warp * (CHUNK_K / 16) + 2 * t;
  for (int s = 0; s < n; ++s) {
    const int slot = s % NSTAGES;
    const uint32_t parity = (s / NSTAGES) & 1;
    mbar_wait(&full[slot], parity);
    const Stage& st = ring[slot];
    Chunk ch;
    ch.a_lo = *reinterpret_cast<const uint4*>(&st.a[warp][g][col]);
    ch.a_hi = *reinterpret_cast<const uint4*>(&st.a[warp][g + 8][col]);
    ch.sfa_lo = *reinterpret_cast<const unsigned short*>(&st.sfa[g][sf_col]);
    ch.sfa_hi = *reinterpret_cast<const unsigned short*>(&st.sfa[g + 8][sf_col]);
    BChunk bc;
    bc.b = *reinterpret_cast<const uint2*>(&st.b[warp * (CHUNK_K / 2) + col + 8 * (beta & 1)]);
    bc.sfb = *reinterpret_cast<const unsigned short*>(&st.sfb[sf_col]);
    tile_dot(ch, b_frag(bc), mask0, mask1, acc_lo, acc_hi);
    __syncwarp();                              // every lane has used its operands from the slot
    if (lane == 0) mbar_arrive(&empty[slot]);
    if (warp == 0 && s + NSTAGES < n) {
      mbar_wait(&empty[slot], parity);
      issue(s + NSTAGES);
    }
  }
}

template <bool RING>
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k,
                  long long b_batch_stride, long long sfb_batch_stride,
                  int splits, float* __restrict__ ws_partial, int* __restrict__ ws_count,
                  const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_sfa) {
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
  p.a_lo = a + (row0 + g) * (k / 2) + 16 * t;
  p.a_hi = p.a_lo + 8LL * (k / 2);
  p.sfa_lo = sfa + (row0 + g) * (k / 16) + 2 * t;
  p.sfa_hi = p.sfa_lo + 8LL * (k / 16);
  p.b_col = b + batch * b_batch_stride + 16 * t + 8 * (beta & 1);
  p.sfb = sfb + batch * sfb_batch_stride + 2 * t;
  const uint32_t mask0 = beta == 0 ? ~0u : 0u, mask1 = beta == 1 ? ~0u : 0u;
  float acc_lo = 0.0f, acc_hi = 0.0f;
  if constexpr (RING) {
    const int stages = k / STAGE_K;
    ring_dot(&map_a, &map_sfa, static_cast<int>(row0), b + batch * b_batch_stride,
             sfb + batch * sfb_batch_stride, static_cast<int>(static_cast<long long>(split) * stages / splits),
             static_cast<int>(static_cast<long long>(split + 1) * stages / splits), mask0, mask1, acc_lo, acc_hi);
  } else {  // 26
    const int full_chunks = k / CHUNK_K;         // then one chunk of 64 elements if K = 64 mod 128
    const int chunks = (k + CHUNK_K - 1) / CHUNK_K;
    const int c_begin = static_cast<int>(static_cast<long long>(split) * chunks / splits);
    const int c_end = static_cast<int>(static_cast<long long>(split + 1) * chunks / splits);
    const int split_full_end = c_end < full_chunks ? c_end : full_chunks;

    int chunk = c_begin + warp;
    p.advance(chunk);
    for (; chunk + WARPS_PER_BLOCK < split_full_end; chunk += 2 * WARPS_PER_BLOCK) {
      const Chunk c0 = load_chunk(p, 0);
      const BChunk b0 = load_b_chunk(p, 0);
      const Chunk c1 = load_chunk(p, WARPS_PER_BLOCK);
      const BChunk b1 = load_b_chunk(p, WARPS_PER_BLOCK);
      p.advance(2 * WARPS_PER_BLOCK);
      tile_dot(c0, b_frag(b0), mask0, mask1, acc_lo, acc_hi);
      tile_dot(c1, b_frag(b1), mask0, mask1, acc_lo, acc_hi);
    }
    if (chunk < split_full_end) {  // this warp's odd last chunk
      const Chunk ch = load_chunk(p, 0);
      const BChunk bc = load_b_chunk(p, 0);
      p.advance(WARPS_PER_BLOCK);
      tile_dot(ch, b_frag(bc), mask0, mask1, acc_lo, acc_hi);
      chunk += WARPS_PER_BLOCK;
    }
    if (chunk == full_chunks && chunk < c_end) {  // the half chunk: lanes t = 0, 1 hold its 32 bytes
      const Chunk ch = load_chunk(p, 0, t < 2);
      const BChunk bc = load_b_chunk(p, 0, t < 2);
      tile_dot(ch, b_frag(bc), mask0, mask1, acc_lo, acc_hi);
    }
  }

  // Row sums: the four lanes of a row group, then the warps in a fixed order.
  acc_lo += __shfl_xor_sync(0xFFFFFFFFu, acc_lo, 1);
  acc_lo += __shfl_xor_sync(0xFFFFFFFFu, acc_lo, 2);
  acc_hi += __shfl_xor_sync(0xFFFFFFFFu, acc_hi, 1);
  acc_hi += __shfl_xor_sync(0xFFFFFFFFu, acc_hi, 2);
  __shared__ float partial[WARPS_PER_BLOCK][TILE_ROWS];
  __shared__ int is_last;
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
  // Split tile: slot (tile, split); the last block of the tile to arrive adds the slots in order.
  if (threadIdx.x < TILE_ROWS) {
    ws_partial[(tile * splits + split) * TILE_ROWS + threadIdx.x] = sum;
    __threadfence();
  }
  __syncthreads();
  if (threadIdx.x == 0) is_last = atomicAdd(ws_count + tile, 1) == splits - 1;
  __syncthreads();
  if (!is_last) return;
  __threadfence();
  if (threadIdx.x < TILE_ROWS) {
    float total = take(ws_partial + tile * splits * TILE_ROWS + threadIdx.x);
    for (int s = 1; s < splits; ++s) total += take(ws_partial + (tile * splits + s) * TILE_ROWS + threadIdx.x);
    c[row0 + threadIdx.x] = __float2half_rn(total);
  }
  if (threadIdx.x == 0) ws_count[tile] = 0;   // with take(): the workspace is left zeroed
}

// Dispatch: the ring where K is a whole number of stages, 26's direct loads elsewhere (the two
// have the same split bound: stages = chunks / WARPS_PER_BLOCK). S = (resident blocks of the GPU)
// / tiles, at least 1 (then no workspace is touched) and at most chunks / WARPS_PER_BLOCK (every
// warp gets a chunk). With S > 1 the split grid fits in one wave of resident blocks, balanced to
// one block per SM.
static bool uses_ring(int k) { return k % STAGE_K == 0; }

static long long resident_blocks(bool ring) {
  static int resident[2] = {0, 0};
  if (resident[ring] == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, ring ? nvfp4_gemv_kernel<true> : nvfp4_gemv_kernel<false>, WARPS_PER_BLOCK * 32, 0);
    resident[ring] = sms * (per_sm > 0 ? per_sm : 1);
  }
  return resident[ring];
}

static int splits_of(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const long long chunks = (k + CHUNK_K - 1) / CHUNK_K;
  long long s = resident_blocks(uses_ring(k)) / tiles;
  const long long most = chunks / WARPS_PER_BLOCK;
  if (s > most) s = most;
  return static_cast<int>(s < 1 ? 1 : s);
}

// The tensor maps of A and SFA as 2-D byte arrays (M*L rows of K/2 and K/16 bytes) with 16-row
// boxes of one chunk and of one stage. Encoded on the host through the driver's entry point, and
// again only when the tensors or the shape change.
struct TensorMaps {
  CUtensorMap a, sfa;
};

static bool encode_box_map(CUtensorMap* map, const uint8_t* base, long long rows, int row_bytes, int box_bytes) {
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
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(row_bytes), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(row_bytes)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_bytes), TILE_ROWS}, steps[2] = {1, 1};
  return encode(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<uint8_t*>(base), dims, strides, box, steps,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

static const TensorMaps* tensor_maps(const uint8_t* a, const uint8_t* sfa, int m, int k, int l) {
  static TensorMaps maps;
  static const uint8_t *last_a = nullptr, *last_sfa = nullptr;
  static int last_m = 0, last_k = 0, last_l = 0;
  if (a != last_a || sfa != last_sfa || m != last_m || k != last_k || l != last_l) {
    last_a = nullptr;   // stays invalid if an encoding fails
    const long long rows = static_cast<long long>(m) * l;
    if (!encode_box_map(&maps.a, a, rows, k / 2, CHUNK_K / 2) ||
        !encode_box_map(&maps.sfa, sfa, rows, k / 16, STAGE_K / 16)) {
      return nullptr;
    }
    last_a = a, last_sfa = sfa, last_m = m, last_k = k, last_l = l;
  }
  return &maps;
}

extern "C" size_t nvfp4_gemv_workspace_bytes(int m, int k, int l) {
  // S partial slots of TILE_ROWS floats per tile, then one arrival counter per tile
  const int s = splits_of(m, k, l);
  const size_t tiles = static_cast<size_t>(m) * l / TILE_ROWS;
  return s > 1 ? tiles * s * TILE_ROWS * sizeof(float) + tiles * sizeof(int) : 16;
}

extern "C" int nvfp4_gemv_with_workspace(const uint8_t* a, const uint8_t* b, const uint8_t* sfa,
                                         const uint8_t* sfb, __half* c, int m, int k, int l,
                                         long long b_batch_stride, long long sfb_batch_stride,
                                         void* workspace, cudaStream_t stream) {
  // TILE_ROWS divides M (a multiple of 128): no tile spans batches.
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const int s = splits_of(m, k, l);
  float* ws_partial = static_cast<float*>(workspace);
  int* ws_count = reinterpret_cast<int*>(ws_partial + tiles * s * TILE_ROWS);
  const dim3 grid(static_cast<unsigned>(tiles * s));
  if (!uses_ring(k)) {
    const TensorMaps unused = {};
    nvfp4_gemv_kernel<false><<<grid, WARPS_PER_BLOCK * 32, 0, stream>>>(
        a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s, ws_partial, ws_count, unused.a, unused.sfa);
    return static_cast<int>(cudaGetLastError());
  }
  const TensorMaps* maps = tensor_maps(a, sfa, m, k, l);
  if (maps == nullptr) return static_cast<int>(cudaErrorInvalidValue);   // the driver refused the tensor maps
  nvfp4_gemv_kernel<true><<<grid, WARPS_PER_BLOCK * 32, 0, stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s, ws_partial, ws_count, maps->a, maps->sfa);
  return static_cast<int>(cudaGetLastError());
}
