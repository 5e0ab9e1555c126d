/* cuda.cu — launcher of the implicit-GEMM convolution kernel (kernels.cuh). */
#include "kernels/conv2d/cuda.h"
#include "kernels/conv2d/kernels.cuh"

int gb_conv2d_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {{(const void *)gb_conv2d_kernel, "gb_conv2d_kernel"}};
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

cudaError_t gb_conv2d(cudaStream_t stream, const struct gb_arch *arch,
                      const struct gb_conv2d_dims *d, const float *x, const float *wt, float *y) {
    struct gb_conv2d_dims chk = *d;
    dim3 grid;
    /* the caller's p and q must be what the other fields imply */
    if (gb_conv2d_dims_finish(&chk) != 0 || chk.p != d->p || chk.q != d->q)
        return cudaErrorInvalidValue;
    if (gb_conv2d_grid(d, arch->sm, &grid) != 0)
        return cudaErrorInvalidConfiguration;
    gb_conv2d_kernel<<<grid, GB_CONV_THREADS, 0, stream>>>(*d, x, wt, y);
    return cudaGetLastError();
}
