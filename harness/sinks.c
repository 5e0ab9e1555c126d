/* sinks.c — stdout in four formats, streaming one row at a time, and terminal progress. */
#include "harness/sinks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/csv.h"

void sink_fmt_ms(char *out, size_t len, double ms) {
    if (ms >= 100)
        snprintf(out, len, "%.0f", ms);
    else if (ms >= 1)
        snprintf(out, len, "%.3g", ms);
    else
        snprintf(out, len, "%.3g", ms);
}

static void fmt_opt(char *out, size_t len, const char *fmt, double v, int ok) {
    if (ok)
        snprintf(out, len, fmt, v);
    else
        snprintf(out, len, "-");
}

/* The human columns shared by the table and markdown formats. */
struct cells {
    char median[24], ci[64], e2e[24], gflops[24], gbps[24], peak[16], status[1100];
};

static void make_cells(const struct result *r, struct cells *c) {
    int t = r->st.n > 0;
    char lo[24], hi[24];
    if (t) {
        sink_fmt_ms(c->median, sizeof c->median, r->st.median);
        sink_fmt_ms(lo, sizeof lo, r->st.ci_lo);
        sink_fmt_ms(hi, sizeof hi, r->st.ci_hi);
        snprintf(c->ci, sizeof c->ci, "%s–%s", lo, hi);
    } else {
        snprintf(c->median, sizeof c->median, "-");
        snprintf(c->ci, sizeof c->ci, "-");
    }
    if (t && r->e2e_median_ms >= 0)
        sink_fmt_ms(c->e2e, sizeof c->e2e, r->e2e_median_ms);
    else
        snprintf(c->e2e, sizeof c->e2e, "-");
    fmt_opt(c->gflops, sizeof c->gflops, "%.1f", r->gflops, t && r->gflops >= 0);
    fmt_opt(c->gbps, sizeof c->gbps, "%.1f", r->gbps, t && r->gbps >= 0);
    fmt_opt(c->peak, sizeof c->peak, "%.0f%%", r->peak_pct, t && r->peak_pct >= 0);
    if (r->status == ST_OK)
        snprintf(c->status, sizeof c->status, "ok");
    else
        snprintf(c->status, sizeof c->status, "%s: %s", status_name(r->status), r->note);
}

static const char *const TABLE_FMT = "%-7s %-9s %-8s %-*s %10s %17s %10s %9s %8s %5s  %s\n";

void sink_begin(struct sink *s, enum out_format fmt, int shape_width) {
    memset(s, 0, sizeof *s);
    s->fmt = fmt;
    s->shape_width = shape_width > 5 ? shape_width : 5;
    s->progress = isatty(STDERR_FILENO);
    switch (fmt) {
    case FMT_TABLE:
        printf(TABLE_FMT, "device", "workload", "impl", s->shape_width, "shape", "median ms", "95% CI ms",
               "e2e ms", "GFLOP/s", "GB/s", "peak", "status");
        break;
    case FMT_MARKDOWN:
        printf("| device | workload | impl | shape | median (ms) | 95%% CI (ms) | end-to-end (ms) "
               "| GFLOP/s | GB/s | %% of peak | status |\n");
        printf("|---|---|---|---|--:|--:|--:|--:|--:|--:|---|\n");
        break;
    case FMT_CSV: printf("%s\n", CSV_HEADER); break;
    case FMT_JSON: printf("[\n"); break;
    }
    fflush(stdout);
}

static void json_str(const char *key, const char *v, int comma) {
    printf("\"%s\": \"", key);
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    printf("\"%s", comma ? ", " : "");
}

static void json_num(const char *key, double v, int ok, int comma) {
    if (ok && isfinite(v))
        printf("\"%s\": %.6g%s", key, v, comma ? ", " : "");
    else
        printf("\"%s\": null%s", key, comma ? ", " : "");
}

static void json_row(const struct run_info *ri, const struct result *r) {
    const struct device *d = r->dev;
    int t = r->st.n > 0;
    printf("  {");
    json_str("schema", CSV_SCHEMA, 1);
    json_str("run_id", ri->run_id, 1);
    json_str("utc", ri->utc, 1);
    json_str("host", ri->host, 1);
    json_str("device", d->id, 1);
    json_str("device_name", d->name, 1);
    json_str("cc", d->cc, 1);
    json_str("driver", d->driver, 1);
    json_str("runtime", d->runtime, 1);
    json_str("blas_lib", d->blas_lib, 1);
    json_str("dnn_lib", d->dnn_lib, 1);
    json_num("threads", d->threads, d->kind == DEV_CPU, 1);
    json_str("workload", r->w->name, 1);
    json_str("impl", r->im->name, 1);
    json_str("dtype", "float32", 1);
    json_str("shape", r->shape, 1);
    json_num("flops", r->flops, 1, 1);
    json_num("bytes", r->bytes, 1, 1);
    json_num("reps", (double)r->st.n, 1, 1);
    json_num("median_ms", r->st.median, t, 1);
    json_num("min_ms", r->st.min, t, 1);
    json_num("mean_ms", r->st.mean, t, 1);
    json_num("stddev_ms", r->st.stddev, t, 1);
    json_num("ci95_lo_ms", r->st.ci_lo, t, 1);
    json_num("ci95_hi_ms", r->st.ci_hi, t, 1);
    json_num("e2e_median_ms", r->e2e_median_ms, t && r->e2e_median_ms >= 0, 1);
    json_num("gflops", r->gflops, t && r->gflops >= 0, 1);
    json_num("gbps", r->gbps, t && r->gbps >= 0, 1);
    json_num("peak_pct", r->peak_pct, t && r->peak_pct >= 0, 1);
    json_num("max_rel_err", r->max_rel_err, r->max_rel_err >= 0, 1);
    json_str("status", status_name(r->status), 1);
    json_str("note", r->note, 0);
    printf("}");
}

void sink_row(struct sink *s, const struct run_info *ri, const struct result *r) {
    struct cells c;
    sink_progress_clear(s);
    switch (s->fmt) {
    case FMT_TABLE:
        make_cells(r, &c);
        printf(TABLE_FMT, r->dev->id, r->w->name, r->im->name, s->shape_width, r->shape_short,
               c.median, c.ci,
               c.e2e, c.gflops, c.gbps, c.peak, c.status);
        break;
    case FMT_MARKDOWN:
        make_cells(r, &c);
        for (char *p = c.status; *p; p++) /* a '|' would split the markdown cell */
            if (*p == '|')
                *p = '/';
        printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r->dev->id,
               r->w->name, r->im->name, r->shape_short, c.median, c.ci, c.e2e, c.gflops, c.gbps,
               c.peak, c.status);
        break;
    case FMT_CSV: csv_write_result(stdout, ri, r); break;
    case FMT_JSON:
        if (s->rows)
            printf(",\n");
        json_row(ri, r);
        break;
    }
    s->rows++;
    fflush(stdout);
}

void sink_end(struct sink *s) {
    sink_progress_clear(s);
    if (s->fmt == FMT_JSON)
        printf("%s]\n", s->rows ? "\n" : "");
    fflush(stdout);
}

void sink_progress(struct sink *s, int i, int total, const char *what) {
    if (!s->progress)
        return;
    fprintf(stderr, "\r\033[K[%d/%d] %s", i, total, what);
    fflush(stderr);
}

void sink_progress_clear(struct sink *s) {
    if (!s->progress)
        return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
}
