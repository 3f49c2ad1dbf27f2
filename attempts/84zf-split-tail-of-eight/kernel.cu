// 84zf split-tail-of-eight: 84ze with the split tail's blocks of eight warps, where 84ze's ten
// did not run beside a ring block (closing-the-gap section 85: stamped, its tail ran after the
// ring). The reading this tests: each of an SM's four schedulers holds a quarter of the register
// file and a block's warps are dealt to them in turn, so a ring block's 19 warps of 72 registers
// (5, 5, 5 and 4 a quarter) leave room for 2, 2, 2 and 3 warps of 64: a block of ten (3, 3, 2, 2)
// does not fit, one of eight (2 a quarter) does. Eight a block still hold the tail: at most half a
// round of ring tiles, 16 tiles of 4 rows each, is 8 a block of the round.
// 84ze split-tail-an-sm: 84zd with the split tail's warps one block of SPLIT_WARPS an SM, where
// 84zd launched a block of one warp a tile: the block scheduler placed those where it found room (up
// to ten an SM beside a ring block), and stamped, 84zd's last SM still had its last stage 1.4 us
// after its median SM's (closing-the-gap section 84). A block of ten warps of 64 registers is what
// the room beside a ring block holds, so each SM takes exactly one; block b's warp j takes the tail's
// tile b + j x blocks (round robin: every SM within one tile of the others).
// 84zd ring-with-split-tail: 84q with the ring's last round, where it is at most half a round
// (tiles mod resident blocks), left to a second grid of 93f's one-warp tiles, launched as the ring's
// programmatic dependent so that its warps run beside the ring blocks from the call's start. 84q
// deals 448 tiles to 132 ring blocks on 7168x2048x4 and 28672x4096x1: 52 blocks take a 4th tile
// and the call ends a tile after the median SM's last stage (closing-the-gap sections 79 and 82:
// 2.3 us on 7168x2048x4 in clean mode). Here every ring block takes 3 whole tiles, and the 52 left
// (3328 rows) are read by 832 warps of 4 rows each, 93f's dp4a loop over the whole row, which fit
// beside a ring block (its 19 warps of 72 registers leave room for 10 of 64) and need no shared
// memory. The ring's blocks signal `griddepcontrol.launch_dependents` at their start.
// 84q three-stages: 84p's one ring an SM in 3 stages of 1024 elements instead of 5 (136 KB of ring
// where 84p had 221). The probe one_ring_depth ran 84p in 3, 4 and 5 stages: the fewer, the closer
// to the floor, with the products and without. 3 stages hold at most 14 MB of A and its scales over
// the H200's 132 SMs, about three times its bandwidth times a microsecond of latency.
// 84p four-warpgroups-a-ring: 84o with four warpgroups multiplying where 84o had two, each a quarter
// of every stage (2 chunks) and the three others' sums handed to the first at an item's end. With
// its copies apart from B's round trip, 84o's ring alone (without its products, the probe
// ring_copies) read the long parts within a few points of the floor, and its products then cost 10
// to 15 points: 8 multiplying warps an SM, half what 84m's two blocks had.
// 84o copies-apart-from-b: 84n with the ring's copies sent by a warp of their own, apart from B's
// share: one producer warp's lane 0 sends a slot's two copies as soon as the slot is free, and two
// more take turns at the stages' shares of B (load, store, fence). In 84n one warp did it all in
// order: each stage's copies went out only once the loads of its share of B were back from L2, so
// the ring was refilled at most a stage per round trip to L2, and the ring alone (without its
// products, the probe ring_alone) read every shape further from the floor than 84m's two blocks of
// 2 stages, each with a producer of its own.
// 84n one-ring-an-sm: 84m with one block an SM holding 5 stages of 1024 elements (221 KB of ring)
// instead of two blocks of 4 stages of 512 (90 KB each). With the producer warp a slot is sent again
// as soon as the 256 multiplying threads release it, so a block keeps up to 4 stages (144 KB of A and
// its scales) on their way while it multiplies one, and each copy is a run of 512 bytes a row where
// 84l's and 84m's were 256. In section 76 every ring of 2 blocks of 90 KB read 4096x7168x8 within a
// few points of 93f, its warps waiting for the copies; 84k in 2 stages of 512 (half the bytes on their
// way, half the run) lost 18 points.
// 84m producer-warp: 84l with the ring filled by a warp of its own, each slot handed back by a
// barrier of its own: a ninth warp loads B's share for a stage, waits until every multiplying thread
// has released the stage's slot (the slot's `empty` mbarrier), stores the share, and sends the
// copies; the multiplying warps release a slot as soon as they are done with it and go on to the
// next stage whenever its bytes are there. In 84k and 84l the whole block met at a barrier after
// every stage before the slot was sent again: every warp waited for the block's slowest, and the
// first warpgroup also stored B's share; in 84l, with twice the stages, that barrier was the warps'
// first stall and the deeper ring lost (closing-the-gap section 76).
// 84l ring-four-stages: 84k with the ring's shared memory cut into 4 stages of 512 elements a row
// instead of 2 of 1024: a block then has up to 3 stages' copies on their way while it multiplies one,
// where 84k had one. With twice 84j's warps 84k was no faster (closing-the-gap section 76), and
// under Nsight Compute its warps' first stall was the long scoreboard.
// 84k two-warpgroups-a-ring: 84j with two warpgroups a block on the ring: each multiplies half of
// every stage's chunks (warpgroup w chunks 4w..4w+3) into sums of its own, which are added, the
// second's into the first's, at an item's end. The ring, its stages and its shared memory are 84j's,
// so an SM still holds 2 blocks, now 16 warps where 84j had 8. Under Nsight Compute 84i's warps
// (two a scheduler) were mostly issuing or waiting on fixed latencies on the long parts, with 41% of
// the issue slots used: the stage's products ran at one warp's pace, not the SM's.
// 84j ring-items-whole: 84i with a tile's parts on the ring chosen for resident blocks: as many as
// give each work item a block of its own, at least one (84a's rule, which 84e-84i kept, evens out
// waves of blocks that start and end, and so cut 7168x16384x1's rows into 7 parts of 2 or 3 stages,
// about 3 items a block). The probe ring_parts found the cuts between a block's items cost more
// than the blocks they keep busy: 2 parts a tile (40 of the H200's 264 blocks idle) read that
// shape far closer to the floor. Nothing else changes.
// 84i b-loads-held: 84h with the addresses of B's share loads held in their registers until the
// share is stored, a stage later. In 84h (and 84f) ptxas gave those registers to the next
// instructions, which then waited for the loads to complete (a write after the loads' read of
// their address): B's trip to L2 came before every stage's products, 6 to 30 instructions after
// the loads. 84e and 84g, by ptxas's choice, waited for them only at the store.
// 84h joins-at-block-end: 84g with the parts' joins left to the block's end: as each work item
// ends its row partials are stored, and once the block's last item is done one thread fences
// them and takes the ticket of each of its items' tiles; where it is a tile's last part, the block
// adds the tile's parts as before. In 84g every item's end fenced (MEMBAR.SC.GPU, in every warp)
// and met at two barriers while the ring's next stages were on their way, and under Nsight
// Compute `membar` was the H200's first stall on 7168x16384x1 (7 parts a tile, 3 items a block).
// 84g ring-across-tiles: 84f with resident blocks whose ring runs on from one tile's part to the
// next: the grid is at most the blocks the GPU holds at once, block b takes the work items (a
// tile and a part of its stages) b, b + G, b + 2G, ..., and thread 0 sends the next item's first
// stages while the block multiplies the last stages of the one before. In 84e and 84f a block ran
// one item and filled its ring at its start: on 7168x16384x1 (7 parts of 2 or 3 stages a tile)
// every block waited out a whole read before its first products.
// 84f mmas-in-flight: 84e with each chunk's mmas left in flight while the warp decodes the next
// chunk and issues its mmas: a chunk's sums are waited for (wgmma.wait_group 1) and scaled one
// chunk later, from a second set of accumulators, and its fragments held until then. 84e waited
// for every chunk's mmas before decoding the next (wait_group 0), and its profile on the H200 has
// a warp issuing or waiting on fixed latencies most of the time, two warps a scheduler.
// 84e tma-row-runs: 84a with A and its scales brought by the copy engine in runs of 512 bytes a
// row: a block's 64 rows x STAGE_K elements (32 KB of A and 4 KB of scales with the defaults) are
// one stage, copied by two tensor copies (TMA) into a ring of STAGES stages in shared memory and
// counted on the stage's mbarrier; the lanes read their fragments from there (LDS where 84a has
// LDG). In 84a each load of a warp asked for 64 bytes in each of 8 rows, and the block's reads were
// 64 rows wide and a chunk or two deep: short pieces of many rows at once, DRAM under half busy
// (closing-the-gap section 74). The copy engine keeps the next stage on its way while the block
// computes, with no register for it; B's matrices are built a stage at a time into the stage's
// slot (84a built a whole part's, at most 24 chunks), so a part may be as long as the row. The
// tensor maps need rows 16 bytes apart: the scales' rows (K / 16 bytes) are where 256 divides K,
// every benchmark and decode shape; any other K runs 84a's kernel.
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
#include <cudaTypedefs.h>  // CUtensorMap, PFN_cuTensorMapEncodeTiled
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
constexpr int MIN_BLOCKS_PER_SM = 8;            // 64 registers a thread
constexpr int MAX_PARTS = 64;                   // blocks a tile, the grid's third dimension
constexpr int RING_WARPGROUPS = 4;              // the ring's block: each warpgroup a quarter of every stage
// The ring (K a multiple of 256): a stage is a tile's 64 rows x STAGE_K elements of A and their
// scales, brought by the copy engine, and B's matrices for the same elements, built by the block.
#ifndef STAGE_K
#define STAGE_K 1024                            // 512 bytes a row of A, 64 of its scales
#endif
#ifndef STAGES
#define STAGES 3                                // slots of the ring
#endif
#ifndef RING_PARTS
#define RING_PARTS 0                            // the probe ring_parts's: a tile's parts on the ring, fixed; 0: the rule
#endif
#ifndef RING_PRODUCTS
#define RING_PRODUCTS 1                         // the probe ring_alone's: 0 leaves the products out (wrong sums)
#endif
#ifndef RING_STAMPS
#define RING_STAMPS 0                           // the probe ring_timeline's: 1 stamps each ring block's times
#endif
#ifndef RING_B_STAMP
#define RING_B_STAMP 0                          // the probe ring_fill's, with RING_STAMPS: 1 stamps B's first share too
#endif
#if RING_STAMPS && RING_B_STAMP
__shared__ uint32_t first_b_stored;             // the B warp's clock as it hands stage 0's share to its slot
#endif
constexpr int STAGE_CHUNKS = STAGE_K / CHUNK_K;
constexpr int STAGE_A_BYTES = TILE_ROWS * STAGE_K / 2;
constexpr int STAGE_SFA_BYTES = TILE_ROWS * STAGE_K / 16;
constexpr int STAGE_B_BYTES = STAGE_CHUNKS * (B_CHUNK_BYTES + 8 * 4);  // the matrices, then 8 float scales a chunk
constexpr int SLOT_SFA = STAGE_A_BYTES;                              // offsets in a slot
constexpr int SLOT_B = STAGE_A_BYTES + STAGE_SFA_BYTES;
constexpr int SLOT_BYTES = SLOT_B + STAGE_B_BYTES;
constexpr int RING_MIN_BLOCKS_PER_SM = 1;                            // 133 KB of ring a block
constexpr int WARPGROUP_CHUNKS = STAGE_CHUNKS / RING_WARPGROUPS;     // a warpgroup's chunks of a stage
constexpr int CONSUMER_WARPS = RING_WARPGROUPS * WARPS;              // the warps that multiply
constexpr int B_WARPS = 2;                                           // B's producers, a stage each in turn
constexpr int RING_THREADS = (CONSUMER_WARPS + 1 + B_WARPS) * 32;    // and the copies' producer
constexpr int SHARE_WORDS = STAGE_CHUNKS * 16 / 32;                  // B's words a producer lane stores a stage
static_assert(STAGE_CHUNKS * 16 % 32 == 0 && STAGE_CHUNKS * 4 <= 32, "B's share: whole words a lane, a pair of scales at most");
static_assert(STAGE_CHUNKS * 16 <= WARPS * 32, "a stage's words of B are one a thread at most");
static_assert(SLOT_BYTES % 128 == 0 && STAGE_K % 256 == 0 && STAGE_K / 16 <= 256, "tensor boxes and their slots");

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
// rows g and g + 8, times 2^-12. On sm_90a they are issued as one group, in flight until
// retired; on sm_100a (mma.sync) they are done when issued.
__device__ __forceinline__ void issue_chunk_products(float (&d)[4], const uint32_t (&frag)[4][4], uint32_t b_chunk) {
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

// Until at most PENDING groups of mmas are in flight; the retired chunk's fragments and sums are
// held in their registers up to here (the mma reads and writes them asynchronously).
template <int PENDING>
__device__ __forceinline__ void retire_chunk_products(float (&d)[4], uint32_t (&frag)[4][4]) {
#if WGMMA_PRODUCTS
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(PENDING) : "memory");
#pragma unroll
  for (int j = 0; j < 4; ++j) {
#pragma unroll
    for (int i = 0; i < 4; ++i) fence_register(frag[j][i]);
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) fence_register(d[i]);
#endif
}

