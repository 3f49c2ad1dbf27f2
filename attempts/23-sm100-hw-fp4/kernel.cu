// 23 sm100-hw-fp4: 22 with a Blackwell path. On sm_100a (NVFP4_HW_E2M1) A and B are decoded by
// the hardware cvt.rn.f16x2.e2m1x2 (one instruction per two elements, no tables, no sign split)
// and multiplied by HMMA m16n8k16 (f16 in, f32 accumulate) with the same virtual-k layout and
// column = scale block map; the sm_90a path is 22's int8 IMMA decode, unchanged. Compiled and
// disassembled for sm_100a, not run: no Blackwell GPU is available.
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
#define MIN_CHUNKS_PER_WARP 2
#endif
#ifndef TILES_PER_WARP
#define TILES_PER_WARP 4
#endif
#ifndef A_PREFETCH
#define A_PREFETCH 256   // L2 prefetch size hint of the A loads in bytes: 0 (none), 64, 128 or 256
#endif
static_assert(A_PREFETCH == 0 || A_PREFETCH == 64 || A_PREFETCH == 128 || A_PREFETCH == 256,
              "A_PREFETCH must be 0, 64, 128 or 256");
static_assert(TILES_PER_WARP == 1 || TILES_PER_WARP == 2 || TILES_PER_WARP == 4, "TILES_PER_WARP must be 1, 2 or 4");
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

#if A_PREFETCH == 0
#define A_LOAD_HINT ".L1::no_allocate"
#else
#define A_LOAD_HINT ".L1::no_allocate.L2::" A_PREFETCH_TEXT "B"
#define A_PREFETCH_TEXT A_PREFETCH_STR(A_PREFETCH)
#define A_PREFETCH_STR(x) A_PREFETCH_STR2(x)
#define A_PREFETCH_STR2(x) #x
#endif

