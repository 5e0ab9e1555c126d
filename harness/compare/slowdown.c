/* slowdown.c — slowdown mode of `gpubench compare`: every device's median time relative
 * to a baseline device, kernel-only and end to end, geometric means per workload and overall,
 * and for size sweeps the size from which a GPU (end to end) beats the CPU. A line is measured
 * against the baseline's row of the same precision tier; with several tiers in the files each
 * workload has one table per tier and a summary gives every device's geometric mean per tier
 * ("Tesla K40m: float64 2.90× faster, float32 7.46× faster"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/compare/internal.h"
#include "harness/compare/shared.h"
#include "harness/core/dtype.h"
#include "harness/core/shape.h"

/* A shape as every human output prints it (the run table too): "stride=1", not
 * "stride_h=1;stride_w=1"; CSV and JSON keep the canonical form, which joins. */
#define SHORT(shape, buf) (shape_compact((shape), (buf), sizeof(buf)), (buf))
#include "harness/compare/rankstats.h"

/* One line of the report: a (workload, shape, dtype, impl) and the row of each series. */
struct combo {
    const char *workload, *shape, *dtype, *impl;
    double size;     /* flops, or bytes when there are none: the order of a sweep */
    int order;       /* first appearance */
    int wl_order;    /* first appearance of the workload */
    int shape_order; /* first appearance of the (workload, shape, dtype) */
    int tier;        /* the dtype's place in tier order (float32 first), 99 when unknown */
    int one_time;    /* a start-up cost (workload `startup`): a time with no work in it */
};

struct sd {
    const struct cmp_input *in;
    const struct cmp_opts *o;
    int base; /* baseline series */
    int ncombo;
    struct combo *combo;
    const struct run_row **cell; /* ncombo × nseries */
    const struct run_row **ref;  /* ncombo: the baseline row each line is measured against */
    const char *only_dtype;      /* when set, geomeans counts only the lines of this tier */
};

static const struct run_row *at(const struct sd *d, int c, int s) {
    return d->cell[(size_t)c * (size_t)d->in->nseries + (size_t)s];
}

/* End-to-end time; a CPU row has no copies, so its kernel time is its end-to-end time. */
static double e2e_ms(const struct run_row *r) {
    return isfinite(r->e2e_median_ms) ? r->e2e_median_ms : r->median_ms;
}

/* A row of a one-time cost: the `startup` workload (bench/startup.c: a CUDA context, a library
 * handle, a PTX JIT, the CPU's first OpenBLAS call, each paid once per process; no FLOPs or
 * bytes, only a time). Its ratio says what starting costs, not how fast a device works, so no
 * geometric mean counts it. By name: a zero in the flops and bytes columns is also what a
 * failed or hand-made row may carry. */
static int one_time_row(const struct run_row *r) {
    return !strcmp(r->workload, "startup");
}

