/* wgmma.cuh — GEMM on Hopper's warpgroup tensor cores (wgmma) fed by the Tensor Memory
 * Accelerator (TMA), FP32 C and accumulation: C (M×N, ldc, FP32) = A (M×K, lda) · B (K×N, ldb),
 * row-major, any M, N, K ≥ 0. gemm/cuda_tc's f16 and bf16 tiers on a compute capability 9.0 card
 * that runs this build's sm_90a code (kernels/gemm/cuda_tc.c), one kernel source (wgmma_tile.cuh)
 * instantiated per tier at the end of this file:
 *   gb_hgemm_wgmma_128x128  f16:  __half A and B, wgmma m64n128k16.f32.f16.f16;
 *   gb_bgemm_wgmma_128x128  bf16: __nv_bfloat16 A and B, m64n128k16.f32.bf16.bf16.
 * Both need sm_90a code (CUDA 12.0+, CMAKE_CUDA_ARCHITECTURES with 90a: the default list,
 * cmake/cuda_setup.cmake) and TMA's operand rules: A and B 16-byte aligned, lda and ldb multiples
 * of 8 elements (row strides multiples of 16 bytes). Elsewhere the host runs the sm_80 path
 * (kernels/gemm/cuda_tc.c says why in the row note). The tf32 tier is a third instantiation of
 * the same source with both operands K-major (wgmma reads 32-bit operands K-major only), on
 * copies a pass makes first: kernels/gemm/wgmma_tf32.cuh.
 *
 * SASS check: gb_hgemm_wgmma_128x128 HGMMA from 900a
 * SASS check: gb_bgemm_wgmma_128x128 HGMMA from 900a
 * SASS check: gb_hgemm_wgmma_128x128 STG.E.64 x32 from 900a
 * SASS check: gb_bgemm_wgmma_128x128 STG.E.64 x32 from 900a
 * SASS check: gb_hgemm_wgmma_128x128 UTMACCTL.PF x2 from 900a
 * SASS check: gb_bgemm_wgmma_128x128 UTMACCTL.PF x2 from 900a
 * (tests/gpuinfo/sass_check.py: the build's sm_90a code must hold HGMMA in the kernel, and no
 * other code — plain sm_90, sm_100, sm_120, where the kernel is a trap — may; likewise the
 * paired epilogue's 8-byte stores, one for each of a thread's 32 column pairs (gb_wg_store2),
 * and the two tensor maps' prefetches, which prefetch.tensormap becomes: UTMACCTL.PF.)
 *
 * Scheme: 128×128 block tiles of C; K in 64-deep slices (64 16-bit elements = one 128-byte row,
 * the span of the 128-byte swizzle); GB_WG_STAGES slices in flight in shared memory. Three
 * warpgroups of 128 threads: warpgroup 0 is the producer (one thread issues the TMA copies:
 * A's 128×64 box, B's two 64×64 boxes), warpgroups 1 and 2 the consumers, each owning 64 rows
 * of the tile (one m64n128 accumulator: 64 FP32 registers a thread). A stage's "full" mbarrier
 * completes when its bytes have landed (expect_tx), its "empty" one when both consumers'
 * wgmma on it have retired: a consumer keeps one slice's wgmma group in flight (wait_group 1
 * after committing the next), so the tensor cores work on slice k while slice k + 1 is awaited
 * and issued, and it releases slice k's stage once that group is done; the producer waits for
 * "empty" before reusing a stage. 128 accumulator columns and not 256: 384 threads a block leave
 * 168 registers a thread, and m64n256 would need 128 of them for the accumulator alone.
 *
 * Shared memory: stage s holds A (128 rows × 128 bytes, K-major: row r at r·128) and then B
 * (two 64-column boxes, each 64 k-rows × 128 bytes, N-major: row k at k·128), every 128-byte
 * row swizzled by gb_wg_swizzle128 (TMA writes it so, wgmma reads it so); tiles are 1024-byte
 * aligned, the swizzle's period. The matrix descriptors (gb_wg_desc) give wgmma each operand:
 * A, K-major: 8-row groups SBO = 1024 bytes apart, a 16-deep step 32 bytes further along the
 * row; B, N-major (transpose flag): 8-k-row groups SBO = 1024 apart, the second 64-column box
 * LBO = 8192 further, a 16-deep step 16 k-rows = 2048 bytes further (the canonical layouts of
 * the PTX ISA's "Shared Memory Matrix Layout", 128-byte swizzle).
 *
 * Edges: TMA fills every element of a box outside the matrix with zeros, so an edge tile is a
 * full tile padded with zeros (no padding code) and K need not be a multiple of 64; the
 * epilogue writes each accumulator element (gb_wg_d_elem: the m64nNk16 D fragment layout) only
 * where it is inside C. A box with no element inside the matrix is not issued at all (issue 46:
 * that the card credits such a box's bytes to the mbarrier is documented nowhere, and if it
 * credited less, the barrier would never complete and the kernel would hang): here B's second
 * box where N − n0 ≤ 64 (N mod 128 in 1–64, the last column tile). Its bytes are not expected
 * (gb_wg_stage_tx), and the stale shared memory left in its place feeds only the accumulator
 * columns n0 + 64 … n0 + 127, all at or past N, which the epilogue never stores.
 *
 * Epilogue: a thread's accumulators d[i], d[i + 1] (i even) are adjacent columns of one row, so
 * it stores them as one 8-byte store when C is 8-byte aligned and ldc even (gb_wg_pairs_ok),
 * single floats otherwise and where the pair's second column is past N (gb_wg_store2, shared
 * with the persistent kernel, wgmma_persist.cuh): half the store instructions of one float at a
 * time. Tensor maps: the producer thread prefetches both (prefetch.tensormap, gb_wg_prefetch_tmap)
 * before its first copy, so the first TMA load does not also wait for its descriptor's fetch.
 *
 * Why C++ here: none beyond the inline PTX (wgmma, cp.async.bulk.tensor, mbarrier, behind the
 * native guard GB_WG_NATIVE) and the CUtensorMap kernel parameter (__grid_constant__). Which
 * thread owns which element, the swizzle, the descriptors and the TMA box coordinates are plain
 * C index functions below, which the CPU tests check (kernels/gemm/test_emu.c) and the twin uses.
 *
 * The twin (GPUBENCH_EMU: the emulation tests and the simulated device): the emulation has no
 * mbarriers, asynchronous proxies or warpgroups, so the kernel is not run as written: the twin is
 * the same tile loop made synchronous — thread 0 copies each slice's boxes into the same stage as
 * the producer (gb_wg_tma_box: the box, the zero fill, the same swizzle), counting each box's
 * bytes off the stage's expected count and trapping unless it comes to zero (gb_wg_twin_copy,
 * gb_wg_twin_full: the transactions of the "full" barrier), and NaN where a box is not issued
 * (gb_wg_twin_stale: stale shared memory at its worst), a barrier, then every
 * consumer lane computes its 64 accumulator elements (gb_wg_d_elem) with FP32 FMAs, reading the
 * operands from shared memory through the same descriptors (gb_wg_desc_decode and the layout
 * functions gb_wg_kmajor_offset / gb_wg_mnmajor_offset), a barrier, and the same epilogue code
 * (where a misaligned pair traps, as it faults on a card; the prefetch is a hint with no twin).
 * What the twin proves is the index arithmetic and its consistency (TMA box ↔ swizzle ↔ descriptor
 * ↔ D layout ↔ epilogue); that the hardware reads the descriptors as the twin does is a reading of
 * the PTX ISA, checked only on a card.
 */
