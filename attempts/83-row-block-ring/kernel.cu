// 83 row-block-ring: 82 with each block resident and a second stage: the block takes row blocks
// blockIdx.x, blockIdx.x + gridDim.x, ... (the grid is the blocks the GPU holds at once), and its
// thread 0 copies the next row block into the other stage before the block multiplies the one
// that landed. In 82 every block of a wave asked for its rows at once, they landed together and
// the whole GPU then multiplied with DRAM idle, wave after wave; here a block's next copy is in
// flight while it computes. The grid's resident blocks still read a band of consecutive row
// blocks, in order.
// 82 bulk-row-blocks: 76's arithmetic on the floor's blocks. Each block takes whole consecutive rows
// of A (about 32 KB of them with their scales), has the copy engine bring them into shared memory
// in one bulk copy each for A and SFA, multiplies them there against B and exits; the GPU's block
// scheduler, handing out the next block as one ends, is the only pipeline. The floor (99) reads
// A the same way: blocks of 32 KB of consecutive bytes, one round of loads each, in order. 70's
// split and 75's walk read every row of a tile band at one column at a time through registers, 64
// KB in flight an SM at 32 warps; here the bytes in flight cost no registers and a block's reads
// are its rows end to end, the order the row-locality probe and the floor check's row-blocks
// and bulk-copy strategies read within a few percent of the floor on both GPUs.
//
// A block's threads are col_threads x row_threads: thread (col, rt) takes 16-byte slices col,
// col + col_threads, ... of rows rt, rt + row_threads, ...; it decodes each slice of B once for its
// rows (read through L1 before the copies land, the first one ahead of the wait). Row sums:
// across a warp's lanes by shuffles, then across the warps of a row in shared memory, in a fixed
// order (bitwise repeatable). A row longer than a block's bytes (K > 65536) is copied and summed
// in pieces by one block. What 82 keeps from 76: the e2m1 look-up decode and dp4a products (61),
// the f16x2 products of the Blackwell path (62), A and SFA under an L2 evict_first policy (41).
// What it drops: the split over K, the walk, the short window (a slice is 32 elements and K a
// multiple of 64, so every row is whole slices).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)
#include "nvfp4_cvt.cuh"  // NVFP4_HW_E2M1, NVFP4_CVT_E2M1X2

// 1: products in f16x2 from the e2m1 conversion; 0: 61's dp4a. The default is the hardware's.
#ifndef HALF2_PRODUCTS
#define HALF2_PRODUCTS NVFP4_HW_E2M1
#endif

// Launch shape: a block of at most MAX_THREADS threads per ROWS consecutive rows of one batch
// (dispatch below), ROWS x K / 2 bytes of A at most BLOCK_A_BYTES.
constexpr int MAX_THREADS = 256;
constexpr int BLOCK_A_BYTES = 32768;                 // the floor's block: 256 threads x 8 x 16 bytes
constexpr int CHUNK_K = 2 * BLOCK_A_BYTES;           // a longer row is copied this many elements at a time
constexpr int SLICE_K = 32;                          // a thread's elements of a row per step: 16 bytes, 2 scale blocks
constexpr int MAX_ROWS_PER_THREAD = 8;
constexpr int STAGES = 2;
constexpr int BLOCKS_PER_SM = 3;                     // shared memory: two stages of 36 KB a block

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

#if HALF2_PRODUCTS
// One word (8 e2m1 codes) -> four f16x2, byte i in h[i], its low nibble in the low half.
__device__ __forceinline__ void e2m1x8_to_f16x2(uint32_t w, uint32_t (&h)[4]) {
  asm("{\n.reg .b8 q0, q1, q2, q3;\nmov.b32 {q0, q1, q2, q3}, %4;\n"
      NVFP4_CVT_E2M1X2("%0", "q0") NVFP4_CVT_E2M1X2("%1", "q1")
      NVFP4_CVT_E2M1X2("%2", "q2") NVFP4_CVT_E2M1X2("%3", "q3") "}\n"
      : "=r"(h[0]), "=r"(h[1]), "=r"(h[2]), "=r"(h[3]) : "r"(w));
}

// One slice of B, a thread's: its 32 elements (16 bytes, bytes 0-7 one scale block, bytes 8-15
// the next) as 16 f16x2 in element order, and the two B scales as floats.
struct BWindow {
  uint32_t f16x2[16];
  float2 sfb;
};

