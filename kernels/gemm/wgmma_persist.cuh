/* wgmma_persist.cuh — the large Hopper GEMM (issue 39, item 1): C (M×N, ldc, FP32) = A (M×K,
 * lda) · B (K×N, ldb), row-major, f16 and bf16 operands, FP32 accumulation, on sm_90a code.
 * Read kernels/gemm/wgmma.cuh first: this kernel reuses its swizzle, descriptors, D layout, TMA
 * maps of A and B (the same boxes: A 128×64, B 64×64) and its operand rules, and changes the
 * structure around them:
 *   gb_hgemm_wgmma_persist_128x256  f16:  wgmma m64n256k16.f32.f16.f16;
 *   gb_bgemm_wgmma_persist_128x256  bf16: wgmma m64n256k16.f32.bf16.bf16;
 * and, instantiated by wgmma_tf32.cuh from the same source (wgmma_persist_tile.cuh, GB_WPT_TF32),
 *   gb_tgemm_wgmma_persist_128x256  tf32: wgmma m64n256k8.f32.tf32.tf32 on A (or its copy) and
 *                                   the K-major copy Bᵀ, whose four 64-row boxes take B's place.
 *
 * SASS check: gb_hgemm_wgmma_persist_128x256 HGMMA.64x256x16 from 900a
 * SASS check: gb_bgemm_wgmma_persist_128x256 HGMMA.64x256x16 from 900a
 * SASS check: gb_hgemm_wgmma_persist_128x256 STG.E.64 x64 from 900a
 * SASS check: gb_bgemm_wgmma_persist_128x256 STG.E.64 x64 from 900a
 * SASS check: gb_hgemm_wgmma_persist_128x256 UTMACCTL.PF x2 from 900a
 * SASS check: gb_bgemm_wgmma_persist_128x256 UTMACCTL.PF x2 from 900a
 * SASS check: gb_hgemm_wgmma_persist_128x256 no MEMBAR.ALL.GPU in loop from 900a
 * SASS check: gb_bgemm_wgmma_persist_128x256 no MEMBAR.ALL.GPU in loop from 900a
 * (tests/gpuinfo/sass_check.py: n = 256 in the instruction; the 128×128 kernel's HGMMA.64x128x16
 * would fail it. The paired epilogue: an 8-byte store for each of a thread's 64 column pairs;
 * the tensor maps' prefetches, as in wgmma.cuh. No MEMBAR.ALL.GPU in the main loop, the
 * consumers' slice loop: the plain remote arrive of the Structure below; a cluster-scope
 * release there compiles to MEMBAR.ALL.GPU + ERRBAR before each arrive. The cluster barriers
 * before and after the walk keep theirs.)
 *
 * Structure:
 * - 128×256 tiles of C. A block of 384 threads: warpgroup 0 the producer, warpgroups 1 and 2
 *   consumers of 64 rows × 256 columns each (m64n256k16, 128 FP32 accumulators a thread).
 *   __launch_bounds__(384, 1) caps a thread at 168 registers at entry; then `setmaxnreg` gives
 *   the producer 40 and the consumers 232: 128·40 + 256·232 = 64,512 = 384·168 (GB_WP_REGS_*).
 *   The consumers' setmaxnreg.inc waits until the block's pool has the registers, so it holds
 *   only where the kernel starts with 168 a thread (GB_WP_REGS_ENTRY, what CUDA 13's ptxas
 *   gives it): with fewer it would wait forever. The host reads the count
 *   (cudaFuncGetAttributes' numRegs) and runs the 128×128 kernel where gb_wp_regs_ok refuses it,
 *   the row note saying why (kernels/gemm/cuda_tc.c). The budget is not derived from the count
 *   instead: setmaxnreg takes an immediate, and a consumer holding 128 accumulators is compiled
 *   for its 232.
 * - Persistent: the host launches one block per multiprocessor (an even number: clusters of 2,
 *   at most as many as there are tile pairs); cluster q of Q walks the pair tiles q, q + Q, …
 *   in the grouped order of gb_wp_tile (GB_WP_GROUP pair-rows of tiles, column by column within
 *   the group, so the blocks running at once share A panels and B panels in L2). The stages and
 *   their mbarrier phases run on across tiles (a block-wide slice counter), so the producer
 *   loads the next tile's first slices while the consumers store the last tile: the epilogue
 *   overlaps the next tile's loads with no extra code.
 * - A 2-CTA cluster (__cluster_dims__(2, 1, 1)) on two vertically adjacent tiles (rows 256·p
 *   and 256·p + 128 of pair tile p, the same 256 columns): each block loads its own A box
 *   and two of B's four 64-column boxes, multicast to both blocks (gb_wp_b_box: rank r sends
 *   boxes 2r and 2r + 1). So each block's "full" barrier receives its whole stage,
 *   GB_WP_STAGE_BYTES = 16 KiB of A + 4 × 8 KiB of B, half of B from its peer (expect_tx of the
 *   whole stage); B leaves L2 once for two tiles. A stage may be refilled only when both blocks'
 *   consumers are done with it (the peer writes into it too), so each "empty" barrier counts
 *   GB_WP_EMPTY_ARRIVALS = 4 arrivals: the 2 local consumer warpgroups and the peer's 2. A
 *   consumer warpgroup's lanes 0 and 1 each arrive on one block's barrier (rank = lane), in one
 *   instruction, with the plain remote arrive (mapa, then mbarrier.arrive.shared::cluster, no
 *   .release.cluster), and the producer waits on "empty" with the plain try_wait.parity, as
 *   CUTLASS's PipelineTmaAsync does (issue 46, P3): the cluster-scope release compiled to
 *   MEMBAR.ALL.GPU + ERRBAR before each arrive, twice a slice, and the cluster-scope acquire to a
 *   CCTL.IVALL after each wait; the wgmma reads of the stage have retired (wait_group) before the
 *   arrive, and the peer writes the stage only through TMA. A SASS claim below keeps
 *   MEMBAR.ALL.GPU out of the main loop. A cluster barrier after the barriers' initialisation
 *   (no multicast lands before the peer's barriers exist) and one before exit (no remote arrive
 *   or multicast reaches a block that has exited).
 * - Boxes wholly outside the matrix are not issued (wgmma.cuh's "Edges"): the second block's A
 *   box where the number of 128-row tiles is odd (the last pair-row's second tile is below M),
 *   and B's boxes at cn·256 + 64j ≥ N (N mod 256 in 1–192: the last column of pair tiles). Each
 *   block's "full" barrier expects its own A box where issued and every B box either block
 *   issues (gb_wp_stage_tx: both blocks compute the same B count from N, the peer's multicast
 *   included). The stale shared memory left in a box's place feeds only accumulator rows at or
 *   past M (A) or columns at or past N (B), which the epilogue never stores.
 * - The epilogue stores pairs of adjacent columns (d[4j], d[4j + 1]: columns 8j + 2t, + 1) as
 *   one 8-byte store where C and ldc allow it (wgmma.cuh's gb_wg_store2, as the 128×128 kernel),
 *   single floats at the edges. The producer prefetches both tensor maps first (wgmma.cuh).
 *
 * When it is chosen over the 128×128 kernel (gb_wp_pick, kernels/gemm/cuda_tc.c's note): where
 * its modelled time is the smaller, the rounds of each schedule on the card's multiprocessors
 * (gb_wp_rounds) times the time of one tile, a 128×256 tile modelled at 1.8 times a 128×128
 * one (GB_WP_TILE_COST_X10, an estimate for the first card run to set): wave quantization
 * decides, not the tile count alone (at 2304² the persistent kernel's 81 pair tiles on 66
 * clusters take 2 rounds, 3.6, the 128×128 kernel's 324 tiles on 132 SMs 3 rounds, 3).
 *
 * The twin (GPUBENCH_EMU) is the same persistent walk made synchronous, as wgmma.cuh's twin:
 * thread 0 copies the block's A box and, for each rank of the cluster, that rank's B boxes
 * (gb_wp_b_box: what multicast delivers to every block), each issued box's bytes counted off
 * the stage's expected count, which must come to zero, and NaN in place of a box not issued
 * (gb_wg_twin_copy, gb_wg_twin_stale, gb_wg_twin_full), a barrier, the consumers' FMAs through
 * the descriptors, a barrier, the paired epilogue. It proves the tile walk, the multicast
 * layout, the descriptors at n = 256 and the epilogue; the mbarrier protocol across the
 * cluster and setmaxnreg are the PTX ISA's, checked only on a card.
 */
