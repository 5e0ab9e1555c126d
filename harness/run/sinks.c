/* sinks.c — stdout in four formats, streaming one row at a time, and terminal progress. */
#include "harness/run/sinks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/io/csv_write.h"
#include "harness/io/json.h"

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
        printf(TABLE_FMT, "device", "workload", "impl", s->shape_width, "shape", "median ms",
               "95% CI ms", "e2e ms", "GFLOP/s", "GB/s", "peak", "status");
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

/* A number of the row, or null where it does not apply (negative sentinel, no timings). */
static double or_nan(double v, int applies) {
    return applies && v >= 0 ? v : NAN;
}

static void json_row(const struct run_info *ri, const struct result *r) {
    const struct device *d = r->dev;
    int t = r->st.n > 0;
    FILE *f = stdout;
    printf("  {");
    json_member_string(f, "", "schema", CSV_SCHEMA);
    json_member_string(f, ", ", "run_id", ri->run_id);
    json_member_string(f, ", ", "utc", ri->utc);
    json_member_string(f, ", ", "host", ri->host);
    json_member_string(f, ", ", "device", d->id);
    json_member_string(f, ", ", "device_name", d->name);
    json_member_string(f, ", ", "cc", d->cc);
    json_member_string(f, ", ", "driver", d->driver);
    json_member_string(f, ", ", "runtime", d->runtime);
    json_member_string(f, ", ", "blas_lib", d->blas_lib);
    json_member_string(f, ", ", "dnn_lib", d->dnn_lib);
    json_member_number(f, ", ", "threads", or_nan(d->threads, d->kind == DEV_CPU));
    json_member_string(f, ", ", "workload", r->w->name);
    json_member_string(f, ", ", "impl", r->im->name);
    json_member_string(f, ", ", "dtype", "float32");
    json_member_string(f, ", ", "shape", r->shape);
    json_member_number(f, ", ", "flops", r->flops);
    json_member_number(f, ", ", "bytes", r->bytes);
    json_member_number(f, ", ", "reps", (double)r->st.n);
    json_member_number(f, ", ", "median_ms", or_nan(r->st.median, t));
    json_member_number(f, ", ", "min_ms", or_nan(r->st.min, t));
    json_member_number(f, ", ", "mean_ms", or_nan(r->st.mean, t));
    json_member_number(f, ", ", "stddev_ms", or_nan(r->st.stddev, t));
    json_member_number(f, ", ", "ci95_lo_ms", or_nan(r->st.ci_lo, t));
    json_member_number(f, ", ", "ci95_hi_ms", or_nan(r->st.ci_hi, t));
    json_member_number(f, ", ", "e2e_median_ms", or_nan(r->e2e_median_ms, t));
    json_member_number(f, ", ", "gflops", or_nan(r->gflops, t));
    json_member_number(f, ", ", "gbps", or_nan(r->gbps, t));
    json_member_number(f, ", ", "peak_pct", or_nan(r->peak_pct, t));
    json_member_number(f, ", ", "max_rel_err", or_nan(r->max_rel_err, 1));
    json_member_string(f, ", ", "status", status_name(r->status));
    json_member_string(f, ", ", "note", r->note);
    json_member_number(f, ", ", "batch_ms", or_nan(r->batch_ms, t));
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
