/* cuda.h — the MLP step's kernels (kernels.cuh) from C (cuda.cu): gb_mlp_step's ops on their
 * launchers, the own DGEMM's operand transpose and the mixed-precision step's launchers. Every
 * launcher enqueues on gb_stream() and returns cudaGetLastError(), so a bad configuration or a
 * sticky error of an earlier launch is reported where it happens; none synchronises, allocates
 * or copies. Row-major. C11 and CUDA C alike. */
#ifndef GPUBENCH_MLP_CUDA_H
#define GPUBENCH_MLP_CUDA_H

#include <cuda_runtime.h>

#include "kernels/common/cuda_impl.h"
#include "kernels/mlp_train/step.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every kernel of kernels.cuh, for gb_check_kernels: a build has code for all of them or none. */
int gb_mlp_kernels(const struct gb_kernel_ref **refs);

/* gb_mlp_step's ops on our kernels, ctx unused, gemm NULL: a row copies one and sets its GEMM. */
extern const struct gb_mlp_ops gb_mlp_gpu_ops;
extern const struct gb_mlp_ops64 gb_mlp_gpu_ops64;

/* out (cols × rows, dense) = inᵀ, in rows × cols with leading dimension ld ≥ cols; no overlap. */
cudaError_t gb_transpose64(const double *in, int rows, int cols, int ld, double *out);

/* The f16 tier (amp.c); FP16 values as their bits, rounded to nearest even:
 *   gb_f16_cast           out[i] = FP16(in[i]), i in [0, n)
 *   gb_bias_relu_f16      a = FP16(max(z + bias, 0)), z (FP32) and a rows × cols < 2^31
 *   gb_relu_backward_f16  dh[i] = 0 where the FP16 activation a[i] is not > 0, in place, and
 *                         dh16[i] = FP16(dh[i])
 *   gb_nonfinite          *bad = 1 when some g[i] is Inf or NaN (else left as it is)
 *   gb_amp_sgd            w[i] −= lr · g[i] · inv_scale, unless *bad */
cudaError_t gb_f16_cast(const float *in, unsigned short *out, size_t n);
cudaError_t gb_bias_relu_f16(const float *z, const float *bias, unsigned short *a, int rows,
                             int cols);
cudaError_t gb_relu_backward_f16(float *dh, const unsigned short *a, unsigned short *dh16,
                                 size_t n);
cudaError_t gb_nonfinite(const float *g, size_t n, int *bad);
cudaError_t gb_amp_sgd(float *w, const float *g, size_t n, float lr, float inv_scale,
                       const int *bad);

#ifdef __cplusplus
}
#endif

#endif
