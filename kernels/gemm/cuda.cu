/* cuda.cu — launchers of the SGEMM, DGEMM, FP16, BF16 and TF32 GEMM kernels (kernels.cuh): the SIMT ones of
 * gemm/cuda and the tensor-core ones of gemm/cuda_tc. */
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
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

int gb_dgemm_tile_for(const struct gb_arch *arch) { return gb_dgemm_tile(arch->sm); }

cudaError_t gb_dgemm(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                     const double *A, int lda, const double *B, int ldb, double *C, int ldc) {
    int t = gb_dgemm_tile(arch->sm);
    dim3 grid;
    if (M < 0 || N < 0 || K < 0 || lda < K || ldb < N || ldc < N)
        return cudaErrorInvalidValue;
    if (M == 0 || N == 0)
        return cudaGetLastError();
    if (gb_dgemm_grid(t, arch->sm, M, N, &grid) != 0)
        return cudaErrorInvalidConfiguration;
    if (t == 64)
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
