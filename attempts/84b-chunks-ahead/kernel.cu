// 84b chunks-ahead: 84a with each warp's loads sent LOADS_AHEAD chunks ahead of its products (a
// ring of chunks in registers), at the registers that takes. 84a sent them one chunk ahead (1 KB a
// warp) at 64 registers: its profile on the H200 has DRAM at 42% of its peak, the warps waiting on
// their loads with the issue slots 29% used, and 42/70 of 93f's rate is about the ratio of the bytes
// each keeps in flight a resident warp (closing-the-gap section 74).
// 84a wgmma-e4m3: 84 with the products on Hopper's warpgroup MMA in e4m3 (wgmma.mma_async, A from
// registers, B from shared memory) instead of int8 IMMA by mma.sync. An e2m1 nibble SEEM placed
// as the e4m3 byte S00EEM00 is its value times 2^-6, exactly (closing-the-gap section 70): 7
// instructions turn a word of A (8 elements) into the mma's two registers, where 84 spent 8
// look-ups, 2 XOR and 4 shifts a word of two rows on signed int8. sm_90a has no FP8 mma.sync (ptxas
// lowers it to conversions and f16 HMMA); its FP8 tensor cores are reached through wgmma alone,
// whose M is 64: a tile is a warpgroup's 64 rows (lane (g, t) of warp w holds rows 16w + g and
// 16w + g + 8, 16 bytes each at byte 16t of a 64-byte chunk, as in 84), and a block is that one
// warpgroup over one part of K. A scale block's products stay apart in the mma's 8 columns: in the
// chunk's j-th mma (word j of every lane), lane t's 8 elements sit in k slots 4t..4t+3 and
// 16+4t..16+4t+3 and B is non-zero for them only in column 2t + j / 2, the scale block they
// belong to; after a chunk's 4 mmas each lane holds its own two blocks of its two rows, which it
// scales in f32. B's matrices (1 KB a chunk, mostly zeros) are built in shared memory once per
// block for its part. Parts are joined as in 84 (the last block to finish adds them in part order).
// The sm_100a build (compiled, not measured) runs the same decode and layout through
// mma.sync.m16n8k32 with e4m3 operands, one warp's 16 rows at a time, B read from the same shared
// memory; it does not use Blackwell's e2m1 conversion.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cmath>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

constexpr int MMA_ROWS = 16;                    // a warp's rows of the mma: lane (g, t) holds rows g and g + 8
constexpr int WARPS = 4;                        // one warpgroup a block
constexpr int TILE_ROWS = WARPS * MMA_ROWS;     // wgmma's M: 64 rows
constexpr int LANE_ROWS = 2;                    // rows g, g + 8 of the warp's 16
constexpr int CHUNK_K = 128;                    // elements per row per chunk: 64 bytes, 16 per lane, 8 scale blocks
constexpr int B_MATRIX_BYTES = 32 * 8;          // one mma's B: 32 k x 8 columns of e4m3
constexpr int B_CHUNK_BYTES = 4 * B_MATRIX_BYTES;
constexpr int MAX_PART_CHUNKS = 24;             // B's shared memory: at most 24 KB a block
#ifndef LOADS_AHEAD
#define LOADS_AHEAD 4                           // chunks in flight a warp while it multiplies one
#endif
// The ring's registers (10 a chunk) set the blocks an SM: 8 at 64 registers (one chunk, 84a's), 6 at 80.
constexpr int MIN_BLOCKS_PER_SM = LOADS_AHEAD <= 1 ? 8 : LOADS_AHEAD == 2 ? 7 : LOADS_AHEAD <= 4 ? 6 : 5;
constexpr int MAX_PARTS = 64;                   // blocks a tile, the grid's third dimension

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WGMMA_PRODUCTS 1
#else
#define WGMMA_PRODUCTS 0
#endif

// e2m1 SEEM -> e4m3 S00EEM00 (the value times 2^-6) for the low and the high nibble of each byte.
__device__ __forceinline__ uint32_t e4m3_of_low_nibbles(uint32_t w) {
  return ((w << 4) & 0x80808080u) | ((w << 2) & 0x1C1C1C1Cu);
}
__device__ __forceinline__ uint32_t e4m3_of_high_nibbles(uint32_t w) {
  return (w & 0x80808080u) | ((w >> 2) & 0x1C1C1C1Cu);
}

