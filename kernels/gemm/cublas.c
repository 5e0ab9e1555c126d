/* cublas.c — gemm/cublas: C = A·B with cuBLAS, on the run's stream, in every tier:
 *   f32   cublasSgemm, IEEE FP32 (CUBLAS_DEFAULT_MATH: no TF32, no emulation)
 *   f64   cublasDgemm, IEEE FP64 (CUBLAS_DEFAULT_MATH: the FP64 tensor cores where there are)
 *   tf32  cublasGemmEx, float32 operands, CUBLAS_COMPUTE_32F_FAST_TF32 (cuBLAS 11+, cc 8.0+)
 *   f16   cublasGemmEx, FP16 A and B, FP32 C and accumulation, tensor ops allowed (cc 5.3+)
 *   bf16  cublasGemmEx, BF16 A and B, FP32 C and accumulation (cuBLAS 11+, cc 8.0+)
 *
 * Problem layout (bench/gemm.h): in A (m×k), B (k×n), out C (m×n), all row-major. cuBLAS
 * is column-major; a row-major matrix is the column-major view of its transpose, so C = A·B is
 * computed as Cᵀ = Bᵀ·Aᵀ: gemm(N, N, n, m, k, B (ld n), A (ld k), C (ld n)). No transposition is
 * ever materialized.
 *
 * Math mode: f32 and f64 in cuBLAS's fastest mode that keeps IEEE FP32 / FP64 arithmetic,
 * CUBLAS_DEFAULT_MATH, or CUBLAS_PEDANTIC_MATH where the environment would turn on emulation
 * under it (gb_cublas_exact_math, kernels/common/cublas_math.h, which cites cuBLAS's
 * documentation). The 16-bit tiers allow tensor cores (CUBLAS_DEFAULT_MATH from 11, CUBLAS_TENSOR_OP_MATH
 * on 9 and 10). cublasGemmEx's compute type was a cudaDataType before CUDA 11 and is a
 * cublasComputeType_t since. The row note records which. 16-bit operands are converted on the
 * host in prepare (not timed, kernels/common/dev_bufs.h); upload copies them, so end to end moves
 * 2 bytes an element.
 */
#include <stdio.h>

#include "bench/gemm.h"
#include "kernels/common/cublas_math.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"

enum { M = GEMM_KEY_M, N = GEMM_KEY_N, K = GEMM_KEY_K };
enum { IN_A = GEMM_IN_A, IN_B = GEMM_IN_B, OUT_C = GEMM_OUT_C };

#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
#define GEMM_CUBLAS11 1
#else
#define GEMM_CUBLAS11 0
#endif

enum { DEV_A, DEV_B, DEV_C }; /* the device buffers, in gb_dev_prepare's order */

struct gemm_state {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    cublasHandle_t h;
    int have_handle;
    int m, n, k;
};

/* gb_dev_release's teardown: the handle, once the stream is idle. */
static void gemm_teardown(struct impl_ctx *ctx) {
    struct gemm_state *s = ctx->state;
    if (s->have_handle)
        CUBLAS_WARN(cublasDestroy(s->h));
}

/* The handle's math mode for the tier, and the note that records it. */
static enum status set_math(struct impl_ctx *ctx, struct gemm_state *s, enum dtype t) {
    if (t == DT_F32 || t == DT_F64)
        return gb_cublas_exact_math(ctx, s->h, t, ctx->note, sizeof ctx->note);
#if GEMM_CUBLAS11
    CUBLAS_TRY(cublasSetMathMode(s->h, CUBLAS_DEFAULT_MATH), ctx);
    snprintf(ctx->note, sizeof ctx->note, "%s",
             t == DT_TF32 ? "math=CUBLAS_COMPUTE_32F_FAST_TF32"
                          : "math=default (tensor ops), CUBLAS_COMPUTE_32F");
#elif CUDART_VERSION >= 9000
    CUBLAS_TRY(cublasSetMathMode(s->h, CUBLAS_TENSOR_OP_MATH), ctx);
    snprintf(ctx->note, sizeof ctx->note, "%s", "math=CUBLAS_TENSOR_OP_MATH, compute CUDA_R_32F");
#else
    snprintf(ctx->note, sizeof ctx->note, "%s",
             "math=default, compute CUDA_R_32F (no tensor cores before CUDA 9)");
#endif
    return ST_OK;
}

static enum status gemm_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    enum dtype t = p->dtype;
#if !GEMM_CUBLAS11
    if (t == DT_TF32 || t == DT_BF16) { /* gpu_tier_check says so first in a CUDA 10 build */
        snprintf(ctx->note, sizeof ctx->note, "%s needs cuBLAS 11", dtype_label(t));
        return ST_UNSUPPORTED;
    }
