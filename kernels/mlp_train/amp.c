/* amp.c — the f16 tier of mlp_train/cublas: one mixed-precision SGD step (docs/precision.md,
 * "Mixed precision: mlp_train f16").
 *
 *   FP16 copies  x16 (converted on the host in prepare), w1h = FP16(W1), w2h = FP16(W2)
 *   forward      h = x16·w1hᵀ (cublasGemmEx, FP16 operands, FP32 accumulation and result)
 *                a16 = FP16(ReLU(h + b1)), z = a16·w2hᵀ (FP32), softmax cross-entropy in FP32
 *   backward     dz = (softmax(z + b2) − onehot)·S/batch (FP32; S = MLP_LOSS_SCALE),
 *                dz16 = FP16(dz)
 *                dW2 = dz16ᵀ·a16, db2 = Σ dz, dh = dz16·w2h masked by a16 > 0 (FP32),
 *                dh16 = FP16(dh), dW1 = dh16ᵀ·x16, db1 = Σ dh        (all FP32, all scaled by S)
 *   update       if every gradient is finite: P −= lr·(dP/S) on the FP32 master weights;
 *                otherwise the step is skipped (the parameters stay as they were).
 * Static loss scaling: S is a power of two, so scaling and unscaling are exact; it lifts dz
 * (as small as 1/batch times a probability) out of FP16's subnormal range, where it would lose
 * its bits. The FP32 master weights are what the row downloads and what is verified.
 *
 * Needs compute capability 7.0 (tensor cores) and cublasGemmEx with tensor-op math (CUDA 9);
 * cublasGemmEx's compute type is a cudaDataType before CUDA 11, a cublasComputeType_t since.
 */
#include "kernels/mlp_train/amp.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/core/device.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/mlp_train/cuda.h"
#include "bench/mlp_train.h"

#if defined(CUDART_VERSION) && CUDART_VERSION >= 9000
#define MLP_AMP 1
#else
#define MLP_AMP 0
#endif

enum { NPARAMS = 4 };

struct mlp_amp {
    cublasHandle_t h;
    int have_handle;
    int B, I, H, O;
    float *param[NPARAMS], *loss, *labels;      /* FP32 master weights, loss, labels */
    float *h32, *z, *dw1, *dw2, *db1, *db2, *rowloss; /* FP32 products and gradients */
    uint16_t *x16, *w1h, *w2h, *a16, *dz16, *dh16;    /* FP16 bits */
    int *bad;                                         /* 1: a gradient is not finite */
    uint16_t *host_x16;
};

#if MLP_AMP
/* C (M×N, FP32, ldc) = op(A)·op(B), A and B FP16, row-major (rm_gemm in cublas.c explains the
 * operand swap), FP32 accumulation, tensor ops allowed. */