__device__ __forceinline__ float2 e4m3x2_to_float2(uint32_t two) {
  uint32_t h2;
  asm("{\n.reg .b16 lo, hi;\nmov.b32 {lo, hi}, %1;\ncvt.rn.f16x2.e4m3x2 %0, lo;\n}\n" : "=r"(h2) : "r"(two));
  return __half22float2(*reinterpret_cast<const __half2*>(&h2));
}

__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// B's matrices in shared memory, K-major with no swizzle: a core matrix is 8 columns of 16 bytes
// (128 bytes, column n at 16n); the k halves 0-15 and 16-31 are core matrices 128 bytes apart (the
// descriptor's leading byte offset), 8-column groups 256 apart (its stride byte offset; one here).
__device__ __forceinline__ uint64_t b_descriptor(uint32_t address) {
  return static_cast<uint64_t>((address & 0x3FFFF) >> 4) | (static_cast<uint64_t>(128 >> 4) << 16) |
         (static_cast<uint64_t>(256 >> 4) << 32);
}

// Keeps the compiler from moving a register's uses across the wait for the mma that reads or
// writes it asynchronously.
__device__ __forceinline__ void fence_register(float& x) { asm volatile("" : "+f"(x)::"memory"); }
__device__ __forceinline__ void fence_register(uint32_t& x) { asm volatile("" : "+r"(x)::"memory"); }

// A chunk's four mmas: fragment j holds word j of the lane's two rows (low nibbles in k 4t..4t+3,
// high nibbles in k 16+4t..16+4t+3); d ends with block 2t (d[0], d[2]) and 2t + 1 (d[1], d[3]) of
// rows g and g + 8, times 2^-12.
__device__ __forceinline__ void chunk_products(float (&d)[4], uint32_t (&frag)[4][4], uint32_t b_chunk) {
#if WGMMA_PRODUCTS
  const uint64_t desc = b_descriptor(b_chunk);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const uint64_t desc_j = desc + j * (B_MATRIX_BYTES >> 4);
    if (j == 0) {
      asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, 0, 1, 1;"
                   : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                   : "r"(frag[j][0]), "r"(frag[j][1]), "r"(frag[j][2]), "r"(frag[j][3]), "l"(desc_j));
    } else {
      asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, 1, 1, 1;"
                   : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                   : "r"(frag[j][0]), "r"(frag[j][1]), "r"(frag[j][2]), "r"(frag[j][3]), "l"(desc_j));
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
  for (int j = 0; j < 4; ++j) {
#pragma unroll
    for (int i = 0; i < 4; ++i) fence_register(frag[j][i]);
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) fence_register(d[i]);
#else
  // One warp's 16 rows: mma.sync's m16n8k32 fragments are wgmma's, a warp's slice of them.
  uint32_t lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  const uint32_t b_lane = b_chunk + 16 * (lane / 4) + 4 * (lane % 4);  // column g, k 4t..4t+3
#pragma unroll
  for (int i = 0; i < 4; ++i) d[i] = 0.0f;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    uint32_t b0, b1;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(b0) : "r"(b_lane + j * B_MATRIX_BYTES));
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(b1) : "r"(b_lane + j * B_MATRIX_BYTES + 128));
    asm("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(frag[j][0]), "r"(frag[j][1]), "r"(frag[j][2]), "r"(frag[j][3]), "r"(b0), "r"(b1));
  }
#endif
}

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

// A lane's rows g and g + 8 and their scales, at its place in the chunk about to be loaded.
struct LanePtrs {
  const uint8_t *a, *a8, *sfa, *sfa8;
  __device__ __forceinline__ void next_chunk() {
    a += CHUNK_K / 2;
    a8 += CHUNK_K / 2;
    sfa += CHUNK_K / 16;
    sfa8 += CHUNK_K / 16;
  }
};

struct ChunkLoads {
  uint4 a[LANE_ROWS];          // rows g, g + 8
  uint32_t sfa[LANE_ROWS];     // two e4m3 scales each, in the low 16 bits
};