static int usable(const struct run_row *r) {
    return r && r->status == ST_OK && r->median_ms > 0 && e2e_ms(r) > 0;
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

static int same_point(const struct combo *c, const struct run_row *r) {
    return !strcmp(c->workload, r->workload) && !strcmp(c->shape, r->shape) &&
           !strcmp(c->dtype, r->dtype);
}

/* Resolve --baseline: "DEVICE" (first file that has it) or "FILE:DEVICE"; `given`: typed by the
 * user (else the default, cpu, which a message must not present as an option they gave). */
static int find_baseline(const struct cmp_input *in, const char *spec, int given, char *err,
                         size_t errlen) {
    const char *dev = spec;
    int file = -1;
    for (int f = 0; f < in->nfiles; f++) {
        size_t n = strlen(in->runs[f].name);
        if (!strncmp(spec, in->runs[f].name, n) && spec[n] == ':') {
            file = f;
            dev = spec + n + 1;
            break;
        }
    }
    for (int s = 0; s < in->nseries; s++)
        if ((file < 0 || in->series[s].file == file) && !strcmp(in->series[s].device, dev))
            return s;
    char have[256] = "";
    size_t used = 0;
    for (int s = 0; s < in->nseries && used < sizeof have - 64; s++) {
        int seen = 0; /* a file of N runs has N series per device: each device once per file */
        for (int t = 0; t < s && !seen; t++)
            seen = !strcmp(in->series[t].device, in->series[s].device) &&
                   in->series[t].file == in->series[s].file;
        if (seen)
            continue;
        int n =
            in->nfiles == 1 /* one file: its devices, no file name after each */
                ? snprintf(have + used, sizeof have - used, "%s%s", used ? ", " : "",
                           in->series[s].device)
                : snprintf(have + used, sizeof have - used, "%s%s in %s", used ? ", " : "",
                           in->series[s].device, cmp_basename(in->runs[in->series[s].file].name));
        if (n > 0)
            used += (size_t)n;
    }
    if (!given) {
        if (in->nfiles == 1)
            snprintf(err, errlen,
                     "%s: no cpu rows to compare against (the default baseline); pass "
                     "--baseline DEVICE (devices in the file: %s)",
                     in->runs[0].name, have);
        else
            snprintf(err, errlen,
                     "compare: no cpu rows in the files to compare against (the default "
                     "baseline); pass --baseline DEVICE or FILE:DEVICE (the files hold: %s)",
                     have);
        return -1;
    }
    /* "FILE:DEVICE" whose FILE is none of the files: say that, not "no such device". */
    const char *colon = file < 0 ? strchr(spec, ':') : NULL;
    while (colon && strcmp(colon + 1, "cpu") && strncmp(colon + 1, "cuda", 4))
        colon = strchr(colon + 1, ':');
    if (colon && colon > spec) {
        snprintf(err, errlen,
                 "--baseline %s: the file %.*s was not given (it is none of the files, and "
                 "none by that name could be read); give it among the files, or name a device "
                 "(the files hold: %s)",
                 spec, (int)(colon - spec), spec, have);
        return -1;
    }
    snprintf(err, errlen, "--baseline %s: no such device in %s (the files hold: %s)", spec,
             file >= 0 ? in->runs[file].name : "the files given", have);
    return -1;
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
                               0};
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

/* d->ref: the baseline of a line is the baseline device's same implementation, else its fastest
 * at the same point (NULL when it has none). */
static void choose_refs(struct sd *d) {
    for (int c = 0; c < d->ncombo; c++) {
        const struct run_row *own = at(d, c, d->base), *best = NULL;
        if (usable(own)) {
            d->ref[c] = own;
            continue;
        }
        for (int k = 0; k < d->ncombo; k++) {
            const struct run_row *r = at(d, k, d->base);
            if (usable(r) && same_point(&d->combo[c], r) &&
                (!best || r->median_ms < best->median_ms))
                best = r;
        }
        d->ref[c] = best;
    }
}

/* Fill d's lines, cells and baselines from d->in and d->base. Returns 0, or -1 with one line in
 * err (out of memory; free_sd frees what was allocated). */
static int build(struct sd *d, char *err, size_t errlen) {
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

static void free_sd(struct sd *d) {
    free(d->combo);
    free(d->cell);
    free(d->ref);
}

/* Does series s have any row in workload w (combos [c0, c1))? */
static int has_rows(const struct sd *d, int s, int c0, int c1) {
    for (int c = c0; c < c1; c++)
        if (at(d, c, s))
            return 1;
    return 0;
}

/* The end of the table that starts at line c0: the lines of one workload in one tier. */
static int wl_end(const struct sd *d, int c0) {
    int c1 = c0;
    while (c1 < d->ncombo && d->combo[c1].wl_order == d->combo[c0].wl_order &&
           !strcmp(d->combo[c1].dtype, d->combo[c0].dtype))
        c1++;
    return c1;
}

/* How many precision tiers the lines hold (1 for files of float32 rows only). */
static int tier_count(const struct sd *d) {
    int n = 0;
    for (int c = 0; c < d->ncombo; c++) {
        int seen = 0;
        for (int e = 0; e < c && !seen; e++)
            seen = !strcmp(d->combo[e].dtype, d->combo[c].dtype);
        n += !seen;
    }
    return n;
}

/* Does the report hold lines of one-time costs (left out of every geometric mean)? */
static int has_one_time(const struct sd *d) {
    for (int c = 0; c < d->ncombo; c++)
        if (d->combo[c].one_time)
            return 1;
    return 0;
}

/* Geometric means of series s's kernel and e2e ratios over lines [c0, c1), one-time costs left
 * out: a CUDA context against an OpenBLAS first call is not workload speed. */
static int geomeans(const struct sd *d, int s, int c0, int c1, double *gk, double *ge) {
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
        const struct run_row *r = at(d, c, s), *b = d->ref[c];
        if (!usable(r) || !b || d->combo[c].one_time ||
            (d->only_dtype && strcmp(d->combo[c].dtype, d->only_dtype)))
            continue;
        k[n] = r->median_ms / b->median_ms;
        e[n] = e2e_ms(r) / e2e_ms(b);
        n++;
    }
    *gk = rank_geomean(k, n);
    *ge = rank_geomean(e, n);
    free(k);
    free(e);
    return (int)n;
}

/* --- crossover --------------------------------------------------------------------------- */

/* The CPU a GPU series is judged against: the CPU of its own run, else of its file, else any. */
static int cpu_for(const struct sd *d, int s) {
    const struct cmp_input *in = d->in;
    int best = -1, score = -1;
    for (int k = 0; k < in->nseries; k++) {
        if (!in->series[k].is_cpu)
            continue;
        int sc = (in->series[k].file == in->series[s].file) +
                 (in->series[k].file == in->series[s].file &&
                  !strcmp(in->series[k].run_id, in->series[s].run_id));
        if (sc > score) {
            best = k;
            score = sc;
        }
    }
    return best;
}

/* Fastest usable CPU time of series cpu at line c's point. */
static double cpu_time(const struct sd *d, int cpu, int c0, int c1, const struct combo *pt) {
    double best = NAN;
    for (int k = c0; k < c1; k++) {
        const struct run_row *r = at(d, k, cpu);
        if (usable(r) && same_point(pt, r) && !(e2e_ms(r) >= best))
            best = e2e_ms(r);
    }
    return best;
}

struct xover {
    int series, cpu;
    const char *workload, *impl, *dtype; /* one crossover per implementation and tier */
    const char *kind;  /* "from", "always", "never" */
    const char *shape; /* the first size from which the GPU stays faster (from, always) */
    char text[1024];
};

/* Find the crossovers of workload lines [c0, c1); appends to x (room for nseries × lines). */
static int crossovers(const struct sd *d, int c0, int c1, struct xover *x) {
    const struct cmp_input *in = d->in;
    int nx = 0, npts = c1 - c0;
    const struct combo **pt = malloc(sizeof *pt * (size_t)(npts + 1));
    double *ratio = malloc(sizeof *ratio * (size_t)(npts + 1));
    if (!pt || !ratio)
        goto out;
    for (int s = 0; s < in->nseries; s++) {
        if (in->series[s].is_cpu)
            continue;
        int cpu = cpu_for(d, s);
        if (cpu < 0)
            continue;
        for (int c = c0; c < c1; c++) {
            /* once per implementation and tier of this series: at its first line (the sizes
             * of one tier only: an f64 point must not continue an f32 ladder) */
            const char *impl = d->combo[c].impl, *dtype = d->combo[c].dtype;
            int first = 1;
            for (int k = c0; k < c && first; k++)
                if (!strcmp(d->combo[k].impl, impl) && !strcmp(d->combo[k].dtype, dtype) &&
                    at(d, k, s))
                    first = 0;
            if (!first || !at(d, c, s))
                continue;
            int n = 0;
            for (int k = c; k < c1; k++) {
                const struct run_row *r = at(d, k, s);
                if (strcmp(d->combo[k].impl, impl) || strcmp(d->combo[k].dtype, dtype) ||
                    !usable(r))
                    continue;
                double t = cpu_time(d, cpu, c0, c1, &d->combo[k]);
                if (!(t > 0))
                    continue;
                pt[n] = &d->combo[k];
                ratio[n] = e2e_ms(r) / t;
                n++;
            }
            if (n < 2)
                continue; /* one size is not a sweep */
            struct xover *o = &x[nx++];
            *o = (struct xover){s, cpu, d->combo[c].workload, impl, dtype, "", NULL, ""};
            int from = n;
            while (from > 0 && ratio[from - 1] < 1)
                from--;
            char a[64], b[64], sa[256], sb[256];
            if (from == 0) {
                o->kind = "always";
                o->shape = pt[0]->shape;
                fmt_ratio(a, sizeof a, ratio[0]);
                snprintf(o->text, sizeof o->text, "faster at every size tried (smallest %s: %s)",
                         SHORT(pt[0]->shape, sa), a);
            } else if (from == n) {
                o->kind = "never";
                fmt_ratio(a, sizeof a, ratio[n - 1]);
                snprintf(o->text, sizeof o->text,
                         "no crossover: slower at the largest size "
                         "tried (%s: %s)",
                         SHORT(pt[n - 1]->shape, sa), a);
            } else {
                o->kind = "from";
                o->shape = pt[from]->shape;
                fmt_ratio(a, sizeof a, ratio[from - 1]);
                fmt_ratio(b, sizeof b, ratio[from]);
                snprintf(o->text, sizeof o->text, "faster from %s on (%s: %s; %s: %s)",
                         SHORT(pt[from]->shape, sa), SHORT(pt[from - 1]->shape, sb), a, sa, b);
            }
        }
    }
out:
    free(pt);
    free(ratio);
    return nx;
}

/* --- human output ------------------------------------------------------------------------ */

static void print_intro(const struct sd *d, FILE *out, int md) {
    const struct cmp_series *b = &d->in->series[d->base];
    const struct run_row *r = b->first;
    fprintf(out, "%sgpubench compare: slowdown against %s\n\n", md ? "## " : "", b->label);
    fprintf(out, "%sbaseline: device %s of run %s (%s, host %s, %s)\n", md ? "- " : "", b->device,
            b->run_id, d->in->runs[b->file].name, r->host[0] ? r->host : "?",
            r->utc[0] ? r->utc : "?");
    fprintf(out,
            "%scells: median time / baseline median time, \"2.00× slower\" = twice as long; "
            "kernel = compute only, e2e = with host<->device copies (CPU rows: the same); "
            "\"baseline ms\" shows both times the ratios divide by\n",
            md ? "- " : "");
    fprintf(out,
            "%sa line whose implementation the baseline device lacks is measured against "
            "its fastest one, named in brackets\n",
            md ? "- " : "");
    if (d->in->nseries == 1)
        fprintf(out,
                "%sthe files hold no other device: the tables list the baseline's own "
                "times (add a run with a GPU, or another machine's run, to compare)\n",
                md ? "- " : "");
    for (int s = 0; s < d->in->nseries; s++) {
        const struct cmp_series *se = &d->in->series[s];
        char what[128];
        snprintf(what, sizeof what, "%s of", se->device);
        cmp_shared_line(d->in, se->file, se->run_id, se->device, md ? "- " : "", what, out);
    }
    fputc('\n', out);
}

static void ratio_cells(struct cmp_grid *g, int row, int col, const struct run_row *r,
                        const struct run_row *b) {
    char k[64], e[64];
    if (!r)
        return;
    if (r->status != ST_OK) {
        grid_set(g, row, col, "%s", status_name(r->status));
        return;
    }
    if (!b || !usable(r)) {
        grid_set(g, row, col, "no baseline");
        return;
    }
    fmt_ratio(k, sizeof k, r->median_ms / b->median_ms);
    fmt_ratio(e, sizeof e, e2e_ms(r) / e2e_ms(b));
    grid_set(g, row, col, "%s", k);
    grid_set(g, row, col + 1, "%s", e);
}

static int print_workload(const struct sd *d, int c0, int c1, FILE *out, int md) {
    const struct cmp_input *in = d->in;
    int cols[64], ncol = 0;
    for (int s = 0; s < in->nseries && ncol < 64; s++)
        if (s != d->base && has_rows(d, s, c0, c1))
            cols[ncol++] = s;
    /* The baseline's kernel and end-to-end times: every time a ratio of the line divides by. */
    struct cmp_grid g;
    if (grid_init(&g, 4 + 2 * ncol))
        return -1;
    grid_head(&g, 0, "shape", 0);
    grid_head(&g, 1, "impl", 0);
    grid_head(&g, 2, "kernel", 1);
    grid_head(&g, 3, "e2e", 1);
    grid_group(&g, 2, 2, "baseline ms");
    for (int i = 0; i < ncol; i++) {
        grid_head(&g, 4 + 2 * i, "kernel", 1);
        grid_head(&g, 5 + 2 * i, "e2e", 1);
        grid_group(&g, 4 + 2 * i, 2, in->series[cols[i]].label);
    }
    char ms[64], ems[64];
    for (int c = c0; c < c1; c++) {
        const struct combo *cb = &d->combo[c];
        int row = grid_row(&g, 0);
        if (row < 0)
            break;
        if (c == c0 || strcmp(cb->shape, d->combo[c - 1].shape) ||
            strcmp(cb->dtype, d->combo[c - 1].dtype)) {
            char sh[256]; /* the table's title names its tier */
            grid_set(&g, row, 0, "%s", SHORT(cb->shape, sh));
        }
        grid_set(&g, row, 1, "%s", cb->impl);
        const struct run_row *b = d->ref[c];
        if (b) {
            fmt_ms(ms, sizeof ms, b->median_ms);
            fmt_ms(ems, sizeof ems, e2e_ms(b));
            if (strcmp(b->impl, cb->impl))
                grid_set(&g, row, 2, "%s [%s]", ms, b->impl);
            else
                grid_set(&g, row, 2, "%s", ms);
            grid_set(&g, row, 3, "%s", ems);
        } else {
            const struct run_row *own = at(d, c, d->base);
            grid_set(&g, row, 2, "%s", own ? status_name(own->status) : "-");
        }
        for (int i = 0; i < ncol; i++)
            ratio_cells(&g, row, 4 + 2 * i, at(d, c, cols[i]), b);
    }
    /* no other device, or start-up costs only: no ratios to average */
    int row = ncol && !d->combo[c0].one_time ? grid_row(&g, 1) : -1;
    if (row >= 0) {
        grid_set(&g, row, 0, "geomean");
        for (int i = 0; i < ncol; i++) {
            double gk, ge;
            if (!geomeans(d, cols[i], c0, c1, &gk, &ge))
                continue;
            char k[64], e[64];
            fmt_ratio(k, sizeof k, gk);
            fmt_ratio(e, sizeof e, ge);
            grid_set(&g, row, 4 + 2 * i, "%s", k);
            grid_set(&g, row, 5 + 2 * i, "%s", e);
        }
    }
    if (strcmp(d->combo[c0].dtype, "float32")) /* float32 tables keep their plain title */
        fprintf(out, md ? "### %s, %s\n\n" : "%s, %s\n", d->combo[c0].workload,
                d->combo[c0].dtype);
    else
        fprintf(out, md ? "### %s\n\n" : "%s\n", d->combo[c0].workload);
    grid_print(&g, md, out);
    if (d->combo[c0].one_time)
        fprintf(out,
                "%sone-time costs, paid once per process (the first call of a library or a "
                "device, a context, a JIT), not workload speed: in no geometric mean\n",
                md ? "\n" : "");
    fputc('\n', out);
    grid_free(&g);
    return 0;
}

static void print_overall(const struct sd *d, FILE *out, int md) {
    const struct cmp_input *in = d->in;
    struct cmp_grid g;
    if (grid_init(&g, 4))
        return;
    grid_head(&g, 0, "device", 0);
    grid_head(&g, 1, "lines", 1);
    grid_head(&g, 2, "kernel", 1);
    grid_head(&g, 3, "e2e", 1);
    for (int s = 0; s < in->nseries; s++) {
        if (s == d->base)
            continue;
        double gk, ge;
        int n = geomeans(d, s, 0, d->ncombo, &gk, &ge);
        int row = grid_row(&g, 0);
        if (row < 0)
            break;
        char k[64], e[64];
        fmt_ratio(k, sizeof k, gk);
        fmt_ratio(e, sizeof e, ge);
        grid_set(&g, row, 0, "%s", in->series[s].label);
        grid_set(&g, row, 1, "%d", n);
        grid_set(&g, row, 2, "%s", n ? k : "-");
        grid_set(&g, row, 3, "%s", n ? e : "-");
    }
    const char *left = has_one_time(d) ? " (start-up costs left out: not workload speed)" : "";
    fprintf(out, md ? "### geometric mean over all workloads%s\n\n"
                    : "geometric mean over all workloads%s\n",
            left);
    grid_print(&g, md, out);
    fputc('\n', out);
    grid_free(&g);
}

/* With several tiers: every device's geometric mean per tier, over all workloads. */
static void print_tiers(struct sd *d, FILE *out, int md) {
    const struct cmp_input *in = d->in;
    const char *tiers[DT_COUNT + 8];
    int nt = 0;
    for (int c = 0; c < d->ncombo && nt < DT_COUNT + 8; c++)
        if (nt == 0 || strcmp(tiers[nt - 1], d->combo[c].dtype)) {
            int seen = 0;
            for (int t = 0; t < nt; t++)
                seen |= !strcmp(tiers[t], d->combo[c].dtype);
            if (!seen)
                tiers[nt++] = d->combo[c].dtype;
        }
    struct cmp_grid g;
    if (nt < 2 || grid_init(&g, 1 + 2 * nt))
        return;
    grid_head(&g, 0, "device", 0);
    for (int t = 0; t < nt; t++) {
        grid_head(&g, 1 + 2 * t, "kernel", 1);
        grid_head(&g, 2 + 2 * t, "e2e", 1);
        grid_group(&g, 1 + 2 * t, 2, tiers[t]);
    }
    for (int s = 0; s < in->nseries; s++) {
        int row = s == d->base ? -1 : grid_row(&g, 0);
        if (row < 0)
            continue;
        grid_set(&g, row, 0, "%s", in->series[s].label);
        for (int t = 0; t < nt; t++) {
            double gk, ge;
            char k[64], e[64];
            d->only_dtype = tiers[t];
            int n = geomeans(d, s, 0, d->ncombo, &gk, &ge);
            fmt_ratio(k, sizeof k, gk);
            fmt_ratio(e, sizeof e, ge);
            grid_set(&g, row, 1 + 2 * t, "%s", n ? k : "-");
            grid_set(&g, row, 2 + 2 * t, "%s", n ? e : "-");
        }
        d->only_dtype = NULL;
    }
    fprintf(out,
            md ? "### geometric mean per precision tier%s\n\n"
               : "geometric mean per precision tier (each tier against the baseline's rows "
                 "of the same tier)%s\n",
            has_one_time(d) ? (md ? " (start-up costs left out)" : "; start-up costs left out")
                            : "");
    grid_print(&g, md, out);
    fputc('\n', out);
    grid_free(&g);
}

static void print_crossovers(const struct sd *d, const struct xover *x, int nx, FILE *out, int md) {
    if (nx == 0)
        return;
    struct cmp_grid g;
    if (grid_init(&g, 5))
        return;
    grid_head(&g, 0, "workload", 0);
    grid_head(&g, 1, "device", 0);
    grid_head(&g, 2, "impl", 0);
    grid_head(&g, 3, "against", 0);
    grid_head(&g, 4, "end to end", 0);
    for (int i = 0; i < nx; i++) {
        int row = grid_row(&g, 0);
        if (row < 0)
            break;
        grid_set(&g, row, 0, "%s", x[i].workload);
        grid_set(&g, row, 1, "%s", d->in->series[x[i].series].label);
        if (strcmp(x[i].dtype, "float32"))
            grid_set(&g, row, 2, "%s (%s)", x[i].impl, x[i].dtype);
        else
            grid_set(&g, row, 2, "%s", x[i].impl);
        grid_set(&g, row, 3, "%s", d->in->series[x[i].cpu].label);
        grid_set(&g, row, 4, "%s", x[i].text);
    }
    fprintf(out, md ? "### crossover: where the GPU starts to beat the CPU\n\n"
                    : "crossover: where the GPU starts to beat the CPU (end to end, against the "
                      "CPU's fastest implementation at each size)\n");
    grid_print(&g, md, out);
    fputc('\n', out);
    grid_free(&g);
}

/* --- machine output ---------------------------------------------------------------------- */

static const char *const csv_head[] = {"kind",
                                       "workload",
                                       "shape",
                                       "dtype",
                                       "impl",
                                       "device",
                                       "device_name",
                                       "cc",
                                       "file",
                                       "run_id",
                                       "status",
                                       "ms",
                                       "e2e_ms",
                                       "baseline_device",
                                       "baseline_impl",
                                       "baseline_ms",
                                       "baseline_e2e_ms",
                                       "kernel_ratio",
                                       "e2e_ratio",
                                       "note",
                                       NULL};

static void csv_num(FILE *out, double v) {
    if (isfinite(v))
        fprintf(out, "%.10g", v);
}

static void csv_line(const struct sd *d, FILE *out, const char *kind, const struct combo *cb,
                     const char *workload, int s, const struct run_row *r, const struct run_row *b,
                     double kr, double er, const char *note) {
    const struct cmp_series *se = s >= 0 ? &d->in->series[s] : NULL;
    const struct cmp_series *bs = &d->in->series[d->base];
    const char *f[] = {kind,
                       workload,
                       cb ? cb->shape : "",
                       cb ? cb->dtype : "",
                       cb ? cb->impl : "",
                       se ? se->device : "",
                       se ? se->first->device_name : "",
                       se ? se->first->cc : "",
                       se ? d->in->runs[se->file].name : "",
                       se ? se->run_id : "",
                       r ? status_name(r->status) : ""};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
        csv_field(out, f[i]);
        fputc(',', out);
    }
    csv_num(out, r ? r->median_ms : NAN);
    fputc(',', out);
    csv_num(out, r && isfinite(r->e2e_median_ms) ? r->e2e_median_ms : NAN);
    fputc(',', out);
    csv_field(out, bs->device);
    fputc(',', out);
    csv_field(out, b ? b->impl : "");
    fputc(',', out);
    csv_num(out, b ? b->median_ms : NAN);
    fputc(',', out);
    csv_num(out, b ? e2e_ms(b) : NAN);
    fputc(',', out);
    csv_num(out, kr);
    fputc(',', out);
    csv_num(out, er);
    fputc(',', out);
    csv_field(out, note);
    fputc('\n', out);
}

