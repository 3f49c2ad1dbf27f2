// 93zf tiles-by-ticket: 93f with its one-warp tiles, where they run in several waves, taken by
// ticket by resident warps: the dispatch launches only the one-warp blocks the GPU holds at once,
// each takes the tile of its own index first and then, tile after tile, the next one a counter
// deals (atom.inc on a word of the workspace, its round trip under the tile's windows). On the
// H200 93f's one-warp blocks leave an SM's places empty between one block's end and the next one's
// start (closing-the-gap section 88); 93u's resident warps took fixed shares (tiles G apart), so
// that on 7168x2048x4 seven in ten warps ran two tiles where the grid averages 1.7, and lost.
// A ticket is taken as a warp frees up, as the GPU hands out blocks, without the empty places.
// 93f b-words-at-use: 93d with B's window decoded a word at a time, just before the products that
// use it, and each scale block's sums scaled as soon as its two words are done. 93d decoded the
// whole window first and held it (16 registers) across the products; ptxas then sent a window's
// four rows of A close together and waited for them together. Decoded a word at a time, the rows'
// products start on the first row's bytes while the others come (93e's probe, closing-the-gap
// section 66: its build at 64 registers read closer to the floor than 93d on every shape on the
// H200). The registers stay at 64: 93e spent what this freed on more warps, and lost.
// 93d pairs-a-warp: 93c with long rows (K over 8 windows, an even number of them) split a pair of
// windows a warp on GPUs with issue to spare (the H100), in several waves, where the rule gave a
// few long parts in one wave (7168x16384x1: 2 parts of 8 windows). The probe split-count
// (closing-the-gap section 63) timed 93c's own kernels with more parts on the H100's long rows:
// one pair a warp read 7168x16384x1 closer to the floor in both modes.
// 93c others-leave-at-once: 93a with a split tile's warps other than the first leaving as soon as
// their partials are stored: they signal a named barrier without waiting at it (bar.arrive, which
// orders their stores before the first warp's wait ends), and only the first warp waits and adds.
// In 93a every warp of the block waited at __syncthreads for the slowest; a warp that has left
// frees its slot in the SM, if the GPU hands out a warp's room before its whole block ends.
// 93a shallow-split-sums: 93 with a split tile's sums finished in shared memory: each warp stops
// its row sums after the two transposing shuffles (lane l then holds one of 8 partials of row
// l / 8) and stores every lane's partial; the block's first 4 threads add a row's 8 partials of
// each split from two 16-byte loads per split, all independent. 93 took three more dependent
// shuffles per warp and one dependent load per split after the barrier, at the end of every
// call, after the SM's last bytes (closing-the-gap section 53: most of the H100's gap on the
// one-wave shapes comes there); 95a, the same change to 95, gained there. A tile of one warp keeps
// 93's sums.
// 93 runs-by-rule: 92 with the scale runs only on GPUs with issue to spare per byte of DRAM
// bandwidth (the H100), by the same test 61's rule makes for one-window parts; elsewhere (the
// H200) the split reads each window's scales as 76 did. The probe math-fraction (closing-the-gap
// section 48) timed 76's split with every row multiplied: the runs gain on the H100 and lose on
// the H200 in clean mode, where the products already use the room the runs would need.
// 92 runs-without-walk: 91 with the walk retired: every shape runs the split (with 91's scale runs
// where parts are two windows or more), where 76 and 91 walked the H100's rows of 16 windows and
// more. On the H100 the probe math-fraction (closing-the-gap section 48) timed 76's split with
// 91's runs at 7168x16384x1 closer to the floor than the walk in clean mode, in the same run.
// 91 scale-runs-shuffled: 76 with the split's windows taken in pairs and each row's scales for a
// pair read in one 128-byte run (4 bytes a lane) at the pair's start, each lane's two bytes of a
// window then taken from the run by a shuffle. 76 read them 64 bytes a row a window (2 bytes a
// lane): the scale-runs probe (section 17) read 43's loads with 128-byte runs several points closer
// to the floor on the H200, and `.L2::128B` on the 64-byte loads (90) lost: what pays is fewer,
// whole-line requests, not L2 fetching the line. The walk and a part's odd last window are 76's.
// 76 walk-by-rule: 75 with its walk only where 75's rows show it ahead of 70's split: rows of at
// least 16 windows that each warp walks over several tiles, on GPUs with issue to spare (the
// H100). 75 walked wherever K is whole windows and lost to 70 on most of those shapes.
// 75 walk-loads-ahead: 74 with a tile's loads issued as soon as the registers are free: the next
// tile's right after the products of the one before, ahead of its row sums (six dependent
// shuffles) and store, and the first tile's before B's window is staged. In 74 a warp issued a
// tile's loads only after the previous tile was summed and stored, and its first tile's only after
// B had come from memory and been decoded and staged.
// 74 fixed-window-warps: 70 with a second launch, the walk, where K is whole windows (at most 32):
// a warp keeps one window of K and steps down the tiles, with its window of B decoded once (into
// shared memory); a block of one warp per window times a few groups stays resident, its groups
// taking tiles a step's worth apart so that the warps in flight read whole consecutive tiles; the
// tiles' row sums go to shared-memory slots that the block adds, in window order, at its end.
// 70 part-bounds-by-multiply: 69 with each part's bounds from a multiply-high by a reciprocal the
// dispatch computes, where 69 read them from a table in the parameters: an indexed read of the
// constant bank, which a warp waits for before its first load.
// 69 divisions-on-host: 67 with the prologue's two divisions done by the dispatch: the batch is
// the grid's second dimension, and each part's first window comes from a table of part bounds
// passed with the kernel's parameters. A warp of one window (the H100's parts) paid for both
// divisions, about 40 instructions, beside the window's 350.
// 67 short-window-words: 66 with the dealt short window cut into words (8 elements, 4 bytes of a
// row) instead of 16-byte pieces: lane i takes row i / 8 and that row's words i % 8, i % 8 + 8, ...
// Every lane works, and a lane decodes one word of B per word of A, where 66's lanes each decoded
// 16 bytes of B for one row's 16 bytes and, with K mod 1024 = 64, 24 of the 32 lanes held zeros:
// about a sixth of 66's instructions for the same bytes.
// 66 short-window-dealt: 65 with the short window's products dealt over the warp where its pieces
// fit it (K mod 1024 <= 256): a piece (a row's 16 bytes at one lane's place in the window) per
// lane, one row's products a lane, where 64 and 65 gave each lane its 4 rows at its own place,
// zeros past K: a full window's instructions for as little as 32 bytes a row. A longer short
// window keeps 65's 4 rows a lane. The row-alignment probe (M = 8320, L = 2) put the odd shapes'
// cliff there: K = 2304, rows on a line boundary, is as slow as K = 2112.
// 65 short-window-parts: 64 with one-window parts where K has a short last window too. 61's rule
// left them out because the short window took a warp of its own; in 64 it rides with the last
// part, so K = 2112 splits into 2 parts as K = 2048 does. 8320x2112x2 ran one wave of 2 steps a
// warp, every warp in lockstep (DRAM idle while they all compute); in parts, 2 waves of one step.
// 64 short-window-staged: 62 with a short last window (K not a multiple of 1024) copied into
// shared memory by cp.async before the warp's part begins and summed after it, instead of being
// a window of its own: one more part to split over, one more trip to DRAM for the warp that drew
// it, for as little as 32 bytes a row (8320x2112x2: every warp ran 3 dependent steps for 2
// windows' bytes). The copies hold no registers across the loop and wait for nothing until the end.
// 62 hw-fp4-products: 61 with, on Blackwell, A and B decoded by the hardware e2m1 conversion
// (cvt.rn.f16x2.e2m1x2, one instruction per byte, sign included) and multiplied in f16x2
// (HFMA2): no look-up tables, no sign split, half the decode's instructions. A scale block's 8
// pairs of products sum exactly in f16 (each a multiple of 1/4 of at most 36, 8 of them at most
// 288: below 512 every multiple of 1/4 is an f16), so the block sums, and the output, are the
// dp4a path's bit for bit. Hopper keeps 61's dp4a code instruction for instruction;
// HALF2_PRODUCTS=1 builds the f16x2 path there too, with nvfp4_cvt.cuh's exact software
// conversion, so that the GPU tests run it on a GPU we have.
// 61 parts-by-rule: 57 with one-window parts only where they pay, by a rule on the shape and the
// GPU; elsewhere the split of 43 (a warp runs its part of K in one wave), with 57's prologue.
// One-window parts cost half again 43's instructions per byte and gain the read order: they pay
// where the GPU's issue rate per DRAM byte has room for them (the H100, not the H200), where K is
// a whole number of windows (a short last window takes a warp of its own) and where a tile's
// block is at most ONE_WINDOW_MAX_WARPS warps (longer rows start, load and meet in lockstep).
// 57 narrow-prologue: 56 with the warp's tile, batch and part bounds in 32-bit arithmetic: a
// warp of one window runs its prologue once per 2 KB of A, and 56's three 64-bit divisions
// made that prologue as long as a third of the window's loop.
// 56 one-window-splits: 45 with parts of one window: a tile's block has a warp per window, so
// its warps read the tile's rows end to end side by side (the order the row-locality probe
// found close to the floor) and all end together; 55 did the same with one-warp blocks and
// paid a GPU-scope fence per window to sum them, here the sum stays in shared memory.
// 45 short-splits: 43 with K split so that no warp runs more than WINDOWS_PER_WARP windows,
// in several waves where that is more warps than the GPU holds. 43 never splits beyond one wave:
// its one split benchmark shape (7168x16384x1) runs 8 windows per warp in a single wave that
// ends all at once, where the unsplit multi-wave shapes end a short block at a time.
// 43 shifts-on-fma: 42 with the shifts that bring A's upper nibbles down to prmt's selector
// field done as a multiply-high by 2^16 (IMAD.HI, on the FMA pipe) instead of a shift (SHF, on
// the ALU pipe). Hopper's ALU pipe takes half a warp per cycle and carries PRMT, LOP3, SHF and
// IADD3: 200 of 42's 348 instructions a window, more cycles than issue itself needs.
// 42 warp-tiles: 41 with a tile of one warp's 4 rows instead of 16: a block is the S warps that
// split those rows' K range. The GPU places blocks whole, so 41's blocks of 4 x S warps left the
// SMs up to a block apart in work (on 7168x16384x1, 4 blocks of 8 warps against 3); blocks of S
// warps bring every SM to within one small block of the others.
// 41 evict-first: 40 with A and its scales read under an L2 evict_first policy: they are read
// once, and in GPU MODE's timing L2 is cleared by writing, so each line they displace is a dirty
// line written back to DRAM during the call. Evicted first, they displace mostly each other.
// 40 block-split: 39 with a split tile's S parts run by S groups of warps in one block, their
// sums added in its shared memory, where 39 (as 34 and 35) launched S blocks as one cluster and
// added the sums through distributed shared memory. No cluster: S is bounded by the 1024 threads
// of a block (8 groups of 4 warps) and by the blocks of 128*S threads the GPU holds at once.
// 39 dp4a-row-runs: 35 with the products on dp4a (four int8 products per instruction) instead of
// the tensor cores. Free of the mma's fragment layout, a warp reads A in whole-row runs: each load
// instruction covers 512 contiguous bytes of one row (lane l the 16 bytes at 16l), where 35's
// covered 64 bytes in each of 8 rows. A warp owns TILE_ROWS / WARPS_PER_BLOCK rows of the tile over
// the split's whole K range and decodes each window of B once for all of them. The dispatch (S,
// clusters, the fixup in split order) is 35's. Both targets build the same dp4a code: the sm_100a
// path does not use Blackwell's hardware e2m1 conversion.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "nvfp4_gemv.h"  // the entry point this file defines (contract 1)
#include "nvfp4_cvt.cuh"  // NVFP4_HW_E2M1, NVFP4_CVT_E2M1X2