#ifndef GPUBENCH_GEMM_WGMMA_CUH
#define GPUBENCH_GEMM_WGMMA_CUH

#include "kernels/common/kernel_common.cuh"
#include "kernels/common/half.cuh"
#include "kernels/gemm/wgmma_tmap.h" /* struct gb_wg_tmap: the twin's tensor map */

#define GB_WGMMA_MIN_ARCH 900 /* sm_90a code alone: see GB_WG_NATIVE */
/* the toolkit: CUDA 12.0 (sm_90a, wgmma, CUtensorMap); the emulation's twin always */
#if GB_HAVE_HALF && (defined(GPUBENCH_EMU) || (defined(CUDART_VERSION) && CUDART_VERSION >= 12000))
#define GB_HAVE_WGMMA 1
#if !defined(GPUBENCH_EMU)
#include <cuda.h> /* CUtensorMap (the kernel's parameter type; no driver call here) */
#include <cuda_bf16.h>
#endif
#else
#define GB_HAVE_WGMMA 0
#endif
/* the real kernel: nvcc compiling sm_90a code (arch-specific features, __CUDA_ARCH_FEAT_SM90_ALL)
 */
#if GB_HAVE_WGMMA && defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GB_WG_NATIVE 1
#else
#define GB_WG_NATIVE 0
#endif
/* the twin: the emulation, whatever GB_EMU_ARCH (the host launches it on a simulated 9.0 card
 * running sm_90a code alone, gb_wg_body_at; the CPU tests on any) */
