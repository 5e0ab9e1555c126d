/* gpu.h — what mlp_train's GPU rows share (gpu.c): their problem buffers on the device
 * (kernels/common/dev_bufs.h), the step of step.h that the `cuda` and `cublas` rows run with
 * their own GEMM, the cuBLAS handle, and the f16 tier of `cublas` (amp.c). */
#ifndef GPUBENCH_MLP_GPU_H
#define GPUBENCH_MLP_GPU_H

#include "harness/core/workload.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/dev_bufs.h"
#include "kernels/mlp_train/step.h"

/* The device buffers every row begins with, in gb_dev_prepare's order: X (the tier's storage:
 * FP16 in the f16 tier), the labels (float32 class numbers), the parameters (uploaded, trained in
 * place, downloaded; float32 master weights in the f16 tier) and the loss. mlp_dev_specs fills
 * their MLP_DEV_N specs from the problem. */
enum { MLP_DEV_X, MLP_DEV_LABELS, MLP_DEV_W1, MLP_DEV_B1, MLP_DEV_W2, MLP_DEV_B2, MLP_DEV_LOSS,
       MLP_DEV_N };
void mlp_dev_specs(struct problem *p, struct gb_dev_spec *spec);

/* A row that runs gb_mlp_step(64) on our launchers and its own GEMM, which gets it as ctx. */
struct mlp_gpu {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    struct gb_mlp_dims d;
    struct gb_mlp_bufs b;
    struct gb_mlp_bufs64 b64;
    struct gb_mlp_ops ops;
    struct gb_mlp_ops64 ops64;
    const char *blas_error; /* the cuBLAS status name of a GEMM that failed, or NULL */
};

/* prepare's share of the step: dims; the buffers (the footprint, `what`, counts `extra` bytes
 * the row allocates itself), the step's scratch with `extra_el` more elements of the tier's type
 * for the row after it; the ops with the row's GEMMs. */
enum status mlp_gpu_prepare(struct impl_ctx *ctx, struct mlp_gpu *g, gb_mlp_gemm *gemm,
                            gb_mlp_gemm64 *gemm64, size_t extra_el, const char *what);

/* impl.run: one step; an error is named in the note. */
enum status mlp_gpu_run(struct impl_ctx *ctx);

#ifdef GPUBENCH_HAVE_CUBLAS
/* A cuBLAS handle on the row's stream (*have = 1 once made): pedantic FP32 where cuBLAS has the
 * mode (11.0), before it the default math (FP32); with tensor_ops, the math that lets FP16
 * products use tensor cores. *math names it for the note. */
enum status mlp_blas_handle(struct impl_ctx *ctx, cublasHandle_t *h, int *have, int tensor_ops,
                            const char **math);

/* C (M×N, ldc) = alpha·op(A)·op(B) + beta·C, all row-major, with cuBLAS (column-major): the
 * column-major view of a row-major matrix is its transpose, so Cᵀ = op(B)ᵀ·op(A)ᵀ is computed,
 * which swaps the operands and keeps each one's transpose flag. */
cublasStatus_t mlp_rm_sgemm(cublasHandle_t h, int ta, int tb, int M, int N, int K, float alpha,
                            const float *A, int lda, const float *B, int ldb, float beta,
                            float *C, int ldc);

/* The f16 tier of mlp_train/cublas (amp.c), which hands an f16 problem's prepare and run to
 * these; upload, download and release are the layer's. */
enum status mlp_amp_prepare(struct impl_ctx *ctx);
enum status mlp_amp_run(struct impl_ctx *ctx);
#endif

#endif