__device__ __forceinline__ ChunkLoads chunk_loads(const LanePtrs& p) {
  ChunkLoads ch;
  ch.sfa[0] = ld_stream_sf(p.sfa);
  ch.sfa[1] = ld_stream_sf(p.sfa8);
  ch.a[1] = ld_stream_a(p.a8);
  ch.a[0] = ld_stream_a(p.a);
  return ch;
}

// sb: B's scales of the lane's two blocks, times 2^12.
__device__ __forceinline__ void chunk_dot(const ChunkLoads& ch, uint32_t b_chunk, float2 sb, float (&acc)[LANE_ROWS]) {
  uint32_t frag[4][4];
  const uint32_t w0[4] = {ch.a[0].x, ch.a[0].y, ch.a[0].z, ch.a[0].w};
  const uint32_t w1[4] = {ch.a[1].x, ch.a[1].y, ch.a[1].z, ch.a[1].w};
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    frag[j][0] = e4m3_of_low_nibbles(w0[j]);
    frag[j][1] = e4m3_of_low_nibbles(w1[j]);
    frag[j][2] = e4m3_of_high_nibbles(w0[j]);
    frag[j][3] = e4m3_of_high_nibbles(w1[j]);
  }
  float d[4];
  chunk_products(d, frag, b_chunk);
  const float2 sa0 = e4m3x2_to_float2(ch.sfa[0]), sa1 = e4m3x2_to_float2(ch.sfa[1]);
  acc[0] = fmaf(d[0], sa0.x * sb.x, acc[0]);
  acc[0] = fmaf(d[1], sa0.y * sb.y, acc[0]);
  acc[1] = fmaf(d[2], sa1.x * sb.x, acc[1]);
  acc[1] = fmaf(d[3], sa1.y * sb.y, acc[1]);
}

// B for chunks [c_begin, c_end) of one batch, in shared memory. Row (j, h, n) of a chunk's 64
// rows of 16 bytes (j: the mma, h: the k half, n: the column) holds, in word t, the e4m3 bytes of
// lane t's word j of B (its low nibbles for h = 0, high for h = 1) where n = 2t + j / 2, the word's
// scale block, and zeros elsewhere. One thread a word of B: its two rows, and the two rows of
// zeros beside them (column n ^ 1). After the chunks, B's scales as floats times 2^12 (both
// operands are their e2m1 values times 2^-6), 8 a chunk.
__device__ __forceinline__ void build_b(uint8_t* b_chunks, const uint8_t* b_batch, const uint8_t* sfb_batch,
                                        int c_begin, int c_end, int k) {
  const int chunks = c_end - c_begin;
  for (int i = threadIdx.x; i < chunks * 16; i += blockDim.x) {
    const int chunk = i / 16, t = (i / 4) % 4, j = i % 4;
    uint32_t w = 0;
    if ((c_begin + chunk) * CHUNK_K + 32 * t < k) {
      w = __ldg(reinterpret_cast<const uint32_t*>(b_batch + (c_begin + chunk) * (CHUNK_K / 2) + 16 * t + 4 * j));
    }
    const uint32_t lo = e4m3_of_low_nibbles(w), hi = e4m3_of_high_nibbles(w);
    const uint4 zero = make_uint4(0u, 0u, 0u, 0u);
    const uint4 v_lo = make_uint4(t == 0 ? lo : 0u, t == 1 ? lo : 0u, t == 2 ? lo : 0u, t == 3 ? lo : 0u);
    const uint4 v_hi = make_uint4(t == 0 ? hi : 0u, t == 1 ? hi : 0u, t == 2 ? hi : 0u, t == 3 ? hi : 0u);
    uint4* const matrix = reinterpret_cast<uint4*>(b_chunks + chunk * B_CHUNK_BYTES + j * B_MATRIX_BYTES);
    const int n = 2 * t + j / 2;
    matrix[n] = v_lo;
    matrix[8 + n] = v_hi;
    matrix[n ^ 1] = zero;
    matrix[8 + (n ^ 1)] = zero;
  }
  float* const scales = reinterpret_cast<float*>(b_chunks + chunks * B_CHUNK_BYTES);
  for (int i = threadIdx.x; i < chunks * 4; i += blockDim.x) {
    float2 sb = make_float2(0.0f, 0.0f);
    if (c_begin * CHUNK_K + 32 * i < k) {
      sb = e4m3x2_to_float2(__ldg(reinterpret_cast<const unsigned short*>(sfb_batch + c_begin * (CHUNK_K / 16) + 2 * i)));
    }
    scales[2 * i] = sb.x * 4096.0f;
    scales[2 * i + 1] = sb.y * 4096.0f;
  }
  // The mma reads shared memory through the async proxy: the generic stores are fenced to it.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
}