#if GB_HAVE_WGMMA && defined(GPUBENCH_EMU)
#define GB_WG_TWIN 1
#else
#define GB_WG_TWIN 0
#endif

/* block tile, slice depth, mma step depth, stages; warpgroups (1 producer + 2 consumers) */
enum {
    GB_WG_BM = 128,
    GB_WG_BN = 128,
    GB_WG_BK = 64,
    GB_WG_MK = 16,
    GB_WG_STAGES = 4,
    GB_WG_CONSUMERS = 2,
    GB_WG_THREADS = 128 * (1 + GB_WG_CONSUMERS),
    GB_WG_ACC = GB_WG_BN / 2, /* accumulator registers a consumer thread: 64 rows × N / 128 */
    GB_WG_BOX_N = 64,         /* B's box width: 64 elements = 128 bytes, the swizzle span */
    GB_WG_ROW_BYTES = 128,    /* one swizzled row of a tile */
    GB_WG_ATOM = 1024,        /* 8 rows: the swizzle period and the tiles' alignment */
    GB_WG_A_BYTES = GB_WG_BM * GB_WG_ROW_BYTES,                /* 16384 */
    GB_WG_B_BOX_BYTES = GB_WG_BK * GB_WG_ROW_BYTES,            /* 8192: the LBO of B */
    GB_WG_STAGE_BYTES = GB_WG_A_BYTES + 2 * GB_WG_B_BOX_BYTES, /* 32768 */
    /* the dynamic shared memory a block asks for: the stages, their 2 mbarriers each, and the
     * slack that lets the kernel align the stages to 1024 bytes */
    GB_WG_SMEM = GB_WG_ATOM + GB_WG_STAGES * GB_WG_STAGE_BYTES + 2 * GB_WG_STAGES * 8
};

/* --- index functions: plain C, shared by the kernel, its twin and the CPU tests ------------- */
#if defined(__CUDACC__)
#define GB_WG_HD static __host__ __device__ __forceinline__
#else
#define GB_WG_HD static inline
#endif

/* The 128-byte swizzle (TMA's CU_TENSOR_MAP_SWIZZLE_128B, wgmma's swizzle mode 1) of a shared
 * byte offset from a 1024-byte aligned base: the 16-byte chunk within a 128-byte row (bits 4–6)
 * XOR the row within its 8-row atom (bits 7–9). An involution on each 1024-byte atom. */
GB_WG_HD unsigned gb_wg_swizzle128(unsigned off) {
    return off ^ (((off >> 7) & 7u) << 4);
}

/* The wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format"): bits 0–13 start address,
 * 16–29 leading dimension byte offset, 32–45 stride dimension byte offset, each >> 4 (14 bits:
 * shared memory below 256 KiB); 49–51 the base offset (0: tiles are 1024-byte aligned); 62–63
 * the swizzle mode (1: 128-byte). */
enum { GB_WG_SWIZZLE_128B = 1 };
GB_WG_HD unsigned long long gb_wg_desc(unsigned addr, unsigned lbo, unsigned sbo) {
    return (unsigned long long)((addr & 0x3ffffu) >> 4) |
           (unsigned long long)((lbo & 0x3ffffu) >> 4) << 16 |
           (unsigned long long)((sbo & 0x3ffffu) >> 4) << 32 |
           (unsigned long long)GB_WG_SWIZZLE_128B << 62;
}