__device__ __forceinline__ void chunk_products(float (&d)[4], uint32_t (&frag)[4][4], uint32_t b_chunk) {
  issue_chunk_products(d, frag, b_chunk);
  retire_chunk_products<0>(d, frag);
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
  __device__ __forceinline__ LanePtrs shifted(int a_bytes, int sf_bytes) const {
    return {a + a_bytes, a8 + a_bytes, sfa + sf_bytes, sfa8 + sf_bytes};
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

// The mma's fragments of a chunk's two rows.
__device__ __forceinline__ void chunk_fragments(const uint4 (&a)[LANE_ROWS], uint32_t (&frag)[4][4]) {
  const uint32_t w0[4] = {a[0].x, a[0].y, a[0].z, a[0].w};
  const uint32_t w1[4] = {a[1].x, a[1].y, a[1].z, a[1].w};
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    frag[j][0] = e4m3_of_low_nibbles(w0[j]);
    frag[j][1] = e4m3_of_low_nibbles(w1[j]);
    frag[j][2] = e4m3_of_high_nibbles(w0[j]);
    frag[j][3] = e4m3_of_high_nibbles(w1[j]);
  }
}

// A chunk's block sums, scaled by the rows' scales (two e4m3 each) and sb, B's scales of the
// lane's two blocks times 2^12, into acc.
__device__ __forceinline__ void scale_chunk(const float (&d)[4], const uint32_t (&sfa)[LANE_ROWS], float2 sb,
                                            float (&acc)[LANE_ROWS]) {
  const float2 sa0 = e4m3x2_to_float2(sfa[0]), sa1 = e4m3x2_to_float2(sfa[1]);
  acc[0] = fmaf(d[0], sa0.x * sb.x, acc[0]);
  acc[0] = fmaf(d[1], sa0.y * sb.y, acc[0]);
  acc[1] = fmaf(d[2], sa1.x * sb.x, acc[1]);
  acc[1] = fmaf(d[3], sa1.y * sb.y, acc[1]);
}

__device__ __forceinline__ void chunk_dot(const ChunkLoads& ch, uint32_t b_chunk, float2 sb, float (&acc)[LANE_ROWS]) {
  uint32_t frag[4][4];
  chunk_fragments(ch.a, frag);
  float d[4];
  chunk_products(d, frag, b_chunk);
  scale_chunk(d, ch.sfa, sb, acc);
}

// B for chunks [c_begin, c_end) of one batch, in shared memory. Row (j, h, n) of a chunk's 64
// rows of 16 bytes (j: the mma, h: the k half, n: the column) holds, in word t, the e4m3 bytes of
// lane t's word j of B (its low nibbles for h = 0, high for h = 1) where n = 2t + j / 2, the word's
// scale block, and zeros elsewhere. One thread a word of B: its two rows, and the two rows of
// zeros beside them (column n ^ 1). After the chunks, B's scales as floats times 2^12 (both
// operands are their e2m1 values times 2^-6), 8 a chunk.
// Word i of B from chunk c_begin on (lane t = (i / 4) % 4's word j = i % 4 of chunk i / 16), zero past K.
__device__ __forceinline__ const uint8_t* b_word_address(const uint8_t* b_batch, int c_begin, int i) {
  const int chunk = i / 16, t = (i / 4) % 4, j = i % 4;
  return b_batch + (c_begin + chunk) * (CHUNK_K / 2) + 16 * t + 4 * j;
}
__device__ __forceinline__ uint32_t load_b_word(const uint8_t* b_batch, int c_begin, int i, int k) {
  const int chunk = i / 16, t = (i / 4) % 4;
  if ((c_begin + chunk) * CHUNK_K + 32 * t >= k) return 0u;
  return __ldg(reinterpret_cast<const uint32_t*>(b_word_address(b_batch, c_begin, i)));
}
__device__ __forceinline__ void store_b_word(uint8_t* b_chunks, int i, uint32_t w) {
  const int chunk = i / 16, t = (i / 4) % 4, j = i % 4;
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
// Pair i of B's scales from chunk c_begin on (elements 32i..32i+31), zero past K; stored after the
// part's `chunks` matrices as floats times 2^12.
__device__ __forceinline__ const uint8_t* b_scales_address(const uint8_t* sfb_batch, int c_begin, int i) {
  return sfb_batch + c_begin * (CHUNK_K / 16) + 2 * i;
}
__device__ __forceinline__ uint32_t load_b_scales(const uint8_t* sfb_batch, int c_begin, int i, int k) {
  if (c_begin * CHUNK_K + 32 * i >= k) return 0u;
  return __ldg(reinterpret_cast<const unsigned short*>(b_scales_address(sfb_batch, c_begin, i)));
}
__device__ __forceinline__ void store_b_scales(uint8_t* b_chunks, int chunks, int i, uint32_t two) {
  float* const scales = reinterpret_cast<float*>(b_chunks + chunks * B_CHUNK_BYTES);
  const float2 sb = e4m3x2_to_float2(two);
  scales[2 * i] = sb.x * 4096.0f;
  scales[2 * i + 1] = sb.y * 4096.0f;
}

__device__ __forceinline__ void build_b(uint8_t* b_chunks, const uint8_t* b_batch, const uint8_t* sfb_batch,
                                        int c_begin, int c_end, int k) {
  const int chunks = c_end - c_begin;
  for (int i = threadIdx.x; i < chunks * 16; i += blockDim.x) {
    store_b_word(b_chunks, i, load_b_word(b_batch, c_begin, i, k));
  }
  for (int i = threadIdx.x; i < chunks * 4; i += blockDim.x) {
    store_b_scales(b_chunks, chunks, i, load_b_scales(sfb_batch, c_begin, i, k));
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

// The ring's barriers and copies. A slot's `full` barrier expects an arrival from each lane of the
// stage's B producer (once its share of B is stored), one from the copies' producer with the bytes of the two
// boxes; its `empty` barrier one from each multiplying thread, done with the slot.
__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(arrivals) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}
// Until the phase of the given parity has completed.
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done) {
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(shared_address(bar)), "r"(parity) : "memory");
  }
}
// The box of `map` at (x, y) into shared memory by the copy engine, under A's evict_first policy,
// counted in bytes on bar. A CTA's own shared address is a valid shared::cluster address.
__device__ __forceinline__ void tensor_copy(void* dst, const CUtensorMap& map, int x, int y, uint64_t* bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint"
               " [%0], [%1, {%2, %3}], [%4], %5;"
               ::"r"(shared_address(dst)), "l"(reinterpret_cast<uint64_t>(&map)), "r"(x), "r"(y),
               "r"(shared_address(bar)), "l"(policy_evict_first())
               : "memory");
}
// Stage `stage` of the tile's rows from row0 into a slot: A (8-byte elements) and its scales (bytes)
// start at the same element index, STAGE_K / 16 of each a row. Past K the copy engine writes zeros.
__device__ __forceinline__ void send_stage(uint8_t* slot, const CUtensorMap& map_a, const CUtensorMap& map_sfa,
                                           int stage, int row0, uint64_t* bar) {
  mbar_expect_tx(bar, STAGE_A_BYTES + STAGE_SFA_BYTES);
  tensor_copy(slot, map_a, stage * (STAGE_K / 16), row0, bar);
  tensor_copy(slot + SLOT_SFA, map_sfa, stage * (STAGE_K / 16), row0, bar);
}