// 1: products in f16x2 from the e2m1 conversion; 0: 61's dp4a. The default is the hardware's.
#ifndef HALF2_PRODUCTS
#define HALF2_PRODUCTS NVFP4_HW_E2M1
#endif
// 1: a pair's scales in runs; 0: the same pairs with each window's scales read as 76 reads them,
// a control that times the pairs' loop (whose second window's loads ptxas issues among the first
// window's products) without the runs.
#ifndef SCALE_RUNS
#define SCALE_RUNS 1
#endif

// 1: one-warp tiles in several waves taken by resident warps; 0: the same kernel launched with a
// block a tile (each warp takes only the ticket that ends it), the probe warp_tiles_by_ticket's control.
#ifndef RESIDENT
#define RESIDENT 1
#endif
// 1: a resident warp's next tile by ticket; 0: the tiles G apart (93u's fixed shares) through the
// same kernel, the probe warp_tiles_by_ticket's second control.
#ifndef TICKETS
#define TICKETS 1
#endif
// The probe ticket_placement's: 1 takes a tile's ticket in the pass of its last window (ptxas
// waits for an atomic issued in the loop at the top of the next pass: the measured build waits
// for it before the tile's second window). The probes tickets_spread's and tickets_counters's:
// DEALERS counters, 128 bytes apart, warp w on counter w % DEALERS (the tiles past the first G
// dealt round robin over them).
#ifndef TICKET_AT_LAST
#define TICKET_AT_LAST 0
#endif
#ifndef DEALERS
#define DEALERS 1
#endif
// The probes tickets_nested's, tickets_spread's and tickets_counters's: 1 runs a tile's windows in
// a loop of their own inside the loop over tiles (93u's form), where ptxas waits for the ticket
// only after the tile's windows.
#ifndef NESTED
#define NESTED 0
#endif
// The probe tiles_a_warp's: n > 0 launches ceil(tiles / n) one-warp blocks (with TICKETS=0 each
// runs n tiles, G apart), whatever RESIDENT says.
#ifndef SHARE_TILES
#define SHARE_TILES 0
#endif