static void print_csv(const struct sd *d, const struct xover *x, int nx, FILE *out) {
    const struct cmp_input *in = d->in;
    for (int i = 0; csv_head[i]; i++)
        fprintf(out, "%s%s", i ? "," : "", csv_head[i]);
    fputc('\n', out);
    for (int c = 0; c < d->ncombo; c++)
        for (int s = 0; s < in->nseries; s++) {
            const struct run_row *r = at(d, c, s), *b = d->ref[c];
            if (!r)
                continue;
            int ok = usable(r) && b;
            csv_line(d, out, "line", &d->combo[c], d->combo[c].workload, s, r, b,
                     ok ? r->median_ms / b->median_ms : NAN, ok ? e2e_ms(r) / e2e_ms(b) : NAN,
                     r->status == ST_OK ? "" : r->note);
        }
    for (int c0 = 0; c0 < d->ncombo; c0 = wl_end(d, c0))
        for (int s = 0; s < in->nseries; s++) {
            double gk, ge;
            int n = geomeans(d, s, c0, wl_end(d, c0), &gk, &ge);
            if (s == d->base || !n)
                continue;
            char note[64];
            snprintf(note, sizeof note, "geometric mean of %d lines", n);
            struct combo tier = {d->combo[c0].workload, "", d->combo[c0].dtype, "", 0, 0, 0, 0, 0, 0};
            csv_line(d, out, "geomean", tier_count(d) > 1 ? &tier : NULL, d->combo[c0].workload,
                     s, NULL, NULL, gk, ge, note);
        }
    for (int s = 0; s < in->nseries; s++) {
        double gk, ge;
        int n = geomeans(d, s, 0, d->ncombo, &gk, &ge);
        if (s == d->base || !n)
            continue;
        char note[96];
        snprintf(note, sizeof note, "geometric mean of %d lines%s", n,
                 has_one_time(d) ? " (start-up costs left out)" : "");
        csv_line(d, out, "geomean", NULL, "", s, NULL, NULL, gk, ge, note);
    }
    for (int i = 0; i < nx; i++) {
        struct combo cb = {x[i].workload, x[i].shape ? x[i].shape : "", x[i].dtype, x[i].impl, 0, 0,
                           0, 0, 0, 0};
        char note[480];
        snprintf(note, sizeof note, "%s: %s", x[i].kind, x[i].text);
        csv_line(d, out, "crossover", &cb, x[i].workload, x[i].series, NULL, NULL, NAN, NAN, note);
    }
}