// A producer lane's share of a stage's B: words lane, lane + 32, ... of its matrices and, for the
// first STAGE_CHUNKS * 4 lanes, a pair of its scales; loaded before the wait for the slot, stored
// once it is free. The loads' addresses ride with the share and are held to its store
// (store_b_share): ptxas then cannot give their registers away, which would wait for the loads.
struct BShare {
  uint32_t word[SHARE_WORDS], scales;
  const uint8_t *word_at, *scales_at;
};
__device__ __forceinline__ BShare load_b_share(const uint8_t* b_batch, const uint8_t* sfb_batch, int stage, int k) {
  const int lane = threadIdx.x % 32;
  BShare share;
  share.word_at = b_word_address(b_batch, stage * STAGE_CHUNKS, lane);
  share.scales_at = b_scales_address(sfb_batch, stage * STAGE_CHUNKS, lane);
#pragma unroll
  for (int j = 0; j < SHARE_WORDS; ++j) share.word[j] = load_b_word(b_batch, stage * STAGE_CHUNKS, lane + 32 * j, k);
  share.scales = lane < STAGE_CHUNKS * 4 ? load_b_scales(sfb_batch, stage * STAGE_CHUNKS, lane, k) : 0u;
  return share;
}
__device__ __forceinline__ void store_b_share(uint8_t* slot, const BShare& share) {
  asm volatile("" ::"l"(share.word_at), "l"(share.scales_at));
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int j = 0; j < SHARE_WORDS; ++j) store_b_word(slot + SLOT_B, lane + 32 * j, share.word[j]);
  if (lane < STAGE_CHUNKS * 4) store_b_scales(slot + SLOT_B, STAGE_CHUNKS, lane, share.scales);
}

