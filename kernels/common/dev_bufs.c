/* dev_bufs.c — a CUDA row's device buffers: allocation in the tier's storage, uploads,
 * downloads, the 16-bit conversions outside every timed call, and release. See the header. */
#include "kernels/common/dev_bufs.h"

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "harness/core/dtype.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"

static int is16(enum dtype t) {
    return t == DT_F16 || t == DT_BF16;
}

/* Bytes of one element of a buffer of storage `store` in tier t. */
static size_t elem_size(enum gb_dev_store store, enum dtype t) {
    if (store == GB_DEV_FP32 || (store == GB_DEV_WIDE && is16(t)))
        return sizeof(float);
    return (size_t)dtype_bytes(t);
}

/* The problem's host data of b as this buffer stores it: doubles of an f64 row unless the
 * buffer is FP32, floats otherwise. */
static void *host_data(const struct buf *b, const struct gb_dev_buf *d, enum dtype t) {
    return t == DT_F64 && d->spec.store != GB_DEV_FP32 ? (void *)b->data64 : (void *)b->data;
}

/* The 16-bit host copy of in (in the device's layout), and room for the 16-bit out. 0, or -1
 * when out of host memory. */
static int make_halves(struct gb_dev_buf *d, enum dtype t) {
    const struct gb_dev_spec *sp = &d->spec;
    if (sp->in && !sp->place && !(d->half_up = dtype_halves_new(sp->in->data, d->n, t)))
        return -1;
    if (sp->in && sp->place) {
        /* +1: malloc(0) may be NULL, and a zero-element buffer is no failure */
        /* zeroed: a padded layout's places that no element maps to (spec.n > in->n) */
        if (!(d->half_up = calloc(d->n + 1, sizeof *d->half_up)))
            return -1;
        for (size_t i = 0; i < sp->in->n; i++)
            d->half_up[sp->place(i, sp->place_arg)] = t == DT_F16
                                                          ? dtype_f32_to_f16(sp->in->data[i])
                                                          : dtype_f32_to_bf16(sp->in->data[i]);
    }
    if (sp->out && !(d->half_down = malloc(d->n * sizeof *d->half_down + 1)))
        return -1;
    d->up = d->half_up;
    d->down = d->half_down;
    return 0;
}

/* One spec into d: element count and size, and the host side of its copies. */
static enum status record(struct impl_ctx *ctx, struct gb_dev_buf *d, const struct gb_dev_spec *sp,
                          enum dtype t) {
    d->spec = *sp;
    d->n = sp->in ? sp->in->n : sp->out ? sp->out->n : sp->n;
    if (sp->in && !sp->out && sp->place && sp->n > d->n && is16(t) && sp->store == GB_DEV_TIER)
        d->n = sp->n; /* a padded placed layout (16-bit storage only: make_halves) */
    d->size = elem_size(sp->store, t);
    if (sp->in && sp->out && sp->in->n != sp->out->n) {
        snprintf(ctx->note, sizeof ctx->note,
                 "gb_dev_prepare: %s is uploaded from %zu elements and downloaded into %zu",
                 sp->name, sp->in->n, sp->out->n);
        return ST_ERROR;
    }
    if (sp->in)
        d->up = host_data(sp->in, d, t);
    if (sp->out)
        d->down = host_data(sp->out, d, t);
    if ((sp->in && !d->up) || (sp->out && !d->down)) {
        snprintf(ctx->note, sizeof ctx->note,
                 "gb_dev_prepare: %s: its problem buffer has no %s data for this storage", sp->name,
                 t == DT_F64 && sp->store != GB_DEV_FP32 ? "data64" : "float32");
        return ST_ERROR;
    }
    return ST_OK;
}

enum status gb_dev_prepare(struct impl_ctx *ctx, const struct gb_dev_spec *spec, int n,
                           size_t extra, const char *what) {
    struct gb_dev_bufs *s = ctx->state;
    const enum dtype t = ctx->p->dtype;
    const int first = s->nbufs;
    size_t bytes = extra;
    enum status st;
    int i;
    if (n < 0 || n > GB_DEV_MAX_BUFS - first) {
        snprintf(ctx->note, sizeof ctx->note, "gb_dev_prepare: %d buffers, room for %d", first + n,
                 (int)GB_DEV_MAX_BUFS);
        return ST_ERROR;
    }
    s->t = t;
    for (i = 0; i < n; i++) {
        struct gb_dev_buf *d = &s->buf[first + i];
        if ((st = record(ctx, d, &spec[i], t)) != ST_OK)
            return st;
        bytes += d->n * d->size;
    }
    /* Counted only now, so release never frees what this call did not make. */
    s->nbufs = first + n;
    /* The footprint first: a row that can never fit allocates nothing, host copies included. */
    if (what && (st = gb_row_footprint(ctx, bytes, what)) != ST_OK)
        return st;
    for (i = first; i < s->nbufs; i++)
        if (is16(t) && s->buf[i].size == sizeof(uint16_t) && make_halves(&s->buf[i], t) != 0) {
            snprintf(ctx->note, sizeof ctx->note, "out of host memory for the %s copies",
                     dtype_label(t));
            return ST_OOM;
        }
    for (i = first; i < s->nbufs; i++)
        if ((st = gb_malloc(ctx, &s->ptr[i], s->buf[i].n * s->buf[i].size, s->buf[i].spec.name)) !=
            ST_OK)
            return st;
    return ST_OK;
}

enum status gb_dev_upload(struct impl_ctx *ctx) {
    struct gb_dev_bufs *s = ctx->state;
    for (int i = 0; i < s->nbufs; i++) {
        const struct gb_dev_buf *d = &s->buf[i];
        if (d->spec.in)
            CU_TRY(cudaMemcpyAsync(s->ptr[i], d->up, d->n * d->size, cudaMemcpyHostToDevice,
                                   gb_stream()),
                   ctx);
    }
    return ST_OK;
}

enum status gb_dev_download(struct impl_ctx *ctx) {
    struct gb_dev_bufs *s = ctx->state;
    for (int i = 0; i < s->nbufs; i++) {
        const struct gb_dev_buf *d = &s->buf[i];
        if (d->spec.out)
            CU_TRY(cudaMemcpyAsync(d->down, s->ptr[i], d->n * d->size, cudaMemcpyDeviceToHost,
                                   gb_stream()),
                   ctx);
    }
    return ST_OK;
}

enum status gb_dev_finish(struct impl_ctx *ctx) {
    struct gb_dev_bufs *s = ctx->state;
    for (int i = 0; i < s->nbufs; i++) {
        const struct gb_dev_buf *d = &s->buf[i];
        const struct gb_dev_spec *sp = &d->spec;
        if (!sp->out || !d->half_down)
            continue;
        if (!sp->place) {
            dtype_halves_to_f32(d->half_down, sp->out->data, d->n, s->t);
            continue;
        }
        for (size_t j = 0; j < d->n; j++) {
            uint16_t h = d->half_down[sp->place(j, sp->place_arg)];
            sp->out->data[j] = s->t == DT_F16 ? dtype_f16_to_f32(h) : dtype_bf16_to_f32(h);
        }
    }
    return ST_OK;
}

void gb_dev_release(struct impl_ctx *ctx) {
    struct gb_dev_bufs *s = ctx->state;
    if (!s)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream())); /* nothing of the row may still be queued */
    if (s->teardown)
        s->teardown(ctx);
    gb_free_device(s->ptr, (size_t)s->nbufs);
    for (int i = 0; i < s->nbufs; i++) {
        free(s->buf[i].half_up);
        free(s->buf[i].half_down);
    }
    free(s);
    ctx->state = NULL;
}
