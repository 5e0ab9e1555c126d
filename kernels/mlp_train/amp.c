/* amp.c — the f16 tier of mlp_train/cublas: one mixed-precision SGD step (docs/precision.md,
 * "Mixed precision: mlp_train f16"):
 *   forward   h = x16·FP16(W1)ᵀ (cublasGemmEx: FP16 operands, FP32 accumulation and result),
 *             a16 = FP16(ReLU(h + b1)), z = a16·FP16(W2)ᵀ, softmax cross-entropy in FP32
 *   backward  dz = (softmax(z + b2) − onehot)·S/batch (S = MLP_LOSS_SCALE, a power of two, so
 *             scaling is exact; it lifts dz out of FP16's subnormals), dW2 = dz16ᵀ·a16,
 *             db2 = Σ dz, dh = dz16·FP16(W2) masked by a16 > 0, dW1 = dh16ᵀ·x16, db1 = Σ dh
 *             (FP32, scaled by S; dz16, dh16: FP16 copies)
 *   update    P −= lr·(dP/S) on the FP32 master weights, the verified outputs, if every
 *             gradient is finite; otherwise the step is skipped.
 * Needs compute capability 7.0 (tensor cores) and cublasGemmEx with tensor-op math (CUDA 9);
 * its compute type is a cudaDataType before cuBLAS 11, a cublasComputeType_t since. */
#include <stdint.h>
#include <stdio.h>

#include "bench/mlp_train.h"
#include "harness/core/device.h"
#include "kernels/mlp_train/cuda.h"
#include "kernels/mlp_train/gpu.h"

#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
#define MLP_AMP 1
#define MLP_COMPUTE_32F CUBLAS_COMPUTE_32F
#elif defined(CUDART_VERSION) && CUDART_VERSION >= 9000
#define MLP_AMP 1
#define MLP_COMPUTE_32F CUDA_R_32F
#else
#define MLP_AMP 0
#endif

enum { AMP_F32 = GB_MLP_SCRATCH, AMP_F16, AMP_BAD }; /* its own buffers, after gpu.h's */

struct mlp_amp {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    cublasHandle_t h;
    int have_handle;
    struct gb_mlp_dims d;
    float *h32, *z, *dw1, *dw2, *db1, *db2, *rowloss; /* FP32 products and gradients */
    uint16_t *w1h, *w2h, *a16, *dz16, *dh16;          /* FP16 copies */
};

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

/* Point the n pieces into `base` at 256-byte boundaries (as cudaMalloc's own, which cuBLAS's
 * tensor-op kernels want); returns the bytes they take (base NULL: only that). */
static size_t carve(char *base, void **piece[], const size_t *bytes, int n) {
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        if (base)
            *piece[i] = base + at;
        at = (at + bytes[i] + 255) / 256 * 256;
    }
    return at;
}

/* gb_dev_release's teardown: the handle, once the stream is idle. */
static void amp_teardown(struct impl_ctx *ctx) {
    struct mlp_amp *a = ctx->state;
    if (a->have_handle)
        CUBLAS_WARN(cublasDestroy(a->h));
}

enum status mlp_amp_prepare(struct impl_ctx *ctx) {
    struct gb_dev_spec spec[AMP_BAD + 1];
    const char *math;
    struct mlp_amp *a;
    enum status st;
    if ((st = amp_supported(ctx)) != ST_OK ||
        (st = gb_check_kernels(ctx, gb_mlp_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *a)) != ST_OK)
        return st;
    a = ctx->state;
    a->dev.teardown = amp_teardown;
    if ((st = mlp_gpu_dims(ctx, &a->d)) != ST_OK)
        return st;
    const size_t B = (size_t)a->d.batch, I = (size_t)a->d.in, H = (size_t)a->d.hidden,
                 O = (size_t)a->d.out;
    void **f32[] = {(void **)&a->h32, (void **)&a->z,   (void **)&a->dw1,    (void **)&a->dw2,
                    (void **)&a->db1, (void **)&a->db2, (void **)&a->rowloss};
    const size_t f32_bytes[] = {4 * B * H, 4 * B * O, 4 * H * I, 4 * O * H, 4 * H, 4 * O, 4 * B};
    void **f16[] = {(void **)&a->w1h, (void **)&a->w2h, (void **)&a->a16, (void **)&a->dz16,
                    (void **)&a->dh16};
    const size_t f16_bytes[] = {2 * H * I, 2 * O * H, 2 * B * H, 2 * B * O, 2 * B * H};
    mlp_dev_specs(ctx->p, spec);
    spec[AMP_F32] = (struct gb_dev_spec){.name = "FP32 products and gradients",
                                         .n = carve(NULL, f32, f32_bytes, 7) / 4,
                                         .store = GB_DEV_FP32};
    spec[AMP_F16] =
        (struct gb_dev_spec){.name = "FP16 copies", .n = carve(NULL, f16, f16_bytes, 5) / 2};
    spec[AMP_BAD] = (struct gb_dev_spec){.name = "overflow flag", .n = 1, .store = GB_DEV_FP32};
    if ((st = gb_dev_prepare(ctx, spec, AMP_BAD + 1, 0,
                             "X (FP16), labels, FP32 parameters, loss, products and gradients, "
                             "FP16 copies, overflow flag; cuBLAS's workspace comes on top")) !=
            ST_OK ||
        (st = mlp_blas_handle(ctx, &a->h, &a->have_handle, 1, &math)) != ST_OK)
        return st;
    carve(a->dev.ptr[AMP_F32], f32, f32_bytes, 7);
    carve(a->dev.ptr[AMP_F16], f16, f16_bytes, 5);
    snprintf(ctx->note, sizeof ctx->note,
             "mixed precision: cublasGemmEx FP16 operands, FP32 accumulation (tensor ops), FP32 "
             "master weights, static loss scale %g",
             (double)MLP_LOSS_SCALE);
    return ST_OK;
}

