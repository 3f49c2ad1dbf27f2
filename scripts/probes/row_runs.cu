// Probe "row-runs": the tensor-core GEMVs' reads of 16-row tiles (26, 35) without their math, with
// the order of the reads varied, to tell which order the memory system streams at the floor's
// speed before a kernel is built around it. Loads only; the loaded words are XOR-folded and the
// fold decides nothing (c is written as zeros). Not a floor-check strategy: it reads exactly the
// problem's bytes, but it is a question about order, not a candidate floor.
//
// Blocks of 4 warps own a 16-row tile and a split of its K range (S as 26: resident blocks / tiles).
// The split's chunks (128 K elements: 64 bytes of each row) are cut into runs of RUN_CHUNKS
// consecutive chunks, dealt round-robin to the warps; a warp issues the loads of RUNS_IN_FLIGHT runs
// before it waits. In a run, each chunk is read as 26 reads it: lane (g, t) 16 bytes of rows g
// and g+8 at byte 16t of the chunk's 64, two SFA bytes of each, 8 bytes of B and two of SFB.
//   RUN_CHUNKS=1 RUNS_IN_FLIGHT=2: 26's order (chunks c and c+4 in flight, a row's 128-byte line
//                                  read by two warps).
//   RUN_CHUNKS=2 RUNS_IN_FLIGHT=1: the same bytes in flight, each warp reading whole 128-byte lines.
//   SFA_WIDE=1 (RUN_CHUNKS=4): the run's SFA as one 8-byte load per lane and row (lane t: chunk t
//                              of the run) in place of four 2-byte loads.
//   WARP_RANGE=1: runs not dealt round-robin: warp w reads the w-th quarter of the split's chunks
//                 from its start, run after run (each warp one long run per row).
//   A_NO_ALLOCATE=1: A's loads as ld.global.nc.L1::no_allocate (99's default) in place of __ldg.
//   WHOLE_ROWS=1: each load instruction reads 512 contiguous bytes of one row (8 chunks); a warp
//                 reads rows 0-7 of the tile, then 8-15, 4 KB in flight; the order a kernel would
//                 need a transpose (shared memory or shuffles) to feed the mma.
// Runs on shapes with K a multiple of 1024 (uint2 and uint4 SFA loads stay aligned).
// Timed beside the floor by scripts/probes/row_runs.py; outputs in results/probes/row-runs-<gpu>.csv.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)

#ifndef RUN_CHUNKS
#define RUN_CHUNKS 1
#endif
#ifndef RUNS_IN_FLIGHT
#define RUNS_IN_FLIGHT 2
#endif
#ifndef SFA_WIDE
#define SFA_WIDE 0
#endif
#ifndef WHOLE_ROWS
#define WHOLE_ROWS 0
#endif
#ifndef WARP_RANGE
#define WARP_RANGE 0
#endif
#ifndef A_NO_ALLOCATE
#define A_NO_ALLOCATE 0
#endif
static_assert(!SFA_WIDE || RUN_CHUNKS == 4, "SFA_WIDE needs runs of 4 chunks (one per lane t)");

constexpr int WARPS_PER_BLOCK = 4;
constexpr int TILE_ROWS = 16;
constexpr int CHUNK_K = 128;
constexpr int ROW_RUN_CHUNKS = 8;   // WHOLE_ROWS: 512 bytes of a row per instruction
// Unused dynamic shared memory per block: 8 blocks fit in the H100's and H200's 228 KB, 9 do not
// (26's residency, whatever the registers).
constexpr int RESIDENCY_PAD_BYTES = 26 * 1024;
constexpr uint32_t kMagic = 0x9E3779B9u;

__device__ __forceinline__ uint4 load_a(const uint8_t* p) {
#if A_NO_ALLOCATE
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
#else
  return __ldg(reinterpret_cast<const uint4*>(p));
#endif
}