/* The fields of a descriptor back, in bytes (the twin's reading, and the tests'). */
struct gb_wg_desc_fields {
    unsigned addr, lbo, sbo, base_offset, swizzle;
};
GB_WG_HD struct gb_wg_desc_fields gb_wg_desc_decode(unsigned long long d) {
    struct gb_wg_desc_fields f;
    f.addr = (unsigned)(d & 0x3fffu) << 4;
    f.lbo = (unsigned)((d >> 16) & 0x3fffu) << 4;
    f.sbo = (unsigned)((d >> 32) & 0x3fffu) << 4;
    f.base_offset = (unsigned)((d >> 49) & 7u);
    f.swizzle = (unsigned)(d >> 62);
    return f;
}

/* Byte offset (before the swizzle) of element (row, k) of a K-major operand with esize-byte
 * elements (2; 4 for tf32, wgmma_tf32.cuh) and 128-byte swizzled rows: row groups of 8 SBO
 * apart, a row 128 bytes, k along the row. */
GB_WG_HD unsigned gb_wg_kmajor_offset_e(struct gb_wg_desc_fields f, int row, int k,
                                        unsigned esize) {
    return f.addr + (unsigned)(row / 8) * f.sbo + (unsigned)(row % 8) * GB_WG_ROW_BYTES +
           (unsigned)k * esize;
}
GB_WG_HD unsigned gb_wg_kmajor_offset(struct gb_wg_desc_fields f, int row, int k) {
    return gb_wg_kmajor_offset_e(f, row, k, 2u);
}

/* Byte offset (before the swizzle) of element (k, n) of an MN-major operand (wgmma's transpose
 * flag) with 2-byte elements, 128-byte swizzle: 64 n a row of 128 bytes, k-row groups of 8 SBO
 * apart, 64-column groups LBO apart. */
GB_WG_HD unsigned gb_wg_mnmajor_offset(struct gb_wg_desc_fields f, int k, int n) {
    return f.addr + (unsigned)(n / GB_WG_BOX_N) * f.lbo + (unsigned)(k / 8) * f.sbo +
           (unsigned)(k % 8) * GB_WG_ROW_BYTES + (unsigned)(n % GB_WG_BOX_N) * 2u;
}

/* The descriptors of consumer c's (0, 1) operands for mma step kk (0 ≤ kk < GB_WG_BK /
 * GB_WG_MK) of the slice in stage s; offsets from the 1024-byte aligned base of the stages. */
GB_WG_HD unsigned long long gb_wg_desc_a(int s, int c, int kk) {
    return gb_wg_desc((unsigned)(s * GB_WG_STAGE_BYTES + c * 64 * GB_WG_ROW_BYTES + kk * 32), 16,
                      GB_WG_ATOM);
}
GB_WG_HD unsigned long long gb_wg_desc_b(int s, int kk) {
    return gb_wg_desc(
        (unsigned)(s * GB_WG_STAGE_BYTES + GB_WG_A_BYTES + kk * GB_WG_MK * GB_WG_ROW_BYTES),
        GB_WG_B_BOX_BYTES, GB_WG_ATOM);
}

/* Accumulator element i (0 ≤ i < GB_WG_ACC) of lane `lane` of warp w (0–3) of a consumer
 * warpgroup, in the m64nNk16 D layout: (r, c) within the warpgroup's 64×N tile. g = lane / 4,
 * t = lane % 4; d[4j], d[4j+1] at row 16w + g, columns 8j + 2t, +1; d[4j+2], d[4j+3] 8 rows below.
 */
GB_WG_HD void gb_wg_d_elem(int w, int lane, int i, int *r, int *c) {
    int j = i / 4, q = i % 4;
    *r = 16 * w + lane / 4 + (q >= 2 ? 8 : 0);
    *c = 8 * j + 2 * (lane % 4) + (q & 1);
}

/* The epilogue's paired store (every wgmma kernel: wgmma_tile.cuh, wgmma_persist_tile.cuh).
 * d[i] and d[i + 1] (i even) of gb_wg_d_elem are columns c and c + 1 (c even) of one row, so a
 * thread stores them as one 8-byte store where C is 8-byte aligned and ldc even (then every
 * even column is 8-byte aligned): half the store instructions of one float at a time. */
GB_WG_HD int gb_wg_pairs_ok(const float *C, int ldc) {
    return ((size_t)C & 7u) == 0 && ldc % 2 == 0;
}

/* The emulation test counts the twin's paired stores through this hook (kernels/gemm/test_emu.c
 * defines it before including the kernels); elsewhere it is nothing. */
