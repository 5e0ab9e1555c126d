/* cuda.c — conv2d/cuda: NCHW forward convolution with our implicit-GEMM kernels (kernels.cuh),
 * on the run's stream, in float32 and (the f64 tier) float64.
 *
 * Problem layout (bench/conv2d.h): in x (n×c×h×w) and the filters
 * (k×c×r×s), out y (n×k×p×q), floats (doubles for f64); any stride and padding per axis. The
 * kernel indexes with int, so a tensor of 2^31 elements or more is an `unsupported` row (the note
 * says which).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/conv2d.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/conv2d/cuda.h"

enum { IN_X = CONV2D_IN_X, IN_WT = CONV2D_IN_W, OUT_Y = CONV2D_OUT_Y };

struct conv2d_cuda_state {
    struct gb_arch arch;
    struct conv2d_dims d;
    void *x, *wt, *y;
    size_t size; /* bytes per element */
    int f64;
};

static enum status conv2d_cuda_prepare(struct impl_ctx *ctx) {
    const struct problem *p = ctx->p;
    struct conv2d_cuda_state *s;
    enum status st;
    if ((st = gb_check_kernels(ctx, gb_conv2d_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    conv2d_dims_of(&p->shape, &s->d);
    if (!conv2d_dims_int_indexed(&s->d)) {
        snprintf(ctx->note, sizeof ctx->note,
                 "a tensor of this shape has 2^31 elements or more, beyond the own kernel's int "
                 "indexing; use the cudnn implementation");
        return ST_UNSUPPORTED;
    }
    s->f64 = p->dtype == DT_F64;
    s->size = s->f64 ? sizeof(double) : sizeof(float);
    if ((st = gb_impl_arch(ctx, &s->arch)) != ST_OK ||
        (st = gb_row_footprint(ctx, (p->in[IN_X].n + p->in[IN_WT].n + p->out[OUT_Y].n) * s->size,
                               "x, filters, y")) != ST_OK ||
        (st = gb_malloc(ctx, &s->x, p->in[IN_X].n * s->size, "x")) != ST_OK ||
        (st = gb_malloc(ctx, &s->wt, p->in[IN_WT].n * s->size, "filters")) != ST_OK ||
        (st = gb_malloc(ctx, &s->y, p->out[OUT_Y].n * s->size, "y")) != ST_OK)
        return st;
    return ST_OK;
}

static enum status conv2d_cuda_upload(struct impl_ctx *ctx) {
    struct conv2d_cuda_state *s = ctx->state;
    const struct problem *p = ctx->p;
    const struct buf *x = &p->in[IN_X], *wt = &p->in[IN_WT];
    const void *hx = s->f64 ? (const void *)x->data64 : (const void *)x->data;
    const void *hw = s->f64 ? (const void *)wt->data64 : (const void *)wt->data;
    CU_TRY(cudaMemcpyAsync(s->x, hx, x->n * s->size, cudaMemcpyHostToDevice, gb_stream()), ctx);
    CU_TRY(cudaMemcpyAsync(s->wt, hw, wt->n * s->size, cudaMemcpyHostToDevice, gb_stream()), ctx);
    return ST_OK;
}

static enum status conv2d_cuda_run(struct impl_ctx *ctx) {
    struct conv2d_cuda_state *s = ctx->state;
    if (s->f64)
        CU_TRY(gb_conv2d64(gb_stream(), &s->arch, &s->d, s->x, s->wt, s->y), ctx);
    else
        CU_TRY(gb_conv2d(gb_stream(), &s->arch, &s->d, s->x, s->wt, s->y), ctx);
    return ST_OK;
}

static enum status conv2d_cuda_download(struct impl_ctx *ctx) {
    struct conv2d_cuda_state *s = ctx->state;
    struct buf *y = &ctx->p->out[OUT_Y];
    void *host = s->f64 ? (void *)y->data64 : (void *)y->data;
    CU_TRY(cudaMemcpyAsync(host, s->y, y->n * s->size, cudaMemcpyDeviceToHost, gb_stream()), ctx);
    return ST_OK;
}

static void conv2d_cuda_release(struct impl_ctx *ctx) {
    struct conv2d_cuda_state *s = ctx->state;
    if (!s)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream()));
    void *bufs[] = {s->x, s->wt, s->y};
    gb_free_device(bufs, sizeof bufs / sizeof bufs[0]);
    free(s);
    ctx->state = NULL;
}

const struct impl conv2d_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own implicit-GEMM kernel: 64x64 tiles, input gathered on the fly",
    .prepare = conv2d_cuda_prepare,
    .upload = conv2d_cuda_upload,
    .run = conv2d_cuda_run,
    .download = conv2d_cuda_download,
    .release = conv2d_cuda_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64),
};
