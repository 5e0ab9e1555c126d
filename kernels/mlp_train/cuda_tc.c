/* cuda_tc.c — mlp_train/cuda_tc: the f16 step of mlp_train/cublas (amp.c, amp_step.h: FP16
 * X, weight copies, activations and scaled gradients as GEMM operands, FP32 accumulation,
 * softmax and master weights, static loss scale, the update skipped on a non-finite gradient)
 * with every GEMM on our tensor-core kernel instead of cuBLAS: kernels/gemm/wmma.cuh's
 * gb_hgemm_wmma_64x64 for dH = dZ·W2, its _nt instantiation (B stored transposed) for the
 * forward products X·W1ᵀ and A·W2ᵀ, its _tn (A stored transposed) for dW2 = dZᵀ·A and
 * dW1 = dHᵀ·X — nvcuda::wmma 16×16×16 FP16 fragments, 64×64 tiles, compute capability 7.0,
 * CUDA 9. The best own code per card beside mlp_train/cuda's SIMT step, which is the same code
 * on every card. f32 and f64 are not declared: the runner reports them `unsupported`. A card
 * below 7.0, or one that runs this build's code for an older architecture (where the kernels are
 * traps), is refused before anything is allocated or launched (gb_tc_body).
 */
#include <stdio.h>

#include "kernels/gemm/cuda.h"
#include "kernels/mlp_train/cuda.h"

/* The row's GEMM hook (amp_step.h): gb_hgemm_wmma_op on the arch prepare found. */
static int tc_gemm(void *c, int ta, int tb, int M, int N, int K, const unsigned short *A, int lda,
                   const unsigned short *B, int ldb, float *C, int ldc) {
    struct impl_ctx *ctx = c;
    const struct mlp_gpu *g = ctx->state;
    CU_TRY(gb_hgemm_wmma_op(gb_stream(), &g->arch, ta, tb, M, N, K, A, lda, B, ldb, C, ldc), ctx);
    return ST_OK;
}

static enum status tc_prepare(struct impl_ctx *ctx) {
    const struct gb_kernel_ref *refs;
    struct mlp_gpu *g;
    enum status st;
    if (gb_hgemm_wmma_kernels(&refs) == 0) {
        snprintf(ctx->note, sizeof ctx->note,
                 "mlp_train/cuda_tc's GEMMs on the FP16 tensor cores (WMMA) need CUDA 9 or newer; "
                 "this gpubench was built with an older CUDA");
        return ST_UNSUPPORTED;
    }
    if ((st = gb_check_kernels(ctx, gb_hgemm_wmma_kernels)) != ST_OK ||
        (st = gb_check_kernels(ctx, gb_mlp_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *g)) != ST_OK)
        return st;
    g = ctx->state;
    if ((st = gb_impl_arch(ctx, &g->arch)) != ST_OK ||
        (st = gb_tc_body(ctx, "mlp_train/cuda_tc", "the FP16 tensor cores (WMMA)", 70,
                         gb_hgemm_wmma_runs(&g->arch), &g->arch)) != ST_OK)
        return st;
    return mlp_amp_buffers(ctx, tc_gemm,
                           "own WMMA f16 64x64 tiles (16x16x16 fragments, transposed operands "
                           "loaded as stored) for the 5 GEMMs, FP32 accumulation",
                           0);
}

const struct impl mlp_train_cuda_tc_impl = {
    .name = "cuda_tc", .kind = DEV_CUDA, .dtypes = DT_BIT(DT_F16),
    .summary = "f16 mixed-precision step (as cublas's f16) with the 5 GEMMs on own WMMA "
               "tensor-core kernels (cc 7.0+) + own elementwise kernels",
    .prepare = tc_prepare, .upload = gb_dev_upload, .run = mlp_amp_run,
    .download = gb_dev_download, .release = gb_dev_release, .host_bytes = mlp_amp_host_bytes};
