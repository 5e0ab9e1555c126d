/* kernels.cuh — c = a + b on the GPU: a grid-stride kernel (C subset of CUDA C).
 *
 * Shared by the nvcc build (vecadd.cu adds the launcher) and the CPU emulation of the tests.
 */
#ifndef GPUBENCH_VECADD_KERNELS_CUH
#define GPUBENCH_VECADD_KERNELS_CUH

#include "kernels/common/kernel_common.cuh"

/* c[i] = a[i] + b[i] for i in [0, n). Any grid: each thread strides by the whole grid, so one
 * launch covers any n (and Fermi's 65535-block limit never binds). When a, b and c are all
 * 16-byte aligned the body moves float4s (one 128-bit load per operand, fewer instructions per
 * byte on every architecture) and the last n % 4 elements go through the scalar loop. */
__global__ void gb_vecadd_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                 float *__restrict__ c, size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t done = 0; /* elements handled by the vector loop */
    size_t i;
    if (GB_ALIGNED16(a) && GB_ALIGNED16(b) && GB_ALIGNED16(c)) {
        const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b;
        float4 *c4 = (float4 *)c;
        size_t n4 = n / 4;
        for (i = first; i < n4; i += stride) {
            float4 x = a4[i], y = b4[i], z;
            z.x = x.x + y.x;
            z.y = x.y + y.y;
            z.z = x.z + y.z;
            z.w = x.w + y.w;
            c4[i] = z;
        }
        done = n4 * 4;
    }
    for (i = done + first; i < n; i += stride)
        c[i] = a[i] + b[i];
}
GB_SIM_KERNEL(gb_vecadd_kernel, const float *, const float *, float *, size_t)

/* The f64 tier: c[i] = a[i] + b[i] in doubles, grid-stride, one element per step (a double
 * is already an 8-byte access; the float4 trick buys little more for a memory-bound add). */
__global__ void gb_vecadd64_kernel(const double *__restrict__ a, const double *__restrict__ b,
                                   double *__restrict__ c, size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}
GB_SIM_KERNEL(gb_vecadd64_kernel, const double *, const double *, double *, size_t)

#endif
