/* cuda.h — the launcher of the vecadd kernel (kernels.cuh), callable from C.
 *
 * Every launcher enqueues its kernel(s) on `stream` and returns cudaGetLastError(): a bad
 * configuration or a sticky error of an earlier launch is reported where it happens. A launcher
 * never synchronises, allocates or copies. Matrices are row-major. C11 and CUDA C alike.
 */
#ifndef GPUBENCH_VECADD_CUDA_H
#define GPUBENCH_VECADD_CUDA_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "kernels/common/cuda_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels gb_vecadd launches (for gb_check_kernels). */
int gb_vecadd_kernels(const struct gb_kernel_ref **refs);

/* c[i] = a[i] + b[i], i in [0, n). Grid-stride kernel; float4 accesses when a, b and c are
 * 16-byte aligned. n == 0 launches nothing. */
cudaError_t gb_vecadd(cudaStream_t stream, const float *a, const float *b, float *c, size_t n);

/* The same in doubles (the f64 tier). */
cudaError_t gb_vecadd64(cudaStream_t stream, const double *a, const double *b, double *c,
                        size_t n);

/* The f16 tier: a, b, c are IEEE halves given as their bit patterns; c = a + b rounded once to
 * half. Pairs of halves when all three are 4-byte aligned. A toolkit before CUDA 7.5 built no
 * such kernel: cudaErrorNotSupported. */
cudaError_t gb_vecadd16(cudaStream_t stream, const unsigned short *a, const unsigned short *b,
                        unsigned short *c, size_t n);

#ifdef __cplusplus
}
#endif

#endif
