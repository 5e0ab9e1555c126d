/* sinks.c — stdout in every format (the table and markdown here, the machine-readable ones
 * through harness/io/rows.h), streaming one row at a time, and terminal progress. */
#include "harness/run/sinks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/io/rows.h"
#include "harness/io/termcols.h"
#include "harness/io/stdout_check.h"
#include "harness/telemetry/cpu_wait.h"

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
    char words[96];
    if (r->status == ST_OK && *marks_words(t ? marks_of(r) : 0, ", ", words, sizeof words))
        snprintf(c->status, sizeof c->status, "ok [%s]", words); /* legend: table_legend */
    else if (r->status == ST_OK)
        snprintf(c->status, sizeof c->status, "ok");
    else
        snprintf(c->status, sizeof c->status, "%s: %s", status_name(r->status), r->note);
}

/* --- the terminal table ------------------------------------------------------------------------
 * Its implementation and shape columns are as wide as the run's longest (sink.impl_width,
 * sink.shape_width), so every row lines up whatever its names ("openblas_first"); widths are
 * display columns (harness/io/termcols.h), so a cell holding "–" (the 95% CI's en dash: three
 * bytes, one column) lines up too. Where the width is known (term_width: COLUMNS, or a terminal
 * on stdout) the table fits it: the optional columns that do not fit are left out (and named
 * under the table), a long shape wraps within its column and the status within what is left.
 * Files and pipes get the wide form. */
enum {
    C_DEV, C_WL, C_IMPL, C_TYPE, C_SHAPE, C_MED, C_CI, C_E2E, C_GFLOPS, C_GBPS, C_PEAK, C_STATUS,
    TABLE_COLS
};
static const char *const table_heads[TABLE_COLS] = {
    "device",    "workload", "impl",    "type", "shape", "median ms",
    "95% CI ms", "e2e ms",   "GFLOP/s", "GB/s", "peak",  "status"};
static const int table_right[TABLE_COLS] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0};
/* The columns a narrow table may leave out, the first kept longest: the first NRATES even where
 * the shape then wraps in SHAPE_MIN columns, the others only while it keeps SHAPE_ROOM. */
static const int table_optional[] = {C_GFLOPS, C_PEAK, C_GBPS, C_CI, C_E2E};
/* A status longer than its room goes on lines of its own when that room is under STATUS_OWN. */
enum { NOPTIONAL = 5, NRATES = 2, SHAPE_MIN = 10, SHAPE_ROOM = 20, STATUS_MIN = 6, STATUS_OWN = 24 };

/* Column widths and which columns show, for s->width (0: the wide form, every column). */
static void table_fit(struct sink *s) {
    const int wide_w[TABLE_COLS] = {7, 9, s->impl_width, 4, s->shape_width, 10, 17, 10, 9, 8, 5, 0};
    const int *wide = wide_w;
    int used = 1 + STATUS_MIN; /* the status's extra space and its least room */
    for (int c = 0; c < TABLE_COLS; c++) {
        s->colw[c] = wide[c];
        s->show[c] = 1;
        used += c < C_STATUS ? wide[c] + 1 : 0;
    }
    if (!s->width || used <= s->width)
        return;
    /* narrow: each column as wide as its head or a usual value, no wider */
    const int narrow[TABLE_COLS] = {6, 9, s->impl_width, 4, s->shape_width, 9, 15, 8, 8, 7, 5, 0};
    used = 1 + STATUS_MIN;
    for (int c = 0; c < C_STATUS; c++)
        used += (s->colw[c] = narrow[c]) + 1;
    wide = narrow;
    int shape_min = s->shape_width < SHAPE_MIN ? s->shape_width : SHAPE_MIN;
    used += shape_min - s->shape_width;
    for (int i = 0; i < NOPTIONAL; i++) {
        s->show[table_optional[i]] = 0;
        used -= wide[table_optional[i]] + 1;
    }
    for (int i = 0; i < NOPTIONAL; i++)
        if (used + wide[table_optional[i]] + 1 + (i < NRATES ? 0 : SHAPE_ROOM - shape_min) <=
            s->width) {
            s->show[table_optional[i]] = 1;
            used += wide[table_optional[i]] + 1;
        }
    s->colw[C_SHAPE] = shape_min + (s->width > used ? s->width - used : 0);
    if (s->colw[C_SHAPE] > s->shape_width)
        s->colw[C_SHAPE] = s->shape_width;
}

/* Write `len` bytes of s padded to `cols` display columns. */
static void table_piece(FILE *out, const char *s, size_t len, int cols, int right) {
    char buf[1200];
    snprintf(buf, sizeof buf, "%.*s", (int)len, s);
    term_cell(out, buf, cols, right);
}