// Row sums: the four lanes of a row group; a tile of one part written to c, else stored as the
// part's partials (joined by join_parts).
__device__ __forceinline__ void store_row_sums(float (&acc)[LANE_ROWS], __half* __restrict__ c, long long row0,
                                               long long tile, int warp, const Workspace& ws, int part, int parts) {
  const int lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int r = 0; r < LANE_ROWS; ++r) {
    acc[r] += __shfl_xor_sync(0xFFFFFFFFu, acc[r], 1);
    acc[r] += __shfl_xor_sync(0xFFFFFFFFu, acc[r], 2);
  }
  const int tile_row = MMA_ROWS * warp + g;
  if (t == 0) {
#pragma unroll
    for (int r = 0; r < LANE_ROWS; ++r) {
      if (parts == 1) {
        c[row0 + tile_row + 8 * r] = __float2half_rn(acc[r]);
      } else {
        ws.part_sums[(tile * parts + part) * TILE_ROWS + tile_row + 8 * r] = acc[r];
      }
    }
  }
}

// The joins of the block's items first, first + stride, ... below items (tile = item / parts), once
// their partials are stored: one fence for all of them, then each tile's ticket; the block that
// takes a tile's last adds its parts in part order (bitwise repeatable).
__device__ __forceinline__ void join_parts(__half* __restrict__ c, const Workspace& ws, long long first, long long stride,
                                           long long items, int parts) {
  if (parts == 1) return;
  __shared__ bool last_part;
  __syncthreads();  // the block's partials stored
  if (threadIdx.x == 0) __threadfence();  // visible GPU-wide before any of its tickets
  for (long long item = first; item < items; item += stride) {
    const long long tile = item / parts;
    float* const sums = ws.part_sums + tile * parts * TILE_ROWS;
    if (threadIdx.x == 0) last_part = atomicAdd(&ws.counters[tile], 1u) == static_cast<unsigned>(parts - 1);
    __syncthreads();
    // The sums are zeroed as they are read, and the counter after them: a later call of another
    // shape lays its counters over other bytes of the workspace, which must then be zeros too.
    const int row = threadIdx.x;
    if (last_part && row < TILE_ROWS) {
      __threadfence();
      float sum = 0.0f;
      for (int i = 0; i < parts; ++i) {
        sum += __ldcg(sums + i * TILE_ROWS + row);  // L2, not a stale L1 line
        sums[i * TILE_ROWS + row] = 0.0f;
      }
      c[tile * TILE_ROWS + row] = __float2half_rn(sum);
    }
    if (last_part && threadIdx.x == 0) ws.counters[tile] = 0;
    __syncthreads();  // last_part is read before the next ticket overwrites it
  }
}

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
  // K mod 128 = 64: the row's last chunk is half a chunk, its bytes past K for lanes t = 2, 3. They
  // read lanes t - 2's bytes of it instead, which meet zeros in B, with the row's own (finite)
  // scales; the loop before that load needs no test.
  const int back = c_end == chunks_of(k) && k % CHUNK_K != 0 && t >= 2;

  // Each chunk's loads sent a chunk ahead of its products.
  float acc[LANE_ROWS] = {};
  ChunkLoads now = chunk_loads(p.shifted(chunks == 1 ? -32 * back : 0, chunks == 1 ? -4 * back : 0));
#pragma unroll 2
  for (int chunk = 0; chunk < chunks - 2; ++chunk) {
    p.next_chunk();
    const ChunkLoads next = chunk_loads(p);
    chunk_dot(now, b_first + chunk * B_CHUNK_BYTES, b_scales[4 * chunk], acc);
    now = next;
  }
  if (chunks >= 2) {
    p.next_chunk();
    const ChunkLoads next = chunk_loads(p.shifted(-32 * back, -4 * back));
    chunk_dot(now, b_first + (chunks - 2) * B_CHUNK_BYTES, b_scales[4 * (chunks - 2)], acc);
    now = next;
  }
  chunk_dot(now, b_first + (chunks - 1) * B_CHUNK_BYTES, b_scales[4 * (chunks - 1)], acc);

  store_row_sums(acc, c, row0, tile, warp, ws, blockIdx.z, gridDim.z);
  const long long item = tile * gridDim.z + blockIdx.z;
  join_parts(c, ws, item, 1, item + 1, gridDim.z);
}

// A block's place in its work: item (a tile and one part of its stages, part = item % parts) and the
// stage of it; the items are the block's, G apart. done() once past the last.
struct Cursor {
  int item, stage, end;
  long long tile, row0;
  unsigned batch;
  int part;
  __device__ __forceinline__ void start(int first, int parts, int q, int rem, int tiles_per_batch) {
    item = first;
    part = item % parts;
    tile = item / parts;
    row0 = tile * TILE_ROWS;
    batch = static_cast<unsigned>(tile / tiles_per_batch);
    stage = part * q + min(part, rem);
    end = stage + q + (part < rem);
  }
  __device__ __forceinline__ void next(int items, int parts, int q, int rem, int tiles_per_batch) {
    if (++stage == end && item + static_cast<int>(gridDim.x) < items) {
      start(item + gridDim.x, parts, q, rem, tiles_per_batch);
    }
  }
  __device__ __forceinline__ bool done() const { return stage == end; }
  __device__ __forceinline__ bool last_of_item() const { return stage + 1 == end; }
};

