/* openblas.c — conv2d/openblas: NCHW forward convolution as threaded im2col + SGEMM (f32), or
 * im2col + DGEMM (f64, a plainer path at the end of the file).
 *
 * Why this shape of GEMM: y_img (k × p·q) = wt (k × c·r·s) · col (c·r·s × p·q) writes NCHW
 * directly, so the output needs no transpose and the filters are used as stored. What makes it
 * cheap: the image is first copied once into a zero-padded buffer, so every im2col row is a
 * plain copy with no bounds tests, written by inline loops (a memcpy call per 56-float run cost
 * more than the copy); and the col matrix is built for a chunk of output rows at a time, so it
 * is still in cache when the GEMM packs it. Measured: the default layer runs at ~0.95× the rate
 * of cblas_sgemm on the equivalent GEMM shape (k × n·p·q × c·r·s) on a 2-core Skylake-X.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/blas.h"

#include "harness/core/workload.h"
#include "kernels/common/cpu_pool.h"
#include "kernels/conv2d/openblas.h"

/* Target size of one chunk of the im2col matrix. Measured on a 2-core Skylake-X (1 MiB L2 per
 * core) at the default layer, interleaved with a bare SGEMM of the same shape, medians of 10
 * rounds: 2 MiB chunks 0.89×, 4 MiB 0.95×, 8 MiB (a whole 7 MiB image) 0.90× the SGEMM's rate.
 * Smaller chunks pay OpenBLAS's per-call thread wake-up more often; larger ones no longer stay
 * in cache between im2col and the GEMM's packing. Chunking also bounds the scratch for large
 * images (224×224×64: 115 MiB unchunked). */
#ifndef CONV2D_CHUNK_BYTES
#define CONV2D_CHUNK_BYTES (4.0 * 1024.0 * 1024.0)
#endif

/* 1×1, stride 1, no padding: the image itself (c × h·w) is already the col matrix. */
static int conv2d_is_pointwise(const struct conv2d_dims *d) {
    return d->r == 1 && d->s == 1 && d->stride_h == 1 && d->stride_w == 1 && d->pad_h == 0 &&
           d->pad_w == 0;
}

static int conv2d_is_padded(const struct conv2d_dims *d) {
    return d->pad_h > 0 || d->pad_w > 0;
}

/* Output rows per GEMM chunk: the chunk's col block (c·r·s rows × rows·q columns) is sized near
 * CONV2D_CHUNK_BYTES, with the image's rows split evenly between its chunks. Whole output rows
 * keep the im2col loops free of partial-row cases. */
static long conv2d_chunk_rows(const struct conv2d_dims *d) {
    double row_bytes = (double)d->c * d->r * d->s * d->q * sizeof(float);
    long chunks = (long)ceil((double)d->p * row_bytes / CONV2D_CHUNK_BYTES);
    if (chunks < 1)
        chunks = 1;
    if (chunks > d->p)
        chunks = d->p;
    return (d->p + chunks - 1) / chunks;
}

size_t conv2d_cpu_scratch_floats(const struct conv2d_dims *d) {
    if (conv2d_is_pointwise(d))
        return 0;
    size_t col = (size_t)d->c * d->r * d->s * conv2d_chunk_rows(d) * d->q;
    size_t padded =
        conv2d_is_padded(d) ? (size_t)d->c * ((size_t)d->h + 2 * (size_t)d->pad_h) *
                                  ((size_t)d->w + 2 * (size_t)d->pad_w)
                            : 0;
    return col + padded;
}

struct conv2d_job {
    const struct conv2d_dims *d;
    const float *img; /* the input image */
    float *padded;    /* its zero-padded copy (NULL when there is no padding) */
    const float *src; /* what im2col reads: img or padded */
    long hp, wp;      /* height and width of src's planes */
    float *col;       /* the chunk's col block */
    long p0, p1;      /* output rows of this chunk */
    int pad_now;      /* this pool_run also pads (the first chunk of an image) */
    int by_channel;   /* threads split channels (pad + im2col in one pass) rather than rows */
};

