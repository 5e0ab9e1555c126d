/* slowdown_model.c — the lines of the slowdown report and their means: one line per (workload,
 * shape, dtype, impl) found in any file, each device's row on it, the baseline row each line is
 * measured against, and the geometric means of the ratios. A line is measured against the
 * baseline's row of the same precision tier. */
#include <stdlib.h>

#include "harness/compare/rankstats.h"
#include "harness/compare/slowdown.h"
#include "harness/core/device.h"
#include "harness/core/dtype.h"

/* A row of a one-time cost: the `startup` workload (bench/startup.c: a CUDA context, a library
 * handle, a PTX JIT, the CPU's first OpenBLAS call, each paid once per process; no FLOPs or
 * bytes, only a time). Its ratio says what starting costs, not how fast a device works, so no
 * geometric mean counts it. By name: a zero in the flops and bytes columns is also what a
 * failed or hand-made row may carry. */
static int one_time_row(const struct run_row *r) {
    return !strcmp(r->workload, "startup");
}

static int combo_cmp(const void *pa, const void *pb) {
    const struct combo *a = pa, *b = pb;
    if (a->wl_order != b->wl_order)
        return a->wl_order - b->wl_order;
    if (a->tier != b->tier)
        return a->tier - b->tier;
    if (a->size != b->size)
        return (a->size > b->size) - (a->size < b->size);
    if (a->shape_order != b->shape_order)
        return a->shape_order - b->shape_order;
    return a->order - b->order;
}


/* The line of `row` (same point and implementation) among d->combo[0, ncombo), or -1; *pt is the
 * first line of the same point, or -1. */
static int find_combo(const struct sd *d, const struct run_row *row, int *pt) {
    *pt = -1;
    for (int c = 0; c < d->ncombo; c++) {
        if (!same_point(&d->combo[c], row))
            continue;
        if (*pt < 0)
            *pt = c;
        if (!strcmp(d->combo[c].impl, row->impl))
            return c;
    }
    return -1;
}

/* The lines of the report: one per (point, implementation) of every file, in the order of
 * combo_cmp. wls has room for one workload per row. */
static void collect_combos(struct sd *d, const char **wls) {
    const struct cmp_input *in = d->in;
    int nwl = 0;
    for (int f = 0; f < in->nfiles; f++)
        for (size_t r = 0; r < in->runs[f].nrows; r++) {
            const struct run_row *row = &in->runs[f].run[r];
            int c = d->ncombo, pt;
            if (find_combo(d, row, &pt) >= 0)
                continue;
            int w = 0;
            while (w < nwl && strcmp(wls[w], row->workload))
                w++;
            if (w == nwl)
                wls[nwl++] = row->workload;
            double size = row->flops > 0 ? row->flops : row->bytes;
            /* every implementation of one point sorts with the point's first appearance */
            struct combo cb = {row->workload,
                               row->shape,
                               row->dtype,
                               row->impl,
                               isfinite(size) ? size : 0,
                               c,
                               w,
                               c,
                               99,
                               0,
                               NULL};
            enum dtype t;
            if (dtype_parse(row->dtype, &t) == 0)
                cb.tier = (int)t;
            cb.one_time = one_time_row(row);
            if (pt >= 0) {
                cb.size = d->combo[pt].size;
                cb.shape_order = d->combo[pt].shape_order;
            }
            d->combo[d->ncombo++] = cb;
        }
    qsort(d->combo, (size_t)d->ncombo, sizeof *d->combo, combo_cmp);
}

/* d->cell: each series' row of each line. */
static void fill_cells(struct sd *d) {
    const struct cmp_input *in = d->in;
    for (int f = 0; f < in->nfiles; f++)
        for (size_t r = 0; r < in->runs[f].nrows; r++) {
            const struct run_row *row = &in->runs[f].run[r];
            int s = cmp_series_of(in, f, row);
            for (int c = 0; c < d->ncombo; c++)
                if (same_point(&d->combo[c], row) && !strcmp(d->combo[c].impl, row->impl))
                    d->cell[(size_t)c * (size_t)in->nseries + (size_t)s] = row;
        }
}