// Launch shape: one block per 4-row tile, S warps (dispatch below); warp s owns the tile's rows
// over the s-th part of K, stepping through it a window at a time; the warps' sums are added in
// shared memory in a fixed order.
constexpr int TILE_ROWS = 4;
constexpr int ROWS_PER_WARP = TILE_ROWS;
constexpr int MAX_SPLITS = 1024 / 32;  // warps in a block of 1024 threads
// The rule's two constants, from 57's and 43's rows on both GPUs (docs/closing-the-gap.md,
// section 21): one-window parts for K up to 8 windows, on GPUs that can issue at least 0.25 warp
// instructions per byte of DRAM bandwidth (about 0.31 on the H100 SXM, 0.21 on the H200).
constexpr int ONE_WINDOW_MAX_WARPS = 8;
constexpr double ONE_WINDOW_MIN_ISSUE_PER_BYTE = 0.25;
// The scale runs where the same issue rate is available: at the H100's the probe math-fraction's
// split with runs read closer to the floor than without, at the H200's further (section 48).
constexpr double RUNS_MIN_ISSUE_PER_BYTE = 0.25;
constexpr int WINDOW_K = 1024;  // elements per row per warp step: 512 bytes, 16 per lane (2 scale blocks)

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

// One window of B, one lane's part: its 32 elements (16 bytes, bytes 0-7 scale block 2l of the
// window, bytes 8-15 block 2l+1) as 16 f16x2 in element order, and the two B scales as floats.
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
#endif

#if HALF2_PRODUCTS
// The warp's rows, 16 bytes each, against the lane's B: each byte of A converted to f16x2 and
// multiplied with B's pair by HFMA2 into one f16x2 sum per scale block (its two halves the even
// and the odd elements, 8 products each, exact), whose halves are then added and scaled in f32.
// Word by word across the rows, as the dp4a path (each load is needed early).
template <int ROWS>  // the warp's rows, or one (a dealt piece of the short window)
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
// The warp's rows, 16 bytes each, against the lane's B: each scale block's products summed exactly
// in int32 by dp4a (non-negative elements against +2b, negative ones against -2b: 4x the block's
// dot product), then scaled in f32 and added to acc. B's words are decoded one at a time, each
// just before the products that use it, and each block's sum is scaled as soon as its two words
// are done: no decoded window and no second block's sums held across the products.
template <int ROWS>  // the warp's rows, or one (a dealt piece of the short window)
__device__ __forceinline__ void rows_dot(uint32_t mag_lo, const uint4 (&bytes)[ROWS],
                                         const uint32_t (&scales)[ROWS], uint4 b_bytes, uint32_t sfb_two,
                                         float (&acc)[ROWS]) {
  float2 sfb = e4m3x2_to_float2(sfb_two);
  sfb.x *= 0.25f;  // the int8 operands are twice the e2m1 values
  sfb.y *= 0.25f;
  const uint32_t bw[4] = {b_bytes.x, b_bytes.y, b_bytes.z, b_bytes.w};
#pragma unroll
  for (int block = 0; block < 2; ++block) {
    int d[ROWS] = {};
#pragma unroll
    for (int i = 2 * block; i < 2 * block + 2; ++i) {
      uint32_t plus[2], minus[2];
      b_signed(bw[i], plus[0], minus[0]);
      b_signed(bw[i] >> 16, plus[1], minus[1]);
#pragma unroll
      for (int r = 0; r < ROWS; ++r) {
        const uint32_t w = i == 0 ? bytes[r].x : i == 1 ? bytes[r].y : i == 2 ? bytes[r].z : bytes[r].w;
        const uint32_t neg = w ^ 0x88888888u;
        d[r] = __dp4a(static_cast<int>(a_nonneg(mag_lo, w)), static_cast<int>(plus[0]), d[r]);
        d[r] = __dp4a(static_cast<int>(a_nonneg(mag_lo, neg)), static_cast<int>(minus[0]), d[r]);
        d[r] = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(w, 1u << 16))), static_cast<int>(plus[1]), d[r]);
        d[r] = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(neg, 1u << 16))), static_cast<int>(minus[1]), d[r]);
      }
    }
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const float2 sa = e4m3x2_to_float2(scales[r]);
      acc[r] = fmaf(static_cast<float>(d[r]), (block == 0 ? sa.x : sa.y) * (block == 0 ? sfb.x : sfb.y), acc[r]);
    }
  }
}

#endif

// A lane's pointers: its 16 bytes of the warp's first row (the other rows follow at a_row_bytes),
// that row's two scales, and its slice of B and of B's scales; window 0 of the whole row.
struct LanePtrs {
  const uint8_t *a, *sfa, *b, *sfb;
};

// Strong loads for A and SFA: ptxas keeps them in program order among themselves. With __ldg it
// sinks the scale loads behind the products, a second DRAM wait per window (27 found the same).
// Both carry an L2 evict_first policy (L2::cache_hint; createpolicy with a constant fraction
// folds to a constant, 13's kernel says how ptxas keeps it).
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

