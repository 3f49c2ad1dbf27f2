// 84 imma-split: 76's split launch (a tile's K over the warps of one block, their sums added in
// shared memory in a fixed order) with the products on the tensor cores, as 18 had them: a tile is
// the mma's 16 rows, lane (g = lane / 4, t = lane % 4) holds rows g and g + 8, 16 bytes each at
// byte 16t of a 64-byte chunk of the rows, and one int8 IMMA replaces two dp4a per word of each
// row. 76's products spend 176 of its window loop's 351 SASS instructions on A (4 look-ups, 4
// dp4a, a XOR and two shifts per word); here a word of two rows costs 8 look-ups, 2 XOR, 4 shifts
// and 2 IMMA. The walk, the short window and the f16x2 path of 76 do not carry over: they are
// built on its 4-row, 1024-element windows (K mod 128 = 64 is a half chunk here, lanes t = 0, 1).
// Both targets build this int8 code: the sm_100a build does not use Blackwell's e2m1 conversion.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cmath>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

constexpr int MMA_ROWS = 16;              // the mma's M: lane (g, t) holds rows g and g + 8
constexpr int TILE_ROWS = 2 * MMA_ROWS;   // two mma tiles a warp share each decoded chunk of B
constexpr int LANE_ROWS = TILE_ROWS / 8;  // rows g, g + 8, g + 16, g + 24
constexpr int CHUNK_K = 128;              // elements per row per chunk: 64 bytes, 16 per lane, 8 scale blocks
// Registers: a chunk's loads for 4 rows, B's decoded words and two mma tiles' fragments spill at
// 64 (76's cap: blocks of up to 32 warps); at 80, none, and blocks of up to 24 warps fit an SM.
constexpr int MAX_REGISTERS = 80;
constexpr int MAX_SPLITS = 65536 / (MAX_REGISTERS * 32) / 4 * 4;  // warps in a block: 24
constexpr int MAX_PARTS = 32;             // blocks a tile, the grid's third dimension (at most 64)

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

// Strong loads for A and SFA under an L2 evict_first policy, as 76's (they keep program order
// among themselves; A and its scales are read once).
__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
__device__ __forceinline__ uint4 ld_stream_a(const uint8_t* p) {
  uint4 v;
  asm volatile("ld.relaxed.gpu.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy_evict_first()));
  return v;
}
__device__ __forceinline__ uint32_t ld_stream_sf(const uint8_t* p) {
  unsigned short v;
  asm volatile("ld.relaxed.gpu.global.L2::cache_hint.u16 %0, [%1], %2;"
               : "=h"(v) : "l"(p), "l"(policy_evict_first()));
  return v;
}

// A lane's place in the current chunk: its 16 bytes of row g and that row's two scales (blocks 2t,
// 2t + 1), the 8 bytes of B its mma column takes (block 2t + beta of lane t's slice) and B's scales
// of blocks 2t, 2t + 1. Rows g + 8, g + 16, g + 24 are at 32-bit offsets from row g, so that
// stepping to the next chunk moves four pointers, not sixteen row addresses.
struct LanePtrs {
  const uint8_t *a, *sfa, *b_col, *sfb;
  uint32_t a_rows[LANE_ROWS], sfa_rows[LANE_ROWS];  // byte offsets of rows g + 8r (r = 0: 0)
  __device__ __forceinline__ void next_chunk() {
    a += CHUNK_K / 2;
    sfa += CHUNK_K / 16;
    b_col += CHUNK_K / 2;
    sfb += CHUNK_K / 16;
  }
};

// One chunk of the lane's loads; zeros past K (the upper half of a half chunk) and, for B, in the
// lanes whose column takes no block (beta not 0 or 1).
struct ChunkLoads {
  uint4 a[LANE_ROWS];          // rows g + 8r
  uint32_t sfa[LANE_ROWS];     // two e4m3 scales each, in the low 16 bits
  uint2 b;
  uint32_t sfb;
};

__device__ __forceinline__ ChunkLoads chunk_loads(const LanePtrs& p, bool valid, bool b_lane) {
  ChunkLoads ch;
  if (valid) {
#pragma unroll
    for (int r = 0; r < LANE_ROWS; ++r) ch.sfa[r] = ld_stream_sf(p.sfa + p.sfa_rows[r]);
#pragma unroll
    for (int r = LANE_ROWS - 1; r >= 0; --r) ch.a[r] = ld_stream_a(p.a + p.a_rows[r]);
    ch.b = b_lane ? __ldg(reinterpret_cast<const uint2*>(p.b_col)) : make_uint2(0, 0);
    ch.sfb = __ldg(reinterpret_cast<const unsigned short*>(p.sfb));
  } else {
#pragma unroll
    for (int r = 0; r < LANE_ROWS; ++r) {
      ch.a[r] = make_uint4(0, 0, 0, 0);
      ch.sfa[r] = 0;
    }
    ch.b = make_uint2(0, 0);
    ch.sfb = 0;
  }
  return ch;
}

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

// The chunks K is split over: whole ones, then a half chunk if K mod 128 = 64.
__host__ __device__ __forceinline__ int chunks_of(int k) { return (k + CHUNK_K - 1) / CHUNK_K; }

// The workspace of a launch in parts: a counter per tile, then each tile's part sums.
struct Workspace {
  unsigned* counters;
  float* part_sums;  // [tile][part][row]
};

// Block (tile, part) of parts * splits warps a tile: warp s of part p is unit u = p * splits + s and
// takes chunks [u * q + min(u, rem), ... + q + (u < rem)), where chunks = q * units + rem (the
// dispatch's division). Its warps' sums are added in shared memory in warp order; with one part the
// block writes C, with several each block leaves its tile's row sums in the workspace and the last
// to finish (a ticket from the tile's counter) adds the parts in part order and writes C, then
// sets the sums and the counter back to zero. Bitwise repeatable: every sum has a fixed order.
__global__ void __maxnreg__(MAX_REGISTERS)
nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k,
                  long long b_batch_stride, long long sfb_batch_stride,
                  int splits, int batch0, int q, int rem, Workspace ws) {
  const int split = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);  // warp-uniform, as in 70
  const int lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const int beta = g - 2 * t;  // column g takes block 2t + beta of lane t's slice when beta is 0 or 1
  const bool b_lane = beta == 0 || beta == 1;
  const unsigned batch = batch0 + blockIdx.y;
  const long long tile = static_cast<long long>(batch) * (m / TILE_ROWS) + blockIdx.x;
  const long long row0 = tile * TILE_ROWS;
  LanePtrs p;
  p.a = a + (row0 + g) * (k / 2) + 16 * t;
  p.sfa = sfa + (row0 + g) * (k / 16) + 2 * t;
  p.b_col = b + batch * b_batch_stride + 16 * t + 8 * (beta & 1);
  p.sfb = sfb + batch * sfb_batch_stride + 2 * t;
