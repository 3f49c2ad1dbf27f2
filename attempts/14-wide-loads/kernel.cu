// 14 wide-loads: 13 with a lane's 32 bytes of A per tile fetched by one 256-bit load
// (ld.global.v8.b32) where the target has it (sm_100 and later); sm_90a keeps two 128-bit loads.
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
static_assert(THREADS_PER_ROW == 4 || THREADS_PER_ROW == 8 || THREADS_PER_ROW == 16 || THREADS_PER_ROW == 32,
              "THREADS_PER_ROW must be 4, 8, 16 or 32");
static_assert(ROWS_PER_BLOCK >= 1 && ROWS_PER_BLOCK <= 16 && (ROWS_PER_BLOCK & (ROWS_PER_BLOCK - 1)) == 0,
              "ROWS_PER_BLOCK must be 1, 2, 4, 8 or 16");
constexpr int TILE_K = 64;  // elements per lane step: 32 bytes of A/B, one word of 4 scales each

// One K tile of one row: A and B as 8 words each (word w holds elements 8w..8w+7), the 4 scales.
struct Tile {
  uint4 a0, a1, b0, b1;
  uint32_t sfa, sfb;
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

template <bool kWideA>
__device__ __forceinline__ Tile load_tile(const uint8_t* a_row, const uint8_t* b_row,
                                          const uint8_t* sfa_row, const uint8_t* sfb_row, int tile) {
  const uint4* a_ptr = reinterpret_cast<const uint4*>(a_row + tile * (TILE_K / 2));
  const uint4* b_ptr = reinterpret_cast<const uint4*>(b_row + tile * (TILE_K / 2));
  Tile t;
  ld_stream_32B<kWideA>(a_ptr, t.a0, t.a1);
  t.b0 = ld_keep(b_ptr);
  t.b1 = ld_keep(b_ptr + 1);
  t.sfa = ld_stream(reinterpret_cast<const uint32_t*>(sfa_row + tile * (TILE_K / 16)));
  t.sfb = ld_keep(reinterpret_cast<const uint32_t*>(sfb_row + tile * (TILE_K / 16)));
  return t;
}

// PTX text for one word of A (operand aw) against one word of B (operand bw): unpack 4 bytes of
// each, decode 8 f16x2 pairs of e2m1 values, leave them in %%fa0..3 and %%fb0..3.
#define DECODE_WORDS(aw, bw)                                                   \
  "mov.b32 {%%a0, %%a1, %%a2, %%a3}, " aw ";\n"                                 \
  "mov.b32 {%%b0, %%b1, %%b2, %%b3}, " bw ";\n"                                 \
  NVFP4_CVT_E2M1X2("%%fa0", "%%a0") NVFP4_CVT_E2M1X2("%%fa1", "%%a1")           \
  NVFP4_CVT_E2M1X2("%%fa2", "%%a2") NVFP4_CVT_E2M1X2("%%fa3", "%%a3")           \
  NVFP4_CVT_E2M1X2("%%fb0", "%%b0") NVFP4_CVT_E2M1X2("%%fb1", "%%b1")           \
  NVFP4_CVT_E2M1X2("%%fb2", "%%b2") NVFP4_CVT_E2M1X2("%%fb3", "%%b3")

// One scale block (two words of A and B, 16 elements): an f16x2 chain of 8 products per half
// lane (exact: e2m1 products are multiples of 1/4 up to 36), then the two halves summed in f32
// into %%bs.
#define BLOCK_SUM(aw0, bw0, aw1, bw1)                                          \
  DECODE_WORDS(aw0, bw0)                                                        \
  "mul.rn.f16x2 %%p, %%fa0, %%fb0;\n"                                           \
  "fma.rn.f16x2 %%p, %%fa1, %%fb1, %%p;\n"                                      \
  "fma.rn.f16x2 %%p, %%fa2, %%fb2, %%p;\n"                                      \
  "fma.rn.f16x2 %%p, %%fa3, %%fb3, %%p;\n"                                      \
  DECODE_WORDS(aw1, bw1)                                                        \
  "fma.rn.f16x2 %%p, %%fa0, %%fb0, %%p;\n"                                      \
  "fma.rn.f16x2 %%p, %%fa1, %%fb1, %%p;\n"                                      \
  "fma.rn.f16x2 %%p, %%fa2, %%fb2, %%p;\n"                                      \
  "fma.rn.f16x2 %%p, %%fa3, %%fb3, %%p;\n"                                      \
  "mov.b32 {%%h0, %%h1}, %%p;\n"                                                \
  "cvt.f32.f16 %%f0, %%h0;\n"                                                   \
  "cvt.f32.f16 %%f1, %%h1;\n"                                                   \
  "add.f32 %%bs, %%f0, %%f1;\n"

// One tile in one asm statement. Scale products sfa*sfb are formed in f16x2 (they overflow past
// 65504) and widened to f32; each block sum is scaled and added in f32 into the tile's partial,
// which is added to the lane's accumulator once. Operands: %0 acc, %1-%8 A words, %9-%16 B
// words, %17 sfa, %18 sfb. Plain asm (not volatile): a pure function of its operands.
__device__ __forceinline__ float tile_dot(const Tile& t, float acc) {
  asm("{\n"
      ".reg .b16 %%sfalo, %%sfahi, %%sfblo, %%sfbhi, %%h0, %%h1;\n"
      ".reg .b32 %%sfa01, %%sfa23, %%sfb01, %%sfb23, %%sc01, %%sc23;\n"
      ".reg .b8 %%a<4>, %%b<4>;\n"
      ".reg .b32 %%fa<4>, %%fb<4>, %%p;\n"
      ".reg .f32 %%scale<4>, %%f0, %%f1, %%bs, %%tile;\n"
      "mov.b32 {%%sfalo, %%sfahi}, %17;\n"
      "mov.b32 {%%sfblo, %%sfbhi}, %18;\n"
      "cvt.rn.f16x2.e4m3x2 %%sfa01, %%sfalo;\n"
      "cvt.rn.f16x2.e4m3x2 %%sfa23, %%sfahi;\n"
      "cvt.rn.f16x2.e4m3x2 %%sfb01, %%sfblo;\n"
      "cvt.rn.f16x2.e4m3x2 %%sfb23, %%sfbhi;\n"
      "mul.rn.f16x2 %%sc01, %%sfa01, %%sfb01;\n"
      "mul.rn.f16x2 %%sc23, %%sfa23, %%sfb23;\n"
      "mov.b32 {%%h0, %%h1}, %%sc01;\n"
      "cvt.f32.f16 %%scale0, %%h0;\n"
      "cvt.f32.f16 %%scale1, %%h1;\n"
      "mov.b32 {%%h0, %%h1}, %%sc23;\n"
      "cvt.f32.f16 %%scale2, %%h0;\n"
      "cvt.f32.f16 %%scale3, %%h1;\n"
      BLOCK_SUM("%1", "%9", "%2", "%10")
      "mul.f32 %%tile, %%bs, %%scale0;\n"
      BLOCK_SUM("%3", "%11", "%4", "%12")
      "fma.rn.f32 %%tile, %%bs, %%scale1, %%tile;\n"
      BLOCK_SUM("%5", "%13", "%6", "%14")
      "fma.rn.f32 %%tile, %%bs, %%scale2, %%tile;\n"
      BLOCK_SUM("%7", "%15", "%8", "%16")
      "fma.rn.f32 %%tile, %%bs, %%scale3, %%tile;\n"
      "add.f32 %0, %0, %%tile;\n"
      "}\n"
      : "+f"(acc)
      : "r"(t.a0.x), "r"(t.a0.y), "r"(t.a0.z), "r"(t.a0.w), "r"(t.a1.x), "r"(t.a1.y), "r"(t.a1.z), "r"(t.a1.w),
        "r"(t.b0.x), "r"(t.b0.y), "r"(t.b0.z), "r"(t.b0.w), "r"(t.b1.x), "r"(t.b1.y), "r"(t.b1.z), "r"(t.b1.w),
        "r"(t.sfa), "r"(t.sfb));
  return acc;
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

template <bool kWideA>
__global__ void nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                                  __half* __restrict__ c, int m, int k,
                                  long long b_batch_stride, long long sfb_batch_stride) {
  const int lane = threadIdx.x % THREADS_PER_ROW;
  // Row index over all batches; a, sfa and c are [L][M][...] so (l*M + r) addresses them directly.
  const long long row = static_cast<long long>(blockIdx.x) * ROWS_PER_BLOCK + threadIdx.x / THREADS_PER_ROW;
  const long long batch = row / m;
  const uint8_t* a_row = a + row * (k / 2);
  const uint8_t* sfa_row = sfa + row * (k / 16);
  const uint8_t* b_row = b + batch * b_batch_stride;
  const uint8_t* sfb_row = sfb + batch * sfb_batch_stride;
  const int num_tiles = k / TILE_K;

  float acc = 0.0f;
  int tile = lane;
  for (; tile + THREADS_PER_ROW < num_tiles; tile += 2 * THREADS_PER_ROW) {
    const Tile t0 = load_tile<kWideA>(a_row, b_row, sfa_row, sfb_row, tile);
    const Tile t1 = load_tile<kWideA>(a_row, b_row, sfa_row, sfb_row, tile + THREADS_PER_ROW);
    acc = tile_dot(t0, acc);
    acc = tile_dot(t1, acc);
  }
  if (tile < num_tiles) {  // this lane's odd last tile
    const Tile t = load_tile<kWideA>(a_row, b_row, sfa_row, sfb_row, tile);
    acc = tile_dot(t, acc);
  }

  acc = row_reduce_sum(acc);
  if (lane == 0) c[row] = __float2half_rn(acc);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  // ROWS_PER_BLOCK divides M (a multiple of 128): the grid covers every row and no block spans batches.
  const long long rows = static_cast<long long>(m) * l;
  const dim3 grid(static_cast<unsigned>(rows / ROWS_PER_BLOCK));
  // 256-bit loads of A need `a` 32-byte aligned (only sm_100a uses them; sm_90a runs either
  // instance the same way).
  if (reinterpret_cast<uintptr_t>(a) % 32 == 0) {
    nvfp4_gemv_kernel<true><<<grid, THREADS_PER_ROW * ROWS_PER_BLOCK, 0, stream>>>(a, b, sfa, sfb, c, m, k,
                                                                                b_batch_stride, sfb_batch_stride);
  } else {
    nvfp4_gemv_kernel<false><<<grid, THREADS_PER_ROW * ROWS_PER_BLOCK, 0, stream>>>(a, b, sfa, sfb, c, m, k,
                                                                                 b_batch_stride, sfb_batch_stride);
  }
  return static_cast<int>(cudaGetLastError());
}
