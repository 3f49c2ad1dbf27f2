// 17 regcap-32: 16 with the kernel capped at 32 registers per thread (__maxnreg__), for the
// occupancy the cap allows; ptxas spills what does not fit to local memory.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_cvt.cuh"
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

// Launch shape, the one place to edit: 16 x 8 won `make sweep-05` on the H100 (the rows with a
// config in results/h100.csv, tabled in 05's README). Below 32 lanes per row a warp serves
// several rows and reduces with a sub-warp shuffle;
// ROWS_PER_BLOCK divides 128, hence M.
#ifndef THREADS_PER_ROW
#define THREADS_PER_ROW 16
#endif
#ifndef ROWS_PER_BLOCK
#define ROWS_PER_BLOCK 8
#endif
// Rows per thread group: they share each B tile (its load, its e2m1 and scale decode).
#ifndef ROWS_PER_THREAD
#define ROWS_PER_THREAD 2
#endif
static_assert(THREADS_PER_ROW == 4 || THREADS_PER_ROW == 8 || THREADS_PER_ROW == 16 || THREADS_PER_ROW == 32,
              "THREADS_PER_ROW must be 4, 8, 16 or 32");
static_assert(ROWS_PER_BLOCK >= 1 && ROWS_PER_BLOCK <= 16 && (ROWS_PER_BLOCK & (ROWS_PER_BLOCK - 1)) == 0,
              "ROWS_PER_BLOCK must be 1, 2, 4, 8 or 16");
static_assert(ROWS_PER_THREAD == 1 || ROWS_PER_THREAD == 2 || ROWS_PER_THREAD == 4,
              "ROWS_PER_THREAD must be 1, 2 or 4");
constexpr int BLOCK_M = ROWS_PER_BLOCK * ROWS_PER_THREAD;  // rows per block
static_assert(128 % BLOCK_M == 0, "BLOCK_M must divide 128, hence M");
constexpr int TILE_K = 64;  // elements per lane step: 32 bytes of A/B, one word of 4 scales each
// Registers per thread the kernel may use (ptxas spills the rest): 32 allows 2048 threads per SM.
#ifndef MAX_REGISTERS
#define MAX_REGISTERS 32
#endif

// Tile pairs per unrolled step of a specialised instance: 0 (the default) unrolls them all.
#ifndef UNROLL_PAIRS
#define UNROLL_PAIRS 0
#endif

// One K tile of a thread's rows: A of each row and B as 8 words each (word w holds elements
// 8w..8w+7), the 4 scales of each.
struct Tile {
  uint4 a0[ROWS_PER_THREAD], a1[ROWS_PER_THREAD], b0, b1;
  uint32_t sfa[ROWS_PER_THREAD], sfb;
};