// The producers of a ring block, stage after stage of the block's items, each into its slot once
// every multiplying warp has released the slot's last stage (its empty barrier). The copies' warp
// waits for it whole (the block's barriers at its end are met by whole warps); its lane 0 then
// expects the stage's bytes on the slot's full barrier (an arrival) and sends the copies.
__device__ __forceinline__ void send_copies(uint8_t* ring, uint64_t* full, uint64_t* empty, int items, int parts,
                                            int q, int rem, int tiles_per_batch, const CUtensorMap& map_a,
                                            const CUtensorMap& map_sfa) {
  // send: the next stage to send (row0 below 2^31, the dispatch checks: a copy's coordinate).
  Cursor send;
  send.start(blockIdx.x, parts, q, rem, tiles_per_batch);
  for (int s = 0; !send.done(); ++s) {
    // A fresh barrier's phase before the first counts as completed: the first STAGES pass at once.
    mbar_wait(&empty[s % STAGES], ((s / STAGES) & 1) ^ 1);
    if (threadIdx.x % 32 == 0) {
      send_stage(ring + (s % STAGES) * SLOT_BYTES, map_a, map_sfa, send.stage, static_cast<int>(send.row0),
                 &full[s % STAGES]);
    }
    send.next(items, parts, q, rem, tiles_per_batch);
  }
}

// B's producer warps, the block's stages first, first + B_WARPS, ...: each lane loads its share of a
// stage's B, waits for the slot, stores the share, fences it to the async proxy and arrives on the
// slot's full barrier. ptxas waits for the loads before the slot's wait (a scoreboard shared with
// the loads of constants), so each warp has one round trip to L2 a stage: B_WARPS take turns.
__device__ __forceinline__ void next_stages(Cursor& cursor, int count, int items, int parts, int q, int rem,
                                            int tiles_per_batch) {
  for (int i = 0; i < count && !cursor.done(); ++i) cursor.next(items, parts, q, rem, tiles_per_batch);
}
__device__ __forceinline__ void store_b_shares(uint8_t* ring, uint64_t* full, uint64_t* empty, const uint8_t* b,
                                               const uint8_t* sfb, int k, long long b_batch_stride,
                                               long long sfb_batch_stride, int items, int parts, int q, int rem,
                                               int tiles_per_batch, int first) {
  Cursor send;
  send.start(blockIdx.x, parts, q, rem, tiles_per_batch);
  next_stages(send, first, items, parts, q, rem, tiles_per_batch);
  for (int s = first; !send.done(); s += B_WARPS) {
    uint8_t* const slot = ring + (s % STAGES) * SLOT_BYTES;
    const BShare share = load_b_share(b + send.batch * b_batch_stride, sfb + send.batch * sfb_batch_stride, send.stage, k);
    // The slot's release of its last stage; a fresh barrier's phase before the first counts as
    // completed, so the first STAGES pass at once (a wait in every pass: ptxas then keeps B's
    // conversions after it, where it hoisted them above a wait under a branch).
    mbar_wait(&empty[s % STAGES], ((s / STAGES) & 1) ^ 1);
    store_b_share(slot, share);
    // The mma reads shared memory through the async proxy: the generic stores are fenced to it.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#if RING_STAMPS && RING_B_STAMP
    // Before the arrival, which releases it with the share to the warps that wait on the slot.
    if (s == 0 && threadIdx.x % 32 == 0) asm volatile("mov.u32 %0, %%clock;" : "=r"(first_b_stored) :: "memory");
#endif
    mbar_arrive(&full[s % STAGES]);
    next_stages(send, B_WARPS, items, parts, q, rem, tiles_per_batch);
  }
}

// The ring: a block is four warpgroups and three producer warps, resident, on the work items blockIdx.x,
// blockIdx.x + G, ... (G = gridDim.x). The producers send each stage's two copies and store its B
// into a slot of the ring as soon as the slot is free, across the items' bounds; every multiplying
// warp waits on the stage's full barrier, reads its warpgroup's quarter of the fragments from the
// slot, multiplies as 84f does and releases the slot (every thread arrives). After an item's last
// stage the other warpgroups' sums are added to the first's, in their order, and its rows summed
// (84a's join); the warpgroups hand the sums over through two barriers of their own (sums_full, sums_empty), so the
// producers, in their own loops, meet no barrier before the block's end.
#if RING_STAMPS
// The probe ring_timeline's record of a ring block, 8 words as scripts/probes/timeline.cu's of a
// warp (the clocks' low halves): SM + 1, global start (ns), start, its first stage's arrival, its
// last stage's arrival, its end (SM clocks), global end (ns), 0. Thread 0, a multiplying thread of
// the first warpgroup (the last to finish a tile), writes it at the block's end.
__constant__ uint32_t* ring_stamps;
extern "C" int timeline_set(void* stamps) {
  return static_cast<int>(cudaMemcpyToSymbol(ring_stamps, &stamps, sizeof(stamps)));
}
__device__ __forceinline__ uint32_t stamp_clock() {
  uint32_t t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t) :: "memory");
  return t;
}
__device__ __forceinline__ uint32_t stamp_global() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
  return static_cast<uint32_t>(t);
}
#endif

__global__ void __launch_bounds__(RING_THREADS, RING_MIN_BLOCKS_PER_SM)
nvfp4_gemv_ring_kernel(const uint8_t* __restrict__ b, const uint8_t* __restrict__ sfb,
                       __half* __restrict__ c, int m, int k,
                       long long b_batch_stride, long long sfb_batch_stride,
                       int items, int parts, int q, int rem, Workspace ws,
                       const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_sfa) {
  extern __shared__ __align__(128) uint8_t ring[];
  // The split tail's grid may start once every ring block has (a no-op without one).
  asm volatile("griddepcontrol.launch_dependents;");
  __shared__ uint64_t full[STAGES], empty[STAGES], sums_full, sums_empty;
  __shared__ float other_sums[RING_WARPGROUPS - 1][WARPS * 32][LANE_ROWS];  // the other warpgroups', lane by lane
  const int warp_of_block = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);  // warp-uniform, as in 70
  const int warpgroup = warp_of_block / WARPS, warp = warp_of_block % WARPS;
  const int chunk0 = warpgroup * WARPGROUP_CHUNKS;
  const int lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const int tiles_per_batch = m / TILE_ROWS;
#if RING_STAMPS
  const uint32_t global_start = stamp_global(), start = stamp_clock();
  uint32_t first_arrival = 0, last_arrival = 0;
