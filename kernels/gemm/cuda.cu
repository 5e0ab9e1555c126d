/* cuda.cu — launchers of the SGEMM, DGEMM, FP16, BF16 and TF32 GEMM kernels (kernels.cuh): the SIMT ones of
 * gemm/cuda and the tensor-core ones of gemm/cuda_tc. */
#include <stdio.h>
#include <string.h>

#include "kernels/gemm/cuda.h"
#include "kernels/gemm/kernels.cuh"

typedef void (*gb_gemm_fn)(int, int, int, const float *, int, const float *, int, float *, int);

/* [configuration][nn, tn, nt], configurations indexed by enum gb_gemm_cfg */
static const gb_gemm_fn gb_gemm_fns[2][3] = {
    {gb_sgemm_64x64_nn, gb_sgemm_64x64_tn, gb_sgemm_64x64_nt},
    {gb_sgemm_128x128_nn, gb_sgemm_128x128_tn, gb_sgemm_128x128_nt},
};

int gb_sgemm_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_sgemm_64x64_nn, "gb_sgemm_64x64_nn"},
        {(const void *)gb_sgemm_64x64_tn, "gb_sgemm_64x64_tn"},
        {(const void *)gb_sgemm_64x64_nt, "gb_sgemm_64x64_nt"},
        {(const void *)gb_sgemm_128x128_nn, "gb_sgemm_128x128_nn"},
        {(const void *)gb_sgemm_128x128_tn, "gb_sgemm_128x128_tn"},
        {(const void *)gb_sgemm_128x128_nt, "gb_sgemm_128x128_nt"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

int gb_dgemm_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_dgemm_32x32, "gb_dgemm_32x32"},
        {(const void *)gb_dgemm_64x64, "gb_dgemm_64x64"},
        {(const void *)gb_dgemm_128x128, "gb_dgemm_128x128"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

int gb_dgemm_tile_for(const struct gb_arch *arch, int M, int N) {
    return gb_dgemm_tile(arch->sm, arch->sms, M, N);
}

cudaError_t gb_dgemm(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                     const double *A, int lda, const double *B, int ldb, double *C, int ldc) {
    int t = gb_dgemm_tile(arch->sm, arch->sms, M, N);
    dim3 grid;
    if (M < 0 || N < 0 || K < 0 || lda < K || ldb < N || ldc < N)
        return cudaErrorInvalidValue;
    if (M == 0 || N == 0)
        return cudaGetLastError();
    if (gb_dgemm_grid(t, arch->sm, M, N, &grid) != 0)
        return cudaErrorInvalidConfiguration;
    if (t == 128)
        gb_dgemm_128x128<<<grid, GB_GEMM_THREADS, 0, stream>>>(M, N, K, A, lda, B, ldb, C, ldc);
    else if (t == 64)
        gb_dgemm_64x64<<<grid, GB_GEMM_THREADS, 0, stream>>>(M, N, K, A, lda, B, ldb, C, ldc);
    else
        gb_dgemm_32x32<<<grid, GB_GEMM_THREADS, 0, stream>>>(M, N, K, A, lda, B, ldb, C, ldc);
    return cudaGetLastError();
}

int gb_sgemm_tile_for(const struct gb_arch *arch, int M, int N) {
    return gb_sgemm_tile(gb_sgemm_pick(arch->sm, arch->sms, M, N));
}

cudaError_t gb_sgemm(cudaStream_t stream, const struct gb_arch *arch, int trans_a, int trans_b,
                     int M, int N, int K, const float *A, int lda, const float *B, int ldb,
                     float *C, int ldc) {
    enum gb_gemm_cfg cfg;
    int variant;
    dim3 grid;
    switch (gb_sgemm_plan(arch->sm, arch->sms, trans_a, trans_b, M, N, K, lda, ldb, ldc, &cfg,
                          &variant, &grid)) {
    case 0: break;
    case 1: return cudaGetLastError(); /* empty C */
    case -1: return cudaErrorInvalidValue;
    default: return cudaErrorInvalidConfiguration;
    }
    gb_gemm_fns[cfg][variant]<<<grid, GB_GEMM_THREADS, 0, stream>>>(M, N, K, A, lda, B, ldb, C,
                                                                    ldc);
    return cudaGetLastError();
}

int gb_hgemm_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_HALF
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_hgemm_64x64_nn, "gb_hgemm_64x64_nn"},
        {(const void *)gb_hgemm_128x128_nn, "gb_hgemm_128x128_nn"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_hgemm_has_body(const struct gb_arch *arch) {
    return GB_HAVE_HALF && gb_hgemm_body_at(arch->sm);
}

int gb_hgemm_tile_for(const struct gb_arch *arch, int M, int N) {
    return gb_sgemm_tile_for(arch, M, N); /* the SGEMM's choice (gb_sgemm_pick) */
}

cudaError_t gb_hgemm(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                     const void *A, int lda, const void *B, int ldb, float *C, int ldc) {
#if GB_HAVE_HALF
    enum gb_gemm_cfg cfg;
    int variant;
    dim3 grid;
    switch (
        gb_sgemm_plan(arch->sm, arch->sms, 0, 0, M, N, K, lda, ldb, ldc, &cfg, &variant, &grid)) {
    case 0: break;
    case 1: return cudaGetLastError(); /* empty C */
    case -1: return cudaErrorInvalidValue;
    default: return cudaErrorInvalidConfiguration;
    }
    if (!gb_hgemm_has_body(arch))
        return cudaErrorNoKernelImageForDevice; /* the body here is a trap: never launch it */
    if (cfg == GB_GEMM_128)
        gb_hgemm_128x128_nn<<<grid, GB_GEMM_THREADS, 0, stream>>>(M, N, K, (const __half *)A, lda,
                                                                  (const __half *)B, ldb, C, ldc);
    else
        gb_hgemm_64x64_nn<<<grid, GB_GEMM_THREADS, 0, stream>>>(M, N, K, (const __half *)A, lda,
                                                                (const __half *)B, ldb, C, ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb;
    (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no FP16 types in this toolkit: the tier gate refuses first */
#endif
}

/* --- the tensor-core kernels (gemm/cuda_tc) ------------------------------------------------- */
int gb_hgemm_wmma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_WMMA
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_hgemm_wmma_64x64, "gb_hgemm_wmma_64x64"},
        {(const void *)gb_hgemm_wmma_64x64_nt, "gb_hgemm_wmma_64x64_nt"},
        {(const void *)gb_hgemm_wmma_64x64_tn, "gb_hgemm_wmma_64x64_tn"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_bgemm_wmma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_WMMA_80
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_bgemm_wmma_64x64, "gb_bgemm_wmma_64x64"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_tgemm_wmma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_WMMA_80
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_tgemm_wmma_64x64, "gb_tgemm_wmma_64x64"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_hgemm_wmma_runs(const struct gb_arch *arch) { return gb_hgemm_wmma_body_at(arch->sm); }
int gb_wmma80_runs(const struct gb_arch *arch) { return gb_wmma80_body_at(arch->sm); }

/* The argument checks of the tensor-core launchers (as gb_dgemm's): cudaSuccess, or
 * cudaErrorInvalidValue. */
static inline cudaError_t gb_tc_args(int M, int N, int K, int lda, int ldb, int ldc) {
    return M < 0 || N < 0 || K < 0 || lda < K || ldb < N || ldc < N ? cudaErrorInvalidValue
                                                                      : cudaSuccess;
}

/* What every WMMA launcher decides before its launch: 0 (launch on *grid), 1 (empty C: launch
 * nothing), or a cudaError_t as the negative of its value (bad sizes, grid beyond the limits, a
 * trap body: runs is 0). */
static inline int gb_wmma_plan(int runs, int M, int N, int K, int lda, int ldb, int ldc, dim3 *grid) {
    *grid = dim3(1, 1, 1);
    if (gb_tc_args(M, N, K, lda, ldb, ldc) != cudaSuccess)
        return -(int)cudaErrorInvalidValue;
    if (M == 0 || N == 0)
        return 1;
    if (gb_wm_grid(M, N, &grid->x, &grid->y) != 0)
        return -(int)cudaErrorInvalidConfiguration;
    if (!runs)
        return -(int)cudaErrorNoKernelImageForDevice; /* the body here is a trap: never launch */
    return 0;
}

cudaError_t gb_hgemm_wmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const void *A, int lda, const void *B, int ldb, float *C, int ldc) {
#if GB_HAVE_WMMA
    dim3 grid;
    int plan = gb_wmma_plan(gb_hgemm_wmma_runs(arch), M, N, K, lda, ldb, ldc, &grid);
    if (plan != 0)
        return plan > 0 ? cudaGetLastError() : (cudaError_t)-plan;
    gb_hgemm_wmma_64x64<<<grid, GB_WM_THREADS, 0, stream>>>(M, N, K, (const __half *)A, lda,
                                                            (const __half *)B, ldb, C, ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb;
    (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no WMMA in this toolkit: gemm/cuda_tc refuses first */
#endif
}

/* gb_hgemm_wmma with A or B stored transposed: the _tn or _nt instantiation (wmma.cuh); the
 * leading dimensions are checked against the stored rows (lda ≥ M for a transposed A, ldb ≥ K
 * for a transposed B). */
cudaError_t gb_hgemm_wmma_op(cudaStream_t stream, const struct gb_arch *arch, int ta, int tb,
                             int M, int N, int K, const void *A, int lda, const void *B, int ldb,
                             float *C, int ldc) {
#if GB_HAVE_WMMA
    dim3 grid;
    int plan;
    if (!ta && !tb)
        return gb_hgemm_wmma(stream, arch, M, N, K, A, lda, B, ldb, C, ldc);
    if (ta && tb)
        return cudaErrorInvalidValue; /* no kernel for both: the step never asks */
    /* the plan's checks on the stored shapes: lda ≥ M for Aᵀ (K×M), ldb ≥ K for Bᵀ (N×K) */
    plan = gb_wmma_plan(gb_hgemm_wmma_runs(arch), M, N, K, ta ? K : lda, tb ? N : ldb, ldc, &grid);
    if (plan == 0 && ((ta && lda < M) || (tb && ldb < K)))
        plan = -(int)cudaErrorInvalidValue;
    if (plan != 0)
        return plan > 0 ? cudaGetLastError() : (cudaError_t)-plan;
    if (ta)
        gb_hgemm_wmma_64x64_tn<<<grid, GB_WM_THREADS, 0, stream>>>(
            M, N, K, (const __half *)A, lda, (const __half *)B, ldb, C, ldc);
    else
        gb_hgemm_wmma_64x64_nt<<<grid, GB_WM_THREADS, 0, stream>>>(
            M, N, K, (const __half *)A, lda, (const __half *)B, ldb, C, ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)ta, (void)tb, (void)M, (void)N, (void)K, (void)A, (void)lda;
    (void)B, (void)ldb, (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no WMMA in this toolkit: the rows refuse first */
#endif
}

cudaError_t gb_bgemm_wmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const void *A, int lda, const void *B, int ldb, float *C, int ldc) {
#if GB_HAVE_WMMA_80
    dim3 grid;
    int plan = gb_wmma_plan(gb_wmma80_runs(arch), M, N, K, lda, ldb, ldc, &grid);
    if (plan != 0)
        return plan > 0 ? cudaGetLastError() : (cudaError_t)-plan;
    gb_bgemm_wmma_64x64<<<grid, GB_WM_THREADS, 0, stream>>>(
        M, N, K, (const __nv_bfloat16 *)A, lda, (const __nv_bfloat16 *)B, ldb, C, ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb;
    (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no BF16 WMMA in this toolkit: gemm/cuda_tc refuses first */
#endif
}

cudaError_t gb_tgemm_wmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const float *A, int lda, const float *B, int ldb, float *C, int ldc) {
#if GB_HAVE_WMMA_80
    dim3 grid;
    int plan = gb_wmma_plan(gb_wmma80_runs(arch), M, N, K, lda, ldb, ldc, &grid);
    if (plan != 0)
        return plan > 0 ? cudaGetLastError() : (cudaError_t)-plan;
    gb_tgemm_wmma_64x64<<<grid, GB_WM_THREADS, 0, stream>>>(M, N, K, A, lda, B, ldb, C, ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb;
    (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no TF32 WMMA in this toolkit: gemm/cuda_tc refuses first */
#endif
}

int gb_dgemm_dmma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_DMMA
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_dgemm_dmma_64x64, "gb_dgemm_dmma_64x64"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_dgemm_dmma_runs(const struct gb_arch *arch) { return gb_dgemm_dmma_body_at(arch->sm); }

cudaError_t gb_dgemm_dmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const double *A, int lda, const double *B, int ldb, double *C, int ldc) {
#if GB_HAVE_DMMA
    dim3 grid;
    if (gb_tc_args(M, N, K, lda, ldb, ldc) != cudaSuccess)
        return cudaErrorInvalidValue;
    if (M == 0 || N == 0)
        return cudaGetLastError();
    if (gb_dgemm_grid(GB_DM_BM, arch->sm, M, N, &grid) != 0) /* the tile is square */
        return cudaErrorInvalidConfiguration;
    if (!gb_dgemm_dmma_runs(arch))
        return cudaErrorNoKernelImageForDevice; /* the body here is a trap: never launch it */
    gb_dgemm_dmma_64x64<<<grid, GB_DM_THREADS, 0, stream>>>(M, N, K, A, lda, B, ldb, C, ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb;
    (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no DMMA in this toolkit: gemm/cuda_tc refuses first */
#endif
}

/* --- the sm_80+ mma.sync kernels (mma.cuh; gemm/cuda_tc's f16, bf16, tf32 from 8.0) --------- */
int gb_hgemm_mma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_MMA
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_hgemm_mma_128x128, "gb_hgemm_mma_128x128"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_bgemm_mma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_MMA
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_bgemm_mma_128x128, "gb_bgemm_mma_128x128"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_tgemm_mma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_MMA
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_tgemm_mma_128x128, "gb_tgemm_mma_128x128"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_mma_runs(const struct gb_arch *arch) { return gb_mm_body_at(arch->sm); }

int gb_mma_fits_ptrs(int esize, const void *A, int lda, const void *B, int ldb) {
    return gb_mm_fits(esize, (size_t)A, lda, (size_t)B, ldb);
}

/* What every mma launcher decides before its launch: as gb_wmma_plan, and
 * cudaErrorMisalignedAddress where the operands do not suit 16-byte cp.async. */
static inline int gb_mma_plan(const struct gb_arch *arch, int esize, const void *A, int lda,
                              const void *B, int ldb, int M, int N, int K, int ldc, dim3 *grid) {
    *grid = dim3(1, 1, 1);
    if (gb_tc_args(M, N, K, lda, ldb, ldc) != cudaSuccess)
        return -(int)cudaErrorInvalidValue;
    if (M == 0 || N == 0)
        return 1;
    if (gb_mm_grid(M, N, &grid->x, &grid->y) != 0)
        return -(int)cudaErrorInvalidConfiguration;
    if (!gb_mma_runs(arch))
        return -(int)cudaErrorNoKernelImageForDevice; /* the body here is a trap: never launch */
    if (!gb_mma_fits_ptrs(esize, A, lda, B, ldb))
        return -(int)cudaErrorMisalignedAddress;
    return 0;
}

cudaError_t gb_hgemm_mma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                         const void *A, int lda, const void *B, int ldb, float *C, int ldc) {
#if GB_HAVE_MMA
    dim3 grid;
    int plan = gb_mma_plan(arch, 2, A, lda, B, ldb, M, N, K, ldc, &grid);
    if (plan != 0)
        return plan > 0 ? cudaGetLastError() : (cudaError_t)-plan;
    gb_hgemm_mma_128x128<<<grid, GB_MM_THREADS, 0, stream>>>(M, N, K, (const __half *)A, lda,
                                                             (const __half *)B, ldb, C, ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb;
    (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no mma.sync kernels in this toolkit: cuda_tc refuses first */
#endif
}

cudaError_t gb_bgemm_mma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                         const void *A, int lda, const void *B, int ldb, float *C, int ldc) {
#if GB_HAVE_MMA
    dim3 grid;
    int plan = gb_mma_plan(arch, 2, A, lda, B, ldb, M, N, K, ldc, &grid);
    if (plan != 0)
        return plan > 0 ? cudaGetLastError() : (cudaError_t)-plan;
    gb_bgemm_mma_128x128<<<grid, GB_MM_THREADS, 0, stream>>>(
        M, N, K, (const __nv_bfloat16 *)A, lda, (const __nv_bfloat16 *)B, ldb, C, ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb;
    (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no mma.sync kernels in this toolkit: cuda_tc refuses first */
#endif
}

cudaError_t gb_tgemm_mma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                         const float *A, int lda, const float *B, int ldb, float *C, int ldc) {
#if GB_HAVE_MMA
    dim3 grid;
    int plan = gb_mma_plan(arch, 4, A, lda, B, ldb, M, N, K, ldc, &grid);
    if (plan != 0)
        return plan > 0 ? cudaGetLastError() : (cudaError_t)-plan;
    gb_tgemm_mma_128x128<<<grid, GB_MM_THREADS, 0, stream>>>(M, N, K, A, lda, B, ldb, C, ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb;
    (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no mma.sync kernels in this toolkit: cuda_tc refuses first */
#endif
}

/* --- Hopper: wgmma with TMA (wgmma.cuh), gemm/cuda_tc's f16 and bf16 on sm_90a code --------- */
int gb_hgemm_wgmma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_WGMMA
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_hgemm_wgmma_128x128, "gb_hgemm_wgmma_128x128"},
        {(const void *)gb_hgemm_wgmma_persist_128x256, "gb_hgemm_wgmma_persist_128x256"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_bgemm_wgmma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_WGMMA
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_bgemm_wgmma_128x128, "gb_bgemm_wgmma_128x128"},
        {(const void *)gb_bgemm_wgmma_persist_128x256, "gb_bgemm_wgmma_persist_128x256"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_wgmma_built(void) {
    return GB_HAVE_WGMMA;
}

int gb_wgmma_runs(const struct gb_arch *arch) {
    return gb_wg_body_at(GB_HAVE_WGMMA, arch->sm, arch->arch_specific);
}

int gb_wgmma_tma_ok(const void *A, int lda, const void *B, int ldb) {
    return gb_wg_tma_ok(A, lda) && gb_wg_tma_ok(B, ldb);
}

#if GB_HAVE_WGMMA
/* A driver function through the runtime (no link against libcuda): cudaGetDriverEntryPoint's
 * signature changed (CUDA 12.5 added ...ByVersion and CUDA 13 deprecates the other, which -Werror
 * would refuse), so the call follows CUDART_VERSION. Writes why on failure. */
static int gb_wg_entry(const char *sym, void **fn, char *why, size_t len) {
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSuccess;
#if CUDART_VERSION >= 12050
    const char *call = "cudaGetDriverEntryPointByVersion";
    cudaError_t e = cudaGetDriverEntryPointByVersion(sym, fn, 12000, cudaEnableDefault, &q);
#else
    const char *call = "cudaGetDriverEntryPoint";
    cudaError_t e = cudaGetDriverEntryPoint(sym, fn, cudaEnableDefault, &q);
#endif
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !*fn) {
        snprintf(why, len, "%s(%s): %s%s", call, sym,
                 e != cudaSuccess ? cudaGetErrorName(e) : "the driver has no such function",
                 q == cudaDriverEntryPointVersionNotSufficent ? " (driver too old)" : "");
        return -1;
    }
    return 0;
}

typedef CUresult (*gb_wg_encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                    const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                    const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                    CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
typedef CUresult (*gb_wg_errname_fn)(CUresult, const char **);

/* One operand's map (t: gb_wg_tmap_a/_b's shape of it) into out (CUtensorMap bytes). */
static int gb_wg_encode_one(gb_wg_encode_fn enc, const char *what, int bf16,
                            const struct gb_wg_tmap *t, unsigned char *out, char *why, size_t len) {
    CUtensorMap map;
    cuuint64_t dim[2] = {t->dim[0], t->dim[1]}, stride[1] = {t->stride};
    cuuint32_t box[2] = {t->box[0], t->box[1]}, estride[2] = {1, 1};
    CUresult r =
        enc(&map, bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
            (void *)(size_t)t->base, dim, stride, box, estride, CU_TENSOR_MAP_INTERLEAVE_NONE,
            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        void *fn = NULL;
        const char *name = NULL;
        char ignored[8];
        if (gb_wg_entry("cuGetErrorName", &fn, ignored, sizeof ignored) != 0 ||
            ((gb_wg_errname_fn)fn)(r, &name) != CUDA_SUCCESS)
            name = NULL;
        if (name)
            snprintf(why, len, "cuTensorMapEncodeTiled(%s): %s", what, name);
        else
            snprintf(why, len, "cuTensorMapEncodeTiled(%s): CUresult %d", what, (int)r);
        return -1;
    }
    memcpy(out, &map, sizeof map);
    return 0;
}
#endif

int gb_wgmma_encode(int bf16, int M, int N, int K, const void *A, int lda, const void *B, int ldb,
                    struct gb_wgmma_maps *maps, char *why, size_t len) {
#if GB_HAVE_WGMMA
    void *fn = NULL;
    struct gb_wg_tmap ta, tb;
    if (!gb_wgmma_tma_ok(A, lda, B, ldb)) {
        snprintf(why, len, "TMA needs 16-byte aligned A and B and lda, ldb multiples of 8");
        return -1;
    }
    if (gb_wg_entry("cuTensorMapEncodeTiled", &fn, why, len) != 0)
        return -1;
    gb_wg_tmap_a(&ta, A, M, K, lda);
    gb_wg_tmap_b(&tb, B, K, N, ldb);
    if (gb_wg_encode_one((gb_wg_encode_fn)fn, "A", bf16, &ta, maps->a, why, len) != 0 ||
        gb_wg_encode_one((gb_wg_encode_fn)fn, "B", bf16, &tb, maps->b, why, len) != 0)
        return -1;
    return 0;
#else
    (void)bf16, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)maps;
    snprintf(why, len, "this gpubench was built with a CUDA older than 12.0 (no wgmma, no TMA)");
    return -1;
#endif
}

cudaError_t gb_wgmma_setup(int bf16) {
#if GB_HAVE_WGMMA
    const void *k =
        bf16 ? (const void *)gb_bgemm_wgmma_128x128 : (const void *)gb_hgemm_wgmma_128x128;
    const void *kp = bf16 ? (const void *)gb_bgemm_wgmma_persist_128x256
                          : (const void *)gb_hgemm_wgmma_persist_128x256;
    cudaError_t e =
        cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, GB_WG_SMEM);
    return e != cudaSuccess
               ? e
               : cudaFuncSetAttribute(kp, cudaFuncAttributeMaxDynamicSharedMemorySize, GB_WP_SMEM);
#else
    (void)bf16;
    return cudaErrorInvalidValue;
#endif
}

cudaError_t gb_xgemm_wgmma(cudaStream_t stream, const struct gb_arch *arch, int bf16,
                           const struct gb_wgmma_maps *maps, int M, int N, int K, float *C,
                           int ldc) {
#if GB_HAVE_WGMMA
    dim3 grid(1, 1, 1);
    CUtensorMap ma, mb;
    if (M < 0 || N < 0 || K < 0 || ldc < N)
        return cudaErrorInvalidValue;
    if (M == 0 || N == 0)
        return cudaGetLastError();
    if (gb_wg_grid(M, N, &grid.x, &grid.y) != 0)
        return cudaErrorInvalidConfiguration;
    if (!gb_wgmma_runs(arch))
        return cudaErrorNoKernelImageForDevice; /* the body here is a trap: never launch it */
    memcpy(&ma, maps->a, sizeof ma); /* CUtensorMap is 64-byte aligned: maps need not be */
    memcpy(&mb, maps->b, sizeof mb);
    if (bf16)
        gb_bgemm_wgmma_128x128<<<grid, GB_WG_THREADS, GB_WG_SMEM, stream>>>(ma, mb, M, N, K, C,
                                                                            ldc);
    else
        gb_hgemm_wgmma_128x128<<<grid, GB_WG_THREADS, GB_WG_SMEM, stream>>>(ma, mb, M, N, K, C,
                                                                            ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)bf16, (void)maps, (void)M, (void)N, (void)K, (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no wgmma in this toolkit: gemm/cuda_tc refuses first */
#endif
}

/* --- Hopper: the persistent 128×256 wgmma kernel (wgmma_persist.cuh), the same maps --------- */
int gb_wgmma_persist_pick(int M, int N, int sms) {
    return gb_wp_pick(M, N, sms);
}

cudaError_t gb_xgemm_wgmma_persist(cudaStream_t stream, const struct gb_arch *arch, int bf16,
                                   const struct gb_wgmma_maps *maps, int M, int N, int K,
                                   float *C, int ldc) {
#if GB_HAVE_WGMMA
    CUtensorMap ma, mb;
    int pm, pn;
    long pairs;
    if (M < 0 || N < 0 || K < 0 || ldc < N)
        return cudaErrorInvalidValue;
    if (M == 0 || N == 0)
        return cudaGetLastError();
    if ((pairs = gb_wp_pairs(M, N, &pm, &pn)) < 0)
        return cudaErrorInvalidConfiguration;
    if (!gb_wgmma_runs(arch))
        return cudaErrorNoKernelImageForDevice; /* the body here is a trap: never launch it */
    memcpy(&ma, maps->a, sizeof ma);
    memcpy(&mb, maps->b, sizeof mb);
    /* one block a multiprocessor, whole clusters of 2 (the kernel's __cluster_dims__) */
    const dim3 grid((unsigned)gb_wp_blocks(pairs, arch->sms), 1, 1);
    if (bf16)
        gb_bgemm_wgmma_persist_128x256<<<grid, GB_WG_THREADS, GB_WP_SMEM, stream>>>(ma, mb, M, N,
                                                                                    K, C, ldc);
    else
        gb_hgemm_wgmma_persist_128x256<<<grid, GB_WG_THREADS, GB_WP_SMEM, stream>>>(ma, mb, M, N,
                                                                                    K, C, ldc);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)bf16, (void)maps, (void)M, (void)N, (void)K, (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no wgmma in this toolkit: gemm/cuda_tc refuses first */
#endif
}