__device__ __forceinline__ BWindow b_window(uint4 bytes, uint32_t scales) {
  BWindow f;
  const uint32_t w[4] = {bytes.x, bytes.y, bytes.z, bytes.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    uint32_t h[4];
    e2m1x8_to_f16x2(w[i], h);
#pragma unroll
    for (int j = 0; j < 4; ++j) f.f16x2[4 * i + j] = h[j];
  }
  f.sfb = e4m3x2_to_float2(scales);
  return f;
}
#else
// One slice of B, a thread's: its 32 elements (16 bytes, words 0-1 one scale block, words 2-3
// the next) as +2b and -2b int8, four per word in element order, and the two
// B scales as floats with the 1/4 of the int8 operands folded in.
struct BWindow {
  uint32_t plus[8], minus[8];
  float2 sfb;
};

__device__ __forceinline__ BWindow b_window(uint4 bytes, uint32_t scales) {
  BWindow f;
  const uint32_t w[4] = {bytes.x, bytes.y, bytes.z, bytes.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    b_signed(w[i], f.plus[2 * i], f.minus[2 * i]);
    b_signed(w[i] >> 16, f.plus[2 * i + 1], f.minus[2 * i + 1]);
  }
  f.sfb = e4m3x2_to_float2(scales);
  f.sfb.x *= 0.25f;  // the int8 operands are twice the e2m1 values
  f.sfb.y *= 0.25f;
  return f;
}

#endif

#if HALF2_PRODUCTS
// A thread's rows, 16 bytes each at its slice, against its slice of B: each byte of A converted to f16x2 and
// multiplied with B's pair by HFMA2 into one f16x2 sum per scale block (its two halves the even
// and the odd elements, 8 products each, exact), whose halves are then added and scaled in f32.
// Word by word across the rows, as the dp4a path (each load is needed early).
template <int ROWS>
__device__ __forceinline__ void rows_dot(uint32_t, const uint4 (&bytes)[ROWS],
                                         const uint32_t (&scales)[ROWS], const BWindow& bw,
                                         float (&acc)[ROWS]) {
  float2 scale[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const float2 sa = e4m3x2_to_float2(scales[r]);
    scale[r] = make_float2(sa.x * bw.sfb.x, sa.y * bw.sfb.y);
  }
  __half2 sum[ROWS][2];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) sum[r][0] = sum[r][1] = __float2half2_rn(0.0f);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const uint32_t w = i == 0 ? bytes[r].x : i == 1 ? bytes[r].y : i == 2 ? bytes[r].z : bytes[r].w;
      uint32_t a[4];
      e2m1x8_to_f16x2(w, a);
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        sum[r][i / 2] = __hfma2(*reinterpret_cast<const __half2*>(&a[j]),
                                *reinterpret_cast<const __half2*>(&bw.f16x2[4 * i + j]), sum[r][i / 2]);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const float2 s0 = __half22float2(sum[r][0]), s1 = __half22float2(sum[r][1]);
    acc[r] = fmaf(s0.x + s0.y, scale[r].x, acc[r]);
    acc[r] = fmaf(s1.x + s1.y, scale[r].y, acc[r]);
  }
}
#else
// A thread's rows, 16 bytes each at its slice, against its slice of B: each scale block's products summed exactly
// in int32 by dp4a (non-negative elements against +2b, negative ones against -2b: 4x the block's
// dot product), then scaled in f32 and added to acc. Word by word across the rows, so that every
// row is needed within the first few instructions: ptxas sinks each load to its first use, and
// a row-by-row order would leave one row's load in flight. The upper nibbles come down by a
// multiply-high by 2^16, which ptxas keeps on the FMA pipe (x >> 16 would be an ALU shift).
template <int ROWS>
__device__ __forceinline__ void rows_dot(uint32_t mag_lo, const uint4 (&bytes)[ROWS],
                                         const uint32_t (&scales)[ROWS], const BWindow& bw,
                                         float (&acc)[ROWS]) {
  float2 scale[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const float2 sa = e4m3x2_to_float2(scales[r]);
    scale[r] = make_float2(sa.x * bw.sfb.x, sa.y * bw.sfb.y);
  }
  int d[ROWS][2] = {};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const uint32_t w = i == 0 ? bytes[r].x : i == 1 ? bytes[r].y : i == 2 ? bytes[r].z : bytes[r].w;
      const uint32_t neg = w ^ 0x88888888u;
      int& dr = d[r][i / 2];
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, w)), static_cast<int>(bw.plus[2 * i]), dr);
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, neg)), static_cast<int>(bw.minus[2 * i]), dr);
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(w, 1u << 16))), static_cast<int>(bw.plus[2 * i + 1]), dr);
      dr = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(neg, 1u << 16))), static_cast<int>(bw.minus[2 * i + 1]), dr);
    }
  }
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    acc[r] = fmaf(static_cast<float>(d[r][0]), scale[r].x, acc[r]);
    acc[r] = fmaf(static_cast<float>(d[r][1]), scale[r].y, acc[r]);
  }
}

