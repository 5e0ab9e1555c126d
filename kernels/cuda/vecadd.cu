/* vecadd.cu — launcher of the vecadd kernel (vecadd_kernels.cuh) and the device query the
 * launchers share. */
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/vecadd_kernels.cuh"

cudaError_t gb_arch_query(struct gb_arch *arch) {
    int dev, major, minor, sms;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess)
        return err;
    arch->sm = 10 * major + minor;
    arch->sms = sms;
    return cudaSuccess;
}

int gb_vecadd_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {{(const void *)gb_vecadd_kernel, "gb_vecadd_kernel"}};
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

cudaError_t gb_vecadd(cudaStream_t stream, const float *a, const float *b, float *c, size_t n) {
    if (n == 0)
        return cudaGetLastError();
    gb_vecadd_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