/* One row (or the header) of the table: as many lines as its wrapped shape and status take. */
static void table_line(const struct sink *s, const char *const cell[TABLE_COLS]) {
    const char *rest[TABLE_COLS];
    int status_at = 1; /* the column the status starts at */
    for (int c = 0; c < TABLE_COLS; c++) {
        rest[c] = cell[c];
        status_at += c < C_STATUS && s->show[c] ? s->colw[c] + 1 : 0;
    }
    /* a long status (an error's note) in little room: on lines of its own, under the row */
    int own = s->width && s->width - status_at < STATUS_OWN &&
              term_cols(cell[C_STATUS]) > s->width - status_at;
    if (own)
        rest[C_STATUS] = "";
    for (int line = 0;; line++) {
        char *buf = NULL;
        size_t blen = 0;
        FILE *m = open_memstream(&buf, &blen);
        if (!m)
            return;
        int more = 0;
        for (int c = 0; c < TABLE_COLS; c++) {
            if (!s->show[c])
                continue;
            /* the shape and the status wrap; every other cell is on the row's first line */
            int wraps = s->width && (c == C_SHAPE || c == C_STATUS);
            int room = c == C_STATUS ? s->width - status_at : s->colw[c];
            const char *next = "";
            size_t len = wraps ? term_wrap(rest[c], room, &next) : line ? 0 : strlen(rest[c]);
            if (c == C_STATUS) {
                fprintf(m, " %.*s", (int)len, rest[c]);
            } else {
                table_piece(m, rest[c], len, s->colw[c], table_right[c]);
                fputc(' ', m);
            }
            rest[c] = wraps ? next : "";
            more |= *rest[c] != '\0';
        }
        fclose(m);
        while (blen && buf[blen - 1] == ' ') /* a continuation line's empty cells */
            blen--;
        printf("%.*s\n", (int)blen, buf);
        free(buf);
        if (!more)
            break;
    }
    if (own) {
        printf("    ");
        term_wrapped(stdout, cell[C_STATUS], s->width, 4, 4);
    }
}

/* Under the table, after a blank line: the columns a narrow terminal left out, what each '-'
 * in `peak` means (one line per reason, with its rows), and what each mark in `status` means
 * (harness/io/marks.h). */
static void table_legend(const struct sink *s) {
    char line[600];
    int n = 0, any = 0, peaks = s->show[C_PEAK] ? s->nno_peak : 0, marked = 0;
    for (int i = 0; i < MARK_KINDS; i++)
        marked += s->mark_rows[i] > 0;
    for (int i = 0; i < NOPTIONAL; i++)
        any += !s->show[table_optional[i]];
    if (any || peaks || marked)
        printf("\n");
    any = 0;
    for (int i = 0; i < NOPTIONAL; i++)
        if (!s->show[table_optional[i]])
            n += snprintf(line + n, sizeof line - (size_t)n, "%s%s", any++ ? ", " : "",
                          table_heads[table_optional[i]]);
    if (any) {
        char all[700];
        snprintf(all, sizeof all,
                 "left out to fit %d columns: %s (every column is in the run's CSV and JSON)",
                 s->width, line);
        term_wrapped(stdout, all, s->width, 0, 2);
    }
    for (int i = 0; i < peaks; i++) {
        snprintf(line, sizeof line, "peak \"-\" in %d row%s: %s", s->no_peak_rows[i],
                 s->no_peak_rows[i] == 1 ? "" : "s", s->no_peak[i]);
        term_wrapped(stdout, line, s->width, 0, 2);
    }
    for (int i = 0; i < MARK_KINDS; i++)
        if (s->mark_rows[i]) {
            snprintf(line, sizeof line, "[%s] in %d row%s: %s", mark_kinds[i].word,
                     s->mark_rows[i], s->mark_rows[i] == 1 ? "" : "s", mark_kinds[i].legend);
            term_wrapped(stdout, line, s->width, 0, 2);
        }
}

/* Count a timed row under each of its marks (the legend's). */
static void count_marks(struct sink *s, const struct result *r) {
    unsigned m = r->st.n > 0 ? marks_of(r) : 0;
    for (int i = 0; i < MARK_KINDS; i++)
        s->mark_rows[i] += (m & mark_kinds[i].bit) != 0;
}

/* Count a timed row without a peak under its reason (the legend's). */
static void count_no_peak(struct sink *s, const struct result *r) {
    if (!(r->st.n > 0) || r->peak_pct >= 0 || !r->no_peak)
        return;
    for (int i = 0; i < s->nno_peak; i++)
        if (!strcmp(s->no_peak[i], r->no_peak)) {
            s->no_peak_rows[i]++;
            return;
        }
    if (s->nno_peak < SINK_NO_PEAK_MAX) {
        s->no_peak[s->nno_peak] = r->no_peak;
        s->no_peak_rows[s->nno_peak++] = 1;
    }
}

