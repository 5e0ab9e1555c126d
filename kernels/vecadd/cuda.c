/* cuda.c — vecadd/cuda: c = a + b with our grid-stride kernel (kernels.cuh), on the run's
 * stream.
 *
 * Problem layout (kernels/vecadd/layout.h): in a, b, out c, n floats each (doubles for f64). upload
 * copies a and b, run launches the kernel, download copies c back. Every run computes the same
 * c, so every run could be verified.
 */
#include <stdlib.h>

#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/vecadd/cuda.h"
#include "kernels/vecadd/layout.h"

enum { IN_A = VECADD_IN_A, IN_B = VECADD_IN_B, OUT_C = VECADD_OUT_C };

struct vecadd_cuda_state {
    void *a, *b, *c;
    size_t n, size; /* elements, bytes per element */
    int f64;
};

static enum status vecadd_cuda_prepare(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s;
    size_t bytes;
    enum status st;
    if ((st = gb_check_kernels(ctx, gb_vecadd_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    s->n = ctx->p->out[OUT_C].n;
    s->f64 = ctx->p->dtype == DT_F64;
    s->size = s->f64 ? sizeof(double) : sizeof(float);
    bytes = s->n * s->size;
    if ((st = gb_malloc(ctx, &s->a, bytes, "a")) != ST_OK ||
        (st = gb_malloc(ctx, &s->b, bytes, "b")) != ST_OK ||
        (st = gb_malloc(ctx, &s->c, bytes, "c")) != ST_OK)
        return st;
    return ST_OK;
}

static enum status vecadd_cuda_upload(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s = ctx->state;
    const struct problem *p = ctx->p;
    const void *a = s->f64 ? (const void *)p->in[IN_A].data64 : (const void *)p->in[IN_A].data;
    const void *b = s->f64 ? (const void *)p->in[IN_B].data64 : (const void *)p->in[IN_B].data;
    CU_TRY(cudaMemcpyAsync(s->a, a, s->n * s->size, cudaMemcpyHostToDevice, gb_stream()), ctx);
    CU_TRY(cudaMemcpyAsync(s->b, b, s->n * s->size, cudaMemcpyHostToDevice, gb_stream()), ctx);
    return ST_OK;
}

static enum status vecadd_cuda_run(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s = ctx->state;
    if (s->f64)
        CU_TRY(gb_vecadd64(gb_stream(), s->a, s->b, s->c, s->n), ctx);
    else
        CU_TRY(gb_vecadd(gb_stream(), s->a, s->b, s->c, s->n), ctx);
    return ST_OK;
}

static enum status vecadd_cuda_download(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s = ctx->state;
    struct buf *c = &ctx->p->out[OUT_C];
    void *host = s->f64 ? (void *)c->data64 : (void *)c->data;
    CU_TRY(cudaMemcpyAsync(host, s->c, s->n * s->size, cudaMemcpyDeviceToHost, gb_stream()), ctx);
    return ST_OK;
}

static void vecadd_cuda_release(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s = ctx->state;
    if (!s)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream())); /* nothing of ours may still be queued */
    void *bufs[] = {s->a, s->b, s->c};
    gb_free_device(bufs, sizeof bufs / sizeof bufs[0]);
    free(s);
    ctx->state = NULL;
}

const struct impl vecadd_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own grid-stride kernel c = a + b (float4 when aligned; doubles for f64)",
    .prepare = vecadd_cuda_prepare,
    .upload = vecadd_cuda_upload,
    .run = vecadd_cuda_run,
    .download = vecadd_cuda_download,
    .release = vecadd_cuda_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64),
};
