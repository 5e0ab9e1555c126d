/* json_run.c — the run's JSON document (rows.h: rows_json; docs/json.md):
 *
 *   {"schema": "gpubench-1", "command": "run", "gpubench_version": "…", "run_id": "…",
 *    "utc": "…", "host": "…",
 *    "devices": [ {"device": "cpu", "device_name": "…", "machine": "…"} … ],
 *    "rows": [ {one object per row: the run CSV's columns, in its order, with the same names} … ]}
 *
 * `devices` holds the machine facts of each device the run planned rows on, once (`machine`:
 * the CPU's topology and how each peak was obtained, a GPU's clocks, bus, memory, ECC, PCI and
 * binding); a row's note holds only what concerns that row.
 *
 * A row's values are the CSV's at full precision: numbers as the shortest text that reads back
 * as the same double, and null wherever the CSV cell is empty (the conditions below are
 * csv_write_result's). The last, `marks` (harness/io/marks.h), is the CSV's words as an array:
 * ["emulated", "cached"], [] for a plain row. */
#include <math.h>

#include "harness/io/json.h"
#include "harness/io/marks.h"
#include "harness/io/rows.h"
#include "harness/io/tel_cols.h"

static void json_begin(FILE *f, const struct run_info *ri) {
    json_document_begin(f, "run");
    json_member_string(f, ", ", "run_id", ri->run_id);
    json_member_string(f, ", ", "utc", ri->utc);
    json_member_string(f, ", ", "host", ri->host);
    fputs(", \"devices\": [", f);
    for (int i = 0; i < ri->ndevs; i++) {
        const struct device *d = ri->devs[i];
        fputs(i ? ",\n  {" : "\n  {", f);
        json_member_string(f, "", "device", d->id);
        json_member_string(f, ", ", "device_name", d->name);
        json_member_string(f, ", ", "machine", d->extra);
        fputs("}", f);
    }
    fputs("]", f);
    fputs(", \"rows\": [", f);
}

/* v where it applies (and is not a negative "unknown"), else NAN, which json_number writes as
 * null. */
static double when(double v, int applies) {
    return applies && v >= 0 ? v : NAN;
}

/* The columns up to `threads`: where the row ran. */
static void json_row_device(FILE *f, const struct run_info *ri, const struct device *d) {
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
    json_member_number(f, ", ", "threads", when(d->threads, d->kind == DEV_CPU));
}

static int json_row(FILE *f, const struct run_info *ri, const struct result *r, int written) {
    int t = r->st.n > 0;
    fputs(written ? ",\n  {" : "\n  {", f);
    json_row_device(f, ri, r->dev);
    json_member_string(f, ", ", "workload", r->w->name);
    json_member_string(f, ", ", "impl", r->im->name);
    json_member_string(f, ", ", "dtype", dtype_name(r->dtype));
    json_member_string(f, ", ", "shape", r->shape);
    json_member_number(f, ", ", "flops", r->flops);
    json_member_number(f, ", ", "bytes", r->bytes);
    json_member_number(f, ", ", "reps", (double)r->st.n);
    json_member_number(f, ", ", "median_ms", when(r->st.median, t));
    json_member_number(f, ", ", "min_ms", when(r->st.min, t));
    json_member_number(f, ", ", "mean_ms", when(r->st.mean, t));
    json_member_number(f, ", ", "stddev_ms", when(r->st.stddev, t));
    json_member_number(f, ", ", "ci95_lo_ms", when(r->st.ci_lo, t));
    json_member_number(f, ", ", "ci95_hi_ms", when(r->st.ci_hi, t));
    json_member_number(f, ", ", "e2e_median_ms", when(r->e2e_median_ms, t));
    json_member_number(f, ", ", "gflops", when(r->gflops, t));
    json_member_number(f, ", ", "gbps", when(r->gbps, t));
    json_member_number(f, ", ", "peak_pct", when(r->peak_pct, t));
    json_member_number(f, ", ", "max_rel_err", when(r->max_rel_err, 1));
    json_member_string(f, ", ", "status", status_name(r->status));
    json_member_string(f, ", ", "note", r->note);
    json_member_number(f, ", ", "batch_ms", when(r->batch_ms, t));
    json_member_number(f, ", ", "run", ri->run);
    json_member_string(f, ", ", "slurm_job_id", ri->slurm_job);
    json_member_string(f, ", ", "slurm_array_task_id", ri->slurm_task);
    json_member_string(f, ", ", "hardware", r->dev->hardware);
    struct tel_cell tc[TEL_NCOLS];
    tel_cells(r, tc);
    for (int i = 0; i < TEL_NCOLS; i++) {
        if (tc[i].is_text)
            json_member_string(f, ", ", tc[i].name, tc[i].text);
        else
            json_member_number(f, ", ", tc[i].name, tc[i].num);
    }
    json_member_number(f, ", ", "cpu_wait_pct", when(r->cpu_wait_pct, t));
    fputs(", \"marks\": [", f);
    unsigned m = marks_of(r);
    for (int i = 0, n = 0; i < MARK_KINDS; i++)
        if (m & mark_kinds[i].bit) {
            fputs(n++ ? ", " : "", f);
            json_string(f, mark_kinds[i].word);
        }
    fputs("]}", f);
    return 1;
}

static void json_end(FILE *f, int written) {
    fputs(written ? "\n]}\n" : "]}\n", f);
}

const struct row_format rows_json = {"json", json_begin, json_row, json_end};
