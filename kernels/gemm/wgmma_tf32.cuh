/* wgmma_tf32.cuh — gemm/cuda_tc's tf32 tier on Hopper's wgmma (sm_90a): C (M×N, ldc, FP32) =
 * A (M×K) · B (K×N), FP32 operands as TF32, FP32 accumulation. The kernels are the 16-bit tiers'
 * sources (read wgmma.cuh and wgmma_persist.cuh first) instantiated for 4-byte elements:
 *   gb_tgemm_wgmma_128x128          wgmma_tile.cuh: m64n128k8.f32.tf32.tf32, both operands
 *                                   K-major;
 *   gb_tgemm_wgmma_persist_128x256  wgmma_persist_tile.cuh: m64n256k8.f32.tf32.tf32, the
 *                                   persistent 2-CTA-cluster kernel, Bᵀ multicast in four
 *                                   64-row boxes (gb_wt_tmap_bt4, gb_wp_desc_bt); its choice,
 *                                   register check and edges are the 16-bit tiers' (tc_wgmma_pick,
 *                                   kernels/gemm/cuda_tc.c);
 *   gb_tgemm_wgmma_prep             the pass before either, which makes the operands they cannot
 *                                   read in place.
 *
 * SASS check: gb_tgemm_wgmma_128x128 HGMMA.64x128x8.F32.TF32 from 900a
 * SASS check: gb_tgemm_wgmma_128x128 STG.E.64 x32 from 900a
 * SASS check: gb_tgemm_wgmma_128x128 UTMACCTL.PF x2 from 900a
 * SASS check: gb_tgemm_wgmma_persist_128x256 HGMMA.64x256x8.F32.TF32 from 900a
 * SASS check: gb_tgemm_wgmma_persist_128x256 STG.E.64 x64 from 900a
 * SASS check: gb_tgemm_wgmma_persist_128x256 UTMACCTL.PF x2 from 900a
 * SASS check: gb_tgemm_wgmma_persist_128x256 no MEMBAR.ALL.GPU in loop from 900a
 * (tests/gpuinfo/sass_check.py: the tf32 shapes' HGMMA in the build's sm_90a code alone, n = 256
 * for the persistent kernel; the paired epilogue, the tensor maps' prefetches and the plain
 * remote arrive of the 16-bit tiers, wgmma.cuh and wgmma_persist.cuh.)
 *
 * Why a pass first, and which layout goes which way. wgmma has a transpose bit for 16-bit
 * operands only: a tf32 operand in shared memory must be K-major (k contiguous), for A and for B.
 * gpubench's gemm row has one layout (bench/gemm.h): A M×K row-major, which is K-major, and B K×N
 * row-major, which is N-major. Swapping the roles (Cᵀ = Bᵀ·Aᵀ, Bᵀ as wgmma's A) does not help
 * here: a role swap keeps each operand's contiguous dimension, so Bᵀ would be M-major as wgmma's
 * A, which tf32 forbids just the same; only a transposition of B does. So:
 *   B (N-major):  always transposed into Bᵀ (Bt, N×K, ldk: K-major), each element rounded to
 *                 TF32 (cvt.rna: to nearest, ties away, as the mma.sync and WMMA tf32 kernels);
 *   A (K-major):  read in place where TMA can (gb_wt_a_in_place: lda a multiple of 4 floats and
 *                 a 16-byte aligned base; the gemm row's A, lda = K, wherever K % 4 = 0);
 *                 otherwise copied as it is, rounded (Ar, M×K, leading dimension ldk);
 * and the kernel computes C = A·Btᵀ (or Ar·Btᵀ) with both descriptors K-major, no transpose flag.
 * ldk is K rounded up to 4 (rows of 16 bytes, TMA's rule), so the tier has no alignment
 * condition on A and B, unlike f16 and bf16 (gb_wg_tma_ok). The pass reads and writes B once
 * (2·N·K·4 bytes), and A too where it is copied ((M + N)·K·8 bytes): reading A in place halves
 * the pass at square shapes. gemm/cuda_tc times it with the row and its note says which.
 *
 * Precision: wgmma reads the FP32 bits of a tf32 operand and does not round them to nearest: it
 * uses the top 19 bits, a truncation toward zero (docs/precision.md, "TF32 on Hopper's wgmma").
 * So Bᵀ and a copied A are rounded (the pass, cvt.rna: truncating them again changes nothing),
 * and A read in place is truncated: relative error below 2^-10 rather than 2^-11. The twin
 * models it (GB_WGT_FLOAT is gb_wt_trunc) and kernels/gemm/test_emu_wgmma_tf32.h checks the
 * difference bit for bit; the tf32 tier's tolerance covers it (harness/core/verify.c).
 * gpubench's other GEMM layouts (Aᵀ or Bᵀ stored, gb_sgemm's tn and nt) are not rows of
 * gemm/cuda_tc's tf32 tier; were they, the pass would transpose A when it is M-major and copy B
 * when it is K-major: the kernel's input is always a K-major pair.
 *
 * Shared memory: stage s holds A (128 m-rows × 128 bytes = 32 tf32 along k) and then Bᵀ (128
 * n-rows × 128 bytes), both K-major with 128-byte swizzled rows, 32 KiB a stage as in the 16-bit
 * tiers; a slice is 32 deep (128 bytes), a wgmma step 8 deep (32 bytes further along the rows:
 * gb_wg_desc_a's step, and gb_wt_desc_b's). Bᵀ's box is one 32 × 128 box (16 KiB), not the
 * 16-bit tiers' two 64×64 ones; each stage's transaction bytes are the same 32 KiB.
 *
 * The twin (GPUBENCH_EMU) is wgmma_tile.cuh's, reading Bᵀ through gb_wt_desc_b and
 * gb_wg_kmajor_offset_e and truncating every operand it reads; the pass runs as written.
 */