#endif

// L2 evict_first for A and SFA (41): they are read once, and in GPU MODE's timing L2 is cleared by
// writing, so each line they displace is a dirty line written back during the call.
__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

// The block's copies complete on one mbarrier, which counts their bytes (79's helpers).
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(bar)) : "memory");
}
// Arrive (the one arrival a phase expects) and expect `bytes` from the copies completing on bar.
__device__ __forceinline__ void mbar_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes)
               : "memory");
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
// `bytes` (a multiple of 16) from global to shared memory by the copy engine, under the L2
// evict_first policy, completion counted on bar. A CTA's own shared address is a valid
// shared::cluster address (no cluster is launched).
__device__ __forceinline__ void bulk_copy(void* dst, const uint8_t* src, uint32_t bytes, uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
               ::"r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar)), "l"(policy_evict_first())
               : "memory");
}

// Row sums over the 32 lanes, transposing (76's, for N rows a thread): at each step a lane keeps
// half of its rows and adds its partner's copies of them, so after log2(N) steps lane l holds
// the partial of its row l / (32 / N), which plain xor steps then complete. A fixed order.
template <int N>
__device__ __forceinline__ void row_sums(float (&acc)[N], int lane) {
  int offset = 16;
#pragma unroll
  for (int n = N; n > 1; n /= 2, offset /= 2) {
    const bool upper = lane & offset;
#pragma unroll
    for (int i = 0; i < n / 2; ++i) {
      const float send = upper ? acc[i] : acc[i + n / 2];
      const float keep = upper ? acc[i + n / 2] : acc[i];
      acc[i] = keep + __shfl_xor_sync(0xFFFFFFFFu, send, offset);
    }
  }
#pragma unroll
  for (; offset > 0; offset /= 2) acc[0] += __shfl_xor_sync(0xFFFFFFFFu, acc[0], offset);
}

// A stage: a row block of A and its scales as copied (SFA from the 16-byte boundary at or below
// its first byte: the bulk copy moves 16-byte units), and the barrier its copies complete on.
struct __align__(128) Stage {
  uint8_t a[BLOCK_A_BYTES];
  uint8_t sfa[BLOCK_A_BYTES / 8 + 32];
  uint64_t full;
};
// A block's shared memory (dynamic: more than the 48 KB a static declaration may hold).
struct RowBlockRing {
  Stage stage[STAGES];
  float sums[MAX_THREADS / 32][MAX_ROWS_PER_THREAD];
};

// A block's jobs in order: piece p of row block u, for u = blockIdx.x, blockIdx.x + gridDim.x, ...
// (row blocks numbered across batches) and the row's pieces (one unless K > CHUNK_K).
struct Job {
  long long unit;
  int k0;
};
__device__ __forceinline__ Job next_job(Job j, int k) {
  return j.k0 + CHUNK_K < k ? Job{j.unit, j.k0 + CHUNK_K} : Job{j.unit + gridDim.x, 0};
}

// Thread 0: the job's two bulk copies into stage st, counted on its barrier.
__device__ __forceinline__ void copy_job(Stage& st, const uint8_t* a, const uint8_t* sfa, Job j, int rows, int k) {
  const int piece_k = k - j.k0 < CHUNK_K ? k - j.k0 : CHUNK_K;
  const long long row0 = j.unit * rows;
  const uint8_t* sfa_src = sfa + row0 * (k / 16) + j.k0 / 16;
  const uint8_t* sfa_first = reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(sfa_src) & ~uintptr_t{15});
  // Ends on a 16-byte boundary inside SFA: the tensor is 16-byte aligned and M*K/16*L bytes, a
  // multiple of 16.
  const uint32_t a_bytes = static_cast<uint32_t>(rows) * (piece_k / 2);
  const uint32_t sfa_bytes = (static_cast<uint32_t>(sfa_src - sfa_first) + rows * (piece_k / 16) + 15) & ~15u;
  mbar_expect_tx(&st.full, a_bytes + sfa_bytes);
  bulk_copy(st.a, a + row0 * (k / 2) + j.k0 / 2, a_bytes, &st.full);
  bulk_copy(st.sfa, sfa_first, sfa_bytes, &st.full);
}

