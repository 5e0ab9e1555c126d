/* cublas.c — gemm/cublas: C = A·B with cublasSgemm, pure FP32, on the run's stream.
 *
 * Problem layout (kernels/gemm/layout.h): in A (m×k), B (k×n), out C (m×n), all row-major. cuBLAS
 * is column-major; a row-major matrix is the column-major view of its transpose, so C = A·B is
 * computed as Cᵀ = Bᵀ·Aᵀ: cublasSgemm(N, N, n, m, k, B (ld n), A (ld k), C (ld n)). No
 * transposition is ever materialized.
 *
 * Math mode: CUBLAS_PEDANTIC_MATH from cuBLAS 11 (no TF32, no reduced-precision reductions,
 * whatever NVIDIA_TF32_OVERRIDE says); before cuBLAS 11 the default mode is FP32 already, and
 * the pedantic mode does not exist. The row note records which.
 */
#include <stdlib.h>

#include "kernels/gemm/layout.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"

enum { M = GEMM_KEY_M, N = GEMM_KEY_N, K = GEMM_KEY_K };
enum { IN_A = GEMM_IN_A, IN_B = GEMM_IN_B, OUT_C = GEMM_OUT_C };

#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
#define GEMM_PEDANTIC 1
#else
#define GEMM_PEDANTIC 0
#endif

struct sgemm_state {
    cublasHandle_t h;
    int have_handle;
    int m, n, k;
    float *a, *b, *c;
};

static enum status sgemm_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    struct sgemm_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory");
        return ST_OOM;
    }
    ctx->state = s;
    /* bench/gemm.c's complete() keeps every size within int, as cuBLAS needs. */
    s->m = (int)p->shape.v[M];
    s->n = (int)p->shape.v[N];
    s->k = (int)p->shape.v[K];
    size_t m = (size_t)s->m, n = (size_t)s->n, k = (size_t)s->k;
    enum status st;
    if ((st = gb_malloc(ctx, (void **)&s->a, m * k * sizeof(float), "A")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->b, k * n * sizeof(float), "B")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->c, m * n * sizeof(float), "C")) != ST_OK)
        return st;
    CUBLAS_TRY(cublasCreate(&s->h), ctx);
    s->have_handle = 1;
    CUBLAS_TRY(cublasSetStream(s->h, gb_stream()), ctx);
#if GEMM_PEDANTIC
    CUBLAS_TRY(cublasSetMathMode(s->h, CUBLAS_PEDANTIC_MATH), ctx);
    snprintf(ctx->note, sizeof ctx->note, "math=pedantic FP32 (CUBLAS_PEDANTIC_MATH)");
#else
    snprintf(ctx->note, sizeof ctx->note,
             "math=default (FP32; cuBLAS before 11 has no pedantic mode)");
#endif
    return ST_OK;
}

static enum status sgemm_upload(struct impl_ctx *ctx) {
    struct sgemm_state *s = ctx->state;
    struct problem *p = ctx->p;
    cudaStream_t st = gb_stream();
    CU_TRY(cudaMemcpyAsync(s->a, p->in[IN_A].data, p->in[IN_A].n * sizeof(float),
                           cudaMemcpyHostToDevice, st),
           ctx);
    CU_TRY(cudaMemcpyAsync(s->b, p->in[IN_B].data, p->in[IN_B].n * sizeof(float),
                           cudaMemcpyHostToDevice, st),
           ctx);
    return ST_OK;
}

static enum status sgemm_run(struct impl_ctx *ctx) {
    struct sgemm_state *s = ctx->state;
    const float one = 1.0f, zero = 0.0f;
    /* Column-major Cᵀ (n×m) = Bᵀ (n×k, B's row-major storage) · Aᵀ (k×m, A's storage). */
    CUBLAS_TRY(cublasSgemm(s->h, CUBLAS_OP_N, CUBLAS_OP_N, s->n, s->m, s->k, &one, s->b, s->n, s->a,
                           s->k, &zero, s->c, s->n),
               ctx);
    return ST_OK;
}

static enum status sgemm_download(struct impl_ctx *ctx) {
    struct sgemm_state *s = ctx->state;
    struct problem *p = ctx->p;
    CU_TRY(cudaMemcpyAsync(p->out[OUT_C].data, s->c, p->out[OUT_C].n * sizeof(float),
                           cudaMemcpyDeviceToHost, gb_stream()),
           ctx);
    return ST_OK;
}

static void sgemm_release(struct impl_ctx *ctx) {
    struct sgemm_state *s = ctx->state;
    if (!s)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream()));
    if (s->have_handle)
        CUBLAS_WARN(cublasDestroy(s->h));
    void *bufs[] = {s->a, s->b, s->c};
    gb_free_device(bufs, sizeof bufs / sizeof bufs[0]);
    free(s);
    ctx->state = NULL;
}

const struct impl gemm_cublas_impl = {
    .name = "cublas",
    .kind = DEV_CUDA,
#if GEMM_PEDANTIC
    .summary = "cublasSgemm, row-major by operand swap, CUBLAS_PEDANTIC_MATH (pure FP32)",
#else
    .summary = "cublasSgemm, row-major by operand swap, default math (FP32 before cuBLAS 11)",
#endif
    .prepare = sgemm_prepare,
    .upload = sgemm_upload,
    .run = sgemm_run,
    .download = sgemm_download,
    .release = sgemm_release,
};