#endif
    enum status st;
    if ((st = gb_impl_state(ctx, sizeof(struct gemm_state))) != ST_OK)
        return st;
    struct gemm_state *s = ctx->state;
    s->dev.teardown = gemm_teardown;
    /* bench/gemm.c's complete() keeps every size within int, as cuBLAS needs. */
    s->m = (int)p->shape.v[M];
    s->n = (int)p->shape.v[N];
    s->k = (int)p->shape.v[K];
    const struct gb_dev_spec spec[] = {
        [DEV_A] = {.name = "A", .in = &p->in[IN_A]},
        [DEV_B] = {.name = "B", .in = &p->in[IN_B]},
        [DEV_C] = {.name = "C", .out = &p->out[OUT_C], .store = GB_DEV_WIDE}, /* FP32 C */
    };
    if ((st = gb_dev_prepare(ctx, spec, (int)(sizeof spec / sizeof *spec), 0,
                             "A, B, C; cuBLAS's workspace comes on top")) != ST_OK)
        return st;
    CUBLAS_TRY(cublasCreate(&s->h), ctx);
    s->have_handle = 1;
    CUBLAS_TRY(cublasSetStream(s->h, gb_stream()), ctx);
    return set_math(ctx, s, t);
}

/* cublasGemmEx for tf32, f16 and bf16: FP32 C and accumulation. */
static enum status gemm_run_ex(struct impl_ctx *ctx, struct gemm_state *s, enum dtype t) {
    const float one = 1.0f, zero = 0.0f;
    void *a = s->dev.ptr[DEV_A], *b = s->dev.ptr[DEV_B], *c = s->dev.ptr[DEV_C];
#if GEMM_CUBLAS11
    cudaDataType_t in = t == DT_F16 ? CUDA_R_16F : t == DT_BF16 ? CUDA_R_16BF : CUDA_R_32F;
    cublasComputeType_t compute = t == DT_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    CUBLAS_TRY(cublasGemmEx(s->h, CUBLAS_OP_N, CUBLAS_OP_N, s->n, s->m, s->k, &one, b, in, s->n, a,
                            in, s->k, &zero, c, CUDA_R_32F, s->n, compute, CUBLAS_GEMM_DEFAULT),
               ctx);
#else
    (void)t; /* f16 only (prepare refused tf32 and bf16) */
#if CUDART_VERSION >= 9000
    cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT;
#else
    cublasGemmAlgo_t algo = CUBLAS_GEMM_DFALT;
#endif
    CUBLAS_TRY(cublasGemmEx(s->h, CUBLAS_OP_N, CUBLAS_OP_N, s->n, s->m, s->k, &one, b, CUDA_R_16F,
                            s->n, a, CUDA_R_16F, s->k, &zero, c, CUDA_R_32F, s->n, CUDA_R_32F,
                            algo),
               ctx);
#endif
    return ST_OK;
}

static enum status gemm_run(struct impl_ctx *ctx) {
    struct gemm_state *s = ctx->state;
    enum dtype t = ctx->p->dtype;
    void *a = s->dev.ptr[DEV_A], *b = s->dev.ptr[DEV_B], *c = s->dev.ptr[DEV_C];
    /* Column-major Cᵀ (n×m) = Bᵀ (n×k, B's row-major storage) · Aᵀ (k×m, A's storage). */
    if (t == DT_F64) {
        const double one = 1.0, zero = 0.0;
        CUBLAS_TRY(cublasDgemm(s->h, CUBLAS_OP_N, CUBLAS_OP_N, s->n, s->m, s->k, &one, b, s->n, a,
                               s->k, &zero, c, s->n),
                   ctx);
        return ST_OK;
    }
    if (t != DT_F32)
        return gemm_run_ex(ctx, s, t);
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_TRY(cublasSgemm(s->h, CUBLAS_OP_N, CUBLAS_OP_N, s->n, s->m, s->k, &one, b, s->n, a, s->k,
                           &zero, c, s->n),
               ctx);
    return ST_OK;
}

const struct impl gemm_cublas_impl = {
    .name = "cublas",
    .kind = DEV_CUDA,
#if GEMM_CUBLAS11
    .summary = "cublasSgemm / Dgemm (default math: IEEE FP32/FP64) / GemmEx (TF32, FP16, BF16; "
               "FP32 accumulate)",
#else
    .summary = "cublasSgemm / Dgemm / GemmEx FP16 (FP32 accumulate), default math",
#endif
    .prepare = gemm_prepare,
    .upload = gb_dev_upload,
    .run = gemm_run,
    .download = gb_dev_download,
    .finish = gb_dev_finish,
    .release = gb_dev_release,
    .dtypes = DT_ALL,
};