#ifndef GPUBENCH_GEMM_WGMMA_PERSIST_CUH
#define GPUBENCH_GEMM_WGMMA_PERSIST_CUH

#include "kernels/gemm/wgmma.cuh"

enum {
    GB_WP_BM = 128,
    GB_WP_BN = 256,
    GB_WP_CLUSTER = 2,                      /* blocks a cluster, stacked along M */
    GB_WP_B_BOXES = GB_WP_BN / GB_WG_BOX_N, /* 4 */
    GB_WP_ACC = GB_WP_BN / 2,               /* 128 accumulators a consumer thread */
    GB_WP_GROUP = 8,                        /* pair-rows of tiles a group of the walk */
    GB_WP_STAGE_BYTES = GB_WG_A_BYTES + GB_WP_B_BOXES * GB_WG_B_BOX_BYTES, /* 49152 */
    GB_WP_SMEM = GB_WG_ATOM + GB_WG_STAGES * GB_WP_STAGE_BYTES + 2 * GB_WG_STAGES * 8,
    GB_WP_EMPTY_ARRIVALS = GB_WG_CONSUMERS * GB_WP_CLUSTER
};
/* setmaxnreg's registers a thread (macros: the PTX takes them as literals, GB_WP_STR), and the
 * count at entry the moves assume: 384·168 = 128·40 + 256·232 */