__device__ __forceinline__ uint32_t fold4(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }
__device__ __forceinline__ uint32_t fold2(uint2 v) { return v.x ^ v.y; }

// One chunk as 26 reads it, folded. sfa: false when SFA_WIDE reads the run's scales instead.
struct ChunkLoads {
  uint4 lo, hi;
  uint2 b;
  uint32_t sfa_lo, sfa_hi, sfb;
  __device__ __forceinline__ uint32_t fold() const {
    return fold4(lo) ^ fold4(hi) ^ fold2(b) ^ sfa_lo ^ sfa_hi ^ sfb;
  }
};

__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32, 8)   // 26's 8 blocks per SM: at most 64 registers
read_row_runs_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                     const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                     __half* __restrict__ c, int m, int k,
                     long long b_batch_stride, long long sfb_batch_stride, int splits) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const long long tile = blockIdx.x / splits;
  const int split = blockIdx.x % splits;
  const long long row0 = tile * TILE_ROWS;
  const long long batch = row0 / m;
  const long long row_bytes = k / 2, sf_row_bytes = k / 16;
  const uint8_t* b_batch = b + batch * b_batch_stride;
  const uint8_t* sfb_batch = sfb + batch * sfb_batch_stride;
  const int chunks = k / CHUNK_K;
  const int c_begin = static_cast<int>(static_cast<long long>(split) * chunks / splits);
  const int c_end = static_cast<int>(static_cast<long long>(split + 1) * chunks / splits);
  uint32_t fold = 0;
#if WHOLE_ROWS
  // Run = 8 chunks; lane l reads bytes 16l..16l+15 of the run in each row (chunk l/4 of the run).
  for (int run = c_begin + warp * ROW_RUN_CHUNKS; run < c_end; run += WARPS_PER_BLOCK * ROW_RUN_CHUNKS) {
    const bool valid = run + lane / 4 < c_end;
    const long long byte = static_cast<long long>(run) * (CHUNK_K / 2) + 16 * lane;
    if (valid) fold ^= fold4(__ldg(reinterpret_cast<const uint4*>(b_batch + byte)));
    if (lane < ROW_RUN_CHUNKS && run + lane < c_end)
      fold ^= fold2(__ldg(reinterpret_cast<const uint2*>(sfb_batch + (run + lane) * (CHUNK_K / 16))));
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      uint4 v[8];
#pragma unroll
      for (int r = 0; r < 8; ++r) {
        const long long row = row0 + 8 * half + r;
        v[r] = valid ? load_a(a + row * row_bytes + byte) : make_uint4(0, 0, 0, 0);
      }
      // SFA of rows 8*half..8*half+7: lane (g, t) row g, chunks 2t and 2t+1 of the run.
      const long long sf_row = row0 + 8 * half + g;
      const int sf_chunk = run + 2 * t;
      const uint8_t* sf = sfa + sf_row * sf_row_bytes + static_cast<long long>(sf_chunk) * (CHUNK_K / 16);
      if (sf_chunk < c_end) fold ^= fold2(__ldg(reinterpret_cast<const uint2*>(sf)));
      if (sf_chunk + 1 < c_end) fold ^= fold2(__ldg(reinterpret_cast<const uint2*>(sf + CHUNK_K / 16)));
#pragma unroll
      for (int r = 0; r < 8; ++r) fold ^= fold4(v[r]);
    }
  }