#endif
  if (threadIdx.x == 0) {
    for (int i = 0; i < STAGES; ++i) {
      mbar_init(&full[i], 32 + 1);
      mbar_init(&empty[i], CONSUMER_WARPS * 32);
    }
    mbar_init(&sums_full, (RING_WARPGROUPS - 1) * WARPS * 32);
    mbar_init(&sums_empty, WARPS * 32);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (warp_of_block == CONSUMER_WARPS) {
    send_copies(ring, full, empty, items, parts, q, rem, tiles_per_batch, map_a, map_sfa);
  } else if (warp_of_block > CONSUMER_WARPS) {
    store_b_shares(ring, full, empty, b, sfb, k, b_batch_stride, sfb_batch_stride, items, parts, q, rem,
                   tiles_per_batch, warp_of_block - CONSUMER_WARPS - 1);
  } else {
    // The lane's 16 bytes of rows g and g + 8 and their two scales, in a slot, at chunk 0.
    const int a_lane = (MMA_ROWS * warp + g) * (STAGE_K / 2) + 16 * t;
    const int sfa_lane = SLOT_SFA + (MMA_ROWS * warp + g) * (STAGE_K / 16) + 2 * t;
    float acc[LANE_ROWS] = {};
    int item_ends = 0;  // the sums handed over so far: the hand-over barriers' phase
    Cursor use;
    use.start(blockIdx.x, parts, q, rem, tiles_per_batch);
    for (int s = 0; !use.done(); ++s) {
      uint8_t* const slot = ring + (s % STAGES) * SLOT_BYTES;
      mbar_wait(&full[s % STAGES], (s / STAGES) & 1);
#if RING_STAMPS
      if (threadIdx.x == 0) {
        last_arrival = stamp_clock();
        if (s == 0) first_arrival = last_arrival;
      }
#endif
#if RING_PRODUCTS
      const uint32_t b_first = shared_address(slot + SLOT_B);
      const float2* const b_scales = reinterpret_cast<const float2*>(slot + SLOT_B + STAGE_CHUNKS * B_CHUNK_BYTES) + t;
      // Chunk c's mmas are issued, then chunk c - 1's retired and scaled: two sets of sums and
      // fragments, alternating. The warpgroup's chunks are chunk0 on.
      float d[2][4];
      uint32_t frag[2][4][4];
#pragma unroll
      for (int i = 0; i <= WARPGROUP_CHUNKS; ++i) {
        if (i < WARPGROUP_CHUNKS) {
          const int chunk = chunk0 + i;
          uint4 a[LANE_ROWS];
          a[0] = *reinterpret_cast<const uint4*>(slot + a_lane + chunk * (CHUNK_K / 2));
          a[1] = *reinterpret_cast<const uint4*>(slot + a_lane + 8 * (STAGE_K / 2) + chunk * (CHUNK_K / 2));
          chunk_fragments(a, frag[i % 2]);
          issue_chunk_products(d[i % 2], frag[i % 2], b_first + chunk * B_CHUNK_BYTES);
        }
        if (i > 0) {
          if (i < WARPGROUP_CHUNKS) {
            retire_chunk_products<1>(d[(i - 1) % 2], frag[(i - 1) % 2]);
          } else {
            retire_chunk_products<0>(d[(i - 1) % 2], frag[(i - 1) % 2]);
          }
          const int done = chunk0 + i - 1;
          uint32_t sfa[LANE_ROWS];
          sfa[0] = *reinterpret_cast<const unsigned short*>(slot + sfa_lane + done * (CHUNK_K / 16));
          sfa[1] = *reinterpret_cast<const unsigned short*>(slot + sfa_lane + 8 * (STAGE_K / 16) + done * (CHUNK_K / 16));
          scale_chunk(d[(i - 1) % 2], sfa, b_scales[4 * done], acc);
        }
      }
#endif
      mbar_arrive(&empty[s % STAGES]);  // the thread's reads of the slot done (its last mmas retired)
      if (use.last_of_item()) {
        // The other warpgroups' sums to the first's lanes of the same rows, in a fixed order: written
        // once the first has read the last item's (a fresh barrier's phase before the first counts as
        // completed), read once all are written.
        const int lane_of_warpgroup = threadIdx.x % (WARPS * 32);
        if (warpgroup > 0) {
          mbar_wait(&sums_empty, (item_ends & 1) ^ 1);
          other_sums[warpgroup - 1][lane_of_warpgroup][0] = acc[0];
          other_sums[warpgroup - 1][lane_of_warpgroup][1] = acc[1];
          mbar_arrive(&sums_full);
        } else {
          mbar_wait(&sums_full, item_ends & 1);
#pragma unroll
          for (int w = 0; w < RING_WARPGROUPS - 1; ++w) {
            acc[0] += other_sums[w][lane_of_warpgroup][0];
            acc[1] += other_sums[w][lane_of_warpgroup][1];
          }
          mbar_arrive(&sums_empty);
          store_row_sums(acc, c, use.row0, use.tile, warp, ws, use.part, parts);
        }
        ++item_ends;
        acc[0] = acc[1] = 0.0f;
      }
      use.next(items, parts, q, rem, tiles_per_batch);
    }
  }
  join_parts(c, ws, blockIdx.x, gridDim.x, items, parts);
#if RING_STAMPS
  if (threadIdx.x == 0) {
    const uint32_t stop = stamp_clock(), global_stop = stamp_global();
    uint32_t sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    uint4* const record = reinterpret_cast<uint4*>(ring_stamps + 8ll * blockIdx.x);
    record[0] = make_uint4(sm + 1, global_start, start, first_arrival);
#if RING_B_STAMP
    record[1] = make_uint4(last_arrival, stop, global_stop, first_b_stored);
#else
    record[1] = make_uint4(last_arrival, stop, global_stop, 0);
#endif
  }
#endif
}

// The split tail (84zd): the ring's last short round in tiles of SPLIT_ROWS rows, one warp each
// over the whole row, with 93f's dp4a arithmetic and loads (its H200 loop: no split, no short
// window, no scale runs). Rows are counted over all batches (l * M + r), as the ring counts them.
namespace split_tail {
constexpr int SPLIT_ROWS = 4;
constexpr int WINDOW_K = 1024;  // elements per row per step: 512 bytes, 16 per lane (2 scale blocks)

__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
  return d;
}

// Twice the e2m1 magnitude for EEM = 0..7 and its negation, as the 8 bytes of two prmt sources;
// a nibble SEEM as selector with S = 1 replicates the chosen byte's sign (0 for the magnitudes).
constexpr uint32_t kMagLo = 0x03020100u, kMagHi = 0x0C080604u;
constexpr uint32_t kNegLo = 0xFDFEFF00u, kNegHi = 0xF4F8FAFCu;

// A: 2|v| of the non-negative nibbles in the low 16 bits of sel (0 for the negative ones).
__device__ __forceinline__ uint32_t a_nonneg(uint32_t mag_lo, uint32_t sel) { return prmt(mag_lo, kMagHi, sel); }

// B: the four nibbles in the low 16 bits of sel -> 2v as signed int8, and -2v.
__device__ __forceinline__ void b_signed(uint32_t sel, uint32_t& plus, uint32_t& minus) {
  const uint32_t mag = sel & 0x7777u;
  const uint32_t pos = prmt(kMagLo, kMagHi, mag);
  const uint32_t neg = prmt(kNegLo, kNegHi, mag);
  const uint32_t pick = ((sel >> 1) & 0x4444u) | 0x3210u;
  plus = prmt(pos, neg, pick);
  minus = prmt(neg, pos, pick);
}

// One window of the warp's rows at a lane's place: the scales first, then A from the last row to
// the first; B's 16 bytes and two scales.
struct Window {
  uint4 a[SPLIT_ROWS];
  uint32_t sfa[SPLIT_ROWS];
  uint4 b;
  uint32_t sfb;
};