#pragma unroll
  for (int r = 0; r < LANE_ROWS; ++r) {
    p.a_rows[r] = 8u * r * static_cast<uint32_t>(k / 2);  // below 2^32: K < 2^28 (the dispatch refuses more)
    p.sfa_rows[r] = 8u * r * static_cast<uint32_t>(k / 16);
  }
  const int unit = blockIdx.z * splits + split;
  const int c_begin = unit * q + min(unit, rem);
  const int c_end = c_begin + q + (unit < rem);
  const int lane_k = 32 * t;  // the lane's first element in a chunk
  p.a += static_cast<long long>(c_begin) * (CHUNK_K / 2);
  p.sfa += c_begin * (CHUNK_K / 16);
  p.b_col += static_cast<long long>(c_begin) * (CHUNK_K / 2);
  p.sfb += c_begin * (CHUNK_K / 16);

  uint32_t lane_id;  // mag_lo as in 70's kernel: kMagLo in a register ptxas does not rematerialize
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);
  float acc[LANE_ROWS] = {};
  for (int chunk = c_begin; chunk < c_end; ++chunk) {
    chunk_dot(mag_lo, chunk_loads(p, chunk * CHUNK_K + lane_k < k, b_lane), acc);
    p.next_chunk();
  }

  // Row sums: the four lanes of a row group, then the warps in a fixed order.
#pragma unroll
  for (int r = 0; r < LANE_ROWS; ++r) {
    acc[r] += __shfl_xor_sync(0xFFFFFFFFu, acc[r], 1);
    acc[r] += __shfl_xor_sync(0xFFFFFFFFu, acc[r], 2);
  }
  const int parts = gridDim.z;
  if (splits == 1 && parts == 1) {
    if (t == 0) {
#pragma unroll
      for (int r = 0; r < LANE_ROWS; ++r) c[row0 + g + 8 * r] = __float2half_rn(acc[r]);
    }
    return;
  }
  __shared__ float split_sum[MAX_SPLITS][TILE_ROWS];
  __shared__ bool last_part;
  if (t == 0) {
#pragma unroll
    for (int r = 0; r < LANE_ROWS; ++r) split_sum[split][g + 8 * r] = acc[r];
  }
  __syncthreads();
  const int row = threadIdx.x;
  float total = 0.0f;
  if (row < TILE_ROWS) {
    total = split_sum[0][row];
    for (int s = 1; s < splits; ++s) total += split_sum[s][row];
  }
  if (parts == 1) {
    if (row < TILE_ROWS) c[row0 + row] = __float2half_rn(total);
    return;
  }
  float* const sums = ws.part_sums + tile * parts * TILE_ROWS;
  if (row < TILE_ROWS) {
    sums[blockIdx.z * TILE_ROWS + row] = total;
    __threadfence();  // the sums are visible GPU-wide before the ticket is taken
  }
  __syncthreads();
  if (threadIdx.x == 0) last_part = atomicAdd(&ws.counters[tile], 1u) == static_cast<unsigned>(parts - 1);
  __syncthreads();
  if (!last_part) return;
  // The sums are zeroed as they are read, and the counter after them: a later call of another
  // shape lays its counters over other bytes of the workspace, which must then be zeros too.
  if (row < TILE_ROWS) {
    __threadfence();
    float sum = 0.0f;
    for (int part = 0; part < parts; ++part) {
      sum += __ldcg(sums + part * TILE_ROWS + row);  // L2, not a stale L1 line
      sums[part * TILE_ROWS + row] = 0.0f;
    }
    c[row0 + row] = __float2half_rn(sum);
  }
  if (threadIdx.x == 0) ws.counters[tile] = 0;
}