static void json_kv(FILE *out, const char *k, const char *v, int comma) {
    json_string(out, k);
    fputc(':', out);
    json_string(out, v);
    if (comma)
        fputc(',', out);
}

static void json_kn(FILE *out, const char *k, double v, int comma) {
    json_string(out, k);
    fputc(':', out);
    json_number(out, v);
    if (comma)
        fputc(',', out);
}

static void json_series(const struct sd *d, FILE *out, int s) {
    const struct cmp_series *se = &d->in->series[s];
    json_kv(out, "device", se->device, 1);
    json_kv(out, "device_name", se->first->device_name, 1);
    json_kv(out, "cc", se->first->cc, 1);
    json_kv(out, "label", se->label, 1);
    json_kv(out, "file", d->in->runs[se->file].name, 1);
    json_kv(out, "run_id", se->run_id, 1);
    struct cmp_shared sh = cmp_shared_of(d->in, se->file, se->run_id, se->device);
    fprintf(out, "\"shared_gpu\":%s", !sh.known ? "null" : sh.yes ? "true" : "false");
}

/* With several tiers, the geomean entries of each tier over all workloads (workload null). */
static void json_tier_geomeans(struct sd *d, FILE *out) {
    for (int c = 0; c < d->ncombo && tier_count(d) > 1; c++) {
        int seen = 0;
        for (int e = 0; e < c && !seen; e++)
            seen = !strcmp(d->combo[e].dtype, d->combo[c].dtype);
        for (int s = 0; s < d->in->nseries && !seen; s++) {
            double gk, ge;
            d->only_dtype = d->combo[c].dtype;
            int n = geomeans(d, s, 0, d->ncombo, &gk, &ge);
            d->only_dtype = NULL;
            if (s == d->base || !n)
                continue;
            fputs(",\n{", out);
            json_kv(out, "workload", NULL, 1);
            json_kv(out, "dtype", d->combo[c].dtype, 1);
            json_series(d, out, s);
            fputc(',', out);
            json_kn(out, "lines", n, 1);
            json_kn(out, "kernel_ratio", gk, 1);
            json_kn(out, "e2e_ratio", ge, 0);
            fputc('}', out);
        }
    }
}