#ifndef GB_WG_TWIN_PAIRED
#define GB_WG_TWIN_PAIRED(p) ((void)0)
#endif

/* Accumulators (v0, v1) at (r, c), (r, c + 1) of C where inside it (c even): one 8-byte store
 * where pairs_ok (gb_wg_pairs_ok) and both are inside, single floats otherwise. In the twin a
 * misaligned pair traps, as the 8-byte store faults on a card (misaligned address). */
GB_WG_HD void gb_wg_store2(float *C, int ldc, int M, int N, int r, int c, float v0, float v1,
                           int pairs_ok) {
    float *p;
    if (r >= M)
        return;
    p = C + (size_t)r * ldc + c;
    if (pairs_ok && c + 1 < N) {
        float2 v;
#if defined(GPUBENCH_EMU)
        if ((size_t)p & 7u)
            __trap();
        GB_WG_TWIN_PAIRED(p);
#endif
        v.x = v0;
        v.y = v1;
        *(float2 *)p = v;
        return;
    }
    if (c < N)
        p[0] = v0;
    if (c + 1 < N)
        p[1] = v1;
}

/* Blocks of an M×N result: x over column tiles, y over row tiles; 0, or -1 beyond the limits. */
GB_WG_HD int gb_wg_grid(int M, int N, unsigned *gx, unsigned *gy) {
    long x = ((long)N + GB_WG_BN - 1) / GB_WG_BN, y = ((long)M + GB_WG_BM - 1) / GB_WG_BM;
    if (y > 65535 || x > 2147483647L)
        return -1;
    *gx = (unsigned)x;
    *gy = (unsigned)y;
    return 0;
}

/* The mbarrier phase parity a consumer waits for on stage (kt % GB_WG_STAGES)'s "full" barrier
 * for slice kt; the producer waits for the "empty" one of the previous use (kt ≥ GB_WG_STAGES). */
GB_WG_HD int gb_wg_full_parity(int kt) {
    return (kt / GB_WG_STAGES) & 1;
}
GB_WG_HD int gb_wg_empty_parity(int kt) {
    return (kt / GB_WG_STAGES - 1) & 1;
}

/* Can TMA read a 2-byte operand at p with leading dimension ld (elements)? Its global address
 * must be 16-byte aligned and its row stride a multiple of 16 bytes (cuTensorMapEncodeTiled's
 * rules); the host takes the sm_80 path otherwise. */
GB_WG_HD int gb_wg_tma_ok(const void *p, int ld) {
    return (((size_t)p) & 15u) == 0 && ld % 8 == 0;
}

/* The maps of the operands as the host encodes them (kernels/gemm/cuda.cu) and the CPU tests
 * build them: A (M×K, lda) in boxes of GB_WG_BK × GB_WG_BM, B (K×N, ldb) in boxes of
 * GB_WG_BOX_N × GB_WG_BK; 2-byte elements, 128-byte swizzle. Sizes below 1 are given as 1 (a
 * tensor map has no empty dimension; K = 0 launches no copy). */
GB_WG_HD void gb_wg_tmap_2d_e(struct gb_wg_tmap *t, const void *p, int rows, int cols, int ld,
                              unsigned box_cols, unsigned box_rows, unsigned esize) {
    int i;
    t->base = (unsigned long long)(size_t)p;
    t->dim[0] = (unsigned long long)(cols > 0 ? cols : 1);
    t->dim[1] = (unsigned long long)(rows > 0 ? rows : 1);
    t->stride = (unsigned long long)ld * esize;
    t->box[0] = box_cols;
    t->box[1] = box_rows;
    t->elem_bytes = esize;
    t->swizzle = GB_WG_ROW_BYTES;
    for (i = 0; i < 10; i++)
        t->pad[i] = 0;
}
GB_WG_HD void gb_wg_tmap_2d(struct gb_wg_tmap *t, const void *p, int rows, int cols, int ld,
                            unsigned box_cols, unsigned box_rows) {
    gb_wg_tmap_2d_e(t, p, rows, cols, ld, box_cols, box_rows, 2u);
}
GB_WG_HD void gb_wg_tmap_a(struct gb_wg_tmap *t, const void *A, int M, int K, int lda) {
    gb_wg_tmap_2d(t, A, M, K, lda, GB_WG_BK, GB_WG_BM);
}
GB_WG_HD void gb_wg_tmap_b(struct gb_wg_tmap *t, const void *B, int K, int N, int ldb) {
    gb_wg_tmap_2d(t, B, K, N, ldb, GB_WG_BOX_N, GB_WG_BK);
}

