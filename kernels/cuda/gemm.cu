/* gemm.cu — launcher of the SGEMM kernels (gemm_kernels.cuh). */
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/gemm_kernels.cuh"

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

cudaError_t gb_sgemm(cudaStream_t stream, const struct gb_arch *arch, int trans_a, int trans_b,
                     int M, int N, int K, const float *A, int lda, const float *B, int ldb,
                     float *C, int ldc) {
    enum gb_gemm_cfg cfg;
    dim3 grid;
    if ((trans_a && trans_b) || M < 0 || N < 0 || K < 0 || ldc < N ||
        lda < (trans_a ? M : K) || ldb < (trans_b ? K : N))
        return cudaErrorInvalidValue;
    if (M == 0 || N == 0)
        return cudaGetLastError();
    cfg = gb_sgemm_pick(arch->sm, arch->sms, M, N);
    if (gb_sgemm_grid(cfg, arch->sm, M, N, &grid) != 0)
        return cudaErrorInvalidConfiguration;
    gb_gemm_fns[cfg][trans_a ? 1 : trans_b ? 2 : 0]<<<grid, GB_GEMM_THREADS, 0, stream>>>(
        M, N, K, A, lda, B, ldb, C, ldc);
    return cudaGetLastError();
}