__device__ __forceinline__ Window window_loads(const uint8_t* a, const uint8_t* sfa, const uint8_t* b,
                                               const uint8_t* sfb, long long a_row_bytes, int sfa_row_bytes, int window) {
  const long long off = static_cast<long long>(window) * (WINDOW_K / 2);
  const int sf_off = window * (WINDOW_K / 16);
  Window w;
#pragma unroll
  for (int r = 0; r < SPLIT_ROWS; ++r) w.sfa[r] = ld_stream_sf(sfa + r * sfa_row_bytes + sf_off);
#pragma unroll
  for (int r = SPLIT_ROWS - 1; r >= 0; --r) w.a[r] = ld_stream_a(a + r * a_row_bytes + off);
  w.b = __ldg(reinterpret_cast<const uint4*>(b + off));
  w.sfb = __ldg(reinterpret_cast<const unsigned short*>(sfb + sf_off));
  return w;
}

// The rows against the lane's B, each scale block summed exactly in int32 by dp4a (non-negative
// elements against +2b, negative ones against -2b), B decoded a word at a time, as 93f.
__device__ __forceinline__ void window_dot(uint32_t mag_lo, const Window& w, float (&acc)[SPLIT_ROWS]) {
  float2 sfb = e4m3x2_to_float2(w.sfb);
  sfb.x *= 0.25f;  // the int8 operands are twice the e2m1 values
  sfb.y *= 0.25f;
  const uint32_t bw[4] = {w.b.x, w.b.y, w.b.z, w.b.w};
#pragma unroll
  for (int block = 0; block < 2; ++block) {
    int d[SPLIT_ROWS] = {};
#pragma unroll
    for (int i = 2 * block; i < 2 * block + 2; ++i) {
      uint32_t plus[2], minus[2];
      b_signed(bw[i], plus[0], minus[0]);
      b_signed(bw[i] >> 16, plus[1], minus[1]);
#pragma unroll
      for (int r = 0; r < SPLIT_ROWS; ++r) {
        const uint32_t x = i == 0 ? w.a[r].x : i == 1 ? w.a[r].y : i == 2 ? w.a[r].z : w.a[r].w;
        const uint32_t neg = x ^ 0x88888888u;
        d[r] = __dp4a(static_cast<int>(a_nonneg(mag_lo, x)), static_cast<int>(plus[0]), d[r]);
        d[r] = __dp4a(static_cast<int>(a_nonneg(mag_lo, neg)), static_cast<int>(minus[0]), d[r]);
        d[r] = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(x, 1u << 16))), static_cast<int>(plus[1]), d[r]);
        d[r] = __dp4a(static_cast<int>(a_nonneg(mag_lo, __umulhi(neg, 1u << 16))), static_cast<int>(minus[1]), d[r]);
      }
    }
#pragma unroll
    for (int r = 0; r < SPLIT_ROWS; ++r) {
      const float2 sa = e4m3x2_to_float2(w.sfa[r]);
      acc[r] = fmaf(static_cast<float>(d[r]), (block == 0 ? sa.x : sa.y) * (block == 0 ? sfb.x : sfb.y), acc[r]);
    }
  }
}

// Row sums over the 32 lanes in 93f's fixed order: two transposing steps, then plain xor steps;
// lane l ends with row l / 8's sum.
__device__ __forceinline__ float row_sum(float (&acc)[SPLIT_ROWS], int lane) {
#pragma unroll
  for (int n = SPLIT_ROWS, offset = 16; n > 1; n /= 2, offset /= 2) {
    const bool upper = lane & offset;
#pragma unroll
    for (int i = 0; i < n / 2; ++i) {
      const float send = upper ? acc[i] : acc[i + n / 2];
      const float keep = upper ? acc[i + n / 2] : acc[i];
      acc[i] = keep + __shfl_xor_sync(0xFFFFFFFFu, send, offset);
    }
  }
#pragma unroll
  for (int offset = 32 / SPLIT_ROWS / 2; offset > 0; offset /= 2) acc[0] += __shfl_xor_sync(0xFFFFFFFFu, acc[0], offset);
  return acc[0];
}

// Eight warps of 64 registers: what the room beside a ring block holds in each quarter of the
// register file (its 19 warps of 72 registers leave 2, 2, 2 and 3 warps' worth, if a block's warps
// are dealt to the quarters in turn), so that each SM takes one such block.
constexpr int SPLIT_WARPS = 8;

// A warp a tile of SPLIT_ROWS rows, the tiles [tile0, tile_end) (over all batches) dealt round
// robin: block b's warp j takes tile tile0 + b + j x blocks. K whole windows.
__global__ void __maxnreg__(64)  // at most 64 registers: one block fits beside a ring block
kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b, const uint8_t* __restrict__ sfa,
       const uint8_t* __restrict__ sfb, __half* __restrict__ c, int m, int k, long long b_batch_stride,
       long long sfb_batch_stride, int tile0, int tile_end) {
  const int lane = threadIdx.x % 32;
  // The warp's index through a shuffle, which ptxas knows to be warp-uniform (as 93f: from
  // threadIdx.x / 32 directly, the loop spills at 64 registers).
  const int warp = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32, 0);
  const int tile = tile0 + static_cast<int>(blockIdx.x + gridDim.x * warp);
  if (tile >= tile_end) return;
  const int row0 = tile * SPLIT_ROWS;  // below 2^31 (the ring's bound)
  const int batch = row0 / m;
  const long long a_row_bytes = k / 2;
  const int sfa_row_bytes = k / 16;
  const uint8_t* a_lane = a + row0 * a_row_bytes + 16 * lane;
  const uint8_t* sfa_lane = sfa + static_cast<long long>(row0) * sfa_row_bytes + 2 * lane;
  const uint8_t* b_lane = b + batch * b_batch_stride + 16 * lane;
  const uint8_t* sfb_lane = sfb + batch * sfb_batch_stride + 2 * lane;
  // The A table's low word as a value ptxas does not know to be constant (93f's kernel says why).
  uint32_t lane_id;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane_id));
  const uint32_t mag_lo = kMagLo + (lane_id >> 5);
  float acc[SPLIT_ROWS] = {};
  for (int window = 0; window < k / WINDOW_K; ++window)
    window_dot(mag_lo, window_loads(a_lane, sfa_lane, b_lane, sfb_lane, a_row_bytes, sfa_row_bytes, window), acc);
  const float sum = row_sum(acc, lane);
  if (lane % (32 / SPLIT_ROWS) == 0) c[row0 + lane / (32 / SPLIT_ROWS)] = __float2half_rn(sum);
}
}  // namespace split_tail

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

// The ring's slots, past the default 48 KB of dynamic shared memory a block.
static size_t ring_bytes() { return static_cast<size_t>(STAGES) * SLOT_BYTES; }

static long long ring_resident_blocks(int) {
  static int resident = 0;
  if (resident == 0) {
    cudaFuncSetAttribute(nvfp4_gemv_ring_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(ring_bytes()));
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_ring_kernel, RING_THREADS, ring_bytes());
    resident = per_sm > 0 ? per_sm : 1;
  }
  return static_cast<long long>(resident) * sm_count();
}