static cublasStatus_t rm_gemm16(cublasHandle_t h, int ta, int tb, int M, int N, int K,
                                const uint16_t *A, int lda, const uint16_t *B, int ldb, float *C,
                                int ldc) {
    const float one = 1.0f, zero = 0.0f;
#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
    return cublasGemmEx(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K,
                        &one, B, CUDA_R_16F, ldb, A, CUDA_R_16F, lda, &zero, C, CUDA_R_32F, ldc,
                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
#else
    return cublasGemmEx(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K,
                        &one, B, CUDA_R_16F, ldb, A, CUDA_R_16F, lda, &zero, C, CUDA_R_32F, ldc,
                        CUDA_R_32F, CUBLAS_GEMM_DEFAULT);
#endif
}
#endif

/* The card and the build can run the step; else the reason in the note. */
static enum status amp_supported(struct impl_ctx *ctx) {
#if MLP_AMP
    int maj = 0, min = 0;
    if (sscanf(ctx->dev->cc, "%d.%d", &maj, &min) == 2 && maj >= 7)
        return ST_OK;
    snprintf(ctx->note, sizeof ctx->note,
             "mixed precision needs compute capability 7.0 (tensor cores); this is %s",
             ctx->dev->cc);
#else
    snprintf(ctx->note, sizeof ctx->note,
             "mixed precision needs CUDA 9.0 or newer (cublasGemmEx with tensor-op math); this "
             "gpubench was built with an older CUDA");
#endif
    return ST_UNSUPPORTED;
}

/* Device buffers: n elements of `size` bytes each. */
static enum status amp_alloc(struct impl_ctx *ctx, void *p, size_t n, size_t size,
                             const char *what) {
    return gb_malloc(ctx, (void **)p, n * size, what);
}

static enum status amp_buffers(struct impl_ctx *ctx, struct mlp_amp *a) {
    const struct problem *p = ctx->p;
    const size_t B = (size_t)a->B, I = (size_t)a->I, H = (size_t)a->H, O = (size_t)a->O;
    const char *names[NPARAMS] = {"W1", "b1", "W2", "b2"};
    const size_t f = sizeof(float), h = sizeof(uint16_t);
    enum status st;
    for (int k = 0; k < NPARAMS; k++)
        if ((st = amp_alloc(ctx, &a->param[k], p->in[MLP_IN_W1 + k].n, f, names[k])) != ST_OK)
            return st;
    if ((st = amp_alloc(ctx, &a->loss, 1, f, "loss")) != ST_OK ||
        (st = amp_alloc(ctx, &a->labels, B, f, "labels")) != ST_OK ||
        (st = amp_alloc(ctx, &a->h32, B * H, f, "h")) != ST_OK ||
        (st = amp_alloc(ctx, &a->z, B * O, f, "z")) != ST_OK ||
        (st = amp_alloc(ctx, &a->dw1, H * I, f, "dW1")) != ST_OK ||
        (st = amp_alloc(ctx, &a->dw2, O * H, f, "dW2")) != ST_OK ||
        (st = amp_alloc(ctx, &a->db1, H, f, "db1")) != ST_OK ||
        (st = amp_alloc(ctx, &a->db2, O, f, "db2")) != ST_OK ||
        (st = amp_alloc(ctx, &a->rowloss, B, f, "row losses")) != ST_OK ||
        (st = amp_alloc(ctx, &a->x16, B * I, h, "X (FP16)")) != ST_OK ||
        (st = amp_alloc(ctx, &a->w1h, H * I, h, "W1 (FP16)")) != ST_OK ||
        (st = amp_alloc(ctx, &a->w2h, O * H, h, "W2 (FP16)")) != ST_OK ||
        (st = amp_alloc(ctx, &a->a16, B * H, h, "activations (FP16)")) != ST_OK ||
        (st = amp_alloc(ctx, &a->dz16, B * O, h, "dZ (FP16)")) != ST_OK ||
        (st = amp_alloc(ctx, &a->dh16, B * H, h, "dH (FP16)")) != ST_OK ||
        (st = amp_alloc(ctx, &a->bad, 1, sizeof(int), "overflow flag")) != ST_OK)
        return st;
    return ST_OK;
}

enum status mlp_amp_prepare(struct impl_ctx *ctx) {
    const struct problem *p = ctx->p;
    struct mlp_amp *a;
    enum status st;
    if ((st = amp_supported(ctx)) != ST_OK ||
        (st = gb_check_kernels(ctx, gb_mlp_kernels16)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *a)) != ST_OK)
        return st;
    a = ctx->state;
    a->B = (int)p->shape.v[MLP_KEY_BATCH], a->I = (int)p->shape.v[MLP_KEY_IN];
    a->H = (int)p->shape.v[MLP_KEY_HIDDEN], a->O = (int)p->shape.v[MLP_KEY_OUT];
    if ((double)a->B * a->H > 2147483647.0) {
        snprintf(ctx->note, sizeof ctx->note,
                 "batch·hidden is 2^31 or more, beyond the own bias+ReLU kernel's indexing");
        return ST_UNSUPPORTED;
    }
    if ((st = amp_buffers(ctx, a)) != ST_OK)
        return st;
    const struct buf *x = &p->in[MLP_IN_X];
    if (!(a->host_x16 = malloc(x->n * sizeof(uint16_t)))) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory for the FP16 inputs");
        return ST_OOM;
    }
    for (size_t i = 0; i < x->n; i++) /* values of the tier already: exact */
        a->host_x16[i] = dtype_f32_to_f16(x->data[i]);
    CUBLAS_TRY(cublasCreate(&a->h), ctx);
    a->have_handle = 1;
    CUBLAS_TRY(cublasSetStream(a->h, gb_stream()), ctx);
#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
    CUBLAS_TRY(cublasSetMathMode(a->h, CUBLAS_DEFAULT_MATH), ctx);
#elif MLP_AMP
    CUBLAS_TRY(cublasSetMathMode(a->h, CUBLAS_TENSOR_OP_MATH), ctx);
#endif
    snprintf(ctx->note, sizeof ctx->note,
             "mixed precision: cublasGemmEx FP16 operands, FP32 accumulation (tensor ops), FP32 "
             "master weights, static loss scale %g",
             (double)MLP_LOSS_SCALE);
    return ST_OK;
}

enum status mlp_amp_upload(struct impl_ctx *ctx) {
    struct mlp_amp *a = ctx->state;
    const struct problem *p = ctx->p;
    cudaStream_t st = gb_stream();
    for (int k = 0; k < NPARAMS; k++)
        CU_TRY(cudaMemcpyAsync(a->param[k], p->in[MLP_IN_W1 + k].data,
                               p->in[MLP_IN_W1 + k].n * sizeof(float), cudaMemcpyHostToDevice, st),
               ctx);
    CU_TRY(cudaMemcpyAsync(a->x16, a->host_x16, p->in[MLP_IN_X].n * sizeof(uint16_t),
                           cudaMemcpyHostToDevice, st),
           ctx);
    CU_TRY(cudaMemcpyAsync(a->labels, p->in[MLP_IN_LABELS].data,
                           p->in[MLP_IN_LABELS].n * sizeof(float), cudaMemcpyHostToDevice, st),
           ctx);
    return ST_OK;
}