/* The twin of a TMA tile copy (cp.async.bulk.tensor.2d): the box of t at element coordinates
 * (x inner, y rows) into dst (the box's rows, each box[0]·elem_bytes = 128 bytes, swizzled by
 * their offset from the 1024-byte aligned base; dst_off is dst's offset from it), zero where the
 * box is outside the tensor (negative coordinates or beyond dim). */
GB_WG_HD void gb_wg_tma_box(const struct gb_wg_tmap *t, int x, int y, unsigned char *base,
                            unsigned dst_off) {
    const unsigned char *g = (const unsigned char *)(size_t)t->base;
    unsigned i, j, b;
    for (j = 0; j < t->box[1]; j++)
        for (i = 0; i < t->box[0]; i++) {
            long gx = (long)x + (long)i, gy = (long)y + (long)j;
            int inside = gx >= 0 && gy >= 0 && (unsigned long long)gx < t->dim[0] &&
                         (unsigned long long)gy < t->dim[1];
            unsigned off = dst_off + (j * t->box[0] + i) * t->elem_bytes;
            for (b = 0; b < t->elem_bytes; b++)
                base[t->swizzle == 128 ? gb_wg_swizzle128(off + b) : off + b] =
                    inside ? g[(size_t)gy * t->stride + (size_t)gx * t->elem_bytes + b] : 0;
        }
}

/* Does a TMA box whose first element along a dimension is at `first` (≥ 0) hold any element of
 * that dimension's `dim`? A box that holds none is not issued (the "Edges" above). */
GB_WG_HD int gb_wg_box_in(long first, long dim) {
    return first < dim;
}

/* The bytes a 16-bit tier's "full" barrier expects for a slice of the 128×128 kernel's column
 * tile n0 (0 ≤ n0 < N): A's box (its rows start at m0 < M: inside), B's box at n0 (inside) and
 * B's box at n0 + 64 where it holds a column of the matrix. TMA credits a box's every byte, the
 * zeros of its part outside the matrix included. */
GB_WG_HD unsigned gb_wg_stage_tx(int N, int n0) {
    return GB_WG_A_BYTES +
           GB_WG_B_BOX_BYTES * (1u + (unsigned)gb_wg_box_in((long)n0 + GB_WG_BOX_N, N));
}

#if GB_WG_TWIN
/* The twin of the transactions of a stage's "full" barrier: *left is what expect_tx set; a box
 * the producer issues is copied (gb_wg_tma_box) and its whole box's bytes come off *left, as
 * complete_tx takes them off on a card. */
GB_WG_HD void gb_wg_twin_copy(const struct gb_wg_tmap *t, int x, int y, unsigned char *base,
                              unsigned dst_off, long *left) {
    gb_wg_tma_box(t, x, y, base, dst_off);
    *left -= (long)t->box[0] * (long)t->box[1] * (long)t->elem_bytes;
}
/* A box the producer does not issue: its place in the stage keeps whatever an earlier slice left
 * there, here NaN in every 16-bit (and 32-bit) element, so that an accumulator the epilogue stores
 * and that read it comes out NaN and fails the test. */
GB_WG_HD void gb_wg_twin_stale(const struct gb_wg_tmap *t, unsigned char *base, unsigned dst_off) {
    unsigned i, n = t->box[0] * t->box[1] * t->elem_bytes;
    for (i = 0; i < n; i++)
        base[dst_off + i] = 0xff;
}
/* The phase completes, releasing the consumers, only when the copies delivered exactly the
 * expected bytes: left over, a card's barrier never completes and the kernel hangs (with its
 * cluster peer); overdrawn, the phase completes before a box has landed. The twin traps on both. */
GB_WG_HD void gb_wg_twin_full(long left) {
    if (left != 0)
        __trap();
}
#endif

/* Does code for compute capability code_sm (arch_specific: sm_90a code) have the real body? */
GB_WG_HD int gb_wg_body_at(int have, int code_sm, int arch_specific) {
    return have && code_sm == GB_WGMMA_MIN_ARCH / 10 && arch_specific;
}

