/* cuda.c — mlp_train/cuda: one SGD step on our own kernels: step.h's step (gpu.c) with our SGEMM
 * (kernels/gemm) as its GEMM. f64: our DGEMM, which takes untransposed operands only, so a
 * transposed operand is first written transposed into `tr` by our own kernel (gb_transpose64):
 * one read and one write of the operand, small next to a product of it. */
#include <stdio.h>

#include "bench/mlp_train.h"
#include "kernels/gemm/cuda.h"
#include "kernels/mlp_train/cuda.h"
#include "kernels/mlp_train/gpu.h"

struct mlp_cuda {
    struct mlp_gpu g; /* first: the layer, gpu.c and the GEMMs below take the state as it */
    struct gb_arch arch;
    double *tr; /* f64: the largest operand the step transposes, after the step's scratch */
};

static int gemm(void *c, int ta, int tb, int M, int N, int K, const float *A, int lda,
                const float *B, int ldb, float *C, int ldc) {
    const struct mlp_cuda *s = c;
    return (int)gb_sgemm(gb_stream(), &s->arch, ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
}

/* The step never transposes both operands, and each product has consumed tr before the next
 * one's transpose is enqueued on the stream. */
static int gemm64(void *c, int ta, int tb, int M, int N, int K, const double *A, int lda,
                  const double *B, int ldb, double *C, int ldc) {
    const struct mlp_cuda *s = c;
    cudaError_t e = cudaSuccess;
    if (ta && tb)
        return (int)cudaErrorInvalidValue;
    if (ta) /* A is stored K × M */
        e = gb_transpose64(A, K, M, lda, s->tr), A = s->tr, lda = K;
    else if (tb) /* B is stored N × K */
        e = gb_transpose64(B, N, K, ldb, s->tr), B = s->tr, ldb = N;
    if (e != cudaSuccess)
        return (int)e;
    return (int)gb_dgemm(gb_stream(), &s->arch, M, N, K, A, lda, B, ldb, C, ldc);
}

static enum status mlp_cuda_prepare(struct impl_ctx *ctx) {
    const long *v = ctx->p->shape.v;
    const int f64 = ctx->p->dtype == DT_F64;
    const size_t B = (size_t)v[MLP_KEY_BATCH], I = (size_t)v[MLP_KEY_IN],
                 H = (size_t)v[MLP_KEY_HIDDEN], O = (size_t)v[MLP_KEY_OUT];
    const size_t ops[4] = {H * I, B * H, O * H, B * O}; /* what f64 transposes: W1, dH, W2, dZ */
    size_t tr = 0;
    struct mlp_cuda *s;
    enum status st;
    for (int k = 0; f64 && k < 4; k++)
        tr = ops[k] > tr ? ops[k] : tr;
    if ((st = gb_check_kernels(ctx, f64 ? gb_dgemm_kernels : gb_sgemm_kernels)) != ST_OK ||
        (st = gb_check_kernels(ctx, f64 ? gb_mlp_kernels64 : gb_mlp_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    if ((st = gb_impl_arch(ctx, &s->arch)) != ST_OK ||
        (st = mlp_gpu_prepare(ctx, &s->g, gemm, gemm64, tr,
                              "X, labels, parameters, loss, activations and gradients")) != ST_OK)
        return st;
    s->tr = (double *)s->g.dev.ptr[MLP_DEV_N] + gb_mlp_scratch_floats(&s->g.d);
    const int t = f64 ? gb_dgemm_tile_for(&s->arch) : gb_sgemm_tile_for(&s->arch, (int)B, (int)H);
    if (f64)
        snprintf(ctx->note, sizeof ctx->note,
                 "own DGEMM %dx%d tiles, transposed operands copied by an own kernel first", t, t);
    else
        snprintf(ctx->note, sizeof ctx->note, "own SGEMM %dx%d tiles for X*W1^T", t, t);
    return ST_OK;
}

const struct impl mlp_train_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own SGEMM for the 5 GEMMs + own bias/ReLU, softmax-xent, reduction, SGD kernels; "
               "f64: own DGEMM",
    .prepare = mlp_cuda_prepare,
    .upload = gb_dev_upload,
    .run = mlp_gpu_run,
    .download = gb_dev_download,
    .release = gb_dev_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64),
};
