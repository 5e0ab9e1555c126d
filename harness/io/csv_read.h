/* csv_read.h — a strict reader of gpubench-1 run CSVs and samples CSVs.
 *
 * Reads a whole file (RFC 4180: quoted fields, "" inside quotes, CRLF or LF line ends, newlines
 * inside quotes) into rows whose fixed columns are typed fields, and keeps every raw field and
 * the header so that columns beyond the fixed ones (slurm_job_id, …) survive a merge. Anything
 * that is not exactly a gpubench-1 file is refused with one line,
 *   "FILE:LINE: column NAME: reason"
 * (or "FILE: reason" when there is no line to name): a missing or empty file, another schema,
 * a wrong or missing column, a ragged row, a non-numeric number, an unknown status, two rows with
 * the same key. Used by `gpubench compare` and `gpubench merge`.
 */
#ifndef GPUBENCH_CSV_READ_H
#define GPUBENCH_CSV_READ_H

#include <stddef.h>

#include "harness/core/workload.h"

#define CSV_SCHEMA "gpubench-1"

enum csv_kind { CSV_RUN, CSV_SAMPLES };

enum {
    CSV_RUN_NCOLS = 32,    /* fixed columns of a run CSV */
    CSV_SAMPLES_NCOLS = 7, /* fixed columns of a samples CSV */
    CSV_MAX_COLS = 256,    /* a header with more columns is refused */
    CSV_ERR_LEN = 512      /* room for one error line */
};

/* The fixed columns, in file order (NULL-terminated). */
extern const char *const csv_run_columns[];
extern const char *const csv_samples_columns[];

/* One row of a run CSV. Strings point into the table and live until csv_free. An empty number
 * is NaN; an empty integer is -1. */
struct run_row {
    int line;   /* line of the file the row starts on (the header is line 1) */
    char **raw; /* every field of the row, table->ncols of them, unescaped */
    const char *schema, *run_id, *utc, *host, *device, *device_name, *cc, *driver, *runtime;
    const char *blas_lib, *dnn_lib;
    long threads;
    const char *workload, *impl, *dtype, *shape;
    double flops, bytes;
    long reps;
    double median_ms, min_ms, mean_ms, stddev_ms, ci95_lo_ms, ci95_hi_ms, e2e_median_ms;
    double gflops, gbps, peak_pct;
    double max_rel_err; /* INFINITY when the output held NaN or Inf ("inf" in the file) */
    enum status status;
    const char *note;
    long run; /* the extra column `run` (the run's index within one --runs N); -1 if absent */
    const char *hardware; /* the extra column `hardware` (what tells machines apart,
                             harness/run/hardware.h); "" when empty or absent */
    double cpu_wait_pct;  /* the extra column `cpu_wait_pct` (a shared CPU); NaN when empty or
                             absent */
    unsigned marks; /* what changes the meaning of its figures (harness/io/marks.h): the extra
                       column `marks`, or in a file without it what its device name and note
                       say (emulated, cached) */
};

/* One row of a samples CSV: one timed repetition. */
struct sample_row {
    int line;
    char **raw;
    const char *run_id, *device, *workload, *impl, *shape;
    long rep;
    double ms;
    const char *dtype; /* the column after the fixed ones; "float32" in files without it */
};

/* A file read by csv_read_file / csv_read_buffer. Either `run` or `samples` holds nrows rows,
 * by kind, in file order. */
struct csv_table {
    char *name; /* the file name as given, for messages */
    enum csv_kind kind;
    char *header_raw; /* the header line as written, without its line end */
    int ncols;        /* columns of the header: the fixed ones first, then any others */
    char **cols;      /* their names */
    size_t nrows;
    struct run_row *run;
    struct sample_row *samples;
    char *store_;   /* private: unescaped fields */
    char **fields_; /* private: nrows+1 × ncols field pointers */
};

/* Read `path` ("-": standard input, named "stdin" in messages) as a CSV of `kind`
 * into *t. Returns 0, or -1 with one line (no newline) in err;
 * on failure *t holds nothing to free (csv_free is still safe to call). */
int csv_read_file(const char *path, enum csv_kind kind, struct csv_table *t, char *err,
                  size_t errlen);

/* The same for `len` bytes in memory; `name` is used in messages. The bytes need not be
 * NUL-terminated. */
int csv_read_buffer(const char *name, const char *data, size_t len, enum csv_kind kind,
                    struct csv_table *t, char *err, size_t errlen);

/* Free everything *t holds and zero it. */
void csv_free(struct csv_table *t);

/* Index of column `name` in t's header, or -1. */
int csv_col_index(const struct csv_table *t, const char *name);

/* Parse a status name as the CSV writes it ("ok", "wrong", …). Returns 0, or -1 if unknown. */
int csv_parse_status(const char *s, enum status *st);

#endif