#ifndef GPUBENCH_GEMM_WGMMA_TF32_CUH
#define GPUBENCH_GEMM_WGMMA_TF32_CUH

#include "kernels/common/wmma.cuh" /* gb_wm_tf32_bits: cvt.rna's rounding in plain C */
#include "kernels/gemm/wgmma.cuh"
#include "kernels/gemm/wgmma_persist.cuh"

enum {
    GB_WT_BK = GB_WG_ROW_BYTES / 4, /* 32 tf32 a slice: one swizzled row */
    GB_WT_MK = 8,                   /* a wgmma step */
    GB_WT_B_BYTES = GB_WG_BN * GB_WG_ROW_BYTES, /* Bᵀ's 128 n-rows in a stage */
    GB_WT_PREP_TILE = 32,                       /* the pass: 32×32 tiles, 32×8 threads */
    GB_WT_PREP_ROWS = 8
};

/* Consumer-independent descriptor of Bᵀ (K-major, N = 128 rows) for step kk (0 ≤ kk < 4) of
 * the slice in stage s: 8-row groups SBO = 1024 apart, a step 32 bytes along the rows. */
GB_WG_HD unsigned long long gb_wt_desc_b(int s, int kk) {
    return gb_wg_desc((unsigned)(s * GB_WG_STAGE_BYTES + GB_WG_A_BYTES + kk * 32), 16, GB_WG_ATOM);
}

/* The persistent kernel's (wgmma_persist.cuh) consumer-independent descriptor of Bᵀ (K-major,
 * N = 256 rows: its four 64-row boxes back to back) for step kk (0 ≤ kk < 4) of the slice in
 * stage s: as gb_wt_desc_b, in the persistent kernel's 48 KiB stages. */
GB_WG_HD unsigned long long gb_wp_desc_bt(int s, int kk) {
    return gb_wg_desc((unsigned)(s * GB_WP_STAGE_BYTES + GB_WG_A_BYTES + kk * 32), 16, GB_WG_ATOM);
}

/* The copies' leading dimension: K rounded up to 4 elements (16-byte rows); K = 0 gives 4. */
GB_WG_HD int gb_wt_ldk(int K) {
    return K > 0 ? (K + 3) / 4 * 4 : 4;
}

/* Can TMA read A (M×K, lda floats a row) in place: a 16-byte aligned base and rows of whole 16
 * bytes (lda a positive multiple of 4)? cuTensorMapEncodeTiled's rules for the address and the
 * stride; the box and swizzle are the copy's. */
GB_WG_HD int gb_wt_a_in_place(const float *A, int lda) {
    return (((size_t)A) & 15u) == 0 && lda > 0 && lda % 4 == 0;
}

/* The copies' floats: Ar (M×ldk, none where A is read in place) then Bt (N×ldk); *ldk =
 * gb_wt_ldk(K). */
GB_WG_HD size_t gb_wt_copies(int M, int N, int K, int a_in_place, int *ldk) {
    *ldk = gb_wt_ldk(K);
    return ((size_t)(M > 0 && !a_in_place ? M : 0) + (size_t)(N > 0 ? N : 0)) * (size_t)*ldk;
}

/* x as wgmma reads a tf32 operand: its top 19 bits (sign, exponent, 10 mantissa bits), the low
 * 13 dropped, a truncation toward zero; infinities and NaN unchanged. The twin's operand reads. */
GB_WG_HD float gb_wt_trunc(float x) {
    return gb_wm_tf32_cut(x, 0u);
}

/* An operand's tensor map (A or Ar: M×K, Bt: N×K, leading dimension ld): FP32 elements in boxes
 * of 32 (128 bytes, k) × 128 rows, 128-byte swizzle; gb_wt_tmap_bt4 Bᵀ's for the persistent
 * kernel, in boxes of 32 × 64 rows (GB_WG_BOX_N: a quarter of its 256 columns, 8 KiB, multicast
 * two by each block of a cluster). */