__host__ __device__ __forceinline__ int chunks_of(int k) { return (k + CHUNK_K - 1) / CHUNK_K; }

struct Workspace {
  unsigned* counters;
  float* part_sums;  // [tile][part][row]
};

__global__ void __launch_bounds__(WARPS * 32, MIN_BLOCKS_PER_SM)
nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k,
                  long long b_batch_stride, long long sfb_batch_stride,
                  int batch0, int q, int rem, Workspace ws) {
  extern __shared__ __align__(128) uint8_t b_chunks[];
  const int warp = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);  // warp-uniform, as in 70
  const int lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const unsigned batch = batch0 + blockIdx.y;
  const long long tile = static_cast<long long>(batch) * (m / TILE_ROWS) + blockIdx.x;
  const long long row0 = tile * TILE_ROWS;
  const long long lane_row = row0 + MMA_ROWS * warp + g;
  const int part = blockIdx.z;
  const int c_begin = part * q + min(part, rem);
  const int c_end = c_begin + q + (part < rem);
  build_b(b_chunks, b + batch * b_batch_stride, sfb + batch * sfb_batch_stride, c_begin, c_end, k);

  LanePtrs p;
  p.a = a + lane_row * (k / 2) + static_cast<long long>(c_begin) * (CHUNK_K / 2) + 16 * t;
  p.a8 = p.a + 8ll * (k / 2);
  p.sfa = sfa + lane_row * (k / 16) + c_begin * (CHUNK_K / 16) + 2 * t;
  p.sfa8 = p.sfa + 8 * (k / 16);
  const int chunks = c_end - c_begin;
  const uint32_t b_first = shared_address(b_chunks);
  const float2* const b_scales = reinterpret_cast<const float2*>(b_chunks + chunks * B_CHUNK_BYTES) + t;
  // K mod 128 = 64: the row's last chunk is half a chunk, its bytes past K for lanes t = 2, 3. The
  // ring runs over the part's whole chunks; the half chunk is loaded after it, those lanes reading
  // lanes t - 2's bytes of it instead, which meet zeros in B, with the row's own (finite) scales.
  const bool short_chunk = c_end == chunks_of(k) && k % CHUNK_K != 0;
  const int whole = chunks - short_chunk;

  // A ring of LOADS_AHEAD chunks: a chunk's slot is loaded again, LOADS_AHEAD chunks on, as soon as
  // its words are taken for the products.
  float acc[LANE_ROWS] = {};
  ChunkLoads ring[LOADS_AHEAD];
#pragma unroll
  for (int i = 0; i < LOADS_AHEAD; ++i) {
    if (i < whole) {
      ring[i] = chunk_loads(p);
      p.next_chunk();
    }
  }
  for (int first = 0; first < whole; first += LOADS_AHEAD) {
#pragma unroll
    for (int i = 0; i < LOADS_AHEAD; ++i) {
      const int chunk = first + i;
      if (chunk < whole) {
        const ChunkLoads now = ring[i];
        if (chunk + LOADS_AHEAD < whole) {
          ring[i] = chunk_loads(p);
          p.next_chunk();
        }
        chunk_dot(now, b_first + chunk * B_CHUNK_BYTES, b_scales[4 * chunk], acc);
      }
    }
  }
  if (short_chunk) {
    const int back = t >= 2;
    const LanePtrs last = {p.a - 32 * back, p.a8 - 32 * back, p.sfa - 4 * back, p.sfa8 - 4 * back};
    chunk_dot(chunk_loads(last), b_first + whole * B_CHUNK_BYTES, b_scales[4 * whole], acc);
  }

  // Row sums: the four lanes of a row group, then the parts in a fixed order.
