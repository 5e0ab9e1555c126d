/* rows.h — the run's result rows in every machine-readable format, behind one interface, and the
 * result files written in them.
 *
 * A format is a const struct of three functions — begin (before the first row), row, end — that
 * write to any stream: stdout (`run --format`) or a result file (`--out`, `--json`). Formats:
 *   csv     the run CSV, schema gpubench-1 (csv_write.c; results/README.md)
 *   json    the run's JSON document (json_run.c; docs/json.md)
 *   gbench  Google Benchmark's JSON, for its tools/compare.py and dashboards (gbench.c)
 *   bmf     Bencher Metric Format, for `bencher run --adapter json` (bmf.c)
 * Every format streams: a row is written as it completes, so a file's .partial holds the rows
 * finished so far. */
#ifndef GPUBENCH_ROWS_H
#define GPUBENCH_ROWS_H

#include <stdio.h>

#include "harness/core/result.h"
#include "harness/io/csv_write.h"

struct row_format {
    const char *name; /* "csv", "json", "gbench", "bmf" */
    void (*begin)(FILE *f, const struct run_info *ri);
    /* One row of the run, after `written` entries (0: this is the first). Returns the entries it
     * wrote: 1, or 0 for a row the format leaves out (gbench and bmf keep timed rows only). */
    int (*row)(FILE *f, const struct run_info *ri, const struct result *r, int written);
    /* After the last row; `written` entries in all. */
    void (*end)(FILE *f, int written);
};

extern const struct row_format rows_csv, rows_json, rows_gbench, rows_bmf;

/* A timed row's name in the benchmark-tool formats (gbench, bmf):
 * workload/impl/device/shape, then /tier for rows not float32 (their names before tiers). */
void rows_bench_name(const struct result *r, char *name, size_t len);

/* The format named `name`, or NULL. */
const struct row_format *rows_find(const char *name);

/* A result file in one format: PATH.partial while the run goes on, PATH at the end. */
struct result_file {
    struct csv_file file; /* the atomic file (csv_write.h), whatever the format */
    const struct row_format *fmt;
    int written; /* entries written so far */
};

/* Create PATH.partial and write the format's beginning. Returns 0, or -1 (or CSV_BUSY: another
 * run writes PATH.partial now, csv_write.h) with "PATH: reason". */
int result_file_open(struct result_file *rf, const char *path, const struct row_format *fmt,
                     const struct run_info *ri, char *err, size_t errlen);

/* One row, flushed at once (an interrupted run keeps it). */
void result_file_row(struct result_file *rf, const struct run_info *ri, const struct result *r);

/* Write the format's end, then csv_commit. Returns 0, or -1 with a reason in err. */
int result_file_commit(struct result_file *rf, char *err, size_t errlen);

/* Close and delete PATH.partial. */
void result_file_discard(struct result_file *rf);

#endif
