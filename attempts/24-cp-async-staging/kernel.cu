// 24 cp-async-staging: 23 with the data path through shared memory. A warp's direct loads
// touched 8 rows x 64 bytes per instruction (half lines) and 8-byte pieces of 8 SFA rows per
// scale load: about four times the L2 requests per byte of a plain read, in short runs per row.
// Now each warp streams stages of 4 chunks (256 contiguous bytes of each of its rows, their 32
// scale bytes, B and its scales) with cp.async in full lines (A: 2 rows x 256 bytes per
// instruction; SFA: 4 rows x 32 bytes) into a ring of NSTAGES stages of its own, and reads the mma
// operands back with LDS: A's 16-byte granules XOR-swizzled by row parity so the reads are
// conflict-free. Out-of-range pieces (segment ends, the last half chunk) are zero-filled by the
// copy. Loads stay in flight across NSTAGES-1 stages without holding registers.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_cvt.cuh"   // NVFP4_HW_E2M1: the target has cvt.rn.f16x2.e2m1x2
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

// Launch shape: WARPS_PER_BLOCK warps share each segment (one tile, a range of its chunks; chunks
// dealt round-robin), their partial row sums added in shared memory in a fixed order. The grid is
// BLOCKS_PER_SM blocks per SM (0: as many as fit), fewer when a block would get less than
// MIN_CHUNKS_PER_WARP chunks per warp.
#ifndef WARPS_PER_BLOCK
#define WARPS_PER_BLOCK 4
#endif
#ifndef BLOCKS_PER_SM
#define BLOCKS_PER_SM 0
#endif
#ifndef MIN_CHUNKS_PER_WARP
#define MIN_CHUNKS_PER_WARP 8
#endif
#ifndef TILES_PER_WARP
#define TILES_PER_WARP 2
#endif
#ifndef NSTAGES
#define NSTAGES 2            // stages in each warp's shared-memory ring (shared memory bounds the warps per SM)
#endif
static_assert(NSTAGES >= 2 && NSTAGES <= 6, "NSTAGES must be 2..6");
#ifndef A_PREFETCH
#define A_PREFETCH 256   // L2 prefetch size hint of the A loads in bytes: 0 (none), 64, 128 or 256
#endif
static_assert(A_PREFETCH == 0 || A_PREFETCH == 64 || A_PREFETCH == 128 || A_PREFETCH == 256,
              "A_PREFETCH must be 0, 64, 128 or 256");
static_assert(TILES_PER_WARP == 1 || TILES_PER_WARP == 2, "TILES_PER_WARP must be 1 or 2");
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

// One stage: STAGE_CHUNKS chunks of a group of R tiles, in shared memory.
//   A   [R*16 rows][256 bytes]: granule j (16 bytes, chunk j/4, lane slice j%4) of row i at
//       (j ^ ((i & 1) << 2)): lanes (g, t) of a quarter warp (g = 2q, 2q+1) then read 8 distinct
//       4-bank groups.
//   SFA [R*16 rows][32 bytes], B [256 bytes], SFB [32 bytes], plain.
constexpr int STAGE_CHUNKS = 4;
constexpr int ROW_STAGE_BYTES = STAGE_CHUNKS * (CHUNK_K / 2);      // 256
constexpr int ROW_STAGE_SF = STAGE_CHUNKS * (CHUNK_K / 16);        // 32
template <int R>
struct Stage {
  static constexpr int a = 0;
  static constexpr int sfa = a + R * TILE_ROWS * ROW_STAGE_BYTES;
  static constexpr int b = sfa + R * TILE_ROWS * ROW_STAGE_SF;
  static constexpr int sfb = b + ROW_STAGE_BYTES;
  static constexpr int bytes = sfb + ROW_STAGE_SF;
};

#if A_PREFETCH == 0
#define A_COPY_HINT ""
#else
#define A_COPY_HINT ".L2::" A_PREFETCH_TEXT "B"
#define A_PREFETCH_TEXT A_PREFETCH_STR(A_PREFETCH)
#define A_PREFETCH_STR(x) A_PREFETCH_STR2(x)
#define A_PREFETCH_STR2(x) #x
#endif

// Asynchronous global -> shared copies; a source size of 0 writes zeros (and reads nothing).
__device__ __forceinline__ void copy16_stream(uint32_t dst, const uint8_t* src, bool valid) {
  asm volatile("cp.async.cg.shared.global" A_COPY_HINT " [%0], [%1], 16, %2;\n"
               :: "r"(dst), "l"(src), "r"(valid ? 16 : 0) : "memory");
}
__device__ __forceinline__ void copy16(uint32_t dst, const uint8_t* src, bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
               :: "r"(dst), "l"(src), "r"(valid ? 16 : 0) : "memory");
}
__device__ __forceinline__ void copy4(uint32_t dst, const uint8_t* src, bool valid) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
               :: "r"(dst), "l"(src), "r"(valid ? 4 : 0) : "memory");
}
__device__ __forceinline__ void copy_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void copy_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory"); }

