/* conv2d.c — workload `conv2d`: NCHW float32 forward convolution (cross-correlation, as in
 * cuDNN), x n×c×h×w, k filters c×r×s, per-axis stride and zero padding, y n×k×p×q.
 *
 * Compute-bound: the figure of merit is GFLOP/s. Implementations (kernels/conv2d/): threaded
 * im2col + OpenBLAS SGEMM (`openblas`); on CUDA devices a hand-written kernel (`cuda`) and cuDNN
 * (`cudnn`).
 *
 * The reference is the direct convolution in double (conv2d_ref below, independent of the
 * im2col path). Small shapes check every output; large ones a deterministic sample:
 * CONV2D_SAMPLES entries spread over the output, plus every filter's border pixels (first and
 * last row and column) of the last image, where padding and partial tiles live. An output with
 * no more entries than that sample is checked whole: the reference never costs more than the
 * row's own multiply-adds (ref_sampled, harness/core/inputs.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/core/inputs.h"
#include "harness/core/interrupt.h"
#include "harness/core/verify.h"
#include "bench/conv2d.h"

enum { /* shape key indices */
       N = CONV2D_KEY_N,
       C = CONV2D_KEY_C,
       H = CONV2D_KEY_H,
       W = CONV2D_KEY_W,
       K = CONV2D_KEY_K,
       R = CONV2D_KEY_R,
       S = CONV2D_KEY_S,
       STRIDE_H = CONV2D_KEY_STRIDE_H,
       STRIDE_W = CONV2D_KEY_STRIDE_W,
       PAD_H = CONV2D_KEY_PAD_H,
       PAD_W = CONV2D_KEY_PAD_W
};
enum { IN_X = CONV2D_IN_X, IN_WT = CONV2D_IN_W };
enum { OUT_Y = CONV2D_OUT_Y };

/* Shapes with at most this many multiply-adds get a full reference; larger ones a sample. */
#define CONV2D_FULL_MACS (1L << 27)
enum { CONV2D_SAMPLES = 1 << 16 };

static const char *const keys[] = {"n", "c",        "h",        "w",     "k",     "r",
                                   "s", "stride_h", "stride_w", "pad_h", "pad_w", NULL};
/* A ResNet-style 3×3 layer: 7.4 GFLOP, 49 MiB of tensors. */
static const char *const defaults[] = {"n=32,c=64,h=56,w=56,k=64,r=3,s=3,stride=1,pad=1", NULL};
static const char *const quick[] = {"n=4,c=32,h=28,w=28,k=32,r=3,s=3,stride=1,pad=1", NULL};
/* The default layer over a batch ladder: the crossover batch where a GPU (transfers included)
 * overtakes the CPU can be read off. */
static const char *const sweep[] = {"n=1,c=64,h=56,w=56,k=64,r=3,s=3,stride=1,pad=1",
                                    "n=2,c=64,h=56,w=56,k=64,r=3,s=3,stride=1,pad=1",
                                    "n=4,c=64,h=56,w=56,k=64,r=3,s=3,stride=1,pad=1",
                                    "n=8,c=64,h=56,w=56,k=64,r=3,s=3,stride=1,pad=1",
                                    "n=16,c=64,h=56,w=56,k=64,r=3,s=3,stride=1,pad=1",
                                    "n=32,c=64,h=56,w=56,k=64,r=3,s=3,stride=1,pad=1",
                                    "n=64,c=64,h=56,w=56,k=64,r=3,s=3,stride=1,pad=1",
                                    NULL};

/* Odd sizes and every stride/padding case: 1×1 pointwise, 5×3 filters with per-axis strides,
 * and more filters than one tile. */
static const char *const tests[] = {"n=1,c=1,h=1,w=1,k=1,r=1,s=1",
                                    "n=2,c=3,h=11,w=9,k=5,r=3,s=3,stride=1,pad=1",
                                    "n=1,c=5,h=13,w=17,k=70,r=5,s=3,stride_h=2,stride_w=3,"
                                    "pad_h=2,pad_w=0",
                                    "n=3,c=7,h=6,w=6,k=9,r=1,s=1",
                                    NULL};