/* Channels [lo, hi) of the zero-padded copy. With the padding materialized, every im2col row is
 * a plain (strided) copy with no bounds tests. */
static void conv2d_pad(const struct conv2d_job *j, size_t lo, size_t hi) {
    const struct conv2d_dims *d = j->d;
    for (size_t ci = lo; ci < hi; ci++) {
        const float *in = j->img + ci * d->h * d->w;
        float *out = j->padded + ci * j->hp * j->wp;
        memset(out, 0, (size_t)(d->pad_h * j->wp) * sizeof(float));
        for (long y = 0; y < d->h; y++) {
            float *row = out + (y + d->pad_h) * j->wp;
            memset(row, 0, (size_t)d->pad_w * sizeof(float));
            memcpy(row + d->pad_w, in + y * d->w, (size_t)d->w * sizeof(float));
            memset(row + d->pad_w + d->w, 0, (size_t)(j->wp - d->pad_w - d->w) * sizeof(float));
        }
        memset(out + (d->pad_h + d->h) * j->wp, 0,
               (size_t)((j->hp - d->pad_h - d->h) * j->wp) * sizeof(float));
    }
}

/* One output row's worth of taps. `+ 0.0f` keeps the compiler from turning this short loop back
 * into a memcpy call, whose call overhead is most of the cost at q ≈ 56 (it only changes −0 to
 * +0, which no sum can tell apart). */
static void conv2d_copy_unit(float *restrict dst, const float *restrict src, long n) {
    for (long i = 0; i < n; i++)
        dst[i] = src[i] + 0.0f;
}

static void conv2d_copy_strided(float *restrict dst, const float *restrict src, long n,
                                long stride) {
    for (long i = 0; i < n; i++)
        dst[i] = src[i * stride];
}

/* Rows [lo, hi) of the chunk's col block (c·r·s × (p1 − p0)·q), each written front to back. */
static void conv2d_im2col(const struct conv2d_job *j, size_t lo, size_t hi) {
    const struct conv2d_dims *d = j->d;
    const long rs = d->r * d->s, cols = (j->p1 - j->p0) * d->q;
    for (size_t row = lo; row < hi; row++) {
        long ci = (long)row / rs, ri = ((long)row % rs) / d->s, si = (long)row % d->s;
        const float *plane = j->src + ci * j->hp * j->wp;
        float *out = j->col + row * cols;
        for (long pi = j->p0; pi < j->p1; pi++, out += d->q) {
            const float *in = plane + (pi * d->stride_h + ri) * j->wp + si;
            if (d->stride_w == 1)
                conv2d_copy_unit(out, in, d->q);
            else
                conv2d_copy_strided(out, in, d->q, d->stride_w);
        }
    }
}

static void conv2d_pad_worker(void *arg, int tid, int nthreads) {
    const struct conv2d_job *j = arg;
    size_t lo, hi;
    pool_range((size_t)j->d->c, nthreads, tid, 1, &lo, &hi);
    conv2d_pad(j, lo, hi);
}

/* One chunk. With enough channels each thread pads its own channels and builds their col rows
 * in the same pass, so an image costs one synchronization of the pool per chunk, not two:
 * every barrier is a wait for the slowest thread, and on a busy machine for the scheduler. */
static void conv2d_chunk_worker(void *arg, int tid, int nthreads) {
    const struct conv2d_job *j = arg;
    const size_t rs = (size_t)(j->d->r * j->d->s);
    size_t lo, hi;
    if (j->by_channel) {
        pool_range((size_t)j->d->c, nthreads, tid, 1, &lo, &hi);
        if (j->pad_now)
            conv2d_pad(j, lo, hi);
        conv2d_im2col(j, lo * rs, hi * rs);
    } else {
        pool_range((size_t)j->d->c * rs, nthreads, tid, 1, &lo, &hi);
        conv2d_im2col(j, lo, hi);
    }
}

