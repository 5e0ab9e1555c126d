/* amp.c — the f16 tier of mlp_train/cublas, mixed precision (docs/precision.md, "Mixed
 * precision: mlp_train f16"): FP16 GEMM operands, FP32 accumulation, softmax and master weights,
 * the loss gradient scaled by MLP_LOSS_SCALE, the update skipped when a gradient is not finite.
 * cc 7.0 (tensor cores) and CUDA 9; GemmEx's compute type is a cublasComputeType_t from 11. */
#include <stdio.h>

#include "harness/core/device.h"
#include "kernels/mlp_train/cuda.h"

#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
#define MLP_AMP 1
#define MLP_COMPUTE_32F CUBLAS_COMPUTE_32F
#elif defined(CUDART_VERSION) && CUDART_VERSION >= 9000
#define MLP_AMP 1
#define MLP_COMPUTE_32F CUDA_R_32F
#else
#define MLP_AMP 0
#endif

enum { AMP_F32 = GB_MLP_SCRATCH, AMP_F16 }; /* its own buffers, after every row's */

/* Its FP32 and FP16 buffers are pieces of two allocations (dev_bufs holds 16 a row), each at a
 * multiple of 64 elements as step.h's scratch; the overflow flag first. */
enum status mlp_amp_buffers(struct impl_ctx *ctx) {
    struct mlp_gpu *a = ctx->state;
    struct gb_dev_spec spec[AMP_F16 + 1];
    enum status st;
#if MLP_AMP
    int maj = 0, min = 0;
    if (sscanf(ctx->dev->cc, "%d.%d", &maj, &min) != 2 || maj < 7) {
        snprintf(ctx->note, sizeof ctx->note,
                 "mixed precision needs compute capability 7.0 (tensor cores); this is %s",
                 ctx->dev->cc);
        return ST_UNSUPPORTED;
    }
#else
    snprintf(ctx->note, sizeof ctx->note,
             "mixed precision needs CUDA 9.0 or newer (cublasGemmEx with tensor-op math); this "
             "gpubench was built with an older CUDA");
    return ST_UNSUPPORTED;
#endif
    if ((st = mlp_gpu_begin(ctx, spec)) != ST_OK)
        return st;
    const size_t B = (size_t)a->d.batch, I = (size_t)a->d.in, H = (size_t)a->d.hidden,
                 O = (size_t)a->d.out;
    float **f32[] = {&a->h32, &a->z, &a->dw1, &a->dw2, &a->db1, &a->db2, &a->rowloss};
    const size_t n32[] = {B * H, B * O, H * I, O * H, H, O, B};
    unsigned short **f16[] = {&a->w1h, &a->w2h, &a->a16, &a->dz16, &a->dh16};
    const size_t n16[] = {H * I, O * H, B * H, B * O, B * H};
    size_t t32 = 64, t16 = 0;
    for (int i = 0; i < 7; i++)
        t32 += gb_mlp_round(n32[i]), t16 += i < 5 ? gb_mlp_round(n16[i]) : 0;
    spec[AMP_F32] = (struct gb_dev_spec){"FP32 products and gradients, overflow flag", .n = t32,
                                         .store = GB_DEV_FP32};
    spec[AMP_F16] = (struct gb_dev_spec){"FP16 copies", .n = t16};
    if ((st = gb_dev_prepare(ctx, spec, AMP_F16 + 1, 0,
                             "X (FP16), labels, FP32 parameters, loss, products and gradients, "
                             "FP16 copies; cuBLAS's workspace comes on top")) != ST_OK)
        return st;
    float *p32 = a->dev.ptr[AMP_F32];
    unsigned short *p16 = a->dev.ptr[AMP_F16];
    a->bad = (int *)p32, p32 += 64;
    for (int i = 0; i < 7; i++)
        *f32[i] = p32, p32 += gb_mlp_round(n32[i]);
    for (int i = 0; i < 5; i++)
        *f16[i] = p16, p16 += gb_mlp_round(n16[i]);
    snprintf(ctx->note, sizeof ctx->note,
             "mixed precision: cublasGemmEx FP16 operands, FP32 accumulation (tensor ops), FP32 "
             "master weights, static loss scale %g",
             (double)MLP_LOSS_SCALE);
    return ST_OK;
}