/* --- the reference: the direct sum in double ------------------------------------------------- */
/* The direct sum at one output entry, taps outside the input skipped (zero padding). */
static double conv2d_ref_entry(const struct conv2d_dims *d, const float *x, const float *wt,
                               size_t e) {
    long qi = (long)(e % d->q);
    e /= d->q;
    long pi = (long)(e % d->p);
    e /= d->p;
    long ki = (long)(e % d->k), ni = (long)(e / d->k);
    double sum = 0.0;
    for (long ci = 0; ci < d->c; ci++) {
        const float *plane = x + ((size_t)ni * d->c + ci) * d->h * d->w;
        const float *filt = wt + ((size_t)ki * d->c + ci) * d->r * d->s;
        for (long ri = 0; ri < d->r; ri++) {
            long ih = pi * d->stride_h - d->pad_h + ri;
            if (ih < 0 || ih >= d->h)
                continue;
            for (long si = 0; si < d->s; si++) {
                long iw = qi * d->stride_w - d->pad_w + si;
                if (iw < 0 || iw >= d->w)
                    continue;
                sum += (double)plane[ih * d->w + iw] * (double)filt[ri * d->s + si];
            }
        }
    }
    return sum;
}

/* conv2d_ref_entry for f64 tensors (the same taps, read from doubles). */
static double conv2d_ref_entry64(const struct conv2d_dims *d, const double *x, const double *wt,
                                 size_t e) {
    long qi = (long)(e % d->q), pi = (long)(e / d->q % d->p);
    long ki = (long)(e / d->q / d->p % d->k), ni = (long)(e / d->q / d->p / d->k);
    double sum = 0.0;
    for (long ci = 0; ci < d->c; ci++) {
        const double *plane = x + ((size_t)ni * d->c + ci) * d->h * d->w;
        const double *filt = wt + ((size_t)ki * d->c + ci) * d->r * d->s;
        for (long ri = 0; ri < d->r; ri++) {
            long ih = pi * d->stride_h - d->pad_h + ri;
            for (long si = 0; si < d->s && ih >= 0 && ih < d->h; si++) {
                long iw = qi * d->stride_w - d->pad_w + si;
                if (iw >= 0 && iw < d->w)
                    sum += plane[ih * d->w + iw] * filt[ri * d->s + si];
            }
        }
    }
    return sum;
}

void conv2d_ref(const struct conv2d_dims *d, const float *x, const float *wt, const size_t *idx,
                size_t count, double *ref) {
    for (size_t j = 0; j < count && !gb_interrupted; j++)
        ref[j] = conv2d_ref_entry(d, x, wt, idx ? idx[j] : j);
}

/* --- shape and definition -------------------------------------------------------------------- */
void conv2d_dims_of(const struct shape *s, struct conv2d_dims *d) {
    *d = (struct conv2d_dims){.n = (int)s->v[N],
                              .c = (int)s->v[C],
                              .h = (int)s->v[H],
                              .w = (int)s->v[W],
                              .k = (int)s->v[K],
                              .r = (int)s->v[R],
                              .s = (int)s->v[S],
                              .stride_h = (int)s->v[STRIDE_H],
                              .stride_w = (int)s->v[STRIDE_W],
                              .pad_h = (int)s->v[PAD_H],
                              .pad_w = (int)s->v[PAD_W]};
    conv2d_dims_finish(d);
}

/* Keys left out took the default shape's values (harness/core/shape.c), which gives every key;
 * stride 1 and pad 0 stand for a default shape without them. The output must be at least 1×1,
 * and every size handed to cblas (k, p·q, c·r·s) must fit in an int. */