// One window of the warp's rows, loaded: the scales first, then A from the last row to the
// first, so that every load of the window is issued before the first product waits.
struct WindowLoads {
  uint4 a_rows[ROWS_PER_WARP];
  uint32_t sfa_rows[ROWS_PER_WARP];
  uint4 b_bytes;
  uint32_t sfb_two;
};

__device__ __forceinline__ void window_dot(uint32_t mag_lo, const WindowLoads& w, float (&acc)[ROWS_PER_WARP]) {
#if HALF2_PRODUCTS
  const BWindow bw = b_window(w.b_bytes, w.sfb_two);
  rows_dot<ROWS_PER_WARP>(mag_lo, w.a_rows, w.sfa_rows, bw, acc);
#else
  rows_dot<ROWS_PER_WARP>(mag_lo, w.a_rows, w.sfa_rows, w.b_bytes, w.sfb_two, acc);
#endif
}

// The warp's rows at a lane's place: the scales first, then A from the last row to the first.
__device__ __forceinline__ void load_rows(const uint8_t* a, const uint8_t* sfa, long long a_row_bytes,
                                          int sfa_row_bytes, long long off, int sf_off,
                                          uint4 (&a_rows)[ROWS_PER_WARP], uint32_t (&sfa_rows)[ROWS_PER_WARP]) {
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) sfa_rows[r] = ld_stream_sf(sfa + r * sfa_row_bytes + sf_off);
#pragma unroll
  for (int r = ROWS_PER_WARP - 1; r >= 0; --r) a_rows[r] = ld_stream_a(a + r * a_row_bytes + off);
}

// A's scales for two windows from `window` on: lane l gets bytes 4l..4l+3 of each row's 128 (the
// pair's 64 + 64), one load per row.
__device__ __forceinline__ void load_scale_runs(const uint8_t* sfa_run, int sfa_row_bytes, int window,
                                                uint32_t (&runs)[ROWS_PER_WARP]) {
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    asm volatile("ld.relaxed.gpu.global.L2::cache_hint.u32 %0, [%1], %2;"
                 : "=r"(runs[r]) : "l"(sfa_run + r * sfa_row_bytes + window * (WINDOW_K / 16)), "l"(policy_evict_first()));
  }
}

// One window of a pair: A and B loaded as window_loads does, and each row's two scale bytes (2l, 2l+1
// of the window's 64) taken from the run: from lane l / 2 (the pair's second window: 16 + l / 2),
// the half that lane l's parity picks, in the low 16 bits.
__device__ __forceinline__ WindowLoads pair_window_loads(const LanePtrs& p, long long a_row_bytes, int sfa_row_bytes,
                                                         int window, const uint32_t (&runs)[ROWS_PER_WARP],
                                                         int lane, int second) {
  const long long off = static_cast<long long>(window) * (WINDOW_K / 2);
  const int sf_off = window * (WINDOW_K / 16);
  WindowLoads w;
#if SCALE_RUNS
#pragma unroll
  for (int r = ROWS_PER_WARP - 1; r >= 0; --r) w.a_rows[r] = ld_stream_a(p.a + r * a_row_bytes + off);
  const int from = 16 * second + lane / 2, half = 16 * (lane % 2);
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) w.sfa_rows[r] = __shfl_sync(0xFFFFFFFFu, runs[r], from) >> half;
#else
  load_rows(p.a, p.sfa, a_row_bytes, sfa_row_bytes, off, sf_off, w.a_rows, w.sfa_rows);
#endif
  w.b_bytes = __ldg(reinterpret_cast<const uint4*>(p.b + off));
  w.sfb_two = __ldg(reinterpret_cast<const unsigned short*>(p.sfb + sf_off));
  return w;
}

__device__ __forceinline__ WindowLoads window_loads(const LanePtrs& p, long long a_row_bytes, int sfa_row_bytes,
                                                    int window) {
  const long long off = static_cast<long long>(window) * (WINDOW_K / 2);
  const int sf_off = window * (WINDOW_K / 16);
  WindowLoads w;
  load_rows(p.a, p.sfa, a_row_bytes, sfa_row_bytes, off, sf_off, w.a_rows, w.sfa_rows);
  w.b_bytes = __ldg(reinterpret_cast<const uint4*>(p.b + off));
  w.sfb_two = __ldg(reinterpret_cast<const unsigned short*>(p.sfb + sf_off));
  return w;
}

// The short last window in shared memory: each lane's 16 bytes of A per row and of B, and the
// scales as words of two lanes' pairs (cp.async copies 4 bytes at least).
struct ShortWindow {
  uint4 a[ROWS_PER_WARP][32];
  uint32_t sfa[ROWS_PER_WARP][16];
  uint4 b[32];
  uint32_t sfb[16];
};

// An asynchronous copy of SIZE bytes into shared memory, or of none where !valid (zeros written,
// nothing read; the source then points at the window's first bytes, inside the tensor).
// cp.async.cg (L2 only) takes 16 bytes; 4 need .ca. No L2 policy: with evict_first on A's copies
// (as ld_stream_a), the first build stopped on an illegal instruction on the H100.
template <int SIZE>  // 16 or 4
__device__ __forceinline__ void stage(void* dst, const uint8_t* src, const uint8_t* first, bool valid) {
  const uint32_t to = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  const uint8_t* from = valid ? src : first;
  const int bytes = valid ? SIZE : 0;
  if constexpr (SIZE == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(to), "l"(from), "r"(bytes) : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" :: "r"(to), "l"(from), "r"(bytes) : "memory");
  }
}

// The warp's copies of the short window (`lanes` lanes' worth of K, an even number): A, its
// scales, B and B's scales, each lane its own 16 bytes and the first 16 lanes a word of scales.
__device__ __forceinline__ void stage_short_window(const LanePtrs& p, long long a_row_bytes, int sfa_row_bytes,
                                                   int window, int lanes, int lane, ShortWindow& s) {
  const long long off = static_cast<long long>(window) * (WINDOW_K / 2) - 16 * lane;  // lane 0's bytes
  const int sf_off = window * (WINDOW_K / 16) - 2 * lane;
  const bool piece = lane < lanes, pair = 2 * lane < lanes;
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    const uint8_t* row = p.a + r * a_row_bytes + off;
    stage<16>(&s.a[r][lane], row + 16 * lane, row, piece);
  }
  stage<16>(&s.b[lane], p.b + off + 16 * lane, p.b + off, piece);
  if (lane < 16) {
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) {
      const uint8_t* row = p.sfa + r * sfa_row_bytes + sf_off;
      stage<4>(&s.sfa[r][lane], row + 4 * lane, row, pair);
    }
    stage<4>(&s.sfb[lane], p.sfb + sf_off + 4 * lane, p.sfb + sf_off, pair);
  }
}

