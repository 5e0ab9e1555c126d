/* cuda_kernels.h — plain C launchers of the hand-written CUDA kernels (the .cu files of
 * kernels/cuda), callable from C11.
 *
 * Every launcher enqueues its kernel(s) on `stream` and returns cudaGetLastError(): a bad
 * configuration or a sticky error of an earlier launch is reported where it happens. Errors that
 * surface while the kernel runs show up at the next synchronisation, as always with CUDA. A
 * launcher never synchronises, allocates or copies. Matrices are row-major.
 */
#ifndef GPUBENCH_CUDA_KERNELS_H
#define GPUBENCH_CUDA_KERNELS_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "kernels/cuda/conv2d_dims.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the launchers need to know about the device they launch on. */
struct gb_arch {
    int sm;  /* compute capability as 10·major + minor: 20, 35, 86, 120 */
    int sms; /* multiprocessors */
};

/* Fill *arch for the current device (cudaGetDevice + cudaDeviceGetAttribute, no context work
 * beyond what the runtime already did). Call once, in prepare. */
cudaError_t gb_arch_query(struct gb_arch *arch);

/* Lower arch->sm to the architecture our kernels' code was compiled for when that is older:
 * a card that JIT-compiles old PTX (e.g. a build for sm_20 on a K40m) runs kernels whose
 * per-architecture choices (__CUDA_ARCH__) are the old card's, so the launchers must choose as
 * for that card too (cudaFuncGetAttributes ptxVersion). Call after gb_arch_query. */
cudaError_t gb_arch_code_level(struct gb_arch *arch);

/* A kernel of ours, for gb_check_kernel_image (cuda_runtime_helpers.h): its host-side address
 * and its name. */
struct gb_kernel_ref {
    const void *fn;
    const char *name;
};

/* The kernels each launcher family may launch, as a static array; returns its length. An
 * implementation checks all of them in prepare so that a device this build has no code for
 * gives an `unsupported` row rather than a failed launch. */
int gb_vecadd_kernels(const struct gb_kernel_ref **refs);
int gb_sgemm_kernels(const struct gb_kernel_ref **refs);
int gb_conv2d_kernels(const struct gb_kernel_ref **refs);
int gb_mlp_kernels(const struct gb_kernel_ref **refs); /* the MLP also uses gb_sgemm_kernels */

/* c[i] = a[i] + b[i], i in [0, n). Grid-stride kernel; float4 accesses when a, b and c are
 * 16-byte aligned. n == 0 launches nothing. */
cudaError_t gb_vecadd(cudaStream_t stream, const float *a, const float *b, float *c, size_t n);

/* C (M×N, ldc) = op(A) · op(B): op(A) is M×K — A itself (M×K, lda ≥ K) or, with trans_a, the
 * transpose of a stored K×M A (lda ≥ M); op(B) is K×N — B (K×N, ldb ≥ N) or, with trans_b, the
 * transpose of a stored N×K B (ldb ≥ K). trans_a and trans_b together are not supported
 * (cudaErrorInvalidValue). Any M, N, K ≥ 0 (K == 0 gives C = 0; an empty C launches nothing).
 * The tile configuration follows arch (gemm_kernels.cuh): 128×128 from sm_35 on large enough
 * products, 64×64 otherwise. cudaErrorInvalidConfiguration when the grid exceeds the device's
 * limits. */
cudaError_t gb_sgemm(cudaStream_t stream, const struct gb_arch *arch, int trans_a, int trans_b,
                     int M, int N, int K, const float *A, int lda, const float *B, int ldb,
                     float *C, int ldc);

/* The edge of the square block tile gb_sgemm uses for an M×N product on arch: 128 or 64 (for
 * the row note). */
int gb_sgemm_tile_for(const struct gb_arch *arch, int M, int N);

/* y (n×k×p×q) = conv(x (n×c×h×w), wt (k×c×r×s)), NCHW, cross-correlation, any stride and
 * padding per axis; d must have been completed by gb_conv2d_dims_finish (cudaErrorInvalidValue
 * otherwise). Implicit GEMM (conv2d_kernels.cuh). */
cudaError_t gb_conv2d(cudaStream_t stream, const struct gb_arch *arch,
                      const struct gb_conv2d_dims *d, const float *x, const float *wt, float *y);

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

#ifdef __cplusplus
}
#endif

#endif
