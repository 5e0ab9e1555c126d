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

/* --- tensor cores from sm_80 (kernels/conv2d/tc_mma.cuh) ----------------------------------- */

/* The kernel gb_conv2d_mma launches; 0 in a build whose CUDA has no mma.sync (before 11.0). */
int gb_conv2d_mma_kernels(const struct gb_kernel_ref **refs);

/* Does the device, at arch's code level, run gb_conv2d_mma's real body: from sm_80, in a build
 * with CUDA 11.0 or newer? */
int gb_conv2d_mma_runs(const struct gb_arch *arch);

/* 1 when the kernel's int arithmetic reaches every index of d in the padded layouts below. */
int gb_conv2d_mma_fits(const struct conv2d_dims *d);

/* Elements of the padded layouts the kernel reads: x as n × h × w × cp (NHWC), the filters as
 * k × r × s × cp (KRSC), cp = c rounded up to a multiple of 8, the padding zero; and where
 * element i of the problem's NCHW x, resp. KCRS filters, sits in them (a gb_dev_place_fn's
 * shape; arg: the struct conv2d_dims). */
size_t gb_conv2d_mma_x_elems(const struct conv2d_dims *d);
size_t gb_conv2d_mma_w_elems(const struct conv2d_dims *d);
size_t gb_conv2d_mma_x_place(size_t i, const void *dims);
size_t gb_conv2d_mma_w_place(size_t i, const void *dims);

/* y (n×k×p×q, NCHW) = conv(x, wt), x and wt __half in the padded layouts above (16-byte
 * aligned), y __half, FP32 accumulation, on mma.sync (tc_mma.cuh). cudaErrorInvalidValue for a d
 * not completed by conv2d_dims_finish or beyond gb_conv2d_mma_fits (or a build without it),
 * cudaErrorNoKernelImageForDevice where gb_conv2d_mma_runs is 0 (nothing launched). */
cudaError_t gb_conv2d_mma(cudaStream_t stream, const struct gb_arch *arch,
                          const struct conv2d_dims *d, const void *x, const void *wt, void *y);

#ifdef __cplusplus
}
#endif

#endif