// The short window, once the warp's copies have landed.
__device__ __forceinline__ void wait_short_window() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  __syncwarp();  // a lane reads what other lanes copied
}

// As a window of the warp's 4 rows at each lane's place, zeros past K.
__device__ __forceinline__ WindowLoads staged_loads(const ShortWindow& s, int lane) {
  WindowLoads w;
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    w.a_rows[r] = s.a[r][lane];
    w.sfa_rows[r] = reinterpret_cast<const unsigned short*>(s.sfa[r])[lane];
  }
  w.b_bytes = s.b[lane];
  w.sfb_two = reinterpret_cast<const unsigned short*>(s.sfb)[lane];
  return w;
}

// Dealt, where it is short enough (K's last 256 elements or fewer, at most 4 words a lane): lane i
// takes row i / 8 and that row's words i % 8, i % 8 + 8, ..., each with its B word and the two
// scales of its block, and adds them to its row's sum. Every lane holds as many words: a row of
// the short window is 8 words per 64 elements, and K is a multiple of 64.
constexpr int DEALT_MAX_LANES = 8;  // 66's bound, kept: 16-byte places, so 4 x 8 = 32 words a row
constexpr int DEALT_LANES_PER_ROW = 32 / ROWS_PER_WARP;

#if HALF2_PRODUCTS
// One word of A (8 elements, half a scale block) against B's: 8 products in f16x2, exact.
__device__ __forceinline__ float word_dot(uint32_t, uint32_t a, uint32_t b) {
  uint32_t ah[4], bh[4];
  e2m1x8_to_f16x2(a, ah);
  e2m1x8_to_f16x2(b, bh);
  __half2 sum = __float2half2_rn(0.0f);
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    sum = __hfma2(*reinterpret_cast<const __half2*>(&ah[j]), *reinterpret_cast<const __half2*>(&bh[j]), sum);
  }
  const float2 s = __half22float2(sum);
  return s.x + s.y;
}
#else
// One word of A against B's: 8 products summed exactly by dp4a, 4x the dot product (as rows_dot).
__device__ __forceinline__ float word_dot(uint32_t mag_lo, uint32_t a, uint32_t b) {
  uint32_t plus[2], minus[2];
  b_signed(b, plus[0], minus[0]);
  b_signed(b >> 16, plus[1], minus[1]);
  const uint32_t neg = a ^ 0x88888888u;
  int d = __dp4a(static_cast<int>(a_nonneg(mag_lo, a)), static_cast<int>(plus[0]), 0);
  d = __dp4a(static_cast<int>(a_nonneg(mag_lo, neg)), static_cast<int>(minus[0]), d);
  d = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(a, 1u << 16))), static_cast<int>(plus[1]), d);
  d = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(neg, 1u << 16))), static_cast<int>(minus[1]), d);
  return 0.25f * static_cast<float>(d);  // the int8 operands are twice the e2m1 values
}
#endif

__device__ __forceinline__ void dealt_short_window_dot(uint32_t mag_lo, const ShortWindow& s, int lanes, int lane,
                                                       float (&acc)[ROWS_PER_WARP]) {
  const int row = lane / DEALT_LANES_PER_ROW;
  const uint32_t* a = reinterpret_cast<const uint32_t*>(s.a[row]);
  const uint32_t* b = reinterpret_cast<const uint32_t*>(s.b);
  const uint8_t* sfa = reinterpret_cast<const uint8_t*>(s.sfa[row]);
  const uint8_t* sfb = reinterpret_cast<const uint8_t*>(s.sfb);
  const int words = 4 * lanes;  // the row's words in the short window
  float sum = 0.0f;
#pragma unroll 1  // at most 4 rounds, one for the odd shapes measured (K mod 1024 = 64)
  for (int w = lane % DEALT_LANES_PER_ROW; w < words; w += DEALT_LANES_PER_ROW) {
    const float2 scales = e4m3x2_to_float2(sfa[w / 2] | sfb[w / 2] << 8);  // the word's scale block
    sum = fmaf(word_dot(mag_lo, a[w], b[w]), scales.x * scales.y, sum);
  }
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    if (row == r) acc[r] += sum;
  }
}

// The windows K is split over: the full ones (one if K is shorter than a window); a short last
// window goes with the part that ends the row.
__host__ __device__ __forceinline__ int windows_of(int k) { return k >= WINDOW_K ? k / WINDOW_K : 1; }

// Part s of a split tile starts at window s * windows / S, as the high word of s * windows times
// ceil(2^32 / S), which the dispatch computes (0 for S = 1). Exact: s * windows < 2^26 and the
// reciprocal is less than S / 2^32 too large, so the error stays below 1 / S.
__device__ __forceinline__ int part_start(int split, int windows, unsigned reciprocal) {
  return static_cast<int>(__umulhi(static_cast<unsigned>(split * windows), reciprocal));
}

// Row sums over the 32 lanes, transposing: at each step a lane keeps half of its rows and adds its
// partner's copies of them, so after log2(ROWS_PER_WARP) steps lane l holds one row's partial
// (row l / (32 / ROWS_PER_WARP)), which plain xor steps then complete. A fixed order: the lane's
// row sum ends in acc[0]. row_partials takes the transposing steps alone: lane l's acc[0] is then
// one of the kLanesPerRow partials of row l / kLanesPerRow (the one over the lanes congruent to l
// modulo kLanesPerRow).
constexpr int kLanesPerRow = 32 / ROWS_PER_WARP;
__device__ __forceinline__ void row_partials(float (&acc)[ROWS_PER_WARP], int lane) {
#pragma unroll
  for (int n = ROWS_PER_WARP, offset = 16; n > 1; n /= 2, offset /= 2) {
    const bool upper = lane & offset;
#pragma unroll
    for (int i = 0; i < n / 2; ++i) {
      const float send = upper ? acc[i] : acc[i + n / 2];
      const float keep = upper ? acc[i + n / 2] : acc[i];
      acc[i] = keep + __shfl_xor_sync(0xFFFFFFFFu, send, offset);
    }
  }
}
__device__ __forceinline__ void row_sum_finish(float& partial) {
#pragma unroll
  for (int offset = kLanesPerRow / 2; offset > 0; offset /= 2) partial += __shfl_xor_sync(0xFFFFFFFFu, partial, offset);
}