/* The one shape at which series s (s < 0: every series but the baseline) has rows of line c's
 * workload and tier; NULL when it has none or several (a sweep ladder pairs only exact shapes). */
static const char *lone_shape(const struct sd *d, int s, int c) {
    const char *shape = NULL;
    for (int k = 0; k < d->ncombo; k++) {
        const struct combo *cb = &d->combo[k];
        if (strcmp(cb->workload, d->combo[c].workload) || strcmp(cb->dtype, d->combo[c].dtype))
            continue;
        for (int t = 0; t < d->in->nseries; t++) {
            if ((s >= 0 ? t != s : t == d->base) || !at(d, k, t))
                continue;
            if (shape && strcmp(shape, cb->shape))
                return NULL;
            shape = cb->shape;
        }
    }
    return shape;
}

/* Series s's bytes moved at line c's point (its first usable row's), 0 when none. */
static double point_bytes(const struct sd *d, int s, int c) {
    for (int k = 0; k < d->ncombo; k++) {
        const struct run_row *r = at(d, k, s);
        if (usable(r) && same_point(&d->combo[c], r) && r->bytes > 0)
            return r->bytes;
    }
    return 0;
}

/* The baseline device's row at line c's point: its same implementation, else its fastest; NULL
 * when it has none. With shape set, at that shape instead of the line's. A start-up line
 * (one_time) has its same implementation only: no other start-up measures the same thing (the
 * CPU's openblas_first is a first call into a library the process loaded before main, a GPU's
 * context is a driver's whole set-up), so none stands in for another (docs/workloads.md). */
static const struct run_row *baseline_row(const struct sd *d, int c, const char *shape) {
    const struct run_row *best = NULL;
    for (int k = 0; k < d->ncombo; k++) {
        const struct run_row *r = at(d, k, d->base);
        if (!usable(r) || strcmp(r->workload, d->combo[c].workload) ||
            strcmp(r->dtype, d->combo[c].dtype) ||
            strcmp(r->shape, shape ? shape : d->combo[c].shape))
            continue;
        if (!strcmp(r->impl, d->combo[c].impl))
            return r;
        if (d->combo[c].one_time)
            continue;
        if (!best || r->median_ms < best->median_ms)
            best = r;
    }
    return best;
}

/* d->ref: the baseline of a line is the baseline device's row at the same point. A memory-bound
 * workload whose default shape differs between the baseline and the others (vecadd: a CPU's arrays
 * at 4x its last-level cache, the GPUs' at 2^24), one shape each side, is set side by side by
 * bandwidth: the headline memory comparison, which no exact shape would give. */
static void choose_refs(struct sd *d) {
    for (int c = 0; c < d->ncombo; c++) {
        d->ref[c] = baseline_row(d, c, NULL);
        if (d->ref[c] || d->combo[c].one_time)
            continue;
        const char *bs = lone_shape(d, d->base, c), *os = lone_shape(d, -1, c);
        const struct run_row *b =
            bs && os && !strcmp(os, d->combo[c].shape) ? baseline_row(d, c, bs) : NULL;
        if (b && b->bytes > 0) {
            d->ref[c] = b;
            d->combo[c].bw_shape = bs;
        }
    }
}

int sd_ratios(const struct sd *d, int c, const struct run_row *r, const struct run_row *b,
              double *k, double *e) {
    *k = *e = NAN;
    if (!usable(r) || !b)
        return 0;
    double scale = 1; /* time per byte: the baseline's bytes over r's */
    if (d->combo[c].bw_shape) {
        if (!(r->bytes > 0) || !(b->bytes > 0) || cache_against_memory(r, b))
            return 0;
        scale = b->bytes / r->bytes;
    }
    *k = r->median_ms / b->median_ms * scale;
    *e = e2e_ms(r) / e2e_ms(b) * scale;
    return 1;
}