/* The kernel's tensor map parameters: a CUtensorMap in the kernel's own space (__grid_constant__,
 * whose address TMA is given; compute_70 and newer have it, and only sm_90a code reads it), the
 * twin's struct in the emulation. */
#if defined(GPUBENCH_EMU)
#define GB_WG_TMAP_TYPE struct gb_wg_tmap
#define GB_WG_TMAP_PARAM(name) struct gb_wg_tmap name
#elif !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
#define GB_WG_TMAP_PARAM(name) const __grid_constant__ CUtensorMap name
#else
#define GB_WG_TMAP_PARAM(name) const CUtensorMap name
#endif

#if GB_WG_NATIVE
/* --- sm_90a: shared addresses, mbarriers, TMA and wgmma's fences (inline PTX) -------------- */
static __device__ __forceinline__ unsigned gb_wg_smem(const void *p) {
    return (unsigned)__cvta_generic_to_shared(p);
}
static __device__ __forceinline__ void gb_wg_bar_init(unsigned bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
/* the initialised barriers visible to the TMA unit (the async proxy) */
static __device__ __forceinline__ void gb_wg_bar_fence_init(void) {
    asm volatile("fence.mbarrier_init.release.cluster;\n"
                 "fence.proxy.async.shared::cta;" ::
                     : "memory");
}
/* arrive, and expect `bytes` of transactions before the phase completes (the producer) */
static __device__ __forceinline__ void gb_wg_bar_expect(unsigned bar, unsigned bytes) {
    asm volatile(
        "{\n.reg .b64 st;\nmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n}" ::"r"(bar),
        "r"(bytes)
        : "memory");
}
static __device__ __forceinline__ void gb_wg_bar_arrive(unsigned bar) {
    asm volatile("{\n.reg .b64 st;\nmbarrier.arrive.shared::cta.b64 st, [%0];\n}" ::"r"(bar)
                 : "memory");
}
/* wait until the phase of the given parity has completed */
static __device__ __forceinline__ void gb_wg_bar_wait(unsigned bar, int parity) {
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra.uni wait;\n"
                 "}" ::"r"(bar),
                 "r"(parity)
                 : "memory");
}
/* the box of map at (x inner, y rows) into shared memory at dst; completes bytes on bar */
static __device__ __forceinline__ void gb_wg_tma_2d(unsigned dst, const void *map, int x, int y,
                                                    unsigned bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
                 "l"((unsigned long long)map), "r"(x), "r"(y), "r"(bar)
                 : "memory");
}
/* bring a kernel parameter's tensor map into the TMA unit's descriptor cache before its first
 * copy (prefetch.tensormap on the map's generic address; a hint, no wait). PTX ISA 8.0, sm_90:
 * CUDA 11.8's ptxas rejects it ("Unknown modifier '.tensormap'"); GB_WG_NATIVE needs CUDA 12.0. */
static __device__ __forceinline__ void gb_wg_prefetch_tmap(const void *map) {
    asm volatile("prefetch.tensormap [%0];" ::"l"((unsigned long long)map) : "memory");
}
static __device__ __forceinline__ void gb_wg_fence(void) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
static __device__ __forceinline__ void gb_wg_commit(void) {
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
/* wait until at most 1 (0) of this warpgroup's committed groups are still in flight */
static __device__ __forceinline__ void gb_wg_wait1(void) {
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
}
static __device__ __forceinline__ void gb_wg_wait0(void) {
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
}
#endif

/* --- the kernels, one source (wgmma_tile.cuh) per tier ------------------------------------- */
#if GB_HAVE_WGMMA
#define GB_WGT_NAME gb_hgemm_wgmma_128x128
#define GB_WGT_IN __half
#define GB_WGT_FLOAT(x) __half2float(x)
#define GB_WGT_PTX "f16"
#include "kernels/gemm/wgmma_tile.cuh"

#define GB_WGT_NAME gb_bgemm_wgmma_128x128
#define GB_WGT_IN __nv_bfloat16
#define GB_WGT_FLOAT(x) __bfloat162float(x)
#define GB_WGT_PTX "bf16"
#include "kernels/gemm/wgmma_tile.cuh"
#endif

#endif