#if MLP_AMP
/* Row-major C (M×N, FP32) = op(A)·op(B) of FP16 A and B, operands swapped for cuBLAS as in
 * cuda.c's cublas_gemm; FP32 accumulation, tensor ops allowed. */
static int gemm16(struct impl_ctx *ctx, int ta, int tb, int M, int N, int K,
                  const unsigned short *A, int lda, const unsigned short *B, int ldb, float *C,
                  int ldc) {
    const struct mlp_gpu *a = ctx->state;
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_TRY(cublasGemmEx(a->h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                            N, M, K, &one, B, CUDA_R_16F, ldb, A, CUDA_R_16F, lda, &zero, C,
                            CUDA_R_32F, ldc, MLP_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               ctx);
    return ST_OK;
}
#endif

enum status mlp_amp_run(struct impl_ctx *ctx) {
#if MLP_AMP
    struct mlp_gpu *a = ctx->state;
    const int B = (int)a->d.batch, I = (int)a->d.in, H = (int)a->d.hidden, O = (int)a->d.out;
    const size_t n[4] = {(size_t)H * I, (size_t)H, (size_t)O * H, (size_t)O};
    float *g[4] = {a->dw1, a->db1, a->dw2, a->db2};
    void *const *d = a->dev.ptr;
    const unsigned short *x16 = d[GB_MLP_X];
    const struct gb_mlp_ops *f = &gb_mlp_gpu_ops; /* float32 softmax and column sums */
    int rc;
    /* forward and backward: the gradients, scaled by S, and the loss */
    GB_MLP_DO(gb_f16_cast(ctx, d[GB_MLP_W1], a->w1h, n[0]));
    GB_MLP_DO(gb_f16_cast(ctx, d[GB_MLP_W2], a->w2h, n[2]));
    GB_MLP_DO(gemm16(ctx, 0, 1, B, H, I, x16, I, a->w1h, I, a->h32, H));
    GB_MLP_DO(gb_bias_relu_f16(ctx, a->h32, d[GB_MLP_B1], a->a16, B, H));
    GB_MLP_DO(gemm16(ctx, 0, 1, B, O, H, a->a16, H, a->w2h, H, a->z, O));
    GB_MLP_DO(f->softmax_xent(ctx, a->z, d[GB_MLP_B2], d[GB_MLP_LABELS], a->z, a->rowloss, B, O,
                           MLP_LOSS_SCALE / (float)B));
    GB_MLP_DO(f->colsum(ctx, a->rowloss, d[GB_MLP_LOSS], B, 1, 1.0f / (float)B));
    GB_MLP_DO(gb_f16_cast(ctx, a->z, a->dz16, (size_t)B * O));
    GB_MLP_DO(gemm16(ctx, 1, 0, O, H, B, a->dz16, O, a->a16, H, a->dw2, H));
    GB_MLP_DO(f->colsum(ctx, a->z, a->db2, B, O, 1.0f));
    GB_MLP_DO(gemm16(ctx, 0, 0, B, H, O, a->dz16, O, a->w2h, H, a->h32, H));
    GB_MLP_DO(gb_relu_backward_f16(ctx, a->h32, a->a16, a->dh16, (size_t)B * H));
    GB_MLP_DO(gemm16(ctx, 1, 0, H, I, B, a->dh16, H, x16, I, a->dw1, I));
    GB_MLP_DO(f->colsum(ctx, a->h32, a->db1, B, H, 1.0f));
    /* the update, unless a gradient is not finite */
    CU_TRY(cudaMemsetAsync(a->bad, 0, sizeof(int), gb_stream()), ctx);
    for (int k = 0; k < 4; k++)
        GB_MLP_DO(gb_nonfinite(ctx, g[k], n[k], a->bad));
    for (int k = 0; k < 4; k++)
        GB_MLP_DO(gb_amp_sgd(ctx, d[GB_MLP_W1 + k], g[k], n[k], MLP_LR, 1 / MLP_LOSS_SCALE,
                             a->bad));
    return ST_OK;
#else
    (void)ctx; /* prepare refused */
    return ST_UNSUPPORTED;
#endif
}
