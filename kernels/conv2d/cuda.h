/* cuda.h — the launchers of the implicit-GEMM convolution kernels (kernels.cuh), callable
 * from C.
 *
 * Every launcher enqueues its kernel(s) on `stream` and returns cudaGetLastError(): a bad
 * configuration or a sticky error of an earlier launch is reported where it happens. A launcher
 * never synchronises, allocates or copies. Matrices are row-major. C11 and CUDA C alike.
 */
#ifndef GPUBENCH_CONV2D_CUDA_H
#define GPUBENCH_CONV2D_CUDA_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "kernels/common/cuda_impl.h"
#include "bench/conv2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels gb_conv2d launches (for gb_check_kernels). */
int gb_conv2d_kernels(const struct gb_kernel_ref **refs);

/* y (n×k×p×q) = conv(x (n×c×h×w), wt (k×c×r×s)), NCHW, cross-correlation, any stride and
 * padding per axis; d must have been completed by conv2d_dims_finish (cudaErrorInvalidValue
 * otherwise). Implicit GEMM (kernels.cuh). */
cudaError_t gb_conv2d(cudaStream_t stream, const struct gb_arch *arch,
                      const struct conv2d_dims *d, const float *x, const float *wt, float *y);

/* gb_conv2d in doubles (the f64 tier): the same shapes and errors. */
cudaError_t gb_conv2d64(cudaStream_t stream, const struct gb_arch *arch,
                        const struct conv2d_dims *d, const double *x, const double *wt,
                        double *y);

/* --- tensor cores (conv2d/cuda_tc, kernels/conv2d/tc.cuh) -------------------------------- */

/* The kernel gb_conv2d_wmma launches (for gb_check_kernels); 0 in a build whose CUDA has no
 * WMMA (before CUDA 9). */
int gb_conv2d_wmma_kernels(const struct gb_kernel_ref **refs);

/* Does the device, at arch's code level (gb_impl_arch), run gb_conv2d_wmma's real body: from
 * sm_70, in a build with CUDA 9 or newer? */
int gb_conv2d_wmma_runs(const struct gb_arch *arch);

/* 1 when the kernel's int arithmetic reaches every index of d (conv2d_dims_int_indexed, and the
 * input offsets its gather walks through, up to a slice past the last channel). */
int gb_conv2d_wmma_fits(const struct conv2d_dims *d);

/* y (n×k×p×q) = conv(x (n×c×h×w), wt (k×c×r×s)), NCHW, cross-correlation, all three __half,
 * FP32 accumulation, on the FP16 tensor cores (tc.cuh). cudaErrorInvalidValue for a d not
 * completed by conv2d_dims_finish or beyond gb_conv2d_wmma_fits (or a build without WMMA),
 * cudaErrorNoKernelImageForDevice where gb_conv2d_wmma_runs is 0 (nothing launched). */
cudaError_t gb_conv2d_wmma(cudaStream_t stream, const struct gb_arch *arch,
                           const struct conv2d_dims *d, const void *x, const void *wt, void *y);

#ifdef __cplusplus
}
#endif

#endif