constexpr int ROWS_AT_ONCE = 4;  // rows whose slices a thread holds at once (76's 4 rows a warp)

template <int ROWS_PER_THREAD>  // rows x slices: rows = ROWS_PER_THREAD x (blockDim.x / col_threads)
__global__ void __launch_bounds__(MAX_THREADS, BLOCKS_PER_SM)
nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k, int l,
                  long long b_batch_stride, long long sfb_batch_stride, int col_threads) {
  extern __shared__ RowBlockRing ring[];
  RowBlockRing& s = ring[0];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int row_threads = blockDim.x / col_threads;
  const int rows = ROWS_PER_THREAD * row_threads;
  const int col0 = t % col_threads, rt = t / col_threads;  // col_threads is a multiple of 32: rt is the warp's
  // a, sfa and c are [L][M][...]: row block u is rows u*rows.. of all batches' (rows divides M).
  const long long units = static_cast<long long>(m / rows) * l;

  uint32_t lane_id;  // mag_lo as in 70's kernel: kMagLo in a register ptxas cannot re-materialize
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);
  float acc[ROWS_PER_THREAD];
#pragma unroll
  for (int j = 0; j < ROWS_PER_THREAD; ++j) acc[j] = 0.0f;

  Job job{blockIdx.x, 0};
  if (t == 0) {
#pragma unroll
    for (int i = 0; i < STAGES; ++i) mbar_init(&s.stage[i].full);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    copy_job(s.stage[0], a, sfa, job, rows, k);
  }
  __syncthreads();
  for (int i = 0; job.unit < units; ++i, job = next_job(job, k)) {
    Stage& st = s.stage[i % STAGES];
    const Job next = next_job(job, k);
    // The next job's copies go out now: its stage was last read in job i - 1, which every thread
    // finished before the barrier that ended it.
    if (t == 0 && next.unit < units) {
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // those reads before these writes
      copy_job(s.stage[(i + 1) % STAGES], a, sfa, next, rows, k);
    }
    const int piece_k = k - job.k0 < CHUNK_K ? k - job.k0 : CHUNK_K;
    const long long row0 = job.unit * rows;
    const int batch = static_cast<int>(row0 / m);
    const int sfa_skew = static_cast<int>(reinterpret_cast<uintptr_t>(sfa + row0 * (k / 16) + job.k0 / 16) & 15);
    const int slices = piece_k / SLICE_K;
    const uint8_t* b_piece = b + batch * b_batch_stride + job.k0 / 2;
    const uint8_t* sfb_piece = sfb + batch * sfb_batch_stride + job.k0 / 16;
    // The thread's first slice of B is on its way while the job's copies land.
    uint4 b_bytes = make_uint4(0, 0, 0, 0);
    uint32_t sfb_two = 0;
    if (col0 < slices) {
      b_bytes = __ldg(reinterpret_cast<const uint4*>(b_piece) + col0);
      sfb_two = __ldg(reinterpret_cast<const unsigned short*>(sfb_piece) + col0);
    }
    mbar_wait(&st.full, (i / STAGES) & 1);
    for (int col = col0; col < slices; col += col_threads) {
      const BWindow bw = b_window(b_bytes, sfb_two);
      if (col + col_threads < slices) {
        b_bytes = __ldg(reinterpret_cast<const uint4*>(b_piece) + col + col_threads);
        sfb_two = __ldg(reinterpret_cast<const unsigned short*>(sfb_piece) + col + col_threads);
      }
#pragma unroll
      for (int j0 = 0; j0 < ROWS_PER_THREAD; j0 += ROWS_AT_ONCE) {
        constexpr int N = ROWS_PER_THREAD < ROWS_AT_ONCE ? ROWS_PER_THREAD : ROWS_AT_ONCE;
        uint4 a_rows[N];
        uint32_t sfa_rows[N];
#pragma unroll
        for (int q = 0; q < N; ++q) {
          const int r = rt + (j0 + q) * row_threads;
          a_rows[q] = *reinterpret_cast<const uint4*>(st.a + r * (piece_k / 2) + 16 * col);
          sfa_rows[q] = *reinterpret_cast<const unsigned short*>(st.sfa + sfa_skew + r * (piece_k / 16) + 2 * col);
        }
        rows_dot<N>(mag_lo, a_rows, sfa_rows, bw, *reinterpret_cast<float(*)[N]>(acc + j0));
      }
    }
    if (next.unit != job.unit) {
      // The row block's last piece: the warp's sums (its lanes share rt), then the row's warps in order.
      row_sums<ROWS_PER_THREAD>(acc, lane);
      constexpr int kLanesPerRow = 32 / ROWS_PER_THREAD;
      if (lane % kLanesPerRow == 0) s.sums[warp][lane / kLanesPerRow] = acc[0];
      __syncthreads();
      if (t < rows) {  // block row t: j = t / row_threads of the threads with rt = t % row_threads
        const int warps_per_row = col_threads / 32;
        const int first_warp = (t % row_threads) * warps_per_row, j = t / row_threads;
        float total = s.sums[first_warp][j];
        for (int w = 1; w < warps_per_row; ++w) total += s.sums[first_warp + w][j];
        c[row0 + t] = __float2half_rn(total);
      }
#pragma unroll
      for (int j = 0; j < ROWS_PER_THREAD; ++j) acc[j] = 0.0f;
    }
    __syncthreads();  // the stage and the sums read by every thread before they are written again
  }
}