// Issue the copies of one stage: chunks [c0, c0+4) of the group whose first row is row0, chunks
// at or past c_end and bytes past the row's end zero-filled. Scale rows are only 4-byte aligned
// (K/16 bytes per row), hence 4-byte copies for SFA and SFB.
template <int R>
__device__ __forceinline__ void issue_stage(uint32_t st, const uint8_t* a_rows, const uint8_t* sfa_rows,
                                            const uint8_t* b_row, const uint8_t* sfb_row,
                                            int c0, int c_end, int half_k, int sf_k, int lane) {
#pragma unroll
  for (int i = 0; i < R * TILE_ROWS / 2; ++i) {   // A: 2 rows x 256 bytes per instruction
    const int row = 2 * i + (lane >> 4), j = lane & 15;
    const int off = (c0 + (j >> 2)) * (CHUNK_K / 2) + 16 * (j & 3);
    const bool valid = c0 + (j >> 2) < c_end && off < half_k;
    copy16_stream(st + Stage<R>::a + row * ROW_STAGE_BYTES + ((j ^ ((row & 1) << 2)) << 4),
                  a_rows + static_cast<long long>(row) * half_k + (valid ? off : 0), valid);
  }
#pragma unroll
  for (int i = 0; i < R * TILE_ROWS / 4; ++i) {   // SFA: 4 rows x 32 bytes per instruction
    const int row = 4 * i + (lane >> 3), q = lane & 7;
    const int off = (c0 + (q >> 1)) * (CHUNK_K / 16) + 4 * (q & 1);
    const bool valid = c0 + (q >> 1) < c_end && off < sf_k;
    copy4(st + Stage<R>::sfa + row * ROW_STAGE_SF + 4 * q,
          sfa_rows + static_cast<long long>(row) * sf_k + (valid ? off : 0), valid);
  }
  if (lane < 16) {                                 // B: 256 bytes
    const int off = (c0 + (lane >> 2)) * (CHUNK_K / 2) + 16 * (lane & 3);
    const bool valid = c0 + (lane >> 2) < c_end && off < half_k;
    copy16(st + Stage<R>::b + 16 * lane, b_row + (valid ? off : 0), valid);
  } else if (lane < 24) {                          // SFB: 32 bytes
    const int q = lane - 16;
    const int off = (c0 + (q >> 1)) * (CHUNK_K / 16) + 4 * (q & 1);
    const bool valid = c0 + (q >> 1) < c_end && off < sf_k;
    copy4(st + Stage<R>::sfb + 4 * q, sfb_row + (valid ? off : 0), valid);
  }
}

// Chunk cc of a stage, tile r, this lane's operands, from shared memory.
template <int R>
__device__ __forceinline__ Chunk stage_chunk(const uint8_t* st, int r, int cc, int g, int t) {
  Chunk ch;
  const int gran = ((4 * cc + t) ^ ((g & 1) << 2)) << 4;
  ch.a_lo = *reinterpret_cast<const uint4*>(st + Stage<R>::a + (r * TILE_ROWS + g) * ROW_STAGE_BYTES + gran);
  ch.a_hi = *reinterpret_cast<const uint4*>(st + Stage<R>::a + (r * TILE_ROWS + g + 8) * ROW_STAGE_BYTES + gran);
  ch.sfa_lo = *reinterpret_cast<const unsigned short*>(st + Stage<R>::sfa + (r * TILE_ROWS + g) * ROW_STAGE_SF + 8 * cc + 2 * t);
  ch.sfa_hi = *reinterpret_cast<const unsigned short*>(st + Stage<R>::sfa + (r * TILE_ROWS + g + 8) * ROW_STAGE_SF + 8 * cc + 2 * t);
  return ch;
}

