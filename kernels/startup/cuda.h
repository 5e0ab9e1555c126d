/* cuda.h — the launcher of the startup kernel (kernels.cuh), callable from C. */
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

#ifdef __cplusplus
}
#endif

#endif
