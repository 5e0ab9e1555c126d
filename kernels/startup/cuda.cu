/* cuda.cu — launcher of the startup kernel (kernels.cuh). */
#include "kernels/startup/cuda.h"
#include "kernels/startup/kernels.cuh"

int gb_startup_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_startup_dot_kernel, "gb_startup_dot_kernel"}};
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

cudaError_t gb_startup_dot(cudaStream_t stream, const float *a, const float *b, int n,
                           float *out) {
    gb_startup_dot_kernel<<<1, GB_STARTUP_THREADS, 0, stream>>>(a, b, n, out);
    return cudaGetLastError();
}