#if MLP_AMP
/* Forward and backward: the scaled FP32 gradients into dw1, db1, dw2, db2 and the loss. */
static enum status amp_gradients(struct impl_ctx *ctx, struct mlp_amp *a) {
    const int B = a->B, I = a->I, H = a->H, O = a->O;
    const size_t bh = (size_t)B * H;
    cudaStream_t s = gb_stream();
    CU_TRY(gb_f16_cast(s, a->param[0], a->w1h, (size_t)H * I), ctx);
    CU_TRY(gb_f16_cast(s, a->param[2], a->w2h, (size_t)O * H), ctx);
    CUBLAS_TRY(rm_gemm16(a->h, 0, 1, B, H, I, a->x16, I, a->w1h, I, a->h32, H), ctx);
    CU_TRY(gb_bias_relu_f16(s, a->h32, a->param[1], a->a16, B, H), ctx);
    CUBLAS_TRY(rm_gemm16(a->h, 0, 1, B, O, H, a->a16, H, a->w2h, H, a->z, O), ctx);
    CU_TRY(gb_softmax_xent(s, a->z, a->param[3], a->labels, a->z, a->rowloss, B, O,
                           MLP_LOSS_SCALE / (float)B),
           ctx);
    CU_TRY(gb_colsum(s, a->rowloss, a->loss, B, 1, 1.0f / (float)B), ctx);
    CU_TRY(gb_f16_cast(s, a->z, a->dz16, (size_t)B * O), ctx);
    CUBLAS_TRY(rm_gemm16(a->h, 1, 0, O, H, B, a->dz16, O, a->a16, H, a->dw2, H), ctx);
    CU_TRY(gb_colsum(s, a->z, a->db2, B, O, 1.0f), ctx);
    CUBLAS_TRY(rm_gemm16(a->h, 0, 0, B, H, O, a->dz16, O, a->w2h, H, a->h32, H), ctx);
    CU_TRY(gb_relu_backward_f16(s, a->h32, a->a16, a->dh16, bh), ctx);
    CUBLAS_TRY(rm_gemm16(a->h, 1, 0, H, I, B, a->dh16, H, a->x16, I, a->dw1, I), ctx);
    CU_TRY(gb_colsum(s, a->h32, a->db1, B, H, 1.0f), ctx);
    return ST_OK;
}
#endif

enum status mlp_amp_run(struct impl_ctx *ctx) {
#if MLP_AMP
    struct mlp_amp *a = ctx->state;
    const size_t n[NPARAMS] = {(size_t)a->H * a->I, (size_t)a->H, (size_t)a->O * a->H,
                               (size_t)a->O};
    float *g[NPARAMS] = {a->dw1, a->db1, a->dw2, a->db2};
    cudaStream_t s = gb_stream();
    enum status st;
    if ((st = amp_gradients(ctx, a)) != ST_OK)
        return st;
    CU_TRY(cudaMemsetAsync(a->bad, 0, sizeof(int), s), ctx);
    for (int k = 0; k < NPARAMS; k++)
        CU_TRY(gb_nonfinite(s, g[k], n[k], a->bad), ctx);
    for (int k = 0; k < NPARAMS; k++)
        CU_TRY(gb_amp_sgd(s, a->param[k], g[k], n[k], MLP_LR, 1.0f / MLP_LOSS_SCALE, a->bad), ctx);
    return ST_OK;
#else
    (void)ctx; /* prepare refused */
    return ST_UNSUPPORTED;
#endif
}

enum status mlp_amp_download(struct impl_ctx *ctx) {
    struct mlp_amp *a = ctx->state;
    struct problem *p = ctx->p;
    cudaStream_t st = gb_stream();
    for (int k = 0; k < NPARAMS; k++)
        CU_TRY(cudaMemcpyAsync(p->out[MLP_OUT_W1 + k].data, a->param[k],
                               p->out[MLP_OUT_W1 + k].n * sizeof(float), cudaMemcpyDeviceToHost,
                               st),
               ctx);
    CU_TRY(cudaMemcpyAsync(p->out[MLP_OUT_LOSS].data, a->loss, sizeof(float),
                           cudaMemcpyDeviceToHost, st),
           ctx);
    return ST_OK;
}

void mlp_amp_release(struct impl_ctx *ctx) {
    struct mlp_amp *a = ctx->state;
    if (!a)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream()));
    if (a->have_handle)
        CUBLAS_WARN(cublasDestroy(a->h));
    void *bufs[] = {a->param[0], a->param[1], a->param[2], a->param[3], a->loss, a->labels,
                    a->h32,      a->z,        a->dw1,      a->dw2,      a->db1,  a->db2,
                    a->rowloss,  a->x16,      a->w1h,      a->w2h,      a->a16,  a->dz16,
                    a->dh16,     a->bad};
    gb_free_device(bufs, sizeof bufs / sizeof bufs[0]);
    free(a->host_x16);
    free(a);
    ctx->state = NULL;
}