#define GB_WP_REGS_PRODUCER 40
#define GB_WP_REGS_CONSUMER 232
#define GB_WP_REGS_ENTRY 168
#define GB_WP_STR2(x) #x
#define GB_WP_STR(x) GB_WP_STR2(x)

/* Pair tiles (a cluster's 256×256 of C) of an M×N product: *pm pair-rows, *pn columns of tiles;
 * their count, or -1 beyond int. */
GB_WG_HD long gb_wp_pairs(int M, int N, int *pm, int *pn) {
    const long tm = ((long)M + GB_WP_BM - 1) / GB_WP_BM;
    *pm = (int)((tm + GB_WP_CLUSTER - 1) / GB_WP_CLUSTER);
    *pn = (int)(((long)N + GB_WP_BN - 1) / GB_WP_BN);
    return (long)*pm * *pn > 2147483647L ? -1 : (long)*pm * *pn;
}

/* Pair tile t (0 ≤ t < pm·pn) of the grouped walk: groups of GB_WP_GROUP pair-rows (the last
 * one shorter), column by column within a group, so consecutive t share B's column panel and
 * the blocks running at once touch few A panels. */
GB_WG_HD void gb_wp_tile(int t, int pm, int pn, int *cm, int *cn) {
    const int per_group = GB_WP_GROUP * pn, g = t / per_group, first = g * GB_WP_GROUP;
    const int rows = pm - first < GB_WP_GROUP ? pm - first : GB_WP_GROUP, in = t % per_group;
    *cm = first + in % rows;
    *cn = in / rows;
}

/* The B box (0–3, 64 columns each) that rank r's i-th copy (0, 1) multicasts to the cluster. */
GB_WG_HD int gb_wp_b_box(int r, int i) {
    return r * (GB_WP_B_BOXES / GB_WP_CLUSTER) + i;
}

/* Blocks of the persistent grid for `pairs` pair tiles on a card of `sms` multiprocessors: one
 * a multiprocessor, even (whole clusters), no more clusters than pairs, at least one cluster. */
GB_WG_HD int gb_wp_blocks(long pairs, int sms) {
    long c = sms / GB_WP_CLUSTER;
    if (c > pairs)
        c = pairs;
    return (int)(c < 1 ? (long)GB_WP_CLUSTER : c * GB_WP_CLUSTER);
}

