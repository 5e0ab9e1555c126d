/* cuda.c — the implementations of workload `memcpy`: one cudaMemcpyAsync on the run's
 * stream per run, in one direction, from or to pinned or pageable host memory.
 *
 * The problem has one input `src` and one output `dst` (bench/memcpy.h). What `run` copies
 * and how the result reaches `dst` for verification:
 *   h2d_pinned    prepare: src → pinned         run: pinned → dev      download: dev → dst
 *   h2d_pageable                                run: src → dev         download: dev → dst
 *   d2h_pinned    upload: src → dev             run: dev → pinned      download: pinned → dst
 *   d2h_pageable  upload: src → dev             run: dev → dst
 *   d2d           upload: src → dev             run: dev → dev2        download: dev2 → dst
 * End to end, a copy row is its run alone (e2e_is_run): the copy is the whole work, the upload
 * and download only stage and check the data. The pageable rows make the host wait for the
 * device (run_waits), so their kernel-only time is taken without holding the queue.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "bench/memcpy.h"

enum copy_mode { H2D_PINNED, H2D_PAGEABLE, D2H_PINNED, D2H_PAGEABLE, D2D };

struct copy_state {
    enum copy_mode mode;
    size_t bytes;
    void *dev, *dev2; /* device buffers */
    void *pinned;     /* page-locked host buffer (pinned modes) */
};

static struct copy_state *state(struct impl_ctx *ctx) {
    return ctx->state;
}

static enum status copy_prepare(struct impl_ctx *ctx, enum copy_mode mode) {
    struct problem *p = ctx->p;
    struct copy_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory for the copy state");
        return ST_OOM;
    }
    ctx->state = s;
    s->mode = mode;
    s->bytes = p->in[MEMCPY_IN_SRC].n * sizeof(float);
    enum status st =
        gb_row_footprint(ctx, mode == D2D ? 2 * s->bytes : s->bytes,
                         mode == D2D ? "two copy buffers" : "the copy buffer");
    if (st != ST_OK || (st = gb_malloc(ctx, &s->dev, s->bytes, "copy buffer")) != ST_OK)
        return st;
    if (mode == D2D && (st = gb_malloc(ctx, &s->dev2, s->bytes, "second copy buffer")) != ST_OK)
        return st;
    if (mode == H2D_PINNED || mode == D2H_PINNED) {
        CU_TRY(cudaMallocHost(&s->pinned, s->bytes), ctx);
        /* h2d copies from the pinned buffer: give it the source data. d2h writes into it:
         * poison it like the outputs, so that a copy that did not happen fails. */
        if (mode == H2D_PINNED)
            memcpy(s->pinned, p->in[MEMCPY_IN_SRC].data, s->bytes);
        else
            memcpy(s->pinned, p->out[MEMCPY_OUT_DST].data, s->bytes);
    }
    return ST_OK;
}

static enum status prepare_h2d_pinned(struct impl_ctx *ctx) {
    return copy_prepare(ctx, H2D_PINNED);
}
static enum status prepare_h2d_pageable(struct impl_ctx *ctx) {
    return copy_prepare(ctx, H2D_PAGEABLE);
}
static enum status prepare_d2h_pinned(struct impl_ctx *ctx) {
    return copy_prepare(ctx, D2H_PINNED);
}
static enum status prepare_d2h_pageable(struct impl_ctx *ctx) {
    return copy_prepare(ctx, D2H_PAGEABLE);
}
static enum status prepare_d2d(struct impl_ctx *ctx) {
    return copy_prepare(ctx, D2D);
}

/* The d2h and d2d modes start from the source on the device. */
static enum status copy_upload(struct impl_ctx *ctx) {
    struct copy_state *s = state(ctx);
    CU_TRY(cudaMemcpyAsync(s->dev, ctx->p->in[MEMCPY_IN_SRC].data, s->bytes,
                           cudaMemcpyHostToDevice, gb_stream()),
           ctx);
    return ST_OK;
}