GB_WG_HD void gb_wt_tmap(struct gb_wg_tmap *t, const float *p, int rows, int K, int ld) {
    gb_wg_tmap_2d_e(t, p, rows, K, ld, GB_WT_BK, GB_WG_BM, 4u);
}
GB_WG_HD void gb_wt_tmap_bt4(struct gb_wg_tmap *t, const float *p, int N, int K, int ld) {
    gb_wg_tmap_2d_e(t, p, N, K, ld, GB_WT_BK, GB_WG_BOX_N, 4u);
}

/* The pass's grid (GB_WT_PREP_TILE × GB_WT_PREP_ROWS threads a block): x over 32-wide slices of
 * K, y over 32-row tiles of max(M, N) (M = 0 where A is read in place: B's N alone). 0, or -1
 * beyond the limits (or nothing to copy: K = 0). The launch's z is 2 (A, then B) where A is
 * copied, 1 (B) where not. */
GB_WG_HD int gb_wt_prep_grid(int M, int N, int K, unsigned *gx, unsigned *gy) {
    long x = ((long)K + GB_WT_PREP_TILE - 1) / GB_WT_PREP_TILE,
         y = ((long)(M > N ? M : N) + GB_WT_PREP_TILE - 1) / GB_WT_PREP_TILE;
    if (x < 1 || y < 1 || y > 65535 || x > 2147483647L)
        return -1;
    *gx = (unsigned)x;
    *gy = (unsigned)y;
    return 0;
}

#if GB_HAVE_WGMMA
/* The pass: Ar[m][k] = tf32(A[m][k]) (part 0: plain, coalesced both ways) and Bt[n][k] =
 * tf32(B[k][n]) (part 1: through a padded 32×33 tile, so reads along n and writes along k are
 * both coalesced). Part = blockIdx.z where A is copied; Ar NULL (A read in place): a grid of z = 1,
 * part 1 alone. Columns K to ldk of the copies are never written: the tensor maps stop at K and
 * TMA reads zeros beyond it. */
GB_LAUNCH_BOUNDS(GB_WT_PREP_TILE *GB_WT_PREP_ROWS)
__global__ void gb_tgemm_wgmma_prep(int M, int N, int K, const float *__restrict__ A, int lda,
                                    const float *__restrict__ B, int ldb, float *__restrict__ Ar,
                                    float *__restrict__ Bt, int ldk) {
    __shared__ float tile[GB_WT_PREP_TILE][GB_WT_PREP_TILE + 1];
    const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    const int k0 = (int)blockIdx.x * GB_WT_PREP_TILE, r0 = (int)blockIdx.y * GB_WT_PREP_TILE;
    int i;
    if (Ar && blockIdx.z == 0) {
        const int k = k0 + tx;
        for (i = ty; i < GB_WT_PREP_TILE; i += GB_WT_PREP_ROWS)
            if (r0 + i < M && k < K)
                Ar[(size_t)(r0 + i) * ldk + k] = gb_wm_tf32_bits(A[(size_t)(r0 + i) * lda + k]);
        return;
    }
    if (r0 >= N)
        return; /* the whole block: no barrier is skipped by part of it */
    for (i = ty; i < GB_WT_PREP_TILE; i += GB_WT_PREP_ROWS) /* B's rows k0 + i, columns r0 + tx */
        if (k0 + i < K && r0 + tx < N)
            tile[i][tx] = B[(size_t)(k0 + i) * ldb + r0 + tx];
    __syncthreads();
    for (i = ty; i < GB_WT_PREP_TILE; i += GB_WT_PREP_ROWS) /* Bt's rows r0 + i, columns k0 + tx */
        if (r0 + i < N && k0 + tx < K)
            Bt[(size_t)(r0 + i) * ldk + k0 + tx] = gb_wm_tf32_bits(tile[tx][i]);
}
GB_SIM_KERNEL(gb_tgemm_wgmma_prep, int, int, int, const float *, int, const float *, int, float *,
              float *, int)

#define GB_WGT_NAME gb_tgemm_wgmma_128x128
#define GB_WGT_IN float
#define GB_WGT_FLOAT(x) gb_wt_trunc(x) /* what wgmma reads of a tf32 operand */
#define GB_WGT_PTX "tf32"
#define GB_WGT_TF32 1
#include "kernels/gemm/wgmma_tile.cuh"

#define GB_WPT_NAME gb_tgemm_wgmma_persist_128x256
#define GB_WPT_IN float
#define GB_WPT_FLOAT(x) gb_wt_trunc(x) /* what wgmma reads of a tf32 operand */
#define GB_WPT_PTX "tf32"
#define GB_WPT_TF32 1
#include "kernels/gemm/wgmma_persist_tile.cuh"
#endif

#endif
