/* cuda.cu — launchers of the implicit-GEMM convolution kernels (kernels.cuh): float32, float64. */
#include "kernels/conv2d/cuda.h"
#include "kernels/conv2d/kernels.cuh"

int gb_conv2d_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_conv2d_kernel, "gb_conv2d_kernel"},
        {(const void *)gb_conv2d64_kernel, "gb_conv2d64_kernel"}};
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

/* The grid of a launch for d: cudaSuccess, or the error the launchers return. */
static cudaError_t conv2d_grid(const struct gb_arch *arch, const struct conv2d_dims *d,
                               dim3 *grid) {
    struct conv2d_dims chk = *d;
    /* the caller's p and q must be what the other fields imply, and int must index it all */
    if (conv2d_dims_finish(&chk) != 0 || chk.p != d->p || chk.q != d->q ||
        !conv2d_dims_int_indexed(d))
        return cudaErrorInvalidValue;
    if (gb_conv2d_grid(d, arch->sm, grid) != 0)
        return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

cudaError_t gb_conv2d(cudaStream_t stream, const struct gb_arch *arch,
                      const struct conv2d_dims *d, const float *x, const float *wt, float *y) {
    dim3 grid;
    cudaError_t e = conv2d_grid(arch, d, &grid);
    if (e != cudaSuccess)
        return e;
    gb_conv2d_kernel<<<grid, GB_CONV_THREADS, 0, stream>>>(*d, x, wt, y);
    return cudaGetLastError();
}

cudaError_t gb_conv2d64(cudaStream_t stream, const struct gb_arch *arch,
                        const struct conv2d_dims *d, const double *x, const double *wt,
                        double *y) {
    dim3 grid;
    cudaError_t e = conv2d_grid(arch, d, &grid);
    if (e != cudaSuccess)
        return e;
    gb_conv2d64_kernel<<<grid, GB_CONV_THREADS, 0, stream>>>(*d, x, wt, y);
    return cudaGetLastError();
}