template <int R>
__device__ __forceinline__ BChunk stage_b_chunk(const uint8_t* st, int cc, int t, int beta) {
  BChunk ch;
  ch.b = *reinterpret_cast<const uint2*>(st + Stage<R>::b + cc * (CHUNK_K / 2) + 16 * t + 8 * (beta & 1));
  ch.sfb = *reinterpret_cast<const unsigned short*>(st + Stage<R>::sfb + cc * (CHUNK_K / 16) + 2 * t);
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
// The low table words live in registers set once per thread by an opaque mov (prmt takes only its
// second source as an immediate); otherwise ptxas re-materializes them before every prmt of the
// long unrolled stage loop (one extra IMAD per look-up).
struct Tables {
  uint32_t mag_lo, neg_lo;
};
__device__ __forceinline__ Tables make_tables() {
  Tables tb;
  asm volatile("mov.b32 %0, %2;\nmov.b32 %1, %3;\n" : "=r"(tb.mag_lo), "=r"(tb.neg_lo) : "n"(kMagLo), "n"(kNegLo));
  return tb;
}
__device__ __forceinline__ uint32_t a_nonneg(uint32_t sel, const Tables& tb) { return prmt(tb.mag_lo, kMagHi, sel); }

// B: the four nibbles in the low 16 bits of `sel` -> 2v as signed int8, and -2v.
__device__ __forceinline__ void b_signed(uint32_t sel, uint32_t& plus, uint32_t& minus, const Tables& tb) {
  const uint32_t mag = sel & 0x7777u;
  const uint32_t pos = prmt(tb.mag_lo, kMagHi, mag);
  const uint32_t neg = prmt(tb.neg_lo, kNegHi, mag);
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

__device__ __forceinline__ BFrag b_frag(const BChunk& ch, const Tables& tb) {
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
  b_signed(ch.b.x, f.plus[0][0], f.minus[0][0], tb);
  b_signed(ch.b.x >> 16, f.plus[0][1], f.minus[0][1], tb);
  b_signed(ch.b.y, f.plus[1][0], f.minus[1][0], tb);
  b_signed(ch.b.y >> 16, f.plus[1][1], f.minus[1][1], tb);
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
                                         uint32_t mask1, const Tables& tb, float& acc_lo, float& acc_hi) {
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
      imma(d, a_nonneg(lo[w] >> (16 * h), tb), a_nonneg(hi[w] >> (16 * h), tb),
           a_nonneg(lo_neg >> (16 * h), tb), a_nonneg(hi_neg >> (16 * h), tb),
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

// Read a partial and clear its slot: every slot written in a call is read once by the fixup of
// its tile, so the workspace is all zeros again when the kernel ends (whatever shape comes next,
// its counters start at zero).
__device__ __forceinline__ float take(float* slot) {
  const float v = __ldcg(slot);
  __stcg(slot, 0.0f);
  return v;
}

// The block that owns unit u (units are (tile, chunk) pairs, tile-major) when U units are cut
// into nb ranges [b*U/nb, (b+1)*U/nb).
__device__ __forceinline__ long long owner(long long u, long long units, long long nb) {
  return ((u + 1) * nb - 1) / units;
}

template <int R>
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k,
                  long long b_batch_stride, long long sfb_batch_stride,
                  long long groups, float* __restrict__ ws_partial, int* __restrict__ ws_count) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const int beta = g - 2 * t;   // column g owns block 2t+beta of thread t's slice when beta is 0 or 1
  const uint32_t mask0 = beta == 0 ? ~0u : 0u, mask1 = beta == 1 ? ~0u : 0u;
  const Tables tb = make_tables();
  const int chunks = (k + CHUNK_K - 1) / CHUNK_K;
  const long long units = groups * chunks, nb = gridDim.x;
  extern __shared__ __align__(16) uint8_t ring_mem[];   // NSTAGES stages per warp
  uint8_t* const ring = ring_mem + warp * NSTAGES * Stage<R>::bytes;
  const uint32_t ring_s = static_cast<uint32_t>(__cvta_generic_to_shared(ring));
  const long long u_begin = blockIdx.x * units / nb, u_end = (blockIdx.x + 1) * units / nb;
  __shared__ float partial[WARPS_PER_BLOCK][R * TILE_ROWS];
  __shared__ int is_last;

  for (long long u = u_begin; u < u_end;) {   // one segment: a group, chunks [c_begin, c_end)
    const long long group = u / chunks;
    const int c_begin = static_cast<int>(u - group * chunks);
    const long long seg_end = c_begin + (u_end - u);
    const int c_end = seg_end < chunks ? static_cast<int>(seg_end) : chunks;
    u += c_end - c_begin;
    // Row index over all batches; a, sfa and c are [L][M][...] so (l*M + r) addresses them directly.
    const long long row0 = group * R * TILE_ROWS;
    const long long batch = row0 / m;
    const uint8_t* a_rows = a + row0 * (k / 2);
    const uint8_t* sfa_rows = sfa + row0 * (k / 16);
    const uint8_t* b_row = b + batch * b_batch_stride;
    const uint8_t* sfb_row = sfb + batch * sfb_batch_stride;

    float acc_lo[R], acc_hi[R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc_lo[r] = acc_hi[r] = 0.0f;
    // The segment's stages (4 chunks each, the last one possibly short) are dealt round-robin to
    // the warps; each warp keeps NSTAGES-1 of its stages in flight.
    const int seg_stages = (c_end - c_begin + STAGE_CHUNKS - 1) / STAGE_CHUNKS;
    const int mine = seg_stages > warp ? (seg_stages - warp + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK : 0;
#pragma unroll
    for (int i = 0; i < NSTAGES - 1; ++i) {
      if (i < mine)
        issue_stage<R>(ring_s + i * Stage<R>::bytes, a_rows, sfa_rows, b_row, sfb_row,
                       c_begin + STAGE_CHUNKS * (warp + i * WARPS_PER_BLOCK), c_end, k / 2, k / 16, lane);
      copy_commit();
    }
    int cur = 0, next_slot = NSTAGES - 1;
    for (int i = 0; i < mine; ++i) {
      if (i + NSTAGES - 1 < mine)
        issue_stage<R>(ring_s + next_slot * Stage<R>::bytes, a_rows, sfa_rows, b_row, sfb_row,
                       c_begin + STAGE_CHUNKS * (warp + (i + NSTAGES - 1) * WARPS_PER_BLOCK), c_end,
                       k / 2, k / 16, lane);
      copy_commit();
      copy_wait<NSTAGES - 1>();   // this lane's copies of stage i have landed
      __syncwarp();               // ... and every lane's
      const uint8_t* st = ring + cur * Stage<R>::bytes;
#pragma unroll 2   // fully unrolled, ptxas keeps the prmt tables in uniform registers and copies them per use
      for (int cc = 0; cc < STAGE_CHUNKS; ++cc) {   // zero-filled chunks add exactly nothing
        const BFrag f = b_frag(stage_b_chunk<R>(st, cc, t, beta), tb);
#pragma unroll
        for (int r = 0; r < R; ++r) tile_dot(stage_chunk<R>(st, r, cc, g, t), f, mask0, mask1, tb, acc_lo[r], acc_hi[r]);
      }
      __syncwarp();               // all lanes are done with the slot before it is refilled
      cur = cur == NSTAGES - 1 ? 0 : cur + 1;
      next_slot = next_slot == NSTAGES - 1 ? 0 : next_slot + 1;
    }

    // Row sums: the four lanes of a row group, then the warps in a fixed order.
#pragma unroll
    for (int r = 0; r < R; ++r) {
      acc_lo[r] += __shfl_xor_sync(0xFFFFFFFFu, acc_lo[r], 1);
      acc_lo[r] += __shfl_xor_sync(0xFFFFFFFFu, acc_lo[r], 2);
      acc_hi[r] += __shfl_xor_sync(0xFFFFFFFFu, acc_hi[r], 1);
      acc_hi[r] += __shfl_xor_sync(0xFFFFFFFFu, acc_hi[r], 2);
      if (t == 0) {
        partial[warp][r * TILE_ROWS + g] = acc_lo[r];
        partial[warp][r * TILE_ROWS + g + 8] = acc_hi[r];
      }
    }
    __syncthreads();
    float sum = 0.0f;
    if (threadIdx.x < R * TILE_ROWS) {
      sum = partial[0][threadIdx.x];
#pragma unroll
      for (int w = 1; w < WARPS_PER_BLOCK; ++w) sum += partial[w][threadIdx.x];
    }
    if (c_begin == 0 && c_end == chunks) {  // the whole group: no other block involved
      if (threadIdx.x < R * TILE_ROWS) c[row0 + threadIdx.x] = __float2half_rn(sum);
      __syncthreads();                      // partial[] is reused by the next segment
      continue;
    }
    // A split group: slot 0 holds a block's first segment, slot 1 its last (only these two can be
    // partial). The blocks owner(first unit) .. owner(last unit) contribute, in that order; all but
    // the first begin inside this group (slot 0), the first does if its range starts at the group.
    const long long first = owner(group * chunks, units, nb), last = owner(group * chunks + chunks - 1, units, nb);
    const int slot = group == u_begin / chunks ? 0 : 1;
    if (threadIdx.x < R * TILE_ROWS) {
      ws_partial[(blockIdx.x * 2 + slot) * (R * TILE_ROWS) + threadIdx.x] = sum;
      __threadfence();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      const int arrived = atomicAdd(ws_count + group, 1);
      is_last = arrived == static_cast<int>(last - first);
    }
    __syncthreads();
    if (is_last) {
      __threadfence();
      if (threadIdx.x < R * TILE_ROWS) {
        const int first_slot = first * units / nb >= group * chunks ? 0 : 1;
        float total = take(ws_partial + (first * 2 + first_slot) * (R * TILE_ROWS) + threadIdx.x);
        for (long long blk = first + 1; blk <= last; ++blk)
          total += take(ws_partial + blk * 2 * (R * TILE_ROWS) + threadIdx.x);
        c[row0 + threadIdx.x] = __float2half_rn(total);
      }
      if (threadIdx.x == 0) ws_count[group] = 0;   // with take(): the workspace is left zeroed
    }
    __syncthreads();                              // partial[] and is_last are reused
  }
}

template <int R>
static constexpr int ring_bytes() { return WARPS_PER_BLOCK * NSTAGES * Stage<R>::bytes; }

// Grid: the resident blocks of all SMs, capped so that every warp gets MIN_CHUNKS_PER_WARP chunks.
template <int R>
static long long resident_blocks() {
  static int resident = 0;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaFuncSetAttribute(nvfp4_gemv_kernel<R>, cudaFuncAttributeMaxDynamicSharedMemorySize, ring_bytes<R>());
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_kernel<R>, WARPS_PER_BLOCK * 32, ring_bytes<R>());
    if (BLOCKS_PER_SM > 0 && BLOCKS_PER_SM < per_sm) per_sm = BLOCKS_PER_SM;
    resident = sms * (per_sm > 0 ? per_sm : 1);
  }
  return resident;
}

static long long sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  }
  return sms;
}

