/* mma.cuh — the sm_80+ mma.sync pieces that conv2d/cuda_tc's kernel (kernels/conv2d/tc_mma.cuh)
 * and gemm/cuda_tc's mma.sync GEMM (kernels/gemm/mma.cuh) share: the architecture and toolkit
 * guards, the 128×128 block tile of 8 warps of 64×32 and its 3-stage 16 KiB slices, the swizzled
 * shared layout of 16-byte chunks, the ldmatrix lane addresses and the per-lane offsets the
 * native loops step from by constants (gb_mm_lane_a, _b, _tf32_b), the accumulator fragment layout
 * (zeroed by GB_MM_ACC_ZERO) and a k step's mma issue (GB_MM_ISSUE), and the PTX (cp.async,
 * ldmatrix, mma.sync) as inline asm; the block tile, its warps and the accumulator layout are also
 * the FP64 m16n8k16 kernel's (kernels/gemm/dmma16.cuh). Their pipeline loop is mma_pipe.cuh's.
 * Plain C apart from the PTX. The scheme they serve — the pipeline, why each swizzle is
 * conflict-free, the ldmatrix register order against the PTX ISA's operand layouts, the twin — is
 * described in kernels/gemm/mma.cuh's file comment; kernels/gemm/test_emu_mma.h checks these
 * pieces with a CPU model of ldmatrix.
 */
#ifndef GPUBENCH_COMMON_MMA_CUH
#define GPUBENCH_COMMON_MMA_CUH
#include "kernels/common/kernel_common.cuh"
#include "kernels/common/wmma.cuh" /* GB_HAVE_WMMA_80, gb_wm_body_at, the 16-bit types */

#define GB_MMA_MIN_ARCH 800
/* the toolkit: CUDA 11.0 (bf16 types, mma.sync bf16/tf32, ldmatrix, cp.async) — WMMA_80's */
#define GB_HAVE_MMA GB_HAVE_WMMA_80
/* the PTX itself: nvcc compiling for sm_80 and newer */
#if GB_HAVE_MMA && defined(__CUDA_ARCH__) && GB_ARCH >= GB_MMA_MIN_ARCH
#define GB_MM_NATIVE 1
#else
#define GB_MM_NATIVE 0
#endif
/* where the kernels have a body (the twin, the host pass, sm_80+); a trap elsewhere */
#define GB_MM_BODY (GB_ARCH == 0 || GB_ARCH >= GB_MMA_MIN_ARCH)

/* block tile; chunk bytes (one cp.async, one ldmatrix row); chunks a row of A's slice (64
 * bytes); stages; threads of the 64×32-warp kernels (2×4 warps); warp tile rows; warp tile
 * columns, 64×32 or 64×64 (gemm's _w64 kernels, 2×2 warps) and the latter's threads; m16
 * fragments a warp holds down; of the 64×32 warps (conv2d's kernel too): warps, n8 fragments
 * across and chunks of A (and of B) a thread copies a slice (gemm/mma_tile.cuh derives them
 * for either warp shape: GB_MT_NF, GB_MT_THREADS, GB_MT_COPIES; gb_mm_warps); chunks of a
 * stage (A's 512, then B's 512); accumulator elements a lane holds per fragment */
enum {
    GB_MM_BM = 128,
    GB_MM_BN = 128,
    GB_MM_CH = 16,
    GB_MM_AC = 4,
    GB_MM_STAGES = 3,
    GB_MM_THREADS = 256,
    GB_MM_WM = 64,
    GB_MM_WN = 32,
    GB_MM_WN64 = 64,
    GB_MM_THREADS64 = 128,
    GB_MM_FM = GB_MM_WM / 16,
    GB_MM_WARPS = GB_MM_THREADS / 32,
    GB_MM_FN = GB_MM_WN / 8,
    GB_MM_A_CHUNKS = GB_MM_BM * GB_MM_AC,
    GB_MM_COPIES = GB_MM_A_CHUNKS / GB_MM_THREADS,
    GB_MM_STAGE_CHUNKS = 2 * GB_MM_A_CHUNKS,
    GB_MM_PER_FRAG = 4
};

/* --- index functions: plain C, shared by the kernel, its twin and the CPU tests ------------- */
#if defined(__CUDACC__)
#define GB_MM_HD static __host__ __device__ __forceinline__
#else
#define GB_MM_HD static inline
#endif

/* Elements of a tier in a 16-byte chunk: 8 (16-bit), 4 (tf32); the tier's slice depth (K
 * elements a row of A's slice holds) and chunks a row of B's slice. */
GB_MM_HD int gb_mm_bk(int ec) {
    return GB_MM_AC * ec;
}
GB_MM_HD int gb_mm_bnc(int ec) {
    return GB_MM_BN / ec;
}