static void print_json(struct sd *d, const struct xover *x, int nx, FILE *out) {
    const struct cmp_input *in = d->in;
    json_document_begin(out, "compare");
    fputs(", \"mode\":\"slowdown\",\"baseline\":{", out);
    json_series(d, out, d->base);
    /* the workloads whose lines are one-time costs, in no geometric mean */
    fputs("},\n\"left_out_of_means\":[", out);
    int first = 1;
    for (int c = 0; c < d->ncombo; c++)
        if (d->combo[c].one_time && (c == 0 || !d->combo[c - 1].one_time ||
                                     strcmp(d->combo[c - 1].workload, d->combo[c].workload))) {
            if (!first)
                fputc(',', out);
            json_string(out, d->combo[c].workload);
            first = 0;
        }
    fputs("],\n\"lines\":[", out);
    first = 1;
    for (int c = 0; c < d->ncombo; c++)
        for (int s = 0; s < in->nseries; s++) {
            const struct run_row *r = at(d, c, s), *b = d->ref[c];
            if (!r)
                continue;
            int ok = usable(r) && b;
            fputs(first ? "\n{" : ",\n{", out);
            first = 0;
            json_kv(out, "workload", d->combo[c].workload, 1);
            json_kv(out, "shape", d->combo[c].shape, 1);
            json_kv(out, "dtype", d->combo[c].dtype, 1);
            json_kv(out, "impl", d->combo[c].impl, 1);
            json_series(d, out, s);
            fputc(',', out);
            json_kv(out, "status", status_name(r->status), 1);
            json_kn(out, "flops", r->flops, 1);
            json_kn(out, "bytes", r->bytes, 1);
            json_kn(out, "ms", r->median_ms, 1);
            json_kn(out, "e2e_ms", r->e2e_median_ms, 1);
            json_kv(out, "baseline_impl", b ? b->impl : NULL, 1);
            json_kn(out, "baseline_ms", b ? b->median_ms : NAN, 1);
            json_kn(out, "baseline_e2e_ms", b ? e2e_ms(b) : NAN, 1);
            json_kn(out, "kernel_ratio", ok ? r->median_ms / b->median_ms : NAN, 1);
            json_kn(out, "e2e_ratio", ok ? e2e_ms(r) / e2e_ms(b) : NAN, 0);
            fputc('}', out);
        }
    fputs("],\n\"geomean\":[", out);
    first = 1;
    for (int c0 = 0; c0 <= d->ncombo; c0 = c0 < d->ncombo ? wl_end(d, c0) : d->ncombo + 1)
        for (int s = 0; s < in->nseries; s++) {
            int all = c0 == d->ncombo;
            double gk, ge;
            int n = geomeans(d, s, all ? 0 : c0, all ? d->ncombo : wl_end(d, c0), &gk, &ge);
            if (s == d->base || !n)
                continue;
            fputs(first ? "\n{" : ",\n{", out);
            first = 0;
            json_kv(out, "workload", all ? NULL : d->combo[c0].workload, 1);
            if (tier_count(d) > 1) /* the tier of a workload's table; null: all tiers */
                json_kv(out, "dtype", all ? NULL : d->combo[c0].dtype, 1);
            json_series(d, out, s);
            fputc(',', out);
            json_kn(out, "lines", n, 1);
            json_kn(out, "kernel_ratio", gk, 1);
            json_kn(out, "e2e_ratio", ge, 0);
            fputc('}', out);
        }
    json_tier_geomeans(d, out);
    fputs("],\n\"crossover\":[", out);
    for (int i = 0; i < nx; i++) {
        fputs(i ? ",\n{" : "\n{", out);
        json_kv(out, "workload", x[i].workload, 1);
        json_kv(out, "impl", x[i].impl, 1);
        json_kv(out, "dtype", x[i].dtype, 1);
        json_series(d, out, x[i].series);
        fputc(',', out);
        json_kv(out, "cpu", d->in->series[x[i].cpu].label, 1);
        json_kv(out, "kind", x[i].kind, 1);
        json_kv(out, "shape", x[i].shape, 1);
        json_kv(out, "text", x[i].text, 0);
        fputc('}', out);
    }
    fputs("]}\n", out);
}