// The split tile's partials: barrier 0 counts the block's S warps. The other warps arrive and
// go on (to their exit); arriving releases their shared-memory stores to the warps that sync.
constexpr int kPartialsBarrier = 0;  // __syncthreads's, which this kernel no longer uses
__device__ __forceinline__ void partials_stored(int splits) {
  asm volatile("bar.arrive %0, %1;" :: "n"(kPartialsBarrier), "r"(splits * 32) : "memory");
}
__device__ __forceinline__ void wait_for_partials(int splits) {
  asm volatile("bar.sync %0, %1;" :: "n"(kPartialsBarrier), "r"(splits * 32) : "memory");
}

template <bool SHORT_WINDOW,  // K is not a multiple of WINDOW_K: the short window's code is built in
          bool RUNS>          // full windows in pairs, their scales in runs
__global__ void __launch_bounds__(MAX_SPLITS * 32, 1)
nvfp4_gemv_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                  const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                  __half* __restrict__ c, int m, int k,
                  long long b_batch_stride, long long sfb_batch_stride,
                  int splits, int batch0, unsigned split_reciprocal) {
  // The warp's index through a shuffle, which ptxas knows to be warp-uniform: it then keeps the
  // loop bounds in uniform registers as it does 39's. From threadIdx.x / 32 directly, the loop
  // spills 64 bytes at 64 registers.
  const int split = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);
  const int lane = threadIdx.x % 32;
  // Block = tile, warp = split; row index over all batches: a, sfa and c are [L][M][...]
  // so (l*M + r) addresses them directly.
  // The batch and the part's bounds come from the dispatch, with no division here: a warp of one
  // window pays its prologue once per window.
  const unsigned batch = batch0 + blockIdx.y;
  const long long row0 = (static_cast<long long>(batch) * (m / TILE_ROWS) + blockIdx.x) * TILE_ROWS;
  LanePtrs p;
  p.a = a + row0 * (k / 2) + 16 * lane;
  p.sfa = sfa + row0 * (k / 16) + 2 * lane;
  p.b = b + batch * b_batch_stride + 16 * lane;
  p.sfb = sfb + batch * sfb_batch_stride + 2 * lane;
  const int full_windows = k / WINDOW_K;  // then one short window if K is not a multiple of 1024
  const int windows = windows_of(k);
  const int w_begin = part_start(split, windows, split_reciprocal);
  const int w_end = split + 1 == splits ? windows : part_start(split + 1, windows, split_reciprocal);
  const int split_full_end = w_end < full_windows ? w_end : full_windows;

  // The A table's low word as a value ptxas does not know to be constant or warp-uniform (%laneid
  // is below 32): given the constant, or a uniform value, it copies it into a register again
  // before almost every look-up (about 45 extra instructions a window).
  uint32_t lane_id;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);
  float acc[ROWS_PER_WARP];
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) acc[r] = 0.0f;
  // The part that ends the row copies the short last window first and sums it last.
  extern __shared__ ShortWindow short_window[];  // one, launched with SHORT_WINDOW
  const bool short_last = SHORT_WINDOW && w_end == windows;
  if (short_last) stage_short_window(p, k / 2, k / 16, full_windows, (k - full_windows * WINDOW_K) / 32, lane, short_window[0]);
  // Pairs of full windows, their scales in runs; then an odd one and the short window as in 76.
  const uint8_t* sfa_run = sfa + row0 * (k / 16) + 4 * lane;
  int window = w_begin;
  for (; RUNS && window + 1 < split_full_end; window += 2) {
    uint32_t runs[ROWS_PER_WARP] = {};
    if (SCALE_RUNS) load_scale_runs(sfa_run, k / 16, window, runs);
    window_dot(mag_lo, pair_window_loads(p, k / 2, k / 16, window, runs, lane, 0), acc);
    window_dot(mag_lo, pair_window_loads(p, k / 2, k / 16, window + 1, runs, lane, 1), acc);
  }
  for (; window < split_full_end + short_last; ++window) {
    if (window < split_full_end) {
      window_dot(mag_lo, window_loads(p, k / 2, k / 16, window), acc);
    } else {
      const int lanes = (k - full_windows * WINDOW_K) / 32;
      wait_short_window();
      if (lanes <= DEALT_MAX_LANES) {
        dealt_short_window_dot(mag_lo, short_window[0], lanes, lane, acc);
      } else {
        window_dot(mag_lo, staged_loads(short_window[0], lane), acc);
      }
    }
  }

  row_partials(acc, lane);
  if (splits == 1) {
    row_sum_finish(acc[0]);
    if (lane % kLanesPerRow == 0) c[row0 + lane / kLanesPerRow] = __float2half_rn(acc[0]);
    return;
  }
  // Split tile: each warp leaves its lanes' row partials in shared memory (lane l's at [l]: a
  // row's 8 partials side by side) and, but for the first, leaves; once all have stored them,
  // the first warp's first 4 threads add each split's 8 partials of their row, split by split;
  // the loads do not wait for each other.
  // They follow the short window in the launch's shared memory: 128 bytes a split, 95's 512 bytes
  // for the one-window parts of K = 4096.
  static_assert(kLanesPerRow == 8, "a row's partials are two float4 in shared memory");
  float4* split_partials = reinterpret_cast<float4*>(short_window + (SHORT_WINDOW ? 1 : 0));
  reinterpret_cast<float*>(split_partials + 8 * split)[lane] = acc[0];
  if (split != 0) return partials_stored(splits);
  wait_for_partials(splits);
  if (threadIdx.x < TILE_ROWS) {
    float total = 0.0f;
#pragma unroll 4
    for (int s = 0; s < splits; ++s) {
      const float4 lo = split_partials[8 * s + 2 * threadIdx.x], hi = split_partials[8 * s + 2 * threadIdx.x + 1];
      total += ((lo.x + lo.y) + (lo.z + lo.w)) + ((hi.x + hi.y) + (hi.z + hi.w));
    }
    c[row0 + threadIdx.x] = __float2half_rn(total);
  }
}

