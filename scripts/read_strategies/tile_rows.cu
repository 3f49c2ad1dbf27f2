// Read strategy "tile-rows": the loads of the tensor-core GEMVs (25, 26) without their math.
// Blocks of 4 warps own 16-row tiles, split in K as 26 splits them (S = resident blocks / tiles);
// warp w reads chunks w, w+4, ... of 128 K elements: lane (g, t) reads 16 bytes of rows g and g+8
// at byte 16t of the chunk's 64 per row, the two e4m3 scales of each, its 8 bytes of B and two of
// SFB. Shared memory holds residency at 26's 8 blocks per SM; each warp issues the loads of
// CHUNKS_IN_FLIGHT chunks before it waits (4: 4.6 KB, 147 KB per SM, well past what the H100 and
// H200 need). Against the floor, this times the GEMVs' access pattern with bytes in flight to spare.
// Timed against 99 by `make floor-check` (common/floor.py).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

constexpr int WARPS_PER_BLOCK = 4;
constexpr int TILE_ROWS = 16;
constexpr int CHUNK_K = 128;
constexpr int CHUNKS_IN_FLIGHT = 4;
// Unused dynamic shared memory per block: 8 blocks fit in the H100's and H200's 228 KB, 9 do not.
constexpr int RESIDENCY_PAD_BYTES = 26 * 1024;
constexpr uint32_t kMagic = 0x9E3779B9u;

// One lane's loads of one chunk, and their XOR.
struct Loaded {
  uint4 lo, hi;
  uint2 b;
  uint32_t sfa_lo, sfa_hi, sfb;
  __device__ __forceinline__ uint32_t fold() const {
    return lo.x ^ lo.y ^ lo.z ^ lo.w ^ hi.x ^ hi.y ^ hi.z ^ hi.w ^ b.x ^ b.y ^ sfa_lo ^ sfa_hi ^ sfb;
  }
};

__device__ __forceinline__ Loaded load(const uint8_t* a_lo, const uint8_t* a_hi, const uint8_t* sfa_lo,
                                       const uint8_t* sfa_hi, const uint8_t* b, const uint8_t* sfb) {
  Loaded v;
  v.lo = __ldg(reinterpret_cast<const uint4*>(a_lo));
  v.hi = __ldg(reinterpret_cast<const uint4*>(a_hi));
  v.b = __ldg(reinterpret_cast<const uint2*>(b));
  v.sfa_lo = __ldg(reinterpret_cast<const unsigned short*>(sfa_lo));
  v.sfa_hi = __ldg(reinterpret_cast<const unsigned short*>(sfa_hi));
  v.sfb = __ldg(reinterpret_cast<const unsigned short*>(sfb));
  return v;
}

__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
read_tile_rows_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                      const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                      __half* __restrict__ c, int m, int k,
                      long long b_batch_stride, long long sfb_batch_stride, int splits) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const long long tile = blockIdx.x / splits;
  const int split = blockIdx.x % splits;
  const long long row0 = tile * TILE_ROWS;
  const long long batch = row0 / m;
  const uint8_t* a_lo = a + (row0 + g) * (k / 2) + 16 * t;
  const uint8_t* a_hi = a_lo + 8LL * (k / 2);
  const uint8_t* sfa_lo = sfa + (row0 + g) * (k / 16) + 2 * t;
  const uint8_t* sfa_hi = sfa_lo + 8LL * (k / 16);
  const uint8_t* b_col = b + batch * b_batch_stride + 16 * t + 8 * (g & 1);
  const uint8_t* sfb_t = sfb + batch * sfb_batch_stride + 2 * t;
  // Full chunks only; with K = 64 mod 128 the last half chunk's bytes are read by lanes t < 2.
  const int full_chunks = k / CHUNK_K, chunks = (k + CHUNK_K - 1) / CHUNK_K;
  const int c_begin = static_cast<int>(static_cast<long long>(split) * chunks / splits);
  const int c_end = static_cast<int>(static_cast<long long>(split + 1) * chunks / splits);
  const int split_full_end = c_end < full_chunks ? c_end : full_chunks;
  uint32_t fold = 0;
  int chunk = c_begin + warp;
  for (; chunk + (CHUNKS_IN_FLIGHT - 1) * WARPS_PER_BLOCK < split_full_end;
       chunk += CHUNKS_IN_FLIGHT * WARPS_PER_BLOCK) {
    Loaded v[CHUNKS_IN_FLIGHT];
#pragma unroll
    for (int u = 0; u < CHUNKS_IN_FLIGHT; ++u) {
      const int off = (chunk + u * WARPS_PER_BLOCK) * (CHUNK_K / 2);
      const int sf_off = (chunk + u * WARPS_PER_BLOCK) * (CHUNK_K / 16);
      v[u] = load(a_lo + off, a_hi + off, sfa_lo + sf_off, sfa_hi + sf_off, b_col + off, sfb_t + sf_off);
    }
#pragma unroll
    for (int u = 0; u < CHUNKS_IN_FLIGHT; ++u) fold ^= v[u].fold();
  }
  for (; chunk < c_end; chunk += WARPS_PER_BLOCK) {   // the rest, one chunk at a time
    if (chunk == full_chunks && t >= 2) break;
    const int off = chunk * (CHUNK_K / 2), sf_off = chunk * (CHUNK_K / 16);
    fold ^= load(a_lo + off, a_hi + off, sfa_lo + sf_off, sfa_hi + sf_off, b_col + off, sfb_t + sf_off).fold();
  }
  // Every c element of a split-1 tile is written; other threads store only on an impossible fold.
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  if ((split == 0 && threadIdx.x < TILE_ROWS) || fold == kMagic) c[row0 + threadIdx.x % TILE_ROWS] = out;
}

static int splits_of(int m, int k, int l) {
  static int resident = 0;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_tile_rows_kernel, WARPS_PER_BLOCK * 32,
                                                  RESIDENCY_PAD_BYTES);
    resident = sms * (per_sm > 0 ? per_sm : 1);
  }
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const long long most = (k + CHUNK_K - 1) / CHUNK_K / WARPS_PER_BLOCK;
  long long s = resident / tiles;
  if (s > most) s = most;
  return static_cast<int>(s < 1 ? 1 : s);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const int s = splits_of(m, k, l);
  const dim3 grid(static_cast<unsigned>(tiles * s));
  read_tile_rows_kernel<<<grid, WARPS_PER_BLOCK * 32, RESIDENCY_PAD_BYTES, stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s);
  return static_cast<int>(cudaGetLastError());
}
