/* cuda.cu — launchers of the SGEMM, DGEMM and FP16 GEMM kernels (kernels.cuh). */
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
#if GB_HAVE_WMMA
        {(const void *)gb_hgemm_wmma_64x64, "gb_hgemm_wmma_64x64"},
#endif
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

int gb_hgemm_wmma(const struct gb_arch *arch) {
    return GB_HAVE_WMMA && arch->sm >= 70;
}

int gb_hgemm_tile_for(const struct gb_arch *arch, int M, int N) {
    if (gb_hgemm_wmma(arch))
        return GB_WM_BM;
    return gb_sgemm_tile_for(arch, M, N); /* the SGEMM's choice (gb_sgemm_pick) */
}

#if GB_HAVE_WMMA
/* The tensor-core kernel (wmma.cuh): its grid and launch. */
static cudaError_t gb_hgemm_wmma_launch(cudaStream_t stream, int M, int N, int K, const void *A,
                                        int lda, const void *B, int ldb, float *C, int ldc) {
    dim3 grid;
    if (gb_wm_grid(M, N, &grid.x, &grid.y) != 0)
        return cudaErrorInvalidConfiguration;
    grid.z = 1;
    gb_hgemm_wmma_64x64<<<grid, GB_WM_THREADS, 0, stream>>>(M, N, K, (const __half *)A, lda,
                                                            (const __half *)B, ldb, C, ldc);
    return cudaGetLastError();
}
#endif

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
#if GB_HAVE_WMMA
    if (gb_hgemm_wmma(arch))
        return gb_hgemm_wmma_launch(stream, M, N, K, A, lda, B, ldb, C, ldc);
#endif
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