int sd_build(struct sd *d, char *err, size_t errlen) {
    const struct cmp_input *in = d->in;
    size_t total = 0;
    for (int f = 0; f < in->nfiles; f++)
        total += in->runs[f].nrows;
    d->combo = calloc(total, sizeof *d->combo);
    const char **wls = calloc(total, sizeof *wls);
    if (!d->combo || !wls) {
        free(wls);
        snprintf(err, errlen, "compare: out of memory");
        return -1;
    }
    collect_combos(d, wls);
    free(wls);
    d->cell = calloc((size_t)d->ncombo * (size_t)in->nseries + 1, sizeof *d->cell);
    d->ref = calloc((size_t)d->ncombo + 1, sizeof *d->ref);
    if (!d->cell || !d->ref) {
        snprintf(err, errlen, "compare: out of memory");
        return -1;
    }
    fill_cells(d);
    choose_refs(d);
    return 0;
}

void sd_free(struct sd *d) {
    free(d->combo);
    free(d->cell);
    free(d->ref);
}

int sd_has_rows(const struct sd *d, int s, int c0, int c1) {
    for (int c = c0; c < c1; c++)
        if (at(d, c, s))
            return 1;
    return 0;
}

int sd_wl_end(const struct sd *d, int c0) {
    int c1 = c0;
    while (c1 < d->ncombo && d->combo[c1].wl_order == d->combo[c0].wl_order &&
           !strcmp(d->combo[c1].dtype, d->combo[c0].dtype))
        c1++;
    return c1;
}

int sd_tier_count(const struct sd *d) {
    int n = 0;
    for (int c = 0; c < d->ncombo; c++) {
        int seen = 0;
        for (int e = 0; e < c && !seen; e++)
            seen = !strcmp(d->combo[e].dtype, d->combo[c].dtype);
        n += !seen;
    }
    return n;
}

int sd_has_one_time(const struct sd *d) {
    for (int c = 0; c < d->ncombo; c++)
        if (d->combo[c].one_time)
            return 1;
    return 0;
}

/* Geometric means of series s's kernel and e2e ratios over lines [c0, c1), one-time costs left
 * out: a CUDA context against an OpenBLAS first call is not workload speed. */
int sd_geomeans(const struct sd *d, int s, int c0, int c1, double *gk, double *ge) {
    size_t n = 0;
    double *k = malloc(sizeof(double) * (size_t)(c1 - c0 + 1));
    double *e = malloc(sizeof(double) * (size_t)(c1 - c0 + 1));
    if (!k || !e) {
        free(k);
        free(e);
        *gk = *ge = NAN;
        return 0;
    }
    for (int c = c0; c < c1; c++) {
        if (d->combo[c].one_time || (d->only_dtype && strcmp(d->combo[c].dtype, d->only_dtype)))
            continue;
        n += (size_t)sd_ratios(d, c, at(d, c, s), d->ref[c], &k[n], &e[n]);
    }
    *gk = rank_geomean(k, n);
    *ge = rank_geomean(e, n);
    free(k);
    free(e);
    return (int)n;
}

/* Is line c the first line of its point (workload, shape, dtype)? */
int sd_point_first(const struct sd *d, int c) {
    for (int k = 0; k < c; k++)
        if (!strcmp(d->combo[k].workload, d->combo[c].workload) &&
            !strcmp(d->combo[k].shape, d->combo[c].shape) &&
            !strcmp(d->combo[k].dtype, d->combo[c].dtype))
            return 0;
    return 1;
}

/* Does series s have a usable row at line c's point that measured a cache? */
static int point_cached(const struct sd *d, int s, int c) {
    for (int i = 0; i < d->ncombo; i++) {
        const struct run_row *r = at(d, i, s);
        if (usable(r) && same_point(&d->combo[c], r) && (r->marks & MARK_CACHED))
            return 1;
    }
    return 0;
}

/* Series s's fastest usable kernel and end-to-end times at the point of line c; 0 when none. */
int sd_point_best(const struct sd *d, int s, int c, double *k, double *e) {
    *k = *e = INFINITY;
    for (int i = 0; i < d->ncombo; i++) {
        const struct run_row *r = at(d, i, s);
        if (!usable(r) || !same_point(&d->combo[c], r))
            continue;
        *k = fmin(*k, r->median_ms);
        *e = fmin(*e, e2e_ms(r));
    }
    return isfinite(*k);
}

