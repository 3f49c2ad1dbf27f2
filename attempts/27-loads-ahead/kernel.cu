// 27 loads-ahead: 25 with every A and SFA load of UNROLL chunks issued before any of them is used.
// 25's source loads two chunks before computing them, but ptxas (sm_90a) sinks each load to just
// before its first use: a warp has one chunk's A in flight, and its scale loads go out only after
// the chunk's IMMAs, so one loop trip waits on DRAM three times for 2 x 1152 bytes. Here the A
// and SFA loads are `ld.relaxed` (strong) loads, which ptxas keeps in program order among
// themselves, issued from the last chunk of the batch down to the first: the first chunk's A,
// which the first IMMA needs, is the last load of the batch, so all UNROLL chunks' loads (UNROLL x
// 1152 bytes per warp) are in flight before the warp waits once. A takes the gpu scope (no L1
// allocation, read once), SFA the cta scope (L1 may serve the block's other warps, which read the
// same sectors). The warp's last chunks (fewer than UNROLL) go as one batch with predicated loads.
// The arithmetic and its order (chunks in increasing order per warp) are 25's.
// From 25 splitk-fill, unchanged: 18 with K split over several blocks when the tiles alone cannot fill the GPU.
// 18 runs one block of 4 warps per 16-row tile, so shapes with few tiles and long rows (4096 x
// 14336, 7168 x 16384, 128 x 16384) leave most warp slots empty. Here the grid is tiles x S blocks,
// S = resident blocks of the GPU / tiles (at least 1, at most chunks / warps per block), block s of
// a tile taking chunks [s*C/S, (s+1)*C/S). With S > 1 each block stores its fp32 row sums in the
// workspace and the last block of the tile to arrive (a counter it resets) adds the S partials in
// order s = 0..S-1, clearing them: deterministic, and the workspace is all zeros after the call.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

// Launch shape: S blocks per 16-row tile (dispatch below), each block's K range split over
// WARPS_PER_BLOCK warps (chunks dealt round-robin), the warps' partial row sums added in shared
// memory in a fixed order, the blocks' sums in the workspace in a fixed order.
#ifndef WARPS_PER_BLOCK
#define WARPS_PER_BLOCK 4
#endif
static_assert(WARPS_PER_BLOCK >= 1 && WARPS_PER_BLOCK <= 32, "WARPS_PER_BLOCK must be 1..32");
// Chunks per warp whose loads are all issued before the first of them is used.
#ifndef UNROLL
#define UNROLL 4
#endif
static_assert(UNROLL >= 1 && UNROLL <= 8, "UNROLL must be 1..8");
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