static int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  }
  return sms;
}

static long long resident_blocks(int s) {
  static int resident[MAX_SPLITS + 1] = {};
  if (resident[s] == 0) {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_kernel, s * 32, 0);
    resident[s] = sm_count() * (per_sm > 0 ? per_sm : 1);
  }
  return resident[s];
}

// Dispatch. Tiles of 32 rows are few where M * L is small (224 for 7168x16384x1, 1.7 an SM), and the
// GPU places blocks whole: parts split K over several blocks a tile, the fewest that leave the
// SMs within a tenth of even (blocks / SMs at least 0.9 of its next whole number), or the most even
// up to MAX_PARTS. Then 76's split within the block: S = (resident warps) / blocks, at least 1, at
// most the chunks of a part and MAX_SPLITS, lowered until the GPU holds every block at once.
struct Launch {
  int parts, splits;
};

static Launch launch_of(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const int chunks = chunks_of(k);
  Launch best = {1, 1};
  double best_even = 0.0;
  for (int parts = 1; parts <= MAX_PARTS && parts <= chunks; ++parts) {
    const double waves = static_cast<double>(tiles * parts) / sm_count();
    const double even = waves / std::ceil(waves);
    if (even > best_even + 1e-9) {
      best_even = even;
      best.parts = parts;
    }
    if (even >= 0.9) break;
  }
  const long long blocks = tiles * best.parts;
  long long s = resident_blocks(1) / blocks;
  if (s > chunks / best.parts) s = chunks / best.parts;
  if (s > MAX_SPLITS) s = MAX_SPLITS;
  while (s > 1 && blocks > resident_blocks(static_cast<int>(s))) --s;
  best.splits = static_cast<int>(s < 1 ? 1 : s);
  return best;
}

extern "C" size_t nvfp4_gemv_workspace_bytes(int m, int k, int l) {
  const Launch launch = launch_of(m, k, l);
  if (launch.parts == 1) return 0;
  const size_t tiles = static_cast<size_t>(m) * l / TILE_ROWS;
  const size_t counter_bytes = (tiles * sizeof(unsigned) + 15) / 16 * 16;
  return counter_bytes + tiles * launch.parts * TILE_ROWS * sizeof(float);
}

extern "C" int nvfp4_gemv_with_workspace(const uint8_t* a, const uint8_t* b, const uint8_t* sfa,
                                         const uint8_t* sfb, __half* c, int m, int k, int l,
                                         long long b_batch_stride, long long sfb_batch_stride,
                                         void* workspace, cudaStream_t stream) {
  // TILE_ROWS divides M (a multiple of 128): no tile spans batches.
  constexpr int kMaxGridY = 65535;  // the grid's second dimension is the batch, at most 65535 a launch
  // Rows g + 8r are 32-bit offsets from row g (LanePtrs): 24 rows of K / 2 bytes below 2^32.
  if (k >= (1 << 28)) return static_cast<int>(cudaErrorNotSupported);
  const Launch launch = launch_of(m, k, l);
  const int units = launch.parts * launch.splits;
  const int q = chunks_of(k) / units, rem = chunks_of(k) % units;
  const size_t tiles = static_cast<size_t>(m) * l / TILE_ROWS;
  Workspace ws;
  ws.counters = static_cast<unsigned*>(workspace);
  ws.part_sums = reinterpret_cast<float*>(static_cast<char*>(workspace) + (tiles * sizeof(unsigned) + 15) / 16 * 16);
  for (int batch0 = 0; batch0 < l; batch0 += kMaxGridY) {
    const int batches = l - batch0 < kMaxGridY ? l - batch0 : kMaxGridY;
    const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(batches),
                    static_cast<unsigned>(launch.parts));
    nvfp4_gemv_kernel<<<grid, launch.splits * 32, 0, stream>>>(a, b, sfa, sfb, c, m, k, b_batch_stride,
                                                               sfb_batch_stride, launch.splits, batch0, q, rem, ws);
  }
  return static_cast<int>(cudaGetLastError());
}