#pragma unroll
  for (int r = 0; r < LANE_ROWS; ++r) {
    acc[r] += __shfl_xor_sync(0xFFFFFFFFu, acc[r], 1);
    acc[r] += __shfl_xor_sync(0xFFFFFFFFu, acc[r], 2);
  }
  const int parts = gridDim.z;
  const int tile_row = MMA_ROWS * warp + g;
  if (parts == 1) {
    if (t == 0) {
#pragma unroll
      for (int r = 0; r < LANE_ROWS; ++r) c[row0 + tile_row + 8 * r] = __float2half_rn(acc[r]);
    }
    return;
  }
  __shared__ bool last_part;
  float* const sums = ws.part_sums + tile * parts * TILE_ROWS;
  if (t == 0) {
#pragma unroll
    for (int r = 0; r < LANE_ROWS; ++r) sums[part * TILE_ROWS + tile_row + 8 * r] = acc[r];
    __threadfence();  // the sums are visible GPU-wide before the ticket is taken
  }
  __syncthreads();
  if (threadIdx.x == 0) last_part = atomicAdd(&ws.counters[tile], 1u) == static_cast<unsigned>(parts - 1);
  __syncthreads();
  if (!last_part) return;
  // The sums are zeroed as they are read, and the counter after them: a later call of another
  // shape lays its counters over other bytes of the workspace, which must then be zeros too.
  const int row = threadIdx.x;
  if (row < TILE_ROWS) {
    __threadfence();
    float sum = 0.0f;
    for (int i = 0; i < parts; ++i) {
      sum += __ldcg(sums + i * TILE_ROWS + row);  // L2, not a stale L1 line
      sums[i * TILE_ROWS + row] = 0.0f;
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

// B's matrices and its scales (8 floats a chunk).
static size_t shared_bytes(int part_chunks) {
  return static_cast<size_t>(part_chunks) * (B_CHUNK_BYTES + 8 * sizeof(float));
}

static long long resident_blocks(int part_chunks) {
  static int resident[MAX_PART_CHUNKS + 1] = {};
  if (resident[part_chunks] == 0) {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_kernel, WARPS * 32, shared_bytes(part_chunks));
    resident[part_chunks] = per_sm > 0 ? per_sm : 1;
  }
  return static_cast<long long>(resident[part_chunks]) * sm_count();
}

// Parts a tile: the fewest whose blocks fill the GPU's resident slots to within a tenth of a whole
// number of waves, with at most MAX_PART_CHUNKS chunks a part (B's shared memory).
static int parts_of(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const int chunks = chunks_of(k);
  const int fewest = (chunks + MAX_PART_CHUNKS - 1) / MAX_PART_CHUNKS;
  int best = fewest;
  double best_even = 0.0;
  for (int parts = fewest; parts <= MAX_PARTS && parts <= chunks; ++parts) {
    const double waves = static_cast<double>(tiles * parts) / resident_blocks((chunks + parts - 1) / parts);
    const double even = waves / std::ceil(waves);
    if (even > best_even + 1e-9) {
      best_even = even;
      best = parts;
    }
    if (even >= 0.9) break;
  }
  return best;
}

extern "C" size_t nvfp4_gemv_workspace_bytes(int m, int k, int l) {
  const int parts = parts_of(m, k, l);
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
  constexpr int kMaxGridY = 65535;  // the grid's second dimension is the batch, at most 65535 a launch
  const int parts = parts_of(m, k, l);
  const int chunks = chunks_of(k);
  const int q = chunks / parts, rem = chunks % parts;
  const size_t tiles = static_cast<size_t>(m) * l / TILE_ROWS;
  Workspace ws;
  ws.counters = static_cast<unsigned*>(workspace);
  ws.part_sums = reinterpret_cast<float*>(static_cast<char*>(workspace) + (tiles * sizeof(unsigned) + 15) / 16 * 16);
  for (int batch0 = 0; batch0 < l; batch0 += kMaxGridY) {
    const int batches = l - batch0 < kMaxGridY ? l - batch0 : kMaxGridY;
    const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(batches), static_cast<unsigned>(parts));
    nvfp4_gemv_kernel<<<grid, WARPS * 32, shared_bytes(q + (rem > 0)), stream>>>(
        a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, batch0, q, rem, ws);
  }
  return static_cast<int>(cudaGetLastError());
}
