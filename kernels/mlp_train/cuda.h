/* cuda.h — the launchers of the MLP step's element-wise and reduction kernels (kernels.cuh),
 * callable from C.
 *
 * Every launcher enqueues its kernel(s) on `stream` and returns cudaGetLastError(): a bad
 * configuration or a sticky error of an earlier launch is reported where it happens. A launcher
 * never synchronises, allocates or copies. Matrices are row-major. C11 and CUDA C alike.
 */
#ifndef GPUBENCH_MLP_CUDA_H
#define GPUBENCH_MLP_CUDA_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "kernels/common/cuda_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The element-wise and reduction kernels of the MLP step (for gb_check_kernels); the step's
 * GEMMs are our SGEMM launcher's. */
int gb_mlp_kernels(const struct gb_kernel_ref **refs);

/* z = max(z + bias, 0) in place; z is rows × cols, bias has cols entries; rows·cols < 2^31. */
cudaError_t gb_bias_relu(cudaStream_t stream, float *z, const float *bias, int rows, int cols);

/* dh[i] = 0 where h[i] <= 0 (h: the ReLU output), in place, i in [0, n). */
cudaError_t gb_relu_backward(cudaStream_t stream, float *dh, const float *h, size_t n);

/* Softmax cross-entropy of rows × cols logits (+ bias per column) against labels (class indices
 * stored as floats): rowloss[i] = −log softmax[i][label_i]; dlogits = (softmax − onehot)·scale.
 * dlogits may be logits (in place). Max-subtracted. */
cudaError_t gb_softmax_xent(cudaStream_t stream, const float *logits, const float *bias,
                            const float *labels, float *dlogits, float *rowloss, int rows, int cols,
                            float scale);

/* out[j] = scale · Σ_i x[i][j] for a rows × cols x (bias gradients; also the mean loss, as the
 * column sum of a rows × 1 matrix). Shared-memory tree, deterministic. */
cudaError_t gb_colsum(cudaStream_t stream, const float *x, float *out, int rows, int cols,
                      float scale);

/* w[i] -= lr · g[i], i in [0, n). */
cudaError_t gb_sgd(cudaStream_t stream, float *w, const float *g, size_t n, float lr);

/* The f64 tier: the kernels of the launchers below (for gb_check_kernels), and the launchers,
 * each the float one above with double data (labels stay float32 class numbers). */
int gb_mlp_kernels64(const struct gb_kernel_ref **refs);
cudaError_t gb_bias_relu64(cudaStream_t stream, double *z, const double *bias, int rows,
                           int cols);
cudaError_t gb_relu_backward64(cudaStream_t stream, double *dh, const double *h, size_t n);
cudaError_t gb_softmax_xent64(cudaStream_t stream, const double *logits, const double *bias,
                              const float *labels, double *dlogits, double *rowloss, int rows,
                              int cols, double scale);
cudaError_t gb_colsum64(cudaStream_t stream, const double *x, double *out, int rows, int cols,
                        double scale);
cudaError_t gb_sgd64(cudaStream_t stream, double *w, const double *g, size_t n, double lr);

/* out (cols × rows, dense) = inᵀ, in rows × cols with leading dimension ld ≥ cols: the
 * transposed operands of the own DGEMM (gb_dgemm takes none). in and out must not overlap. */
cudaError_t gb_transpose64(cudaStream_t stream, const double *in, int rows, int cols, int ld,
                           double *out);

/* The f16 tier (mixed precision, kernels/mlp_train/cublas.c): FP16 values as their bits in
 * unsigned shorts, rounded to nearest even. The kernels of these launchers and the float ones the
 * mixed-precision step also runs (softmax, column sums), for gb_check_kernels. */
int gb_mlp_kernels16(const struct gb_kernel_ref **refs);

/* out[i] = FP16(in[i]), i in [0, n). */
cudaError_t gb_f16_cast(cudaStream_t stream, const float *in, unsigned short *out, size_t n);

/* a = FP16(max(z + bias, 0)); z (FP32) and a are rows × cols, rows·cols < 2^31. */
cudaError_t gb_bias_relu_f16(cudaStream_t stream, const float *z, const float *bias,
                             unsigned short *a, int rows, int cols);

/* dh[i] = 0 where the FP16 activation a[i] is not > 0, in place; dh16[i] = FP16(dh[i]). */
cudaError_t gb_relu_backward_f16(cudaStream_t stream, float *dh, const unsigned short *a,
                                 unsigned short *dh16, size_t n);

/* *bad = 1 when some g[i] is Inf or NaN (left as it is otherwise). */
cudaError_t gb_nonfinite(cudaStream_t stream, const float *g, size_t n, int *bad);

/* w[i] -= lr · g[i] · inv_scale, unless *bad (then nothing changes). */
cudaError_t gb_amp_sgd(cudaStream_t stream, float *w, const float *g, size_t n, float lr,
                       float inv_scale, const int *bad);

#ifdef __cplusplus
}
#endif

#endif
