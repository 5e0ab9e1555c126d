/* sinks.c — stdout in every format (the table and markdown here, the machine-readable ones
 * through harness/io/rows.h), streaming one row at a time, and terminal progress. */
#include "harness/run/sinks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/io/rows.h"
#include "harness/io/termcols.h"
#include "harness/io/stdout_check.h"

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
        if (isfinite(r->st.ci_lo) && isfinite(r->st.ci_hi))
            snprintf(c->ci, sizeof c->ci, "%s–%s", lo, hi);
        else /* too few repetitions for 95%: the note says how many it needs */
            snprintf(c->ci, sizeof c->ci, "-");
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

/* One line of the table: the implementation and shape columns are as wide as the run's longest
 * (sink.impl_width, sink.shape_width), so every row lines up whatever its names
 * ("openblas_first"); widths are display columns (harness/io/termcols.h), so a cell holding
 * "–" (the 95% CI's en dash: three bytes, one column) lines up too. */
enum { TABLE_COLS = 12 };
static void table_line(const struct sink *s, const char *const cell[TABLE_COLS]) {
    const int width[TABLE_COLS - 1] = {7, 9, s->impl_width, 4, s->shape_width, 10, 17, 10, 9, 8, 5};
    const int right[TABLE_COLS - 1] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
    for (int c = 0; c < TABLE_COLS - 1; c++) {
        if (right[c])
            printf("%*s ", term_field(cell[c], width[c]), cell[c]);
        else
            printf("%-*s ", term_field(cell[c], width[c]), cell[c]);
    }
    printf(" %s\n", cell[TABLE_COLS - 1]); /* the status, last: unpadded */
}

/* The machine-readable formats are harness/io's row formats (rows.h). */
static const struct row_format *machine_format(enum out_format fmt) {
    switch (fmt) {
    case FMT_CSV: return &rows_csv;
    case FMT_JSON: return &rows_json;
    case FMT_GBENCH: return &rows_gbench;
    case FMT_BMF: return &rows_bmf;
    default: return NULL;
    }
}

/* Flush what was written to stdout; on a failure, write nothing more. */
static void sink_flush(struct sink *s) {
    if (!s->dead && stdout_flush_checked(s->lost) != 0)
        s->dead = 1;
}

void sink_begin(struct sink *s, enum out_format fmt, int shape_width, int impl_width,
                const struct run_info *ri, const char *lost) {
    memset(s, 0, sizeof *s);
    s->lost = lost;
    s->fmt = fmt;
    s->rows_fmt = machine_format(fmt);
    s->shape_width = shape_width > 5 ? shape_width : 5;
    s->impl_width = impl_width > 8 ? impl_width : 8;
    s->progress = isatty(STDERR_FILENO);
    s->ri = ri;
    if (s->rows_fmt)
        s->rows_fmt->begin(stdout, ri);
    else if (fmt == FMT_TABLE)
        table_line(s, (const char *const[TABLE_COLS]){"device", "workload", "impl", "type", "shape",
                                                      "median ms", "95% CI ms", "e2e ms", "GFLOP/s",
                                                      "GB/s", "peak", "status"});
    else {
        printf("| device | workload | impl | dtype | shape | median (ms) | 95%% CI (ms) "
               "| end-to-end (ms) | GFLOP/s | GB/s | %% of peak | status |\n");
        printf("|---|---|---|---|---|--:|--:|--:|--:|--:|--:|---|\n");
    }
    sink_flush(s);
}

void sink_row(struct sink *s, const struct run_info *ri, const struct result *r) {
    struct cells c;
    sink_progress_clear(s);
    if (s->dead)
        return;
    if (s->rows_fmt) {
        s->rows += s->rows_fmt->row(stdout, ri, r, s->rows);
        sink_flush(s);
        return;
    }
    switch (s->fmt) {
    case FMT_TABLE:
        make_cells(r, &c);
        table_line(s, (const char *const[TABLE_COLS]){
                          r->dev->id, r->w->name, r->im->name, dtype_flag(r->dtype), r->shape_short,
                          c.median, c.ci, c.e2e, c.gflops, c.gbps, c.peak, c.status});
        break;
    case FMT_MARKDOWN:
        make_cells(r, &c);
        for (char *p = c.status; *p; p++) /* a '|' would split the markdown cell */
            if (*p == '|')
                *p = '/';
        printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r->dev->id,
               r->w->name, r->im->name, dtype_flag(r->dtype), r->shape_short, c.median, c.ci, c.e2e,
               c.gflops, c.gbps, c.peak, c.status);
        break;
    default: break;
    }
    s->rows++;
    sink_flush(s);
}

void sink_end(struct sink *s) {
    sink_progress_clear(s);
    if (s->dead)
        return;
    if (s->rows_fmt)
        s->rows_fmt->end(stdout, s->rows);
    else if (s->ri && s->ri->ndevs > 0) {
        printf("\n");
        for (int i = 0; i < s->ri->ndevs; i++) {
            const struct device *d = s->ri->devs[i];
            if (s->fmt == FMT_TABLE)
                printf("%-*s %s: %s\n", term_field(d->id, 7), d->id, d->name, d->extra);
            else
                printf("- `%s` %s: %s\n", d->id, d->name, d->extra);
        }
    }
    sink_flush(s);
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