#if MLP_AMP
/* Row-major C (M×N, FP32) = op(A)·op(B), A and B FP16, operands swapped for cuBLAS as in
 * cuda.c's cublas_gemm; FP32 accumulation, tensor ops allowed. */
static cublasStatus_t rm_gemm16(cublasHandle_t h, int ta, int tb, int M, int N, int K,
                                const uint16_t *A, int lda, const uint16_t *B, int ldb, float *C,
                                int ldc) {
    const float one = 1.0f, zero = 0.0f;
    return cublasGemmEx(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K,
                        &one, B, CUDA_R_16F, ldb, A, CUDA_R_16F, lda, &zero, C, CUDA_R_32F, ldc,
                        MLP_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

/* Forward and backward: the scaled FP32 gradients into dw1, db1, dw2, db2, and the loss. */
static enum status amp_gradients(struct impl_ctx *ctx, struct mlp_amp *a) {
    const int B = a->d.batch, I = a->d.in, H = a->d.hidden, O = a->d.out;
    void *const *d = a->dev.ptr;
    const uint16_t *x16 = d[GB_MLP_X];
    const struct gb_mlp_ops *f = &gb_mlp_gpu_ops; /* float32 softmax and column sums */
    CU_TRY(gb_f16_cast(d[GB_MLP_W1], a->w1h, (size_t)H * I), ctx);
    CU_TRY(gb_f16_cast(d[GB_MLP_W2], a->w2h, (size_t)O * H), ctx);
    CUBLAS_TRY(rm_gemm16(a->h, 0, 1, B, H, I, x16, I, a->w1h, I, a->h32, H), ctx);
    CU_TRY(gb_bias_relu_f16(a->h32, d[GB_MLP_B1], a->a16, B, H), ctx);
    CUBLAS_TRY(rm_gemm16(a->h, 0, 1, B, O, H, a->a16, H, a->w2h, H, a->z, O), ctx);
    CU_TRY((cudaError_t)f->softmax_xent(NULL, a->z, d[GB_MLP_B2], d[GB_MLP_LABELS], a->z,
                                        a->rowloss, B, O, MLP_LOSS_SCALE / (float)B),
           ctx);
    CU_TRY((cudaError_t)f->colsum(NULL, a->rowloss, d[GB_MLP_LOSS], B, 1, 1.0f / (float)B), ctx);
    CU_TRY(gb_f16_cast(a->z, a->dz16, (size_t)B * O), ctx);
    CUBLAS_TRY(rm_gemm16(a->h, 1, 0, O, H, B, a->dz16, O, a->a16, H, a->dw2, H), ctx);
    CU_TRY((cudaError_t)f->colsum(NULL, a->z, a->db2, B, O, 1.0f), ctx);
    CUBLAS_TRY(rm_gemm16(a->h, 0, 0, B, H, O, a->dz16, O, a->w2h, H, a->h32, H), ctx);
    CU_TRY(gb_relu_backward_f16(a->h32, a->a16, a->dh16, (size_t)B * H), ctx);
    CUBLAS_TRY(rm_gemm16(a->h, 1, 0, H, I, B, a->dh16, H, x16, I, a->dw1, I), ctx);
    CU_TRY((cudaError_t)f->colsum(NULL, a->h32, a->db1, B, H, 1.0f), ctx);
    return ST_OK;
}
#endif

enum status mlp_amp_run(struct impl_ctx *ctx) {
#if MLP_AMP
    struct mlp_amp *a = ctx->state;
    const size_t H = (size_t)a->d.hidden,
                 n[4] = {H * (size_t)a->d.in, H, (size_t)a->d.out * H, (size_t)a->d.out};
    float *g[4] = {a->dw1, a->db1, a->dw2, a->db2};
    int *bad = a->dev.ptr[AMP_BAD]; /* 1: a gradient is not finite */
    enum status st;
    if ((st = amp_gradients(ctx, a)) != ST_OK)
        return st;
    CU_TRY(cudaMemsetAsync(bad, 0, sizeof(int), gb_stream()), ctx);
    for (int k = 0; k < 4; k++)
        CU_TRY(gb_nonfinite(g[k], n[k], bad), ctx);
    for (int k = 0; k < 4; k++)
        CU_TRY(gb_amp_sgd(a->dev.ptr[GB_MLP_W1 + k], g[k], n[k], MLP_LR, 1 / MLP_LOSS_SCALE, bad),
               ctx);
    return ST_OK;
#else
    (void)ctx; /* prepare refused */
    return ST_UNSUPPORTED;
#endif
}