int cmp_slowdown(const struct cmp_input *in, const struct cmp_opts *o, FILE *out, char *err,
                 size_t errlen) {
    struct sd d = {.in = in, .o = o};
    d.base = find_baseline(in, o->baseline, !o->baseline_default, err, errlen);
    if (d.base < 0)
        return 2;
    if (build(&d, err, errlen)) {
        free_sd(&d);
        return 2;
    }
    struct xover *x = calloc((size_t)d.ncombo * (size_t)in->nseries + 1, sizeof *x);
    if (!x) {
        free_sd(&d);
        snprintf(err, errlen, "compare: out of memory");
        return 2;
    }
    int nx = 0;
    for (int c0 = 0; c0 < d.ncombo; c0 = wl_end(&d, c0))
        nx += crossovers(&d, c0, wl_end(&d, c0), x + nx);
    if (o->format == CMP_CSV) {
        print_csv(&d, x, nx, out);
    } else if (o->format == CMP_JSON) {
        print_json(&d, x, nx, out);
    } else {
        int md = o->format == CMP_MARKDOWN;
        print_intro(&d, out, md);
        for (int c0 = 0; c0 < d.ncombo; c0 = wl_end(&d, c0))
            print_workload(&d, c0, wl_end(&d, c0), out, md);
        if (in->nseries > 1)
            print_overall(&d, out, md);
        if (in->nseries > 1 && tier_count(&d) > 1)
            print_tiers(&d, out, md);
        print_crossovers(&d, x, nx, out, md);
    }
    int shared = 0; /* series timed on a shared GPU */
    for (int s = 0; s < in->nseries; s++)
        shared += cmp_shared_of(in, in->series[s].file, in->series[s].run_id,
                                in->series[s].device).yes > 0;
    if (o->strict && shared && o->format != CMP_CSV && o->format != CMP_JSON)
        cmp_shared_refusal(shared, o->format == CMP_MARKDOWN, out);
    free(x);
    free_sd(&d);
    return o->strict && shared ? 1 : 0;
}