/* Where chunk c of row r of a slice that is w chunks wide (4: A; 16: 16-bit B; 32: tf32 B)
 * sits in its part of the stage, in chunks: row-major, the chunk XOR-swizzled within its row
 * (the file comment says why each). */
GB_MM_HD int gb_mm_swz(int r, int c, int w) {
    int x = w == GB_MM_AC ? (r >> 1) & 3 : w == 16 ? r & 7 : (r & 3) << 1;
    return r * w + (c ^ x);
}

/* Element (r, k) of a slice w chunks wide with ec elements a chunk, in elements from the start
 * of its part of the stage (the twin's reads, the tests' model). */
GB_MM_HD int gb_mm_at(int r, int k, int w, int ec) {
    return gb_mm_swz(r, k / ec, w) * ec + k % ec;
}

/* Copy p (0 ≤ p < 512) of a slice w chunks wide: its row and chunk. Chunks run along rows, so
 * 8 consecutive threads fill one 128-byte line of shared memory and read 128 contiguous bytes
 * of a row of A (two rows) or B. */
GB_MM_HD void gb_mm_copy(int p, int w, int *r, int *c) {
    *r = p / w;
    *c = p % w;
}

/* Elements of a chunk of ec elements starting at column col of a row that is inside (row_in)
 * a matrix of cols columns: ec, fewer at the right edge, 0 outside (what the copy reads; the
 * rest is zero-filled). */
GB_MM_HD int gb_mm_inside(int row_in, int col, int cols, int ec) {
    return !row_in || col >= cols ? 0 : cols - col < ec ? cols - col : ec;
}

/* Origin (row, column) in a block tile bn columns wide of warp w's wm×wn part, warps numbered
 * along the rows of warps (conv2d's 64×256 tile of 32×64 warps: kernels/conv2d/tc_mma.cuh). */
GB_MM_HD void gb_mm_warp_origin_in(int w, int bn, int wm, int wn, int *r, int *c) {
    const int across = bn / wn;
    *r = (w / across) * wm;
    *c = (w % across) * wn;
}

/* The same in the 128×128 tile of 64×wn warps (wn = GB_MM_WN: 2×4 warps; GB_MM_WN64: 2×2). */
GB_MM_HD void gb_mm_warp_origin(int w, int wn, int *r, int *c) {
    gb_mm_warp_origin_in(w, GB_MM_BN, GB_MM_WM, wn, r, c);
}

/* Warps of a block whose warps hold 64×wn each: 8 (64×32), 4 (64×64). */
GB_MM_HD int gb_mm_warps(int wn) {
    return (GB_MM_BM / GB_MM_WM) * (GB_MM_BN / wn);
}

/* Which 16-bit GEMM kernel for an M×N C on sms multiprocessors: 1, the 64×64-warp one, where C
 * has at least two 128×128 tiles a multiprocessor (every SM holds two of its 4-warp blocks, so
 * the SM's tensor and shared-memory rates bound it, which the 64×64 warps' fewer shared reads
 * relieve); 0, the 64×32-warp one, on fewer tiles (a lone block a SM: its 8 warps hide latency
 * that 4 cannot). kernels/gemm/mma.cuh's file comment has the arithmetic. */
GB_MM_HD int gb_mm_pick(int M, int N, int sms) {
    const long tiles =
        (((long)M + GB_MM_BM - 1) / GB_MM_BM) * (((long)N + GB_MM_BN - 1) / GB_MM_BN);
    return tiles >= 2L * sms;
}

/* The row (of the block's A slice) and logical chunk whose address lane gives to ldmatrix.x4
 * for A's m16 fragment i of a warp at row wr, k step ks (0, 1: chunks 2ks, 2ks+1): lanes
 * 8j..8j+7 address matrix j, rows 0-7 (j even) or 8-15 (j odd) of chunk 2ks + j/2. */
GB_MM_HD void gb_mm_ldsm_a(int lane, int wr, int i, int ks, int *r, int *c) {
    *r = wr + 16 * i + (lane & 7) + ((lane >> 3) & 1) * 8;
    *c = 2 * ks + (lane >> 4);
}

/* Likewise for ldmatrix.x4.trans of 16-bit B: k row (of B's slice) and logical chunk lane
 * addresses for the n16 pair jj (n8 fragments 2jj, 2jj+1) of a warp at column wc, k16 step ks:
 * matrix j is k rows 16ks + 8(j%2) .. +7 of the 8 columns of chunk (wc + 16jj)/8 + j/2. */
GB_MM_HD void gb_mm_ldsm_b(int lane, int wc, int jj, int ks, int *r, int *c) {
    *r = 16 * ks + (lane & 7) + ((lane >> 3) & 1) * 8;
    *c = (wc + 16 * jj) / 8 + (lane >> 4);
}