/* The modelled time of a 128×256 tile in 128×128 tiles' time, in tenths (issue 46, P4): twice
 * the flops at an estimated tenth less time a flop (m64n256 issues half the wgmma instructions a
 * flop, multicast halves B's reads from L2): 18. An estimate until the first card run sets it:
 * the persistent kernel's time a 128×256 tile ÷ the 128×128 kernel's time a tile, at a shape
 * where both fill the card in whole rounds (4096³ on 128 of an H100's SMs is close); the first
 * card run's choice step prints it for each forced pair (scripts/lib/first_card.py). */
#define GB_WP_TILE_COST_X10 18

/* The rounds of each schedule on a card of sms multiprocessors: *r128 the 128×128 kernel's (its
 * tiles over the SMs, one block an SM: two need more shared memory than an SM has), *r256 the
 * persistent kernel's (the most pair tiles one of its clusters walks, gb_wp_blocks' clusters;
 * each of a pair's blocks one 128×256 tile in that time). */
GB_WG_HD void gb_wp_rounds(int M, int N, int sms, long *r128, long *r256) {
    const long t128 = (((long)M + GB_WG_BM - 1) / GB_WG_BM) * (((long)N + GB_WG_BN - 1) / GB_WG_BN);
    int pm, pn;
    const long pairs = gb_wp_pairs(M, N, &pm, &pn);
    const long q = pairs < 0 ? 1 : gb_wp_blocks(pairs, sms) / GB_WP_CLUSTER;
    *r128 = sms > 0 ? (t128 + sms - 1) / sms : t128;
    *r256 = pairs < 0 ? 0 : (pairs + q - 1) / q;
}

/* Take the persistent 128×256 kernel (1) or the 128×128 one (0): the smaller modelled time,
 * rounds × the time of one tile (r256 · 1.8 < r128, GB_WP_TILE_COST_X10); a tie keeps the
 * 128×128 kernel. A card of unknown size (sms < 1) keeps it too. */
GB_WG_HD int gb_wp_pick(int M, int N, int sms) {
    long r128, r256;
    if (sms < 1)
        return 0;
    gb_wp_rounds(M, N, sms, &r128, &r256);
    return r256 > 0 && r256 * GB_WP_TILE_COST_X10 < r128 * 10;
}

/* Can the kernel's setmaxnreg moves complete when it starts with `regs` registers a thread
 * (cudaFuncGetAttributes' numRegs)? The consumers' increase waits until the block's pool, 384
 * threads' entry registers, holds the producer's 40 and the consumers' 232 a thread: at 168
 * exactly (the most __launch_bounds__(384, 1) allows); with fewer it waits forever. */
GB_WG_HD int gb_wp_regs_ok(int regs) {
    return (long)GB_WG_THREADS * regs >=
           128L * GB_WP_REGS_PRODUCER + 128L * GB_WG_CONSUMERS * GB_WP_REGS_CONSUMER;
}

/* Is the A box of cluster rank `rank` in pair-row cm issued (does it hold a row of A)? Is B's
 * box j (0–3) of pair column cn issued? Both blocks evaluate the same B boxes from N. */
GB_WG_HD int gb_wp_a_in(int M, int cm, int rank) {
    return gb_wg_box_in(((long)GB_WP_CLUSTER * cm + rank) * GB_WP_BM, M);
}
GB_WG_HD int gb_wp_b_in(int N, int cn, int j) {
    return gb_wg_box_in((long)cn * GB_WP_BN + (long)j * GB_WG_BOX_N, N);
}

/* The boxes block `rank` issues for a slice of pair tile (cm, cn), as bits: 1 its A box, 2 << i
 * its i-th B box (gb_wp_b_box(rank, i)). */
GB_WG_HD unsigned gb_wp_issue(int rank, int M, int N, int cm, int cn) {
    unsigned bits = (unsigned)gb_wp_a_in(M, cm, rank), i;
    for (i = 0; i < GB_WP_B_BOXES / GB_WP_CLUSTER; i++)
        bits |= (unsigned)gb_wp_b_in(N, cn, gb_wp_b_box(rank, (int)i)) << (i + 1);
    return bits;
}

