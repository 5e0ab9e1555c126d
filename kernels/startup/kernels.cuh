/* kernels.cuh — the startup rows' one kernel: out[0] = a·b, one block (C subset of CUDA C). It is
 * what a start-up row launches first, and how it proves the device it started works. */
#ifndef GPUBENCH_STARTUP_KERNELS_CUH
#define GPUBENCH_STARTUP_KERNELS_CUH

#include "kernels/common/kernel_common.cuh"

#define GB_STARTUP_THREADS 256

/* a, b: n floats; out: 1 float. Launch with 1 block of GB_STARTUP_THREADS threads. */
__global__ void gb_startup_dot_kernel(const float *a, const float *b, int n, float *out) {
    __shared__ float part[GB_STARTUP_THREADS];
    float s = 0.0f;
    for (int i = (int)threadIdx.x; i < n; i += GB_STARTUP_THREADS)
        s += a[i] * b[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int half = GB_STARTUP_THREADS / 2; half > 0; half /= 2) {
        if ((int)threadIdx.x < half)
            part[threadIdx.x] += part[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[0] = part[0];
}
GB_SIM_KERNEL(gb_startup_dot_kernel, const float *, const float *, int, float *)

#endif