#else
  const uint8_t* a_lo = a + (row0 + g) * row_bytes + 16 * t;
  const uint8_t* a_hi = a_lo + 8 * row_bytes;
  const uint8_t* sfa_lo = sfa + (row0 + g) * sf_row_bytes;
  const uint8_t* sfa_hi = sfa_lo + 8 * sf_row_bytes;
  const uint8_t* b_col = b_batch + 16 * t + 8 * (g & 1);
  // The warp's chunks: [start, end), a run every STEP chunks.
  const int span = c_end - c_begin;
  const int start = WARP_RANGE ? c_begin + warp * span / WARPS_PER_BLOCK : c_begin + warp * RUN_CHUNKS;
  const int end = WARP_RANGE ? c_begin + (warp + 1) * span / WARPS_PER_BLOCK : c_end;
  constexpr int STEP = WARP_RANGE ? RUN_CHUNKS : WARPS_PER_BLOCK * RUN_CHUNKS;
  for (int run = start; run < end; run += RUNS_IN_FLIGHT * STEP) {
    ChunkLoads v[RUNS_IN_FLIGHT][RUN_CHUNKS];
    uint2 wide_lo[RUNS_IN_FLIGHT], wide_hi[RUNS_IN_FLIGHT];
#pragma unroll
    for (int f = 0; f < RUNS_IN_FLIGHT; ++f) {
#pragma unroll
      for (int j = 0; j < RUN_CHUNKS; ++j) {
        const int chunk = run + f * STEP + j;
        ChunkLoads& x = v[f][j];
        x = ChunkLoads{};
        if (chunk < end) {
          const long long off = static_cast<long long>(chunk) * (CHUNK_K / 2);
          const long long sf_off = static_cast<long long>(chunk) * (CHUNK_K / 16) + 2 * t;
          x.lo = load_a(a_lo + off);
          x.hi = load_a(a_hi + off);
          x.b = __ldg(reinterpret_cast<const uint2*>(b_col + off));
          x.sfb = __ldg(reinterpret_cast<const unsigned short*>(sfb_batch + sf_off));
          if (!SFA_WIDE) {
            x.sfa_lo = __ldg(reinterpret_cast<const unsigned short*>(sfa_lo + sf_off));
            x.sfa_hi = __ldg(reinterpret_cast<const unsigned short*>(sfa_hi + sf_off));
          }
        }
      }
      wide_lo[f] = wide_hi[f] = make_uint2(0, 0);
      const int sf_chunk = run + f * STEP + t;
      if (SFA_WIDE && sf_chunk < end) {
        const long long sf_off = static_cast<long long>(sf_chunk) * (CHUNK_K / 16);
        wide_lo[f] = __ldg(reinterpret_cast<const uint2*>(sfa_lo + sf_off));
        wide_hi[f] = __ldg(reinterpret_cast<const uint2*>(sfa_hi + sf_off));
      }
    }
#pragma unroll
    for (int f = 0; f < RUNS_IN_FLIGHT; ++f) {
      fold ^= fold2(wide_lo[f]) ^ fold2(wide_hi[f]);
#pragma unroll
      for (int j = 0; j < RUN_CHUNKS; ++j) fold ^= v[f][j].fold();
    }
  }
#endif
  // Every c element of a tile is written by split 0; other threads store only on an impossible fold.
  const __half out = __float2half_rn(fold == kMagic ? 1.0f : 0.0f);
  if ((split == 0 && threadIdx.x < TILE_ROWS) || fold == kMagic) c[row0 + threadIdx.x % TILE_ROWS] = out;
}

static int splits_of(int m, int k, int l) {
  static int resident = 0;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_row_runs_kernel, WARPS_PER_BLOCK * 32,
                                                  RESIDENCY_PAD_BYTES);
    resident = sms * (per_sm > 0 ? per_sm : 1);
  }
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const long long most = k / CHUNK_K / WARPS_PER_BLOCK;
  long long s = resident / tiles;
  if (s > most) s = most;
  return static_cast<int>(s < 1 ? 1 : s);
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l,
                          long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream) {
  if (k % 1024 != 0) return static_cast<int>(cudaErrorInvalidValue);   // see the header
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const int s = splits_of(m, k, l);
  const dim3 grid(static_cast<unsigned>(tiles * s));
  read_row_runs_kernel<<<grid, WARPS_PER_BLOCK * 32, RESIDENCY_PAD_BYTES, stream>>>(
      a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s);
  return static_cast<int>(cudaGetLastError());
}