/* Byte offsets in a stage of lane's fragment addresses for k step 0, computed once a kernel so
 * that its loop adds constants and XORs one or two bits (fewer non-mma instructions a slice):
 * - A, ldmatrix.x4 (gb_mm_lane_a, fragment 0, gemm's and conv2d's): fragment i is GB_MM_ROW16
 *   bytes on (16 rows: the swizzle, (row / 2) % 4, is the same) and k step 1 is the offset XOR
 *   GB_MM_X2 (chunk 2 + c instead of c, and XOR commutes with the swizzle's XOR).
 * - 16-bit B, ldmatrix.x4.trans (gb_mm_lane_b, n16 pair 0): pair jj is the offset XOR jj·GB_MM_X2
 *   (chunk c + 2jj, whose low bits are c's XOR 2jj: c's bit 1 — and for 64×64 warps bit 2 — is 0
 *   at jj = 0; the swizzle, row % 8, is the same) and k16 step ks is ks·GB_MM_B16_KS bytes on
 *   (16 rows of 16 chunks).
 * - tf32 B, 32-bit loads (gb_mm_lane_tf32_b, b_0 of fragment 0): fragment j is the offset XOR
 *   j·GB_MM_X2 (chunk n/4 + 2j, as above; the swizzle, 2(k % 4), is the same) and b_v of k8 step
 *   ks is (8ks + 4v)·GB_MM_TF32_K bytes on (k rows of 32 chunks).
 * Each XOR touches only bits 5-6, so it also commutes with adding the stage's 128-byte aligned
 * base. B's offsets include A's part of the stage. kernels/gemm/test_emu_mma.h and
 * kernels/conv2d/test_emu_mma.h check them against the per-fragment functions above. */
enum {
    GB_MM_ROW16 = 16 * GB_MM_AC * GB_MM_CH,
    GB_MM_X2 = 2 * GB_MM_CH,
    GB_MM_B16_KS = 16 * (GB_MM_BN / 8) * GB_MM_CH,
    GB_MM_TF32_K = (GB_MM_BN / 4) * GB_MM_CH
};
GB_MM_HD unsigned gb_mm_lane_a(int lane, int wr) {
    int r, c;
    gb_mm_ldsm_a(lane, wr, 0, 0, &r, &c);
    return (unsigned)(gb_mm_swz(r, c, GB_MM_AC) * GB_MM_CH);
}
GB_MM_HD unsigned gb_mm_lane_b(int lane, int wc) {
    int r, c;
    gb_mm_ldsm_b(lane, wc, 0, 0, &r, &c);
    return (unsigned)((GB_MM_A_CHUNKS + gb_mm_swz(r, c, GB_MM_BN / 8)) * GB_MM_CH);
}

/* tf32 B: the (k, n) of b_v (v = 0, 1) of lane's n8 fragment j, k8 step ks, warp column wc:
 * (8ks + lane%4 + 4v, wc + 8j + lane/4), as m16n8k8's col operand wants them. */
GB_MM_HD void gb_mm_tf32_b(int lane, int wc, int j, int ks, int v, int *k, int *n) {
    *k = 8 * ks + (lane & 3) + 4 * v;
    *n = wc + 8 * j + (lane >> 2);
}
GB_MM_HD unsigned gb_mm_lane_tf32_b(int lane, int wc) {
    int k, n;
    gb_mm_tf32_b(lane, wc, 0, 0, 0, &k, &n);
    return (unsigned)(GB_MM_A_CHUNKS * GB_MM_CH + gb_mm_at(k, n, GB_MM_BN / 4, 4) * 4);
}

/* Accumulator element v (0..3) of lane in an m16n8 fragment: (row, column), the PTX ISA's
 * c0,c1 = (g, 2t), (g, 2t+1) and c2,c3 = (g+8, 2t), (g+8, 2t+1), g = lane/4, t = lane%4. */
GB_MM_HD void gb_mm_frag_c(int lane, int v, int *r, int *c) {
    *r = (lane >> 2) + 8 * (v >> 1);
    *c = 2 * (lane & 3) + (v & 1);
}

/* acc[fm][nf][GB_MM_PER_FRAG] = 0 (fm, nf: the warp's m16 fragments down, n8 across; any element
 * type, also kernels/gemm/dmma16.cuh's doubles), unrolled: the accumulators are registers,
 * indexed by constants only. i, j, v: the caller's loop counters. GB_MM_ACC_ZERO: 64-row warps. */
