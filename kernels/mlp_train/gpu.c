/* gpu.c — what mlp_train's GPU rows share (gpu.h). Problem layout: bench/mlp_train.h. */
#include "kernels/mlp_train/gpu.h"

#include <stdio.h>

#include "bench/mlp_train.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/mlp_train/cuda.h"

void mlp_dev_specs(struct problem *p, struct gb_dev_spec *spec) {
    static const char *const names[4] = {"W1", "b1", "W2", "b2"};
    spec[MLP_DEV_X] = (struct gb_dev_spec){.name = "X", .in = &p->in[MLP_IN_X]};
    spec[MLP_DEV_LABELS] =
        (struct gb_dev_spec){.name = "labels", .in = &p->in[MLP_IN_LABELS], .store = GB_DEV_FP32};
    for (int k = 0; k < 4; k++)
        spec[MLP_DEV_W1 + k] = (struct gb_dev_spec){
            .name = names[k], .in = &p->in[MLP_IN_W1 + k], .out = &p->out[MLP_OUT_W1 + k],
            .store = GB_DEV_WIDE};
    spec[MLP_DEV_LOSS] =
        (struct gb_dev_spec){.name = "loss", .out = &p->out[MLP_OUT_LOSS], .store = GB_DEV_WIDE};
}

enum status mlp_gpu_prepare(struct impl_ctx *ctx, struct mlp_gpu *g, gb_mlp_gemm *gemm,
                            gb_mlp_gemm64 *gemm64, size_t extra_el, const char *what) {
    const long *v = ctx->p->shape.v;
    struct gb_dev_spec spec[MLP_DEV_N + 1];
    void *const *d = g->dev.ptr;
    enum status st;
    /* bench/mlp_train.c's complete() keeps every size within int */
    g->d = (struct gb_mlp_dims){(int)v[MLP_KEY_BATCH], (int)v[MLP_KEY_IN], (int)v[MLP_KEY_HIDDEN],
                                (int)v[MLP_KEY_OUT], MLP_LR};
    if ((double)g->d.batch * g->d.hidden > 2147483647.0) {
        snprintf(ctx->note, sizeof ctx->note,
                 "batch·hidden is 2^31 or more, beyond the own bias+ReLU kernel's indexing");
        return ST_UNSUPPORTED;
    }
    mlp_dev_specs(ctx->p, spec);
    spec[MLP_DEV_N] = (struct gb_dev_spec){.name = "activations and gradients",
                                           .n = gb_mlp_scratch_floats(&g->d) + extra_el};
    if ((st = gb_dev_prepare(ctx, spec, MLP_DEV_N + 1, 0, what)) != ST_OK)
        return st;
    gb_mlp_carve(&g->d, d[MLP_DEV_N], &g->b); /* the tier's, of the two */
    gb_mlp_carve64(&g->d, d[MLP_DEV_N], &g->b64);
    g->b.x = d[MLP_DEV_X], g->b.labels = d[MLP_DEV_LABELS], g->b.loss = d[MLP_DEV_LOSS];
    g->b.w1 = d[MLP_DEV_W1], g->b.b1 = d[MLP_DEV_B1], g->b.w2 = d[MLP_DEV_W2], g->b.b2 = d[MLP_DEV_B2];
    g->b64.x = d[MLP_DEV_X], g->b64.labels = d[MLP_DEV_LABELS], g->b64.loss = d[MLP_DEV_LOSS];
    g->b64.w1 = d[MLP_DEV_W1], g->b64.b1 = d[MLP_DEV_B1];
    g->b64.w2 = d[MLP_DEV_W2], g->b64.b2 = d[MLP_DEV_B2];
    g->ops = gb_mlp_gpu_ops, g->ops.gemm = gemm;
    g->ops64 = gb_mlp_gpu_ops64, g->ops64.gemm = gemm64;
    return ST_OK;
}

enum status mlp_gpu_run(struct impl_ctx *ctx) {
    struct mlp_gpu *g = ctx->state;
    g->blas_error = NULL;
    int rc = g->dev.t == DT_F64 ? gb_mlp_step64(&g->ops64, g, &g->d, &g->b64)
                                : gb_mlp_step(&g->ops, g, &g->d, &g->b);
    if (rc == 0)
        return ST_OK;
    /* a launch or our own GEMM returned a cudaError_t, which its launcher has already taken out
     * of the runtime (cudaGetLastError); a cuBLAS GEMM left its status's name */
    const char *name = g->blas_error ? g->blas_error : cudaGetErrorName((cudaError_t)rc);
    snprintf(ctx->note, sizeof ctx->note, "gb_mlp_step: %s", name);
    return gpu_error_status(name);
}

#ifdef GPUBENCH_HAVE_CUBLAS
enum status mlp_blas_handle(struct impl_ctx *ctx, cublasHandle_t *h, int *have, int tensor_ops,
                            const char **math) {
    CUBLAS_TRY(cublasCreate(h), ctx);
    *have = 1;
    CUBLAS_TRY(cublasSetStream(*h, gb_stream()), ctx);
#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
    CUBLAS_TRY(cublasSetMathMode(*h, tensor_ops ? CUBLAS_DEFAULT_MATH : CUBLAS_PEDANTIC_MATH), ctx);
    *math = tensor_ops ? "default math" : "pedantic FP32";
#elif defined(CUDART_VERSION) && CUDART_VERSION >= 9000
    if (tensor_ops)
        CUBLAS_TRY(cublasSetMathMode(*h, CUBLAS_TENSOR_OP_MATH), ctx);
    *math = tensor_ops ? "tensor-op math" : "default math, FP32";
#else
    *math = "default math, FP32";
#endif
    return ST_OK;
}

cublasStatus_t mlp_rm_sgemm(cublasHandle_t h, int ta, int tb, int M, int N, int K, float alpha,
                            const float *A, int lda, const float *B, int ldb, float beta,
                            float *C, int ldc) {
    return cublasSgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K,
                       &alpha, B, ldb, A, lda, &beta, C, ldc);
}
#endif