static enum status copy_run(struct impl_ctx *ctx) {
    struct copy_state *s = state(ctx);
    struct problem *p = ctx->p;
    cudaStream_t st = gb_stream();
    switch (s->mode) {
    case H2D_PINNED:
        CU_TRY(cudaMemcpyAsync(s->dev, s->pinned, s->bytes, cudaMemcpyHostToDevice, st), ctx);
        break;
    case H2D_PAGEABLE:
        CU_TRY(cudaMemcpyAsync(s->dev, p->in[MEMCPY_IN_SRC].data, s->bytes,
                               cudaMemcpyHostToDevice, st),
               ctx);
        break;
    case D2H_PINNED:
        CU_TRY(cudaMemcpyAsync(s->pinned, s->dev, s->bytes, cudaMemcpyDeviceToHost, st), ctx);
        break;
    case D2H_PAGEABLE:
        CU_TRY(cudaMemcpyAsync(p->out[MEMCPY_OUT_DST].data, s->dev, s->bytes,
                               cudaMemcpyDeviceToHost, st),
               ctx);
        break;
    case D2D:
        CU_TRY(cudaMemcpyAsync(s->dev2, s->dev, s->bytes, cudaMemcpyDeviceToDevice, st), ctx);
        break;
    }
    return ST_OK;
}

static enum status copy_download(struct impl_ctx *ctx) {
    struct copy_state *s = state(ctx);
    float *dst = ctx->p->out[MEMCPY_OUT_DST].data;
    cudaStream_t st = gb_stream();
    switch (s->mode) {
    case H2D_PINNED:
    case H2D_PAGEABLE:
        CU_TRY(cudaMemcpyAsync(dst, s->dev, s->bytes, cudaMemcpyDeviceToHost, st), ctx);
        break;
    case D2H_PINNED:
        /* The pinned buffer is what run wrote: wait for it, then hand it over. */
        CU_TRY(cudaStreamSynchronize(st), ctx);
        memcpy(dst, s->pinned, s->bytes);
        break;
    case D2H_PAGEABLE: break; /* run wrote dst itself */
    case D2D:
        CU_TRY(cudaMemcpyAsync(dst, s->dev2, s->bytes, cudaMemcpyDeviceToHost, st), ctx);
        break;
    }
    return ST_OK;
}

static void copy_release(struct impl_ctx *ctx) {
    struct copy_state *s = state(ctx);
    if (!s)
        return;
    /* Pending copies may still read the buffers. */
    CU_WARN(cudaStreamSynchronize(gb_stream()));
    void *bufs[] = {s->dev, s->dev2};
    gb_free_device(bufs, sizeof bufs / sizeof bufs[0]);
    if (s->pinned)
        CU_WARN(cudaFreeHost(s->pinned));
    free(s);
    ctx->state = NULL;
}

const struct impl memcpy_h2d_pinned_impl = {
    .name = "h2d_pinned",
    .kind = DEV_CUDA,
    .summary = "cudaMemcpyAsync host->device from page-locked (cudaMallocHost) memory",
    .prepare = prepare_h2d_pinned,
    .run = copy_run,
    .download = copy_download,
    .release = copy_release,
    .host_transfer = 1,
    .e2e_is_run = 1,
};

const struct impl memcpy_h2d_pageable_impl = {
    .name = "h2d_pageable",
    .kind = DEV_CUDA,
    .summary = "cudaMemcpyAsync host->device from ordinary (pageable) memory",
    .prepare = prepare_h2d_pageable,
    .run = copy_run,
    .download = copy_download,
    .release = copy_release,
    .host_transfer = 1,
    .run_waits = 1, /* a pageable copy makes the host wait for the device */
    .e2e_is_run = 1,
};

const struct impl memcpy_d2h_pinned_impl = {
    .name = "d2h_pinned",
    .kind = DEV_CUDA,
    .summary = "cudaMemcpyAsync device->host into page-locked (cudaMallocHost) memory",
    .prepare = prepare_d2h_pinned,
    .upload = copy_upload,
    .run = copy_run,
    .download = copy_download,
    .release = copy_release,
    .host_transfer = 1,
    .e2e_is_run = 1,
};

const struct impl memcpy_d2h_pageable_impl = {
    .name = "d2h_pageable",
    .kind = DEV_CUDA,
    .summary = "cudaMemcpyAsync device->host into ordinary (pageable) memory",
    .prepare = prepare_d2h_pageable,
    .upload = copy_upload,
    .run = copy_run,
    .download = copy_download,
    .release = copy_release,
    .host_transfer = 1,
    .run_waits = 1, /* a pageable copy makes the host wait for the device */
    .e2e_is_run = 1,
};

const struct impl memcpy_d2d_impl = {
    .name = "d2d",
    .kind = DEV_CUDA,
    .summary = "cudaMemcpyAsync device->device (GB/s counts bytes copied; memory moves 2x)",
    .prepare = prepare_d2d,
    .upload = copy_upload,
    .run = copy_run,
    .download = copy_download,
    .release = copy_release,
    .traffic_per_byte = 2, /* reads and writes each byte copied */
    .e2e_is_run = 1,
};