void conv2d_cpu_forward(const struct conv2d_dims *d, const float *x, const float *wt, float *y,
                        float *scratch) {
    const size_t in_img = (size_t)d->c * d->h * d->w, out_img = (size_t)d->k * d->p * d->q;
    const int gm = (int)d->k, gn = (int)(d->p * d->q), gk = (int)(d->c * d->r * d->s);
    const long chunk = conv2d_chunk_rows(d);
    const int padded = conv2d_is_padded(d);
    struct conv2d_job job = {.d = d,
                             .col = scratch,
                             .padded = padded ? scratch + (size_t)gk * chunk * d->q : NULL,
                             .hp = (long)d->h + 2L * d->pad_h,
                             .wp = (long)d->w + 2L * d->pad_w,
                             /* Splitting channels balances within 1/4 of a channel's share. */
                             .by_channel = d->c >= 4 * pool_threads()};
    for (long ni = 0; ni < d->n; ni++) {
        const float *img = x + ni * in_img;
        float *out = y + ni * out_img;
        if (conv2d_is_pointwise(d)) {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, gm, gn, gk, 1.0f, wt, gk, img,
                        gn, 0.0f, out, gn);
            continue;
        }
        job.img = img;
        job.src = padded ? job.padded : img;
        job.pad_now = padded;
        if (padded && !job.by_channel) {
            pool_run(conv2d_pad_worker, &job);
            job.pad_now = 0;
        }
        for (long p0 = 0; p0 < d->p; p0 += chunk) {
            job.p0 = p0;
            job.p1 = p0 + chunk < d->p ? p0 + chunk : d->p;
            pool_run(conv2d_chunk_worker, &job);
            job.pad_now = 0;
            int cn = (int)((job.p1 - p0) * d->q);
            /* y_img[:, p0·q …] (k × cn, leading dimension p·q) = wt · col block. */
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, gm, cn, gk, 1.0f, wt, gk,
                        job.col, cn, 0.0f, out + p0 * d->q, gn);
        }
    }
}

/* --- f64: the plain path ------------------------------------------------------------------
 * The whole image's col matrix in doubles, built with bounds tests (zero padding on the fly)
 * by the pool, one row per (channel, tap), then one cblas_dgemm. Simpler than the f32 path's
 * padded copy and chunking: an f64 row measures the FP64 GEMM rate, which is what the tier is
 * about, and the copy is a small share of it (c·r·s·p·q doubles against 2·k·c·r·s·p·q FLOPs). */
size_t conv2d_cpu_scratch_doubles(const struct conv2d_dims *d) {
    return (size_t)d->c * d->r * d->s * d->p * d->q;
}

struct conv2d_job64 {
    const struct conv2d_dims *d;
    const double *img;
    double *col;
};

static void conv2d_im2col64(void *arg, int tid, int nthreads) {
    const struct conv2d_job64 *j = arg;
    const struct conv2d_dims *d = j->d;
    const long rs = d->r * d->s;
    size_t lo, hi;
    pool_range((size_t)(d->c * rs), nthreads, tid, 1, &lo, &hi);
    for (size_t row = lo; row < hi; row++) {
        long ci = (long)row / rs, ri = ((long)row % rs) / d->s, si = (long)row % d->s;
        const double *plane = j->img + ci * d->h * d->w;
        double *out = j->col + row * d->p * d->q;
        for (long pi = 0; pi < d->p; pi++) {
            long ih = pi * d->stride_h - d->pad_h + ri;
            for (long qi = 0; qi < d->q; qi++) {
                long iw = qi * d->stride_w - d->pad_w + si;
                int in = ih >= 0 && ih < d->h && iw >= 0 && iw < d->w;
                *out++ = in ? plane[ih * d->w + iw] : 0.0;
            }
        }
    }
}