static int conv2d_complete(struct shape *s, const int *given, char *err, size_t errlen) {
    for (int i = 0; keys[i]; i++) {
        if (!given[i]) {
            if (i >= STRIDE_H) {
                s->v[i] = i <= STRIDE_W ? 1 : 0;
                continue;
            }
            snprintf(err, errlen, "missing key '%s' for conv2d", keys[i]);
            return -1;
        }
        long min = i >= PAD_H ? 0 : 1;
        if (s->v[i] < min || s->v[i] > INT_MAX) {
            snprintf(err, errlen, "%s=%ld must be in %ld..%d", keys[i], s->v[i], min, INT_MAX);
            return -1;
        }
    }
    const long *v = s->v;
    long long p = conv2d_out_size(v[H], v[R], v[STRIDE_H], v[PAD_H]);
    long long q = conv2d_out_size(v[W], v[S], v[STRIDE_W], v[PAD_W]);
    if (p <= 0 || q <= 0) {
        int rows = p <= 0;
        snprintf(err, errlen, "a %ld-%s filter does not fit %s=%ld with %s=%ld (output %s is 0)",
                 v[rows ? R : S], rows ? "row" : "column", rows ? "h" : "w", v[rows ? H : W],
                 rows ? "pad_h" : "pad_w", v[rows ? PAD_H : PAD_W], rows ? "height" : "width");
        return -1;
    }
    double pq = (double)p * (double)q, crs = (double)v[C] * (double)v[R] * (double)v[S];
    if (pq > INT_MAX || crs > INT_MAX) {
        snprintf(err, errlen, "output plane p·q=%.0f or filter c·r·s=%.0f exceeds %d", pq, crs,
                 INT_MAX);
        return -1;
    }
    return 0;
}

/* Each output entry sums c·r·s products (taps in the padding count, as every library counts
 * them): 2·n·k·p·q·c·r·s. */
static double conv2d_flops(const struct shape *s) {
    struct conv2d_dims d;
    conv2d_dims_of(s, &d);
    return 2.0 * (double)d.n * d.k * d.p * d.q * (double)d.c * d.r * d.s;
}

/* Read x and the filters once, write y once: 4·(n·c·h·w + k·c·r·s + n·k·p·q) bytes. */
static double conv2d_bytes(const struct shape *s) {
    struct conv2d_dims d;
    conv2d_dims_of(s, &d);
    return 4.0 * ((double)d.n * d.c * d.h * d.w + (double)d.k * d.c * d.r * d.s +
                  (double)d.n * d.k * d.p * d.q);
}

/* Number of reference entries, and whether they are a sample. */
static size_t conv2d_ref_count(const struct conv2d_dims *d, int *sampled) {
    double macs = (double)d->n * d->k * d->p * d->q * (double)d->c * d->r * d->s;
    size_t total = (size_t)d->n * d->k * d->p * d->q;
    size_t sample = CONV2D_SAMPLES + (size_t)d->k * (2 * (size_t)d->p + 2 * (size_t)d->q);
    *sampled = ref_sampled(macs, (double)CONV2D_FULL_MACS, sample, total);
    return *sampled ? sample : total;
}

/* Tensors and the reference (values and indices). */
static double conv2d_host_bytes(const struct shape *s) {
    struct conv2d_dims d;
    conv2d_dims_of(s, &d);
    int sampled;
    double refs = (double)conv2d_ref_count(&d, &sampled);
    return conv2d_bytes(s) + refs * (sampled ? 16.0 : 8.0);
}

/* The sampled entries: sample_indices' spread, then the border pixels of every filter's plane
 * in the last image. */
static size_t *conv2d_sample(const struct conv2d_dims *d, uint64_t seed, size_t count) {
    size_t total = (size_t)d->n * d->k * d->p * d->q;
    size_t *idx = sample_indices(total, CONV2D_SAMPLES, seed), *all;
    if (!idx || !(all = realloc(idx, count * sizeof *idx))) {
        free(idx);
        return NULL;
    }
    size_t j = CONV2D_SAMPLES;
    for (long ki = 0; ki < d->k; ki++) {
        size_t plane = ((size_t)(d->n - 1) * d->k + ki) * d->p * d->q;
        for (long qi = 0; qi < d->q; qi++) {
            all[j++] = plane + qi;                     /* first row */
            all[j++] = plane + (d->p - 1) * d->q + qi; /* last row */
        }
        for (long pi = 0; pi < d->p; pi++) {
            all[j++] = plane + pi * d->q;            /* first column */
            all[j++] = plane + pi * d->q + d->q - 1; /* last column */
        }
    }
    sort_indices(all, count);
    return all;
}