// A ticket: the dealer's value before an increment that wraps to 0 after `last` (atom.inc). Each
// resident warp takes tickets until one is past the tiles, so a call takes exactly `tiles` of
// them (tiles - G dealt, G past the end) and leaves the dealer at 0 for the next call. In asm so
// that ptxas does not aggregate it over the warp (lane 0 alone takes it).
__device__ __forceinline__ unsigned take_ticket(unsigned* dealer, unsigned last) {
  unsigned taken;
  asm volatile("atom.relaxed.gpu.global.inc.u32 %0, [%1], %2;" : "=r"(taken) : "l"(dealer), "r"(last) : "memory");
  return taken;
}

// One-warp tiles taken by resident warps (G = gridDim.x one-warp blocks): tile blockIdx.x first,
// then G + each ticket, over every batch's tiles (a tile's rows are rows 4t..4t+3 of a, sfa and c,
// [L][M][...]; its batch is t / (M / 4), from a multiply-high by the dispatch's reciprocal). The
// windows run in one loop whose first pass of a tile starts it and whose last ends it: in a loop over
// tiles around 93f's window loop ptxas schedules the window loop otherwise (93u), as it does here
// with the ticket held across it (the loads first waited on sooner: `scripts/load_path.py --waits`).
template <bool SHORT_WINDOW>  // K is not a multiple of WINDOW_K: the short window's code is built in
__global__ void __launch_bounds__(32, MAX_SPLITS)
nvfp4_gemv_tickets_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                          const uint8_t* __restrict__ sfa, const uint8_t* __restrict__ sfb,
                          __half* __restrict__ c, int m, int k,
                          long long b_batch_stride, long long sfb_batch_stride,
                          int tiles, unsigned long long batch_reciprocal, unsigned* dealer) {
  const int lane = threadIdx.x;
  uint32_t lane_id;  // mag_lo as in 93f's kernel
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);
  const int full_windows = k / WINDOW_K;
  extern __shared__ ShortWindow short_window[];  // one, launched with SHORT_WINDOW
  int tile = blockIdx.x;
  unsigned ticket = 0;
  // This warp's counter and its last ticket: the tiles past the first G it deals (u = tile - G
  // with u % DEALERS its index) and one past the end for each of its warps.
  const int dealt = static_cast<int>(blockIdx.x % DEALERS);
  dealer += dealt * (128 / sizeof(unsigned));
  const int beyond = tiles - static_cast<int>(gridDim.x);
  const unsigned last = DEALERS == 1 ? static_cast<unsigned>(tiles - 1)
      : static_cast<unsigned>((beyond > dealt ? (beyond - dealt + DEALERS - 1) / DEALERS : 0) +
                              (static_cast<int>(gridDim.x) - dealt + DEALERS - 1) / DEALERS - 1);
  LanePtrs p;
  float acc[ROWS_PER_WARP];
#if NESTED
  for (;;) {  // NESTED: a tile's window loop inside the loop over tiles
    if (TICKETS && lane == 0) ticket = take_ticket(dealer, last);
    const long long row0 = static_cast<long long>(tile) * TILE_ROWS;
    const unsigned batch = static_cast<unsigned>((static_cast<unsigned long long>(tile) * batch_reciprocal) >> 40);
    p.a = a + row0 * (k / 2) + 16 * lane;
    p.sfa = sfa + row0 * (k / 16) + 2 * lane;
    p.b = b + batch * b_batch_stride + 16 * lane;
    p.sfb = sfb + batch * sfb_batch_stride + 2 * lane;
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) acc[r] = 0.0f;
    if (SHORT_WINDOW) {
      __syncwarp();  // every lane done with the last tile's short window
      stage_short_window(p, k / 2, k / 16, full_windows, (k - full_windows * WINDOW_K) / 32, lane, short_window[0]);
    }
    for (int window = 0; window < full_windows; ++window) window_dot(mag_lo, window_loads(p, k / 2, k / 16, window), acc);
#else
  int window = full_windows;  // the first pass starts the first tile
  for (;;) {
    if (window == full_windows) {
      if (TICKETS && (!TICKET_AT_LAST || full_windows == 0) && lane == 0) ticket = take_ticket(dealer, last);
      const long long row0 = static_cast<long long>(tile) * TILE_ROWS;
      const unsigned batch = static_cast<unsigned>((static_cast<unsigned long long>(tile) * batch_reciprocal) >> 40);
      p.a = a + row0 * (k / 2) + 16 * lane;
      p.sfa = sfa + row0 * (k / 16) + 2 * lane;
      p.b = b + batch * b_batch_stride + 16 * lane;
      p.sfb = sfb + batch * sfb_batch_stride + 2 * lane;
#pragma unroll
      for (int r = 0; r < ROWS_PER_WARP; ++r) acc[r] = 0.0f;
      if (SHORT_WINDOW) {
        __syncwarp();  // every lane done with the last tile's short window
        stage_short_window(p, k / 2, k / 16, full_windows, (k - full_windows * WINDOW_K) / 32, lane, short_window[0]);
      }
      window = 0;
    }
    if (TICKETS && TICKET_AT_LAST && window == full_windows - 1 && lane == 0) ticket = take_ticket(dealer, last);
    if (full_windows > 0) window_dot(mag_lo, window_loads(p, k / 2, k / 16, window), acc);
    if (++window < full_windows) continue;
#endif
    if (SHORT_WINDOW) {
      const int lanes = (k - full_windows * WINDOW_K) / 32;
      wait_short_window();
      if (lanes <= DEALT_MAX_LANES) {
        dealt_short_window_dot(mag_lo, short_window[0], lanes, lane, acc);
      } else {
        window_dot(mag_lo, staged_loads(short_window[0], lane), acc);
      }
    }
    row_partials(acc, lane);
    row_sum_finish(acc[0]);
    if (lane % kLanesPerRow == 0) c[static_cast<long long>(tile) * TILE_ROWS + lane / kLanesPerRow] = __float2half_rn(acc[0]);
    tile = static_cast<int>(gridDim.x) + (TICKETS ? dealt + DEALERS * static_cast<int>(__shfl_sync(0xFFFFFFFFu, ticket, 0)) : tile);
    if (tile >= tiles) return;
#if !NESTED
    window = full_windows;
#endif
  }
}

