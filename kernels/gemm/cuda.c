/* cuda.c — gemm/cuda: C = A·B with our tiled, register-blocked SGEMM (kernels.cuh), on the
 * run's stream.
 *
 * Problem layout (kernels/gemm/layout.h): in A (m×k), B (k×n), out C (m×n), all
 * row-major and dense. The tile configuration follows the device (gb_sgemm): 128×128 on sm_35
 * and newer when the product has enough tiles, 64×64 otherwise; the row note says which.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kernels/gemm/layout.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/gemm/cuda.h"

enum { M = GEMM_KEY_M, N = GEMM_KEY_N, K = GEMM_KEY_K };
enum { IN_A = GEMM_IN_A, IN_B = GEMM_IN_B, OUT_C = GEMM_OUT_C };

struct gemm_cuda_state {
    struct gb_arch arch;
    int m, n, k;
    float *a, *b, *c;
};

static enum status gemm_cuda_prepare(struct impl_ctx *ctx) {
    const struct problem *p = ctx->p;
    struct gemm_cuda_state *s;
    size_t m, n, k;
    enum status st;
    if ((st = gb_check_kernels(ctx, gb_sgemm_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    if ((st = gb_impl_arch(ctx, &s->arch)) != ST_OK)
        return st;
    /* bench/gemm.c's complete() keeps every size within int */
    s->m = (int)p->shape.v[M];
    s->n = (int)p->shape.v[N];
    s->k = (int)p->shape.v[K];
    m = (size_t)s->m, n = (size_t)s->n, k = (size_t)s->k;
    if ((st = gb_malloc(ctx, (void **)&s->a, m * k * sizeof(float), "A")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->b, k * n * sizeof(float), "B")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->c, m * n * sizeof(float), "C")) != ST_OK)
        return st;
    {
        int t = gb_sgemm_tile_for(&s->arch, s->m, s->n);
        snprintf(ctx->note, sizeof ctx->note, "own SGEMM %dx%d tiles", t, t);
    }
    return ST_OK;
}

static enum status gemm_cuda_upload(struct impl_ctx *ctx) {
    struct gemm_cuda_state *s = ctx->state;
    const struct problem *p = ctx->p;
    CU_TRY(cudaMemcpyAsync(s->a, p->in[IN_A].data, p->in[IN_A].n * sizeof(float),
                           cudaMemcpyHostToDevice, gb_stream()),
           ctx);
    CU_TRY(cudaMemcpyAsync(s->b, p->in[IN_B].data, p->in[IN_B].n * sizeof(float),
                           cudaMemcpyHostToDevice, gb_stream()),
           ctx);
    return ST_OK;
}

static enum status gemm_cuda_run(struct impl_ctx *ctx) {
    struct gemm_cuda_state *s = ctx->state;
    CU_TRY(
        gb_sgemm(gb_stream(), &s->arch, 0, 0, s->m, s->n, s->k, s->a, s->k, s->b, s->n, s->c, s->n),
        ctx);
    return ST_OK;
}

static enum status gemm_cuda_download(struct impl_ctx *ctx) {
    struct gemm_cuda_state *s = ctx->state;
    struct problem *p = ctx->p;
    CU_TRY(cudaMemcpyAsync(p->out[OUT_C].data, s->c, p->out[OUT_C].n * sizeof(float),
                           cudaMemcpyDeviceToHost, gb_stream()),
           ctx);
    return ST_OK;
}

static void gemm_cuda_release(struct impl_ctx *ctx) {
    struct gemm_cuda_state *s = ctx->state;
    if (!s)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream()));
    void *bufs[] = {s->a, s->b, s->c};
    gb_free_device(bufs, sizeof bufs / sizeof bufs[0]);
    free(s);
    ctx->state = NULL;
}

const struct impl gemm_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own SGEMM: shared-memory tiles, 8x8 (sm_35+) or 4x4 outputs per thread",
    .prepare = gemm_cuda_prepare,
    .upload = gemm_cuda_upload,
    .run = gemm_cuda_run,
    .download = gemm_cuda_download,
    .release = gemm_cuda_release,
};