constexpr long long kMinUnitsPerBlock = static_cast<long long>(WARPS_PER_BLOCK) * MIN_CHUNKS_PER_WARP;

static long long units_of(int m, int k, int l, int r) {
  return static_cast<long long>(m) * l / (r * TILE_ROWS) * ((k + CHUNK_K - 1) / CHUNK_K);
}

// Dispatch: the group size R (tiles sharing one B decode) is the largest of TILES_PER_WARP, 2, 1
// whose units still give every SM one block of at least kMinUnitsPerBlock units; the grid is then
// min(resident blocks, units / kMinUnitsPerBlock), at least 1.
static int pick_r(int m, int k, int l) {
  for (int r = TILES_PER_WARP; r > 1; r /= 2)
    if (units_of(m, k, l, r) >= sm_count() * kMinUnitsPerBlock) return r;
  return 1;
}

static long long grid_blocks(int m, int k, int l, int r) {
  const long long resident = r == 2 ? resident_blocks<2>() : resident_blocks<1>();
  const long long by_work = units_of(m, k, l, r) / kMinUnitsPerBlock;
  return by_work < 1 ? 1 : (by_work < resident ? by_work : resident);
}

extern "C" size_t nvfp4_gemv_workspace_bytes(int m, int k, int l) {
  // two partial slots of R*TILE_ROWS floats per block, then one arrival counter per group
  const int r = pick_r(m, k, l);
  return static_cast<size_t>(grid_blocks(m, k, l, r)) * 2 * r * TILE_ROWS * sizeof(float) +
         static_cast<size_t>(m) * l / (r * TILE_ROWS) * sizeof(int);
}