// The dispatch: col_threads the row's slices (rounded up to whole warps, at most MAX_THREADS),
// row_threads as many as fit beside them; rows as many as BLOCK_A_BYTES and MAX_ROWS_PER_THREAD
// allow, halved while the grid would be less than two blocks an SM (small problems).
struct RowBlocks {
  int col_threads, row_threads, rows_per_thread;
};

static int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  }
  return sms;
}

static RowBlocks row_blocks_of(int m, int k, int l) {
  const int piece_k = k < CHUNK_K ? k : CHUNK_K;
  const int slices = piece_k / SLICE_K;
  RowBlocks r;
  r.col_threads = (slices + 31) / 32 * 32 < MAX_THREADS ? (slices + 31) / 32 * 32 : MAX_THREADS;
  r.row_threads = MAX_THREADS / r.col_threads;
  int fit = 1;  // a power of two: divides M, a multiple of 128 (at most 64 rows: 8 x 8)
  while (2 * fit * (piece_k / 2) <= BLOCK_A_BYTES && 2 * fit <= MAX_ROWS_PER_THREAD * r.row_threads) fit *= 2;
  while (fit > r.row_threads && static_cast<long long>(m / fit) * l < 2LL * sm_count()) fit /= 2;
  r.rows_per_thread = fit / r.row_threads;
  return r;
}

template <int N>
static int resident_blocks() {  // the GPU's, of this instantiation
  static int blocks = 0;
  if (blocks == 0) {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_kernel<N>, MAX_THREADS, sizeof(RowBlockRing));
    blocks = (per_sm > 0 ? per_sm : 1) * sm_count();
  }
  return blocks;
}

template <int N>
static void launch(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb, __half* c,
                   int m, int k, int l, long long b_batch_stride, long long sfb_batch_stride,
                   const RowBlocks& r, cudaStream_t stream) {
  const long long units = static_cast<long long>(m / (N * r.row_threads)) * l;
  const long long grid = units < resident_blocks<N>() ? units : resident_blocks<N>();
  nvfp4_gemv_kernel<N><<<static_cast<unsigned>(grid), r.col_threads * r.row_threads, sizeof(RowBlockRing), stream>>>(
      a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, r.col_threads);
}

// Two stages are more shared memory than a block may have without asking.
template <int N>
static void allow_ring() {
  cudaFuncSetAttribute(nvfp4_gemv_kernel<N>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       static_cast<int>(sizeof(RowBlockRing)));
  cudaFuncSetAttribute(nvfp4_gemv_kernel<N>, cudaFuncAttributePreferredSharedMemoryCarveout,
                       cudaSharedmemCarveoutMaxShared);
}

extern "C" int nvfp4_gemv_setup(void) {
  allow_ring<1>();
  allow_ring<2>();
  allow_ring<4>();
  allow_ring<8>();
  return static_cast<int>(cudaGetLastError());
}

extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
                          __half* c, int m, int k, int l, long long b_batch_stride,
                          long long sfb_batch_stride, cudaStream_t stream) {
  const RowBlocks r = row_blocks_of(m, k, l);
  switch (r.rows_per_thread) {
    case 1: launch<1>(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, r, stream); break;
    case 2: launch<2>(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, r, stream); break;
    case 4: launch<4>(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, r, stream); break;
    default: launch<8>(a, b, sfa, sfb, c, m, k, l, b_batch_stride, sfb_batch_stride, r, stream); break;
  }
  return static_cast<int>(cudaGetLastError());
}