// Read-only (.nc) loads with cache hints. The L2 half of the hint is a cache policy operand
// (L2::cache_hint): ptxas accepts the L2::evict_first / L2::evict_last qualifiers on ld only for
// 256-bit loads, which sm_90a lacks. createpolicy with a constant fraction folds to a constant
// (UMOV); ptxas keeps each policy in two registers and copies it into the uniform registers the
// LDG's descriptor names (R2UR): a few instructions per loop iteration (4 R2UR per two-tile
// iteration of 13's sm_90a loop), nothing per load.
// Plain asm (not volatile): the bytes do not change during the kernel, so the loads may be
// scheduled like __ldg.
__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
__device__ __forceinline__ uint64_t policy_evict_last() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
// A and SFA: read exactly once; do not allocate in L1, evict first from L2.
__device__ __forceinline__ uint4 ld_stream(const uint4* p) {
  uint4 v;
  asm("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy_evict_first()));
  return v;
}
__device__ __forceinline__ uint32_t ld_stream(const uint32_t* p) {
  uint32_t v;
  asm("ld.global.nc.L1::no_allocate.L2::cache_hint.u32 %0, [%1], %2;"
      : "=r"(v) : "l"(p), "l"(policy_evict_first()));
  return v;
}
// A's 32 bytes of one tile, the same cache hints. 256-bit loads (ld.global.v8.b32, SASS
// LDG.E.NA.EFL2.256) exist only from sm_100 on (PTX ISA 8.8; ptxas: "256 bit wide load/store
// requires .target sm_100 or higher"), so the device pass for sm_90a, whose widest load is 128
// bits, issues two 128-bit loads instead. A 256-bit load may name L2::evict_first directly, which
// spares it the policy register. It needs a 32-byte aligned address: kWide says the launch found
// `a` so aligned (every row and tile offset is a multiple of 32 bytes; the contract promises only
// 16 for the base). The eight words come back as two uint4, which the decode unpacks byte by byte
// (mov.b32 {b0, b1, b2, b3} in DECODE_WORDS).
template <bool kWide>
__device__ __forceinline__ void ld_stream_32B(const uint4* p, uint4& lo, uint4& hi) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
  if constexpr (kWide) {
    asm("ld.global.nc.L1::no_allocate.L2::evict_first.v8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
        : "=r"(lo.x), "=r"(lo.y), "=r"(lo.z), "=r"(lo.w), "=r"(hi.x), "=r"(hi.y), "=r"(hi.z), "=r"(hi.w)
        : "l"(p));
    return;
  }
#endif
  lo = ld_stream(p);
  hi = ld_stream(p + 1);
}
// B and SFB: read by every row of the batch; keep them in L1 and L2.
__device__ __forceinline__ uint4 ld_keep(const uint4* p) {
  uint4 v;
  asm("ld.global.nc.L1::evict_last.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy_evict_last()));
  return v;
}
__device__ __forceinline__ uint32_t ld_keep(const uint32_t* p) {
  uint32_t v;
  asm("ld.global.nc.L1::evict_last.L2::cache_hint.u32 %0, [%1], %2;"
      : "=r"(v) : "l"(p), "l"(policy_evict_last()));
  return v;
}

// a_row and sfa_row point at the thread's first row; its other rows follow k/2 and k/16 bytes on.
template <bool kWideA>
__device__ __forceinline__ Tile load_tile(const uint8_t* a_row, const uint8_t* b_row,
                                          const uint8_t* sfa_row, const uint8_t* sfb_row, int tile, int k) {
  const uint4* b_ptr = reinterpret_cast<const uint4*>(b_row + tile * (TILE_K / 2));
  Tile t;
#pragma unroll
  for (int j = 0; j < ROWS_PER_THREAD; ++j) {
    const uint4* a_ptr = reinterpret_cast<const uint4*>(a_row + j * (k / 2) + tile * (TILE_K / 2));
    ld_stream_32B<kWideA>(a_ptr, t.a0[j], t.a1[j]);
    t.sfa[j] = ld_stream(reinterpret_cast<const uint32_t*>(sfa_row + j * (k / 16) + tile * (TILE_K / 16)));
  }
  t.b0 = ld_keep(b_ptr);
  t.b1 = ld_keep(b_ptr + 1);
  t.sfb = ld_keep(reinterpret_cast<const uint32_t*>(sfb_row + tile * (TILE_K / 16)));
  return t;
}

// B's tile decoded once for all of a thread's rows: 32 f16x2 registers (f[4w + i] holds the two
// elements of byte i of word w) and its four scales as two f16x2 pairs.
struct DecodedB {
  uint32_t f[32];
  uint32_t sfb01, sfb23;
};

// PTX text decoding one word of B (operand bw) into four f16x2 operands f0..f3.
#define DECODE_B_WORD(bw, f0, f1, f2, f3)                                      \
  "mov.b32 {%%b0, %%b1, %%b2, %%b3}, " bw ";\n"                                 \
  NVFP4_CVT_E2M1X2(f0, "%%b0") NVFP4_CVT_E2M1X2(f1, "%%b1")                     \
  NVFP4_CVT_E2M1X2(f2, "%%b2") NVFP4_CVT_E2M1X2(f3, "%%b3")

// Operands: %0-%31 the decoded elements, %32-%33 the scales, %34-%41 B words, %42 sfb.
__device__ __forceinline__ DecodedB decode_b(const Tile& t) {
  DecodedB d;
  asm("{\n"
      ".reg .b8 %%b<4>;\n"
      ".reg .b16 %%sfblo, %%sfbhi;\n"
      DECODE_B_WORD("%34", "%0", "%1", "%2", "%3")
      DECODE_B_WORD("%35", "%4", "%5", "%6", "%7")
      DECODE_B_WORD("%36", "%8", "%9", "%10", "%11")
      DECODE_B_WORD("%37", "%12", "%13", "%14", "%15")
      DECODE_B_WORD("%38", "%16", "%17", "%18", "%19")
      DECODE_B_WORD("%39", "%20", "%21", "%22", "%23")
      DECODE_B_WORD("%40", "%24", "%25", "%26", "%27")
      DECODE_B_WORD("%41", "%28", "%29", "%30", "%31")
      "mov.b32 {%%sfblo, %%sfbhi}, %42;\n"
      "cvt.rn.f16x2.e4m3x2 %32, %%sfblo;\n"
      "cvt.rn.f16x2.e4m3x2 %33, %%sfbhi;\n"
      "}\n"
      : "=r"(d.f[0]), "=r"(d.f[1]), "=r"(d.f[2]), "=r"(d.f[3]), "=r"(d.f[4]), "=r"(d.f[5]), "=r"(d.f[6]),
        "=r"(d.f[7]), "=r"(d.f[8]), "=r"(d.f[9]), "=r"(d.f[10]), "=r"(d.f[11]), "=r"(d.f[12]), "=r"(d.f[13]),
        "=r"(d.f[14]), "=r"(d.f[15]), "=r"(d.f[16]), "=r"(d.f[17]), "=r"(d.f[18]), "=r"(d.f[19]),
        "=r"(d.f[20]), "=r"(d.f[21]), "=r"(d.f[22]), "=r"(d.f[23]), "=r"(d.f[24]), "=r"(d.f[25]),
        "=r"(d.f[26]), "=r"(d.f[27]), "=r"(d.f[28]), "=r"(d.f[29]), "=r"(d.f[30]), "=r"(d.f[31]),
        "=r"(d.sfb01), "=r"(d.sfb23)
      : "r"(t.b0.x), "r"(t.b0.y), "r"(t.b0.z), "r"(t.b0.w), "r"(t.b1.x), "r"(t.b1.y), "r"(t.b1.z), "r"(t.b1.w),
        "r"(t.sfb));
  return d;
}

// PTX text for one word of A (operand aw): unpack 4 bytes, decode 4 f16x2 pairs of e2m1 values,
// leave them in %%fa0..3.
#define DECODE_A_WORD(aw)                                                      \
  "mov.b32 {%%a0, %%a1, %%a2, %%a3}, " aw ";\n"                                 \
  NVFP4_CVT_E2M1X2("%%fa0", "%%a0") NVFP4_CVT_E2M1X2("%%fa1", "%%a1")           \
  NVFP4_CVT_E2M1X2("%%fa2", "%%a2") NVFP4_CVT_E2M1X2("%%fa3", "%%a3")

// One scale block (two words of A against eight decoded f16x2 of B, 16 elements): an f16x2
// chain of 8 products per half lane (exact: e2m1 products are multiples of 1/4 up to 36), then
// the two halves summed in f32 into %%bs.
#define BLOCK_SUM(aw0, aw1, f0, f1, f2, f3, f4, f5, f6, f7)                     \
  DECODE_A_WORD(aw0)                                                            \
  "mul.rn.f16x2 %%p, %%fa0, " f0 ";\n"                                          \
  "fma.rn.f16x2 %%p, %%fa1, " f1 ", %%p;\n"                                     \
  "fma.rn.f16x2 %%p, %%fa2, " f2 ", %%p;\n"                                     \
  "fma.rn.f16x2 %%p, %%fa3, " f3 ", %%p;\n"                                     \
  DECODE_A_WORD(aw1)                                                            \
  "fma.rn.f16x2 %%p, %%fa0, " f4 ", %%p;\n"                                     \
  "fma.rn.f16x2 %%p, %%fa1, " f5 ", %%p;\n"                                     \
  "fma.rn.f16x2 %%p, %%fa2, " f6 ", %%p;\n"                                     \
  "fma.rn.f16x2 %%p, %%fa3, " f7 ", %%p;\n"                                     \
  "mov.b32 {%%h0, %%h1}, %%p;\n"                                                \
  "cvt.f32.f16 %%f0, %%h0;\n"                                                   \
  "cvt.f32.f16 %%f1, %%h1;\n"                                                   \
  "add.f32 %%bs, %%f0, %%f1;\n"

// One row's part of a tile in one asm statement, against the decoded B. Scale products sfa*sfb
// are formed in f16x2 (they overflow past 65504) and widened to f32; each block sum is scaled and
// added in f32 into the tile's partial, which is added to the row's accumulator once: 07's
// arithmetic, in 07's order. Operands: %0 acc, %1-%8 A words, %9-%40 decoded B, %41 sfa,
// %42-%43 B's scales. Plain asm (not volatile): a pure function of its operands.
__device__ __forceinline__ float row_dot(const uint4& a0, const uint4& a1, uint32_t sfa, const DecodedB& d,
                                         float acc) {
  asm("{\n"
      ".reg .b16 %%sfalo, %%sfahi, %%h0, %%h1;\n"
      ".reg .b32 %%sfa01, %%sfa23, %%sc01, %%sc23;\n"
      ".reg .b8 %%a<4>;\n"
      ".reg .b32 %%fa<4>, %%p;\n"
      ".reg .f32 %%scale<4>, %%f0, %%f1, %%bs, %%tile;\n"
      "mov.b32 {%%sfalo, %%sfahi}, %41;\n"
      "cvt.rn.f16x2.e4m3x2 %%sfa01, %%sfalo;\n"
      "cvt.rn.f16x2.e4m3x2 %%sfa23, %%sfahi;\n"
      "mul.rn.f16x2 %%sc01, %%sfa01, %42;\n"
      "mul.rn.f16x2 %%sc23, %%sfa23, %43;\n"
      "mov.b32 {%%h0, %%h1}, %%sc01;\n"
      "cvt.f32.f16 %%scale0, %%h0;\n"
      "cvt.f32.f16 %%scale1, %%h1;\n"
      "mov.b32 {%%h0, %%h1}, %%sc23;\n"
      "cvt.f32.f16 %%scale2, %%h0;\n"
      "cvt.f32.f16 %%scale3, %%h1;\n"
      BLOCK_SUM("%1", "%2", "%9", "%10", "%11", "%12", "%13", "%14", "%15", "%16")
      "mul.f32 %%tile, %%bs, %%scale0;\n"
      BLOCK_SUM("%3", "%4", "%17", "%18", "%19", "%20", "%21", "%22", "%23", "%24")
      "fma.rn.f32 %%tile, %%bs, %%scale1, %%tile;\n"
      BLOCK_SUM("%5", "%6", "%25", "%26", "%27", "%28", "%29", "%30", "%31", "%32")
      "fma.rn.f32 %%tile, %%bs, %%scale2, %%tile;\n"
      BLOCK_SUM("%7", "%8", "%33", "%34", "%35", "%36", "%37", "%38", "%39", "%40")
      "fma.rn.f32 %%tile, %%bs, %%scale3, %%tile;\n"
      "add.f32 %0, %0, %%tile;\n"
      "}\n"
      : "+f"(acc)
      : "r"(a0.x), "r"(a0.y), "r"(a0.z), "r"(a0.w), "r"(a1.x), "r"(a1.y), "r"(a1.z), "r"(a1.w),
        "r"(d.f[0]), "r"(d.f[1]), "r"(d.f[2]), "r"(d.f[3]), "r"(d.f[4]), "r"(d.f[5]), "r"(d.f[6]),
        "r"(d.f[7]), "r"(d.f[8]), "r"(d.f[9]), "r"(d.f[10]), "r"(d.f[11]), "r"(d.f[12]), "r"(d.f[13]),
        "r"(d.f[14]), "r"(d.f[15]), "r"(d.f[16]), "r"(d.f[17]), "r"(d.f[18]), "r"(d.f[19]),
        "r"(d.f[20]), "r"(d.f[21]), "r"(d.f[22]), "r"(d.f[23]), "r"(d.f[24]), "r"(d.f[25]),
        "r"(d.f[26]), "r"(d.f[27]), "r"(d.f[28]), "r"(d.f[29]), "r"(d.f[30]), "r"(d.f[31]),
        "r"(sfa), "r"(d.sfb01), "r"(d.sfb23));
  return acc;
}

// One tile for all of the thread's rows: B decoded once, then each row against it.
__device__ __forceinline__ void tile_dot(const Tile& t, float (&acc)[ROWS_PER_THREAD]) {
  const DecodedB d = decode_b(t);
#pragma unroll
  for (int j = 0; j < ROWS_PER_THREAD; ++j) acc[j] = row_dot(t.a0[j], t.a1[j], t.sfa[j], d, acc[j]);
}

// Shuffle within each group of THREADS_PER_ROW lanes. A block smaller than a warp leaves the
// warp's upper lanes unused, so the mask names only the lanes that exist.
__device__ __forceinline__ float row_reduce_sum(float v) {
  constexpr int kBlockThreads = THREADS_PER_ROW * ROWS_PER_BLOCK;
  constexpr unsigned kMask = kBlockThreads >= 32 ? 0xFFFFFFFFu : (1u << kBlockThreads) - 1u;
#pragma unroll
  for (int offset = THREADS_PER_ROW / 2; offset > 0; offset >>= 1) {
    v += __shfl_down_sync(kMask, v, offset, THREADS_PER_ROW);
  }
  return v;
}

// kK: the K this instance is compiled for, a multiple of THREADS_PER_ROW * TILE_K so that every
// lane has the same number of tiles; 0 for the generic instance, which takes k at run time.
template <int kK, bool kWideA>
__global__ void __maxnreg__(MAX_REGISTERS) nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                                  __half* __restrict__ c, int m, int k,
                                  long long b_batch_stride, long long sfb_batch_stride) {
  static_assert(kK % (THREADS_PER_ROW * TILE_K) == 0, "a specialised K gives every lane the same tiles");
  if (kK != 0) k = kK;  // from here on a compile-time constant in a specialised instance
  const int lane = threadIdx.x % THREADS_PER_ROW;
  // Row index over all batches; a, sfa and c are [L][M][...] so (l*M + r) addresses them directly.
  // This thread's rows are row .. row + ROWS_PER_THREAD - 1, all in one batch (BLOCK_M divides M).
  const long long row = (static_cast<long long>(blockIdx.x) * ROWS_PER_BLOCK + threadIdx.x / THREADS_PER_ROW) *
                        ROWS_PER_THREAD;
  const long long batch = row / m;
  const uint8_t* a_row = a + row * (k / 2);
  const uint8_t* sfa_row = sfa + row * (k / 16);
  const uint8_t* b_row = b + batch * b_batch_stride;
  const uint8_t* sfb_row = sfb + batch * sfb_batch_stride;
  const int num_tiles = k / TILE_K;

  // This lane's tiles are lane, lane + THREADS_PER_ROW, ... below num_tiles: a compile-time
  // count in a specialised instance, where the pair loop is unrolled completely (UNROLL_PAIRS = 0)
  // or by UNROLL_PAIRS; the generic instance's loop is not unrolled.
  const int lane_tiles = kK != 0 ? kK / (THREADS_PER_ROW * TILE_K)
                                 : (num_tiles - lane + THREADS_PER_ROW - 1) / THREADS_PER_ROW;
  constexpr int kLanePairs = kK / (THREADS_PER_ROW * TILE_K) / 2;
  constexpr int kUnroll = kK == 0 ? 1 : UNROLL_PAIRS > 0 ? UNROLL_PAIRS : kLanePairs > 0 ? kLanePairs : 1;

  float acc[ROWS_PER_THREAD] = {};
  int tile = lane;
#pragma unroll kUnroll
  for (int pair = 0; pair < lane_tiles / 2; ++pair, tile += 2 * THREADS_PER_ROW) {
    const Tile t0 = load_tile<kWideA>(a_row, b_row, sfa_row, sfb_row, tile, k);
    const Tile t1 = load_tile<kWideA>(a_row, b_row, sfa_row, sfb_row, tile + THREADS_PER_ROW, k);
    tile_dot(t0, acc);
    tile_dot(t1, acc);
  }
  if (lane_tiles % 2 != 0) {  // this lane's odd last tile
    // Its index is written from lane_tiles, not from the loop's `tile`: given the same expression
    // as the pair loop's first tile, LLVM merges the two and rotates the loop, which then stays
    // rolled at K = 7168 (seen in the PTX).
    const Tile t = load_tile<kWideA>(a_row, b_row, sfa_row, sfb_row, lane + (lane_tiles - 1) * THREADS_PER_ROW, k);
    tile_dot(t, acc);
  }

#pragma unroll
  for (int j = 0; j < ROWS_PER_THREAD; ++j) {
    const float sum = row_reduce_sum(acc[j]);
    if (lane == 0) c[row + j] = __float2half_rn(sum);
  }
}