static int conv2d_make(struct problem *p, char *err, size_t errlen) {
    struct conv2d_dims d;
    conv2d_dims_of(&p->shape, &d);
    size_t nx = (size_t)d.n * d.c * d.h * d.w, nw = (size_t)d.k * d.c * d.r * d.s;
    size_t ny = (size_t)d.n * d.k * d.p * d.q;
    p->nin = 2;
    p->nout = 1;
    struct sampled_ref *ref = calloc(1, sizeof *ref);
    p->ref = ref;
    enum dtype t = p->dtype;
    if (!ref || buf_alloc_dt(&p->in[IN_X], "x", nx, t) || buf_alloc_dt(&p->in[IN_WT], "w", nw, t) ||
        buf_alloc_dt(&p->out[OUT_Y], "y", ny, t))
        goto oom;
    fill_uniform_dt(&p->in[IN_X], t, p->seed, 1, -1.0f, 1.0f);
    fill_uniform_dt(&p->in[IN_WT], t, p->seed, 2, -1.0f, 1.0f);
    int sampled;
    ref->count = conv2d_ref_count(&d, &sampled);
    if (sampled && !(ref->idx = conv2d_sample(&d, p->seed, ref->count)))
        goto oom;
    if (!(ref->val = malloc(ref->count * sizeof *ref->val)))
        goto oom;
    if (t == DT_F64)
        for (size_t j = 0; j < ref->count && !gb_interrupted; j++)
            ref->val[j] = conv2d_ref_entry64(&d, p->in[IN_X].data64, p->in[IN_WT].data64,
                                             ref->idx ? ref->idx[j] : j);
    else
        conv2d_ref(&d, p->in[IN_X].data, p->in[IN_WT].data, ref->idx, ref->count, ref->val);
    if (gb_interrupted) { /* the inputs or the reference stopped early */
        snprintf(err, errlen, "interrupted");
        problem_free_sampled(p);
        return -1;
    }
    return 0;
oom:
    snprintf(err, errlen, "out of host memory for conv2d");
    problem_free_sampled(p);
    return -1;
}

/* Inputs and filters are uniform in [-1, 1): each output is a sum of at most c·r·s terms of size
 * <= 1, so the tolerance is verify_tol's for c·r·s terms in the row's tier (f32: atol ≈
 * 1.9e-6·c·r·s, a wide margin for any summation order that still catches one missing or doubled
 * tap; f64 about 2^29 times tighter). rtol stays 1e-5 for f32 as before tiers. f16 accumulates in
 * FP32 but stores y in half (cuDNN's FP16 convolutions have half outputs): rtol is the half
 * rounding's, 32·2^-11. */
static enum status conv2d_verify(const struct problem *p, struct verify_report *r) {
    const struct sampled_ref *ref = p->ref;
    const struct shape *s = &p->shape;
    double terms = (double)s->v[C] * (double)s->v[R] * (double)s->v[S];
    struct tol tl = verify_tol(p->dtype, terms, 1.0, p->dtype == DT_F16);
    double rtol = p->dtype == DT_F32 ? 1e-5 : tl.rtol;
    verify_buf(r, &p->out[OUT_Y], ref->val, ref->idx, ref->count, tl.atol, rtol);
    return verify_status(r);
}

const struct workload conv2d_workload = {
    .name = "conv2d",
    .summary = "NCHW forward convolution, k filters r×s, stride, pad (compute)",
    .keys = keys,
    .default_shapes = defaults,
    .quick_shapes = quick,
    .sweep_shapes = sweep,
    .test_shapes = tests,
    .complete = conv2d_complete,
    .flops = conv2d_flops,
    .bytes = conv2d_bytes,
    .host_bytes = conv2d_host_bytes,
    .make_problem = conv2d_make,
    .verify = conv2d_verify,
    .free_problem = problem_free_sampled,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
};