/* Count a timed row by whether its CPU was shared, and keep the worst few (the footer's). */
static void count_cpu_wait(struct sink *s, const struct result *r) {
    if (!(r->st.n > 0) || r->cpu_wait_pct < 0)
        return;
    s->nwait_timed++;
    if (!(r->cpu_wait_pct > CPU_WAIT_SHARED_PCT))
        return;
    int at = s->nwait < SINK_WAIT_WORST ? s->nwait : SINK_WAIT_WORST;
    s->nwait++;
    while (at > 0 && s->wait_pct[at - 1] < r->cpu_wait_pct) { /* insertion, worst first */
        if (at < SINK_WAIT_WORST) {
            s->wait_pct[at] = s->wait_pct[at - 1];
            memcpy(s->wait_row[at], s->wait_row[at - 1], sizeof s->wait_row[at]);
        }
        at--;
    }
    if (at >= SINK_WAIT_WORST)
        return;
    s->wait_pct[at] = r->cpu_wait_pct;
    snprintf(s->wait_row[at], sizeof s->wait_row[at], "%.16s %.32s %.32s %s %.100s", r->dev->id, r->w->name,
             r->im->name, dtype_flag(r->dtype), r->shape_short);
}

/* Under the table, once: how many rows were timed on a shared CPU (their status "ok [shared-cpu]",
 * its legend line above says what the mark means), the worst named. */
static void cpu_wait_footer(const struct sink *s, int md) {
    char line[1100];
    if (!s->nwait)
        return;
    int n = snprintf(line, sizeof line,
                     "CPU shared: %d of %d timed rows waited for a core more than %.0f%% of "
                     "their timed time, so their times are slower than this machine gives alone; "
                     "the worst: ",
                     s->nwait, s->nwait_timed, CPU_WAIT_SHARED_PCT);
    int shown = s->nwait < SINK_WAIT_WORST ? s->nwait : SINK_WAIT_WORST;
    for (int i = 0; i < shown && n > 0 && (size_t)n < sizeof line; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, "%s%s (%.0f%%)", i ? ", " : "",
                      s->wait_row[i], s->wait_pct[i]);
    if (n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n,
                 " (cpu_wait_pct in the CSV; run again when the machine is quiet)");
    printf("\n");
    if (md)
        printf("%s\n", line);
    else
        term_wrapped(stdout, line, s->width, 0, 2);
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
    s->width = fmt == FMT_TABLE ? term_width(stdout) : 0;
    table_fit(s);
    if (s->rows_fmt)
        s->rows_fmt->begin(stdout, ri);
    else if (fmt == FMT_TABLE)
        table_line(s, table_heads);
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
    count_no_peak(s, r);
    count_marks(s, r);
    count_cpu_wait(s, r);
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
    else
        table_legend(s);
    if (!s->rows_fmt)
        cpu_wait_footer(s, s->fmt == FMT_MARKDOWN);
    if (!s->rows_fmt && s->ri && s->ri->ndevs > 0) {
        printf("\n");
        for (int i = 0; i < s->ri->ndevs; i++) {
            const struct device *d = s->ri->devs[i];
            char facts[sizeof d->name + sizeof d->extra + 8];
            snprintf(facts, sizeof facts, "%s: %s", d->name, d->extra);
            if (s->fmt == FMT_TABLE) { /* wrapped under the facts, past the device's id */
                printf("%-*s ", term_field(d->id, 7), d->id);
                term_wrapped(stdout, facts, s->width, 8, 8);
            } else {
                printf("- `%s` %s\n", d->id, facts);
            }
        }
    }
    sink_flush(s);
}

/* The progress line is cut to one column less than the terminal's width (COLUMNS, else the
 * terminal's; 80 unknown): a line that wrapped would leave its first part behind when "\r\033[K"
 * clears only the last. */
enum { PROGRESS_WIDTH = 80 };
void sink_progress(struct sink *s, int i, int total, const char *what) {
    if (!s->progress)
        return;
    char line[1024];
    int width = term_width(stderr), cols = 0;
    snprintf(line, sizeof line, "[%d/%d] %s", i, total, what);
    width = (width > 1 ? width : PROGRESS_WIDTH) - 1;
    size_t n = 0;
    for (; line[n]; n++) /* a code point's first byte starts a column (termcols.h) */
        if (((unsigned char)line[n] & 0xC0) != 0x80 && ++cols > width)
            break;
    fprintf(stderr, "\r\033[K%.*s", (int)n, line);
    fflush(stderr);
}

void sink_progress_clear(struct sink *s) {
    if (!s->progress)
        return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
}