// Read-once data: no L1 allocation, L2 prefetch hint.
__device__ __forceinline__ uint4 load_stream16(const uint8_t* p) {
  uint4 v;
  asm("ld.global.nc" A_LOAD_HINT ".v4.u32 {%0, %1, %2, %3}, [%4];"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}
__device__ __forceinline__ uint32_t load_stream2(const uint8_t* p) {
  unsigned short v;
  asm("ld.global.nc.L1::no_allocate.u16 %0, [%1];" : "=h"(v) : "l"(p));
  return v;
}

// Chunk `ahead` chunks past p. valid = false gives zeros (the lanes past the end of a last chunk of
// 64 elements, K = 64 mod 128): zero A, B and scales add exactly nothing.
__device__ __forceinline__ Chunk load_chunk(const LanePtrs& p, int ahead, long long tile_off,
                                            long long sf_tile_off, bool valid = true) {
  Chunk ch;
  if (valid) {
    const long long off = ahead * (CHUNK_K / 2) + tile_off, sf_off = ahead * (CHUNK_K / 16) + sf_tile_off;
    ch.a_lo = load_stream16(p.a_lo + off);
    ch.a_hi = load_stream16(p.a_hi + off);
    ch.sfa_lo = load_stream2(p.sfa_lo + sf_off);
    ch.sfa_hi = load_stream2(p.sfa_hi + sf_off);
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
  const int full_chunks = k / CHUNK_K;         // then one chunk of 64 elements if K = 64 mod 128
  const int chunks = (k + CHUNK_K - 1) / CHUNK_K;
  const long long units = groups * chunks, nb = gridDim.x;
  const long long tile_bytes = TILE_ROWS * static_cast<long long>(k / 2), tile_sf = TILE_ROWS * static_cast<long long>(k / 16);
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
    LanePtrs p;
    p.a_lo = a + (row0 + g) * (k / 2) + 16 * t;
    p.a_hi = p.a_lo + 8LL * (k / 2);
    p.sfa_lo = sfa + (row0 + g) * (k / 16) + 2 * t;
    p.sfa_hi = p.sfa_lo + 8LL * (k / 16);
    p.b_col = b + batch * b_batch_stride + 16 * t + 8 * (beta & 1);
    p.sfb = sfb + batch * sfb_batch_stride + 2 * t;
    const int seg_full_end = min(c_end, full_chunks);

    float acc_lo[R], acc_hi[R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc_lo[r] = acc_hi[r] = 0.0f;
    int chunk = c_begin + warp;
    p.advance(chunk);
    if (chunk < seg_full_end) {  // ping-pong between stages x and y: load one, compute the other
      Chunk x[R], y[R];
      BChunk bx, by;
#pragma unroll
      for (int r = 0; r < R; ++r) x[r] = load_chunk(p, 0, r * tile_bytes, r * tile_sf);
      bx = load_b_chunk(p, 0);
      while (true) {
        p.advance(WARPS_PER_BLOCK);
        chunk += WARPS_PER_BLOCK;
        const bool more_y = chunk < seg_full_end;
        if (more_y) {
#pragma unroll
          for (int r = 0; r < R; ++r) y[r] = load_chunk(p, 0, r * tile_bytes, r * tile_sf);
          by = load_b_chunk(p, 0);
        }
        const BFrag fx = b_frag(bx);
#pragma unroll
        for (int r = 0; r < R; ++r) tile_dot(x[r], fx, mask0, mask1, acc_lo[r], acc_hi[r]);
        if (!more_y) break;
        p.advance(WARPS_PER_BLOCK);
        chunk += WARPS_PER_BLOCK;
        const bool more_x = chunk < seg_full_end;
        if (more_x) {
#pragma unroll
          for (int r = 0; r < R; ++r) x[r] = load_chunk(p, 0, r * tile_bytes, r * tile_sf);
          bx = load_b_chunk(p, 0);
        }
        const BFrag fy = b_frag(by);
#pragma unroll
        for (int r = 0; r < R; ++r) tile_dot(y[r], fy, mask0, mask1, acc_lo[r], acc_hi[r]);
        if (!more_x) break;
      }
    }
    if (chunk == full_chunks && chunk < c_end) {  // the half chunk: lanes t = 0, 1 hold its 32 bytes
      Chunk ch[R];
#pragma unroll
      for (int r = 0; r < R; ++r) ch[r] = load_chunk(p, 0, r * tile_bytes, r * tile_sf, t < 2);
      const BChunk bc = load_b_chunk(p, 0, t < 2);
      const BFrag f = b_frag(bc);
#pragma unroll
      for (int r = 0; r < R; ++r) tile_dot(ch[r], f, mask0, mask1, acc_lo[r], acc_hi[r]);
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

// Grid: the resident blocks of all SMs, capped so that every warp gets MIN_CHUNKS_PER_WARP chunks.
template <int R>
static long long resident_blocks() {
  static int resident = 0;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_kernel<R>, WARPS_PER_BLOCK * 32, 0);
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
  const long long resident = r == 4 ? resident_blocks<4>() : r == 2 ? resident_blocks<2>() : resident_blocks<1>();
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
  nvfp4_gemv_kernel<R><<<static_cast<unsigned>(nb), WARPS_PER_BLOCK * 32, 0, stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride,
      static_cast<long long>(m) * l / (R * TILE_ROWS), ws_partial, ws_count);
}

extern "C" int nvfp4_gemv_with_workspace(const uint8_t* a, const uint8_t* b, const uint8_t* sfa,
                                         const uint8_t* sfb, __half* c, int m, int k, int l,
                                         long long b_batch_stride, long long sfb_batch_stride,
                                         void* workspace, cudaStream_t stream) {
  // R * TILE_ROWS (at most 64) divides M (a multiple of 128): no group spans batches.
  const int r = pick_r(m, k, l);
  if (r == 4) launch<4>(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, workspace, stream);
  else if (r == 2) launch<2>(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, workspace, stream);
  else launch<1>(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, workspace, stream);
  return static_cast<int>(cudaGetLastError());
}