// Strong loads: ptxas keeps them in program order among themselves, so a batch of them cannot be
// sunk towards its uses as 25's __ldg loads are (see the header).
__device__ __forceinline__ uint4 ld_ahead_a(const uint8_t* p) {
  uint4 v;
  asm volatile("ld.relaxed.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}
__device__ __forceinline__ uint32_t ld_ahead_sf(const uint8_t* p) {
  unsigned short v;
  asm volatile("ld.relaxed.cta.global.u16 %0, [%1];" : "=h"(v) : "l"(p));
  return v;
}

// Chunk `ahead` chunks past p. valid = false gives zeros (the lanes past the end of a last chunk of
// 64 elements, K = 64 mod 128): zero A, B and scales add exactly nothing.
__device__ __forceinline__ Chunk load_chunk(const LanePtrs& p, int ahead, bool valid = true) {
  Chunk ch;
  if (valid) {
    const int off = ahead * (CHUNK_K / 2), sf_off = ahead * (CHUNK_K / 16);
    ch.sfa_lo = ld_ahead_sf(p.sfa_lo + sf_off);  // scales first: the A of a batch's first chunk is
    ch.sfa_hi = ld_ahead_sf(p.sfa_hi + sf_off);  // then the batch's last load (see the main loop)
    ch.a_lo = ld_ahead_a(p.a_lo + off);
    ch.a_hi = ld_ahead_a(p.a_hi + off);
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

__device__ __forceinline__ BFrag b_frag(const BChunk& ch) {
  BFrag f;
  b_signed(ch.b.x, f.plus[0][0], f.minus[0][0]);
  b_signed(ch.b.x >> 16, f.plus[0][1], f.minus[0][1]);
  b_signed(ch.b.y, f.plus[1][0], f.minus[1][0]);
  b_signed(ch.b.y >> 16, f.plus[1][1], f.minus[1][1]);
  f.sfb = e4m3x2_to_float2(ch.sfb);
  f.sfb.x *= 0.25f;  // the int8 operands are twice the e2m1 values
  f.sfb.y *= 0.25f;
  return f;
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

__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k,
                  long long b_batch_stride, long long sfb_batch_stride,
                  int splits, float* __restrict__ ws_partial, int* __restrict__ ws_count) {
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
  const int full_chunks = k / CHUNK_K;         // then one chunk of 64 elements if K = 64 mod 128
  const int chunks = (k + CHUNK_K - 1) / CHUNK_K;
  const int c_begin = static_cast<int>(static_cast<long long>(split) * chunks / splits);
  const int c_end = static_cast<int>(static_cast<long long>(split + 1) * chunks / splits);
  const int split_full_end = c_end < full_chunks ? c_end : full_chunks;

  float acc_lo = 0.0f, acc_hi = 0.0f;
  int chunk = c_begin + warp;
  p.advance(chunk);
  // A batch: the loads of chunks u = UNROLL-1 .. 0 (strong loads keep this order, so the first
  // chunk's, needed first, go last), then the chunks in increasing order, as in 25.
  for (; chunk + (UNROLL - 1) * WARPS_PER_BLOCK < split_full_end; chunk += UNROLL * WARPS_PER_BLOCK) {
    Chunk cs[UNROLL];
    BChunk bs[UNROLL];
#pragma unroll
    for (int u = UNROLL - 1; u >= 0; --u) {
      cs[u] = load_chunk(p, u * WARPS_PER_BLOCK);
      bs[u] = load_b_chunk(p, u * WARPS_PER_BLOCK);
    }
    p.advance(UNROLL * WARPS_PER_BLOCK);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) tile_dot(cs[u], b_frag(bs[u]), mask0, mask1, acc_lo, acc_hi);
  }
  // This warp's last full chunks, fewer than UNROLL: one batch, the loads past them predicated off.
  const int left = chunk < split_full_end ? (split_full_end - chunk + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK : 0;
  if (left > 0) {
    Chunk cs[UNROLL];
    BChunk bs[UNROLL];
#pragma unroll
    for (int u = UNROLL - 1; u >= 0; --u) {
      cs[u] = load_chunk(p, u * WARPS_PER_BLOCK, u < left);
      bs[u] = load_b_chunk(p, u * WARPS_PER_BLOCK, u < left);
    }
    p.advance(left * WARPS_PER_BLOCK);
    chunk += left * WARPS_PER_BLOCK;
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
      if (u < left) tile_dot(cs[u], b_frag(bs[u]), mask0, mask1, acc_lo, acc_hi);
  }
  if (chunk == full_chunks && chunk < c_end) {  // the half chunk: lanes t = 0, 1 hold its 32 bytes
    const Chunk ch = load_chunk(p, 0, t < 2);
    const BChunk bc = load_b_chunk(p, 0, t < 2);
    tile_dot(ch, b_frag(bc), mask0, mask1, acc_lo, acc_hi);
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

// Dispatch: S = (resident blocks of the GPU) / tiles, at least 1 (then no workspace is touched)
// and at most chunks / WARPS_PER_BLOCK (every warp gets a chunk). With S > 1 the split grid fits
// in one wave of resident blocks, balanced to one block per SM.
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

static int splits_of(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const long long chunks = (k + CHUNK_K - 1) / CHUNK_K;
  long long s = resident_blocks() / tiles;
  const long long most = chunks / WARPS_PER_BLOCK;
  if (s > most) s = most;
  return static_cast<int>(s < 1 ? 1 : s);
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
  nvfp4_gemv_kernel<<<grid, WARPS_PER_BLOCK * 32, 0, stream>>>(a, b, sfa, sfb, c, m, k,
                                                               b_batch_stride, sfb_batch_stride,
                                                               s, ws_partial, ws_count);
  return static_cast<int>(cudaGetLastError());
}
