/* cublas.c — mlp_train/cublas: one SGD step with cuBLAS GEMMs (pedantic FP32 where cuBLAS has
 * it; f64: cublasDgemm) and our own elementwise kernels: step.h's step (gpu.c) with cuBLAS as its
 * GEMM. The f16 tier is a mixed-precision step of its own (amp.c). */
#include <stdio.h>

#include "bench/mlp_train.h"
#include "kernels/mlp_train/cuda.h"
#include "kernels/mlp_train/gpu.h"

struct mlp_cublas {
    struct mlp_gpu g; /* first: the layer, gpu.c and the GEMMs below take the state as it */
    cublasHandle_t h;
    int have_handle;
};

/* A cuBLAS status as gb_mlp_step's ops return it; a failure's name is kept for the note. */
static int blas_rc(struct mlp_cublas *s, cublasStatus_t st) {
    if (st != CUBLAS_STATUS_SUCCESS)
        s->g.blas_error = gb_cublas_status_name(st);
    return st != CUBLAS_STATUS_SUCCESS;
}

static int gemm(void *c, int ta, int tb, int M, int N, int K, const float *A, int lda,
                const float *B, int ldb, float *C, int ldc) {
    struct mlp_cublas *s = c;
    return blas_rc(s, mlp_rm_sgemm(s->h, ta, tb, M, N, K, 1.0f, A, lda, B, ldb, 0.0f, C, ldc));
}

static int gemm64(void *c, int ta, int tb, int M, int N, int K, const double *A, int lda,
                  const double *B, int ldb, double *C, int ldc) {
    struct mlp_cublas *s = c;
    const double one = 1.0, zero = 0.0; /* operands swapped as mlp_rm_sgemm's (gpu.h) */
    return blas_rc(s, cublasDgemm(s->h, tb ? CUBLAS_OP_T : CUBLAS_OP_N,
                                  ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K, &one, B, ldb, A, lda,
                                  &zero, C, ldc));
}

/* gb_dev_release's teardown: the handle, once the stream is idle. */
static void mlp_cublas_teardown(struct impl_ctx *ctx) {
    struct mlp_cublas *s = ctx->state;
    if (s->have_handle)
        CUBLAS_WARN(cublasDestroy(s->h));
}

static enum status mlp_cublas_prepare(struct impl_ctx *ctx) {
    const int f64 = ctx->p->dtype == DT_F64;
    struct mlp_cublas *s;
    const char *math;
    enum status st;
    if (ctx->p->dtype == DT_F16)
        return mlp_amp_prepare(ctx);
    if ((st = gb_check_kernels(ctx, f64 ? gb_mlp_kernels64 : gb_mlp_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    s->g.dev.teardown = mlp_cublas_teardown;
    if ((st = mlp_gpu_prepare(ctx, &s->g, gemm, gemm64, 0,
                              "X, labels, parameters, loss, activations and gradients; cuBLAS's "
                              "workspace comes on top")) != ST_OK ||
        (st = mlp_blas_handle(ctx, &s->h, &s->have_handle, 0, &math)) != ST_OK)
        return st;
    if (f64)
        snprintf(ctx->note, sizeof ctx->note, "cublasDgemm + own f64 elementwise kernels");
    else
        snprintf(ctx->note, sizeof ctx->note, "cuBLAS GEMMs (%s) + own elementwise kernels", math);
    return ST_OK;
}

static enum status mlp_cublas_run(struct impl_ctx *ctx) {
    return ctx->p->dtype == DT_F16 ? mlp_amp_run(ctx) : mlp_gpu_run(ctx);
}

/* The f16 tier's FP16 copy of X (kernels/common/dev_bufs.h makes it). */
static double mlp_cublas_host_bytes(const struct shape *sh) {
    return 2.0 * (double)sh->v[MLP_KEY_BATCH] * (double)sh->v[MLP_KEY_IN];
}

const struct impl mlp_train_cublas_impl = {
    .name = "cublas",
    .kind = DEV_CUDA,
    .summary = "cuBLAS GEMMs (pedantic FP32) + own elementwise kernels; f64: cublasDgemm + own "
               "kernels; f16: mixed precision (cc 7.0+)",
    .prepare = mlp_cublas_prepare,
    .upload = gb_dev_upload,
    .run = mlp_cublas_run,
    .download = gb_dev_download,
    .release = gb_dev_release,
    .host_bytes = mlp_cublas_host_bytes,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
};