/* The bytes block `rank`'s "full" barrier expects for a slice of pair tile (cm, cn): its own A
 * box where issued, and every B box that holds a column, whichever block issues it. */
GB_WG_HD unsigned gb_wp_stage_tx(int M, int N, int cm, int cn, int rank) {
    unsigned bytes = gb_wp_a_in(M, cm, rank) ? (unsigned)GB_WG_A_BYTES : 0u;
    int j;
    for (j = 0; j < GB_WP_B_BOXES; j++)
        bytes += gb_wp_b_in(N, cn, j) ? (unsigned)GB_WG_B_BOX_BYTES : 0u;
    return bytes;
}

/* The B descriptor of step kk of the slice in stage s (256 columns: LBO steps over 4 boxes). */
GB_WG_HD unsigned long long gb_wp_desc_b(int s, int kk) {
    return gb_wg_desc(
        (unsigned)(s * GB_WP_STAGE_BYTES + GB_WG_A_BYTES + kk * GB_WG_MK * GB_WG_ROW_BYTES),
        GB_WG_B_BOX_BYTES, GB_WG_ATOM);
}
GB_WG_HD unsigned long long gb_wp_desc_a(int s, int c, int kk) {
    return gb_wg_desc((unsigned)(s * GB_WP_STAGE_BYTES + c * 64 * GB_WG_ROW_BYTES + kk * 32), 16,
                      GB_WG_ATOM);
}

/* The cluster: sm_90 code has clusters; the attribute is refused for older code, where the
 * kernel is a trap anyway. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && !defined(GPUBENCH_EMU)
#define GB_WP_CLUSTER_DIMS __cluster_dims__(GB_WP_CLUSTER, 1, 1)
#else
#define GB_WP_CLUSTER_DIMS
#endif

#if GB_WG_NATIVE
/* --- sm_90a: the cluster's PTX (the rest is wgmma.cuh's) ---------------------------------- */
static __device__ __forceinline__ unsigned gb_wp_rank(void) {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
/* every thread of both blocks; releases this block's shared writes (barrier init) to the peer */
static __device__ __forceinline__ void gb_wp_cluster_sync(void) {
    asm volatile("barrier.cluster.arrive.release;\n"
                 "barrier.cluster.wait.acquire;" ::
                     : "memory");
}
/* the box of map at (x, y) into offset dst of every block of the cluster in mask, completing
 * its bytes on each one's barrier at offset bar */
static __device__ __forceinline__ void gb_wp_tma_mc(unsigned dst, const void *map, int x, int y,
                                                    unsigned bar, unsigned short mask) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
                 "l"((unsigned long long)map), "r"(x), "r"(y), "r"(bar), "h"(mask)
                 : "memory");
}
/* arrive on the barrier at local offset bar of cluster block `rank` (itself or the peer): the
 * plain remote arrive, no cluster-scope release (the Structure above; CUTLASS's
 * ClusterBarrier::arrive(cta_id) is the same two instructions) */
static __device__ __forceinline__ void gb_wp_arrive_at(unsigned bar, unsigned rank) {
    asm volatile("{\n.reg .b32 ra;\n"
                 "mapa.shared::cluster.u32 ra, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [ra];\n}" ::"r"(bar),
                 "r"(rank)
                 : "memory");
}
#endif

#if GB_HAVE_WGMMA
#define GB_WPT_NAME gb_hgemm_wgmma_persist_128x256
#define GB_WPT_IN __half
#define GB_WPT_FLOAT(x) __half2float(x)
#define GB_WPT_PTX "f16"
#include "kernels/gemm/wgmma_persist_tile.cuh"

#define GB_WPT_NAME gb_bgemm_wgmma_persist_128x256
#define GB_WPT_IN __nv_bfloat16
#define GB_WPT_FLOAT(x) __bfloat162float(x)
#define GB_WPT_PTX "bf16"
#include "kernels/gemm/wgmma_persist_tile.cuh"
#endif

#endif