/* Devices a and b side by side over the points (workload, shape, dtype) both ran, each at its
 * fastest implementation there; one-time costs left out: geometric means of a's time / b's time.
 * It needs no baseline, so the order of two devices cannot flip with --baseline, and a device's
 * mean is not flattered by points the other lacks (cuDNN, tensor cores on an old card). *left:
 * the points only one of the two ran. Returns the count of shared points. */
int sd_pair_geomeans(const struct sd *d, int a, int b, double *gk, double *ge, int *left) {
    size_t n = 0;
    *left = 0;
    double *k = malloc(sizeof(double) * (size_t)(d->ncombo + 1));
    double *e = malloc(sizeof(double) * (size_t)(d->ncombo + 1));
    if (!k || !e) {
        free(k);
        free(e);
        *gk = *ge = NAN;
        return 0;
    }
    for (int c = 0; c < d->ncombo; c++) {
        double ka, ea, kb, eb;
        if (d->combo[c].one_time || !sd_point_first(d, c))
            continue;
        int ha = sd_point_best(d, a, c, &ka, &ea), hb = sd_point_best(d, b, c, &kb, &eb);
        int o = ha && hb ? -1 : sd_pair_by_bytes(d, a, b, c);
        double scale = 1; /* by bandwidth: b's bytes over a's */
        if (o >= 0 && !hb) { /* counted here, at a's point; at b's, skipped */
            double ba = point_bytes(d, a, c), bb = point_bytes(d, b, o);
            hb = ba > 0 && bb > 0 && point_cached(d, a, c) == point_cached(d, b, o) &&
                 sd_point_best(d, b, o, &kb, &eb); /* a cache's rate is no memory's */
            scale = hb ? bb / ba : 1;
        } else if (o >= 0)
            continue;
        if (!ha || !hb) {
            *left += ha || hb;
            continue;
        }
        k[n] = ka / kb * scale;
        e[n] = ea / eb * scale;
        n++;
    }
    *gk = rank_geomean(k, n);
    *ge = rank_geomean(e, n);
    free(k);
    free(e);
    return (int)n;
}

int sd_pair_by_bytes(const struct sd *d, int a, int b, int c) {
    const char *sa = lone_shape(d, a, c), *sb = lone_shape(d, b, c);
    if (d->combo[c].one_time || !sa || !sb || !strcmp(sa, sb) ||
        (strcmp(sa, d->combo[c].shape) && strcmp(sb, d->combo[c].shape)))
        return -1;
    const char *other = strcmp(sa, d->combo[c].shape) ? sa : sb;
    for (int k = 0; k < d->ncombo; k++)
        if (!strcmp(d->combo[k].workload, d->combo[c].workload) &&
            !strcmp(d->combo[k].dtype, d->combo[c].dtype) && !strcmp(d->combo[k].shape, other))
            return k;
    return -1;
}

int sd_simulated(const struct sd *d, int s) {
    return device_is_simulated(d->in->series[s].first->device_name);
}

int sd_any_simulated(const struct sd *d) {
    for (int s = 0; s < d->in->nseries; s++)
        if (sd_simulated(d, s))
            return 1;
    return 0;
}

void sd_each_line(const struct sd *d, sd_line_fn *fn, void *ctx) {
    for (int c = 0; c < d->ncombo; c++)
        for (int s = 0; s < d->in->nseries; s++) {
            const struct run_row *r = at(d, c, s), *b = d->ref[c];
            double kr, er;
            if (!r)
                continue;
            sd_ratios(d, c, r, b, &kr, &er);
            fn(d, c, s, r, b, kr, er, ctx);
        }
}

void sd_each_pair(const struct sd *d, sd_pair_fn *fn, void *ctx) {
    for (int a = 0; a < d->in->nseries; a++)
        for (int b = a + 1; b < d->in->nseries; b++) {
            double gk, ge;
            int left, n = sd_pair_geomeans(d, b, a, &gk, &ge, &left);
            fn(d, b, a, n, left, gk, ge, ctx);
        }
}