void conv2d_cpu_forward64(const struct conv2d_dims *d, const double *x, const double *wt,
                          double *y, double *col) {
    const size_t in_img = (size_t)d->c * d->h * d->w, out_img = (size_t)d->k * d->p * d->q;
    const int gm = (int)d->k, gn = (int)(d->p * d->q), gk = (int)(d->c * d->r * d->s);
    for (long ni = 0; ni < d->n; ni++) {
        struct conv2d_job64 job = {d, x + ni * in_img, col};
        pool_run(conv2d_im2col64, &job);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, gm, gn, gk, 1.0, wt, gk, col, gn,
                    0.0, y + ni * out_img, gn);
    }
}

/* --- the row ------------------------------------------------------------------------------ */
struct conv2d_openblas_state {
    struct conv2d_dims d;
    float *scratch; /* padded image + im2col chunk, allocated here so run never allocates */
    double *col64;  /* f64: one image's col matrix */
};

static enum status openblas_prepare(struct impl_ctx *ctx) {
    struct conv2d_openblas_state *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory");
        return ST_OOM;
    }
    ctx->state = st;
    conv2d_dims_of(&ctx->p->shape, &st->d);
    if (ctx->p->dtype == DT_F64) {
        size_t bytes = (conv2d_cpu_scratch_doubles(&st->d) * sizeof(double) + 63) / 64 * 64;
        if (!(st->col64 = aligned_alloc(64, bytes))) {
            snprintf(ctx->note, sizeof ctx->note, "out of host memory for %zu MiB of im2col",
                     bytes >> 20);
            return ST_OOM;
        }
        return ST_OK;
    }
    size_t floats = conv2d_cpu_scratch_floats(&st->d);
    if (floats) {
        size_t bytes = (floats * sizeof(float) + 63) / 64 * 64;
        if (!(st->scratch = aligned_alloc(64, bytes))) {
            snprintf(ctx->note, sizeof ctx->note, "out of host memory for %zu MiB of im2col",
                     bytes >> 20);
            return ST_OOM;
        }
    }
    return ST_OK;
}

static enum status openblas_run(struct impl_ctx *ctx) {
    struct conv2d_openblas_state *st = ctx->state;
    struct problem *p = ctx->p;
    if (p->dtype == DT_F64) {
        conv2d_cpu_forward64(&st->d, p->in[CONV2D_IN_X].data64, p->in[CONV2D_IN_W].data64,
                             p->out[CONV2D_OUT_Y].data64, st->col64);
        return ST_OK;
    }
    conv2d_cpu_forward(&st->d, p->in[CONV2D_IN_X].data, p->in[CONV2D_IN_W].data,
                       p->out[CONV2D_OUT_Y].data, st->scratch);
    return ST_OK;
}

/* The scratch prepare allocates, for the plan's host-memory check, counted as floats (the plan
 * doubles it for an f64 problem): the f32 chunk, or f64's whole col matrix of one image. */
static double openblas_host_bytes(const struct shape *s) {
    struct conv2d_dims d;
    conv2d_dims_of(s, &d);
    size_t f32 = conv2d_cpu_scratch_floats(&d), f64 = conv2d_cpu_scratch_doubles(&d);
    return 4.0 * (double)(f32 > f64 ? f32 : f64);
}

static void openblas_release(struct impl_ctx *ctx) {
    struct conv2d_openblas_state *st = ctx->state;
    if (st) {
        free(st->scratch);
        free(st->col64);
        free(st);
        ctx->state = NULL;
    }
}

const struct impl conv2d_openblas_impl = {
    .name = "openblas",
    .kind = DEV_CPU,
    .summary = "threaded im2col + cblas_sgemm / cblas_dgemm per image (OpenBLAS threads)",
    .prepare = openblas_prepare,
    .run = openblas_run,
    .release = openblas_release,
    .host_bytes = openblas_host_bytes,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64)};
