/* kernels.cuh — the startup rows' kernel: out[0] = a·b, one block (C subset of CUDA C), in two
 * copies of one body:
 *   gb_startup_dot_kernel  built with every other kernel (cuda.cu: SASS for the build's
 *                          architectures): what a start-up row launches first, and how it proves
 *                          the device it started works
 *   gb_startup_jit_kernel  built alone as PTX only (jit.cu, compiled for the build's lowest
 *                          architecture, `-virtual`): the module the ptx_jit rows make the
 *                          driver JIT-compile, with or without its JIT cache
 * jit.cu defines GB_STARTUP_JIT_ONLY and gets the second, cuda.cu the first; the simulated
 * device's emulation (tests/sim, not CUDA) compiles both. */
#ifndef GPUBENCH_STARTUP_KERNELS_CUH
#define GPUBENCH_STARTUP_KERNELS_CUH

#include "kernels/common/kernel_common.cuh"

#define GB_STARTUP_THREADS 256

/* a, b: n floats; out: 1 float; part: GB_STARTUP_THREADS floats of shared memory. One block of
 * GB_STARTUP_THREADS threads. */
static __device__ __forceinline__ void gb_startup_dot_block(const float *a, const float *b, int n,
                                                            float *out, float *part) {
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

#if !defined(GB_STARTUP_JIT_ONLY)
/* Launch with 1 block of GB_STARTUP_THREADS threads. */
__global__ void gb_startup_dot_kernel(const float *a, const float *b, int n, float *out) {
    __shared__ float part[GB_STARTUP_THREADS];
    gb_startup_dot_block(a, b, n, out, part);
}
GB_SIM_KERNEL(gb_startup_dot_kernel, const float *, const float *, int, float *)
#endif

#if defined(GB_STARTUP_JIT_ONLY) || !defined(__CUDACC__)
/* The same, in the PTX-only module. */
__global__ void gb_startup_jit_kernel(const float *a, const float *b, int n, float *out) {
    __shared__ float part[GB_STARTUP_THREADS];
    gb_startup_dot_block(a, b, n, out, part);
}
GB_SIM_KERNEL(gb_startup_jit_kernel, const float *, const float *, int, float *)
#endif

#endif