// Launch the instance for kK if k is kK and kK suits THREADS_PER_ROW; say whether it launched.
// The specialised instances use 256-bit loads on sm_100a, so they also want `a` 32-byte aligned.
template <int kK>
bool launch_specialised(const dim3& grid, const uint8_t* a, const uint8_t* b, const uint8_t* sfa,
                        const uint8_t* sfb, __half* c, int m, int k, long long b_batch_stride,
                        long long sfb_batch_stride, cudaStream_t stream) {
  if constexpr (kK % (THREADS_PER_ROW * TILE_K) != 0) {
    return false;  // e.g. K = 1024 with 32 lanes per row: some lanes would have no tile
  } else {
    if (k != kK || reinterpret_cast<uintptr_t>(a) % 32 != 0) return false;
    nvfp4_gemv_kernel<kK, true><<<grid, THREADS_PER_ROW * ROWS_PER_BLOCK, 0, stream>>>(
        a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride);
    return true;
  }
}

// The specialised K: the benchmark's (16384, 7168, 2048) and common LLM layer widths. Every other
// K (any multiple of 64) runs the generic instance.
#define NVFP4_SPECIALISED_K(X) X(1024) X(2048) X(4096) X(7168) X(8192) X(14336) X(16384) X(28672)

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  // BLOCK_M divides M (a multiple of 128): the grid covers every row and no block spans batches.
  const long long rows = static_cast<long long>(m) * l;
  const dim3 grid(static_cast<unsigned>(rows / BLOCK_M));
#define NVFP4_TRY_K(K_) launch_specialised<K_>(grid, a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, stream) ||
  if (NVFP4_SPECIALISED_K(NVFP4_TRY_K) false) return static_cast<int>(cudaGetLastError());
#undef NVFP4_TRY_K
  // 256-bit loads of A need `a` 32-byte aligned (only sm_100a uses them; sm_90a runs either
  // instance the same way).
  if (reinterpret_cast<uintptr_t>(a) % 32 == 0) {
    nvfp4_gemv_kernel<0, true><<<grid, THREADS_PER_ROW * ROWS_PER_BLOCK, 0, stream>>>(a, b, sfa, sfb, c, m, k,
                                                                                   b_batch_stride, sfb_batch_stride);
  } else {
    nvfp4_gemv_kernel<0, false><<<grid, THREADS_PER_ROW * ROWS_PER_BLOCK, 0, stream>>>(a, b, sfa, sfb, c, m, k,
                                                                                    b_batch_stride, sfb_batch_stride);
  }
  return static_cast<int>(cudaGetLastError());
}