// The ring where the tensor maps allow it: the scales' rows 16 bytes apart (256 divides K), and
// every row's index a 32-bit copy coordinate.
static bool ring_path(int m, int k, int l) {
  return k % 256 == 0 && static_cast<long long>(m) * l < (1ll << 31);
}

__host__ __device__ __forceinline__ int stages_of(int k) { return (k + STAGE_K - 1) / STAGE_K; }

// Parts a tile. 84a's kernel: the fewest whose blocks fill the GPU's resident slots to within a
// tenth of a whole number of waves, chunks split, at most MAX_PART_CHUNKS a part (B's shared
// memory). The ring's blocks are resident, so waves are not the question: as many parts as give
// each item a block of its own (resident blocks / tiles, at least 1, at most the row's stages), so
// that a block's stages are one long run of one tile's (the probe ring_parts: cuts between a
// block's items cost more than idle blocks).
static int parts_of(int m, int k, int l) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS;
  const bool ring = ring_path(m, k, l);
  const int chunks = ring ? stages_of(k) : chunks_of(k);
  if (ring) {
    const long long blocks_a_tile = ring_resident_blocks(0) / tiles;
    const long long parts = RING_PARTS > 0 ? RING_PARTS : blocks_a_tile > 1 ? blocks_a_tile : 1;
    const int most = chunks < MAX_PARTS ? chunks : MAX_PARTS;
    return static_cast<int>(parts < most ? parts : most);
  }
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

// The tensor maps of A (8-byte elements) and of its scales (bytes) over all M * L rows, with boxes
// of one stage of a tile's rows. Encoded on the host through the driver's entry point, and again
// only when the tensors or the shape change.
struct TensorMaps {
  CUtensorMap a, sfa;
};

static bool encode_rows_map(CUtensorMap* map, const uint8_t* base, CUtensorMapDataType type, int element_bytes,
                            long long rows, int row_bytes, int box_bytes) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (encode == nullptr) {
    cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&encode), 12000,
                                         cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      encode = nullptr;
      return false;
    }
  }
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(row_bytes / element_bytes), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(row_bytes)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_bytes / element_bytes), TILE_ROWS};
  const cuuint32_t steps[2] = {1, 1};
  return encode(map, type, 2, const_cast<uint8_t*>(base), dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

static const TensorMaps* tensor_maps(const uint8_t* a, const uint8_t* sfa, int m, int k, int l) {
  static TensorMaps maps;
  static const uint8_t *last_a = nullptr, *last_sfa = nullptr;
  static int last_m = 0, last_k = 0, last_l = 0;
  if (a != last_a || sfa != last_sfa || m != last_m || k != last_k || l != last_l) {
    last_a = nullptr;  // stays unmatched if an encoding fails
    const long long rows = static_cast<long long>(m) * l;
    if (!encode_rows_map(&maps.a, a, CU_TENSOR_MAP_DATA_TYPE_UINT64, 8, rows, k / 2, STAGE_K / 2) ||
        !encode_rows_map(&maps.sfa, sfa, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, rows, k / 16, STAGE_K / 16)) {
      return nullptr;
    }
    last_a = a, last_sfa = sfa, last_m = m, last_k = k, last_l = l;
  }
  return &maps;
}

// The ring's last round left to the split tail: where the ring's tiles are whole (one part) and
// overflow a round of its resident blocks by at most half a round, the tiles past the last whole
// round; K in whole windows of the tail's loop. 0 elsewhere.
static long long split_tail_tiles(int m, int k, int l, int parts) {
  const long long tiles = static_cast<long long>(m) * l / TILE_ROWS, round = ring_resident_blocks(0);
  const long long last = tiles % round;
  return parts == 1 && k % split_tail::WINDOW_K == 0 && tiles > round && last <= round / 2 ? last : 0;
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
  const bool ring = ring_path(m, k, l);
  const int chunks = ring ? stages_of(k) : chunks_of(k);  // the ring's parts are in stages
  const int q = chunks / parts, rem = chunks % parts;
  const size_t tiles = static_cast<size_t>(m) * l / TILE_ROWS;
  Workspace ws;
  ws.counters = static_cast<unsigned*>(workspace);
  ws.part_sums = reinterpret_cast<float*>(static_cast<char*>(workspace) + (tiles * sizeof(unsigned) + 15) / 16 * 16);
  if (ring) {
    const TensorMaps* maps = tensor_maps(a, sfa, m, k, l);
    if (maps == nullptr) return static_cast<int>(cudaErrorInvalidValue);  // the driver refused a tensor map
    // One resident block a slot, each on every G-th item: items = tiles x parts, below 2^31
    // (tiles below 2^25, parts at most MAX_PARTS).
    const long long ring_tiles = static_cast<long long>(tiles) - split_tail_tiles(m, k, l, parts);
    const long long items = ring_tiles * parts;
    const long long blocks = items < ring_resident_blocks(0) ? items : ring_resident_blocks(0);
    nvfp4_gemv_ring_kernel<<<static_cast<unsigned>(blocks), RING_THREADS, ring_bytes(), stream>>>(
        b, sfb, c, m, k, b_batch_stride, sfb_batch_stride, static_cast<int>(items), parts, q, rem, ws, maps->a, maps->sfa);
    if (ring_tiles < static_cast<long long>(tiles)) {
      // The split tail beside the ring blocks: as the ring's programmatic dependent, it may start
      // once they all have; it reads nothing the ring writes, so it never waits for it.
      constexpr int kSplitTiles = TILE_ROWS / split_tail::SPLIT_ROWS;
      cudaLaunchAttribute programmatic;
      programmatic.id = cudaLaunchAttributeProgrammaticStreamSerialization;
      programmatic.val.programmaticStreamSerializationAllowed = 1;
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(static_cast<unsigned>(blocks));
      config.blockDim = dim3(split_tail::SPLIT_WARPS * 32);
      config.stream = stream;
      config.attrs = &programmatic;
      config.numAttrs = 1;
      const cudaError_t err = cudaLaunchKernelEx(&config, split_tail::kernel, a, b, sfa, sfb, c,
                                                 m, k, b_batch_stride, sfb_batch_stride,
                                                 static_cast<int>(ring_tiles * kSplitTiles),
                                                 static_cast<int>(tiles * kSplitTiles));
      if (err != cudaSuccess) return static_cast<int>(err);
    }
    return static_cast<int>(cudaGetLastError());
  }
  for (int batch0 = 0; batch0 < l; batch0 += kMaxGridY) {
    const int batches = l - batch0 < kMaxGridY ? l - batch0 : kMaxGridY;
    const dim3 grid(static_cast<unsigned>(m / TILE_ROWS), static_cast<unsigned>(batches), static_cast<unsigned>(parts));
    nvfp4_gemv_kernel<<<grid, WARPS * 32, shared_bytes(q + (rem > 0)), stream>>>(
        a, b, sfa, sfb, c, m, k, b_batch_stride, sfb_batch_stride, batch0, q, rem, ws);
  }
  return static_cast<int>(cudaGetLastError());
}