#define GB_MM_ACC_ZERO(acc, nf, i, j, v) GB_MM_ACC_ZERO_FM(acc, GB_MM_FM, nf, i, j, v)
#define GB_MM_ACC_ZERO_FM(acc, fm, nf, i, j, v)                                                    \
    do {                                                                                           \
        GB_UNROLL                                                                                  \
        for (i = 0; i < (fm); i++)                                                                 \
            GB_UNROLL                                                                              \
            for (j = 0; j < (nf); j++)                                                             \
                GB_UNROLL                                                                          \
                for (v = 0; v < GB_MM_PER_FRAG; v++)                                               \
                    acc[i][j][v] = 0;                                                              \
    } while (0)

/* A warp's mma of one k step: MMA(acc[i][j], a[i], b[j]) for its fm × nf fragments, unrolled.
 * i, j: the caller's loop counters. GB_MM_ISSUE: 64-row warps (GB_MM_FM). */
#define GB_MM_ISSUE(MMA, acc, a, b, nf, i, j) GB_MM_ISSUE_FM(MMA, acc, a, b, GB_MM_FM, nf, i, j)
#define GB_MM_ISSUE_FM(MMA, acc, a, b, fm, nf, i, j)                                               \
    do {                                                                                           \
        GB_UNROLL                                                                                  \
        for (i = 0; i < (fm); i++)                                                                 \
            GB_UNROLL                                                                              \
            for (j = 0; j < (nf); j++)                                                             \
                MMA(acc[i][j], a[i], b[j]);                                                        \
    } while (0)

/* Blocks of an M×N result in bm×bn tiles: x over column tiles, y over row tiles; 0, or -1
 * beyond the limits. gb_mm_grid: 128×128 tiles. */
GB_MM_HD int gb_mm_grid_in(int M, int N, int bm, int bn, unsigned *gx, unsigned *gy) {
    long x = ((long)N + bn - 1) / bn, y = ((long)M + bm - 1) / bm;
    if (y > 65535 || x > 2147483647L)
        return -1;
    *gx = (unsigned)x;
    *gy = (unsigned)y;
    return 0;
}
GB_MM_HD int gb_mm_grid(int M, int N, unsigned *gx, unsigned *gy) {
    return gb_mm_grid_in(M, N, GB_MM_BM, GB_MM_BN, gx, gy);
}

/* May the kernel of a tier with esize-byte elements read A (lda) and B (ldb) — the addresses
 * as integers — with 16-byte cp.async: both bases 16-byte aligned and both rows a multiple of
 * 16 bytes? */
GB_MM_HD int gb_mm_fits(int esize, size_t a, int lda, size_t b, int ldb) {
    return a % 16 == 0 && b % 16 == 0 && (size_t)lda * esize % 16 == 0 &&
           (size_t)ldb * esize % 16 == 0;
}

/* Does code compiled for compute capability code_sm have the real bodies (a toolkit with
 * them, sm_80 and newer)? Below, traps the host never launches (kernels/gemm/cuda.cu). */
GB_MM_HD int gb_mm_body_at(int code_sm) {
    return gb_wm_body_at(GB_HAVE_MMA, GB_MMA_MIN_ARCH, code_sm);
}

/* --- the PTX, sm_80 and newer ------------------------------------------------------------- */
#if GB_MM_NATIVE
/* 16 bytes from global src to shared dst (a shared-window address), `bytes` of them read, the
 * rest zero-filled; cg: through L2 only (the tile is reused from shared memory, not L1). */
static __device__ __forceinline__ void gb_mm_cp16(unsigned dst, const void *src, int bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
                 "r"(bytes));
}
static __device__ __forceinline__ void gb_mm_commit(void) {
    asm volatile("cp.async.commit_group;\n" ::);
}
/* every group but the newest GB_MM_STAGES − 2 has landed (this thread's copies) */
static __device__ __forceinline__ void gb_mm_wait(void) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(GB_MM_STAGES - 2));
}
static __device__ __forceinline__ void gb_mm_ldsm_x4(unsigned addr, unsigned *d) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(addr));
}
static __device__ __forceinline__ void gb_mm_ldsm_x4_trans(unsigned addr, unsigned *d) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(addr));
}
/* FP32 bits rounded to TF32 (to nearest, ties away: gb_wm_tf32_bits) */
static __device__ __forceinline__ unsigned gb_mm_tf32(unsigned x) {
    unsigned y;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(y) : "f"(__uint_as_float(x)));
    return y;
}
static __device__ __forceinline__ void gb_mm_f16(float *d, const unsigned *a, const unsigned *b) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
static __device__ __forceinline__ void gb_mm_bf16(float *d, const unsigned *a, const unsigned *b) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
static __device__ __forceinline__ void gb_mm_tf32_mma(float *d, const unsigned *a,
                                                      const unsigned *b) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
#endif

#endif
