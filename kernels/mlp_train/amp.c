/* amp.c — the f16 step, mixed precision (docs/precision.md, "Mixed precision: mlp_train f16"),
 * of mlp_train/cublas (cuBLAS's GemmEx) and mlp_train/cuda_tc (our WMMA GEMMs, cuda_tc.c): FP16
 * GEMM operands, FP32 accumulation, softmax and master weights, the loss gradient scaled by
 * MLP_LOSS_SCALE, the update skipped when a gradient is not finite. Its launches are
 * amp_step.h's, the rows differ in the GEMM hook only. cc 7.0 (tensor cores) and CUDA 9; GemmEx's
 * compute type is a cublasComputeType_t from 11. */
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

/* *bad = 0 on the row's stream. */
static int amp_clear_flag(void *c, int *bad) {
    struct impl_ctx *ctx = c;
    CU_TRY(cudaMemsetAsync(bad, 0, sizeof(int), gb_stream()), ctx);
    return ST_OK;
}

/* Its FP32 and FP16 buffers are pieces of two allocations (dev_bufs holds 16 a row), each at a
 * multiple of 64 elements as step.h's scratch (gb_mlp_amp_carve); the ops on our launchers with
 * the row's gemm; `gemm_note` says what the GEMMs are (for the note), `cublas` adds cuBLAS's
 * workspace to the footprint's words. */
enum status mlp_amp_buffers(struct impl_ctx *ctx, gb_mlp_gemm16 *gemm, const char *gemm_note,
                            int cublas) {
    struct mlp_gpu *a = ctx->state;
    struct gb_dev_spec spec[AMP_F16 + 1];
    enum status st;
    size_t t32, t16;
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
    t32 = gb_mlp_amp_carve(&a->d, NULL, NULL, &a->amp, &t16);
    spec[AMP_F32] = (struct gb_dev_spec){"FP32 products and gradients, overflow flag", .n = t32,
                                         .store = GB_DEV_FP32};
    spec[AMP_F16] = (struct gb_dev_spec){"FP16 copies", .n = t16};
    if ((st = gb_dev_prepare(ctx, spec, AMP_F16 + 1, 0,
                             cublas ? "X (FP16), labels, FP32 parameters, loss, products and "
                                      "gradients, FP16 copies; cuBLAS's workspace comes on top"
                                    : "X (FP16), labels, FP32 parameters, loss, products and "
                                      "gradients, FP16 copies")) != ST_OK)
        return st;
    (void)gb_mlp_amp_carve(&a->d, a->dev.ptr[AMP_F32], a->dev.ptr[AMP_F16], &a->amp, &t16);
    a->amp_ops = (struct gb_mlp_amp_ops){gemm,          &gb_mlp_gpu_ops,      gb_f16_cast,
                                         gb_bias_relu_f16, gb_relu_backward_f16, amp_clear_flag,
                                         gb_nonfinite,  gb_amp_sgd};
    snprintf(ctx->note, sizeof ctx->note,
             "mixed precision: %s, FP32 master weights, static loss scale %g", gemm_note,
             (double)MLP_LOSS_SCALE);
    return ST_OK;
}

double mlp_amp_host_bytes(const struct shape *sh) {
    return 2.0 * (double)sh->v[MLP_KEY_BATCH] * (double)sh->v[MLP_KEY_IN];
}

enum status mlp_amp_run(struct impl_ctx *ctx) {
    struct mlp_gpu *a = ctx->state;
    return (enum status)gb_mlp_amp_step(&a->amp_ops, ctx, &a->d, MLP_LR, a->dev.ptr, &a->amp);
}

#if defined(GPUBENCH_HAVE_CUBLAS) && MLP_AMP
/* Row-major C (M×N, FP32) = op(A)·op(B) of FP16 A and B, operands swapped for cuBLAS as in
 * cuda.c's cublas_gemm; FP32 accumulation, tensor ops allowed. */
int mlp_amp_cublas_gemm(void *c, int ta, int tb, int M, int N, int K, const unsigned short *A,
                        int lda, const unsigned short *B, int ldb, float *C, int ldc) {
    struct impl_ctx *ctx = c;
    const struct mlp_gpu *a = ctx->state;
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_TRY(cublasGemmEx(a->h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                            N, M, K, &one, B, CUDA_R_16F, ldb, A, CUDA_R_16F, lda, &zero, C,
                            CUDA_R_32F, ldc, MLP_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               ctx);
    return ST_OK;
}
#elif defined(GPUBENCH_HAVE_CUBLAS)
int mlp_amp_cublas_gemm(void *c, int ta, int tb, int M, int N, int K, const unsigned short *A,
                        int lda, const unsigned short *B, int ldb, float *C, int ldc) {
    (void)c, (void)ta, (void)tb, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B;
    (void)ldb, (void)C, (void)ldc;
    return ST_UNSUPPORTED; /* mlp_amp_buffers refused first */
}
#endif
