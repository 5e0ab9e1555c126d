/* cuda.cu — launcher of the vecadd kernel (kernels.cuh). */
#include "kernels/vecadd/cuda.h"
#include "kernels/vecadd/kernels.cuh"

int gb_vecadd_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_vecadd_kernel, "gb_vecadd_kernel"},
        {(const void *)gb_vecadd64_kernel, "gb_vecadd64_kernel"},
#if GB_VECADD_F16
        {(const void *)gb_vecadd16_kernel, "gb_vecadd16_kernel"},
#endif
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

cudaError_t gb_vecadd(cudaStream_t stream, const float *a, const float *b, float *c, size_t n) {
    if (n == 0)
        return cudaGetLastError();
    gb_vecadd_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}

cudaError_t gb_vecadd64(cudaStream_t stream, const double *a, const double *b, double *c,
                        size_t n) {
    if (n == 0)
        return cudaGetLastError();
    gb_vecadd64_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}

cudaError_t gb_vecadd16(cudaStream_t stream, const unsigned short *a, const unsigned short *b,
                        unsigned short *c, size_t n) {
#if GB_VECADD_F16
    if (n == 0)
        return cudaGetLastError();
    gb_vecadd16_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
#else
    (void)stream, (void)a, (void)b, (void)c, (void)n;
    return cudaErrorNotSupported; /* CUDA before 7.5: no half type to build the kernel with */
#endif
}