// Dispatch: S = (resident warps) / tiles, at least 1, at most the number of windows (every warp
// gets one) and at most MAX_SPLITS (one block per tile), then lowered until the GPU can hold
// every tile's block of S warps at once: blocks are placed whole on one SM, so fewer warps may
// fit as blocks of S than as single warps. Then, where the rule below says one-window parts pay,
// raised to one warp per window: short parts in several waves.
static long long resident_blocks(int s) {
  static int resident[MAX_SPLITS + 1] = {};
  if (resident[s] == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_kernel<false, false>, s * 32, 0);
    resident[s] = sms * (per_sm > 0 ? per_sm : 1);
  }
  return resident[s];
}

// Warp instructions the GPU can issue per byte of DRAM bandwidth, both at their peaks: 4 a clock
// per SM against the memory clock (two transfers a clock) times the bus width.
static double issue_per_byte() {
  static double ratio = 0.0;
  if (ratio == 0.0) {
    int device = 0, sms = 0, sm_khz = 0, mem_khz = 0, bus_bits = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, device);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device);
    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device);
    const double bytes_per_s = 2.0 * mem_khz * 1e3 * bus_bits / 8;
    ratio = bytes_per_s > 0 ? 4.0 * sms * sm_khz * 1e3 / bytes_per_s : -1.0;
  }
  return ratio;
}

static bool one_window_parts(int k) {
  return windows_of(k) <= ONE_WINDOW_MAX_WARPS &&
         issue_per_byte() >= ONE_WINDOW_MIN_ISSUE_PER_BYTE;
}

static bool scale_runs() { return issue_per_byte() >= RUNS_MIN_ISSUE_PER_BYTE; }

static bool pairs_a_warp(int k) {
  return k % WINDOW_K == 0 && windows_of(k) % 2 == 0 && issue_per_byte() >= ONE_WINDOW_MIN_ISSUE_PER_BYTE;
}

static int splits_of(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const long long windows = windows_of(k);
  long long s = resident_blocks(1) / tiles;
  const long long most = windows;
  if (s > most) s = most;
  if (s > MAX_SPLITS) s = MAX_SPLITS;
  while (s > 1 && tiles > resident_blocks(static_cast<int>(s))) --s;
  // Then, where they pay, a warp per window (at most 8 here), waves or not.
  if (one_window_parts(k)) s = windows;
  // Longer rows on the same GPUs: at least a warp per pair of windows, where pairs divide them.
  else if (pairs_a_warp(k) && windows / 2 > s) s = windows / 2 < MAX_SPLITS ? windows / 2 : MAX_SPLITS;
  return static_cast<int>(s < 1 ? 1 : s);
}

// Where one-warp tiles run in several waves (S = 1 and more tiles than one wave holds), the tickets'
// grid: one-warp blocks, as many as the GPU holds at once (RESIDENT), each its own tile first. The
// batch of tile t is t * r >> 40 with r = ceil(2^40 / (M / 4)), exact while t * (M / 4) < 2^40,
// which the dispatch checks (93f's grids beyond it).
static long long resident_ticket_warps(bool short_window) {
  static int resident[2] = {};
  if (resident[short_window] == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, short_window ? nvfp4_gemv_tickets_kernel<true> : nvfp4_gemv_tickets_kernel<false>, 32,
        short_window ? sizeof(ShortWindow) : 0);
    resident[short_window] = sms * (per_sm > 0 ? per_sm : 1);
  }
  return resident[short_window];
}

static bool tiles_by_ticket(int m, int l, int s, bool short_window) {
  const long long tiles = static_cast<long long>(m / TILE_ROWS) * l;
  return s == 1 && tiles > resident_ticket_warps(short_window) && tiles * (m / TILE_ROWS) < (1ll << 40) &&
         tiles < (1ll << 31);
}

// The workspace: the tickets' counters (one, or the probe's DEALERS, 128 bytes apart), left at 0 by
// every call.
extern "C" size_t nvfp4_gemv_workspace_bytes(int, int, int) { return DEALERS * 128; }

extern "C" int nvfp4_gemv_with_workspace(const uint8_t* a, const uint8_t* b, const uint8_t* sfa,
                                         const uint8_t* sfb, __half* c, int m, int k, int l,
                                         long long b_batch_stride, long long sfb_batch_stride,
                                         void* workspace, cudaStream_t stream) {
  // TILE_ROWS divides M (a multiple of 128): no tile spans batches.
  constexpr int kMaxGridY = 65535;  // the grid's second dimension is the batch, at most 65535 a launch
  const int s = splits_of(m, k, l);
  // Both builds hold the same blocks per SM: 64 registers a thread, and the short window's 2.9 KB
  // of shared memory a block (32 blocks at most) fit beside them, with the split's row partials
  // (128 bytes a warp) where the blocks are of several warps.
  const bool short_window = k % WINDOW_K != 0;
  if (tiles_by_ticket(m, l, s, short_window)) {
    const int tiles = m / TILE_ROWS * l;
    const unsigned long long reciprocal = ((1ull << 40) + m / TILE_ROWS - 1) / (m / TILE_ROWS);
    const unsigned grid = static_cast<unsigned>(SHARE_TILES > 0 ? (tiles + SHARE_TILES - 1) / SHARE_TILES
                                                : RESIDENT ? resident_ticket_warps(short_window) : tiles);
    (short_window ? nvfp4_gemv_tickets_kernel<true> : nvfp4_gemv_tickets_kernel<false>)
        <<<grid, 32, short_window ? sizeof(ShortWindow) : 0, stream>>>(
        a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, tiles, reciprocal,
        static_cast<unsigned*>(workspace));
    return static_cast<int>(cudaGetLastError());
  }
  const unsigned split_reciprocal = s == 1 ? 0u : static_cast<unsigned>(((1ull << 32) + s - 1) / s);
  for (int batch0 = 0; batch0 < l; batch0 += kMaxGridY) {
    const int batches = l - batch0 < kMaxGridY ? l - batch0 : kMaxGridY;
    const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(batches));
    (short_window ? (scale_runs() ? nvfp4_gemv_kernel<true, true> : nvfp4_gemv_kernel<true, false>)
                  : (scale_runs() ? nvfp4_gemv_kernel<false, true> : nvfp4_gemv_kernel<false, false>))
        <<<grid, s * 32, (short_window ? sizeof(ShortWindow) : 0) + (s > 1 ? s * 32 * sizeof(float) : 0), stream>>>(
        a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, s, batch0, split_reciprocal);
  }
  return static_cast<int>(cudaGetLastError());
}
