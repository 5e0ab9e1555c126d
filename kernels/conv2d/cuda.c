/* cuda.c — conv2d/cuda: NCHW forward convolution with our implicit-GEMM kernels (kernels.cuh),
 * on the run's stream, in float32 and (the f64 tier) float64.
 *
 * Problem layout (bench/conv2d.h): in x (n×c×h×w) and the filters
 * (k×c×r×s), out y (n×k×p×q), floats (doubles for f64); any stride and padding per axis. The
 * kernel indexes with int, so a tensor of 2^31 elements or more is an `unsupported` row (the note
 * says which).
 */
#include <stdio.h>

#include "bench/conv2d.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"
#include "kernels/conv2d/cuda.h"

enum { IN_X = CONV2D_IN_X, IN_WT = CONV2D_IN_W, OUT_Y = CONV2D_OUT_Y };

enum { DEV_X, DEV_WT, DEV_Y }; /* the device buffers, in gb_dev_prepare's order */

struct conv2d_cuda_state {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    struct gb_arch arch;
    struct conv2d_dims d;
    int f64;
};

static enum status conv2d_cuda_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
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
    if ((st = gb_impl_arch(ctx, &s->arch)) != ST_OK)
        return st;
    const struct gb_dev_spec spec[] = {
        [DEV_X] = {.name = "x", .in = &p->in[IN_X]},
        [DEV_WT] = {.name = "filters", .in = &p->in[IN_WT]},
        [DEV_Y] = {.name = "y", .out = &p->out[OUT_Y]},
    };
    return gb_dev_prepare(ctx, spec, (int)(sizeof spec / sizeof *spec), 0, "x, filters, y");
}

static enum status conv2d_cuda_run(struct impl_ctx *ctx) {
    struct conv2d_cuda_state *s = ctx->state;
    void *x = s->dev.ptr[DEV_X], *wt = s->dev.ptr[DEV_WT], *y = s->dev.ptr[DEV_Y];
    if (s->f64)
        CU_TRY(gb_conv2d64(gb_stream(), &s->arch, &s->d, x, wt, y), ctx);
    else
        CU_TRY(gb_conv2d(gb_stream(), &s->arch, &s->d, x, wt, y), ctx);
    return ST_OK;
}

const struct impl conv2d_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own implicit-GEMM kernel: 64x64 tiles, input gathered on the fly",
    .prepare = conv2d_cuda_prepare,
    .upload = gb_dev_upload,
    .run = conv2d_cuda_run,
    .download = gb_dev_download,
    .finish = gb_dev_finish,
    .release = gb_dev_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64),
};
