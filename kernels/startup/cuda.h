/* cuda.h — the launchers of the startup kernel (kernels.cuh), callable from C: cuda.cu's
 * (SASS for the build's architectures) and jit.cu's (PTX only). */
#ifndef GPUBENCH_STARTUP_CUDA_H
#define GPUBENCH_STARTUP_CUDA_H

#include <cuda_runtime.h>

#include "kernels/common/cuda_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels gb_startup_dot launches (for gb_check_kernels). */
int gb_startup_kernels(const struct gb_kernel_ref **refs);

/* out[0] = a·b over n floats, on `stream`; returns cudaGetLastError(). */
cudaError_t gb_startup_dot(cudaStream_t stream, const float *a, const float *b, int n, float *out);

/* The same from the PTX-only module (jit.cu), which the driver JIT-compiles when it loads it: at
 * the first launch under lazy module loading. Built where GPUBENCH_STARTUP_JIT_ARCH is defined
 * (the module's architecture, 10·major + minor). */
cudaError_t gb_startup_jit(cudaStream_t stream, const float *a, const float *b, int n, float *out);

#ifdef __cplusplus
}
#endif

#endif