template <int R>
static void launch(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                   __half* c, int m, int k, int l, long long b_batch_stride, long long sfb_batch_stride,
                   void* workspace, cudaStream_t stream) {
  const long long nb = grid_blocks(m, k, l, R);
  float* ws_partial = static_cast<float*>(workspace);
  int* ws_count = reinterpret_cast<int*>(ws_partial + nb * 2 * R * TILE_ROWS);
  nvfp4_gemv_kernel<R><<<static_cast<unsigned>(nb), WARPS_PER_BLOCK * 32, ring_bytes<R>(), stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride,
      static_cast<long long>(m) * l / (R * TILE_ROWS), ws_partial, ws_count);
}

extern "C" int nvfp4_gemv_with_workspace(const uint8_t* a, const uint8_t* b, const uint8_t* sfa,
                                         const uint8_t* sfb, __half* c, int m, int k, int l,
                                         long long b_batch_stride, long long sfb_batch_stride,
                                         void* workspace, cudaStream_t stream) {
  // R * TILE_ROWS (at most 32) divides M (a multiple of 128): no group spans batches.
  const int r = pick_r(m, k, l);
  if (r == 2) launch<2>(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, workspace, stream);
  else launch<1>(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, workspace, stream);
  return static_cast<int>(cudaGetLastError());
}
