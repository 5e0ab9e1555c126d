/* internal.h — what the parts of `gpubench compare` share: options, the loaded files, the
 * devices found in them ("series"), the samples of each row, and the output helpers. Internal to
 * harness/compare_*.c. */
#ifndef GPUBENCH_COMPARE_INT_H
#define GPUBENCH_COMPARE_INT_H

#include <stdint.h>
#include <stdio.h>

#include "harness/io/csv_read.h"
#include "harness/io/csv_write.h" /* csv_field: the one CSV field writer */
#include "harness/io/json.h"      /* json_string, json_number: the one JSON writer */

enum cmp_format { CMP_TABLE, CMP_MARKDOWN, CMP_CSV, CMP_JSON };

struct cmp_opts {
    const char *baseline; /* "cpu", "FILE:cuda:0"; NULL in regression mode */
    int baseline_default; /* the user gave no --baseline: "cpu" was chosen for them */
    int nbase;            /* regression: files [0, nbase) are the base side, the rest new */
    int sides_given;      /* regression: --base/--new named the sides (not two plain files) */
    double threshold;     /* regression margin, as a fraction (--threshold 5 → 0.05) */
    double alpha;         /* false discovery rate across rows (0.05) */
    double single_floor;  /* one run per side: smallest change called SLOWER (0.25) */
    int strict;           /* UNSURE rows exit 1 */
    int allow_hosts;      /* compare runs of different hosts or devices as a regression */
    int common;           /* regression: only the rows both sides have (--common) */
    uint64_t seed;        /* seed of the permutations drawn at random */
    enum cmp_format format;
};

/* One device of one run in one file: a column of the slowdown table. */
struct cmp_series {
    int file;
    const char *run_id, *device;
    const struct run_row *first; /* its first row: name, cc, driver, libraries */
    int is_cpu;
    char label[192]; /* "Tesla K40m (cc 3.5)", "cpu: Intel Xeon … (2 threads)", unique */
};

/* The timings of one row, from the samples files. */
struct cmp_group {
    const char *run_id, *device, *workload, *impl, *shape, *dtype;
    double *ms;
    size_t n;
};

struct cmp_input {
    int nfiles;
    struct csv_table *runs;
    int nsamples;
    struct csv_table *samples;
    size_t ngroups;
    struct cmp_group *groups; /* sorted by key */
    double *ms_store;
    int nseries;
    struct cmp_series *series;
};

/* Read and check every file: run CSVs (at least one row each), samples files whose every row
 * belongs to a row of some run CSV given. Returns 0, or -1 with one line in err. */
int cmp_load(struct cmp_input *in, char *const *files, int nfiles, char *const *samples,
             int nsamples, char *err, size_t errlen);
void cmp_free(struct cmp_input *in);

/* The series (device of a run) that row r of file `file` belongs to. */
int cmp_series_of(const struct cmp_input *in, int file, const struct run_row *r);

/* The samples of row r (NULL when none were given). */
const struct cmp_group *cmp_row_samples(const struct cmp_input *in, const struct run_row *r);

/* The value of key in a row's hardware list "k=v;k=v" (harness/run/hardware.h) into buf; ""
 * when the list lacks it. Returns buf. */
const char *cmp_hw_get(const char *hw, const char *key, char *buf, size_t len);

/* A device id of a CPU ("cpu"). */
int cmp_is_cpu(const char *device);

/* Rows of `mode` report: slowdown (baseline given) and regression (two files). Each returns the
 * exit code (0, 1) or 2 with one line in err; nothing is written to out on failure. */
int cmp_slowdown(const struct cmp_input *in, const struct cmp_opts *o, FILE *out, char *err,
                 size_t errlen);
int cmp_regress(const struct cmp_input *in, const struct cmp_opts *o, FILE *out, char *err,
                size_t errlen);

/* --- output helpers (out.c) ------------------------------------------------------ */

/* A human table: column heads, optional group labels over runs of columns, rows of cells. */
struct cmp_grid {
    int ncols;
    char **head;  /* ncols */
    char **group; /* ncols: a label over group_span[c] columns starting at c, or NULL */
    int *group_span;
    unsigned char *right; /* ncols: right-align (numbers) */
    int nrows, cap;
    char **cells;        /* nrows × ncols */
    unsigned char *rule; /* nrows: a rule before the row */
    unsigned char *own;  /* nrows: a line of its own, cell 0 alone, in no column (grid_line) */
    int indent; /* terminal: spaces before the head, the rules and each row but own lines */
};

int grid_init(struct cmp_grid *g, int ncols);
/* Set column c's head and alignment; group labels with grid_group (a NULL label: no label, the
 * columns only stay together when grid_print_fit splits the table). */
int grid_head(struct cmp_grid *g, int c, const char *head, int right);
int grid_group(struct cmp_grid *g, int c, int span, const char *label);
/* Append a row; returns its index or -1 when out of memory. Cells start empty. */
int grid_row(struct cmp_grid *g, int rule);
/* Append a line of its own: printf text on the terminal table's full width, outside the columns
 * (a long fact under or over a row of a narrow table; Markdown: the row's first cell). */
int grid_line(struct cmp_grid *g, int rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Set a cell from a printf format. */
int grid_set(struct cmp_grid *g, int row, int c, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Print as an aligned terminal table (markdown = 0) or a GitHub markdown table. */
void grid_print(const struct cmp_grid *g, int markdown, FILE *out);
void grid_free(struct cmp_grid *g);
/* The widest line of g as a terminal table, in display columns (-1: no memory). */
int grid_width(const struct cmp_grid *g);
/* g without the columns whose keep[c] is 0, into *out (rows, rules, own lines, indent and the
 * groups kept whole). Returns 0, or -1 (no memory: free *out all the same). */
int grid_keep(const struct cmp_grid *g, const int *keep, struct cmp_grid *out);
/* Print g as a terminal table no wider than `width` display columns where it can be (0: the wide
 * form, grid_print's). Columns [0, nkey) are keys that every part repeats; the other columns go
 * by their groups (grid_group; an ungrouped column is a group of its own). A table that is too
 * wide has its groups split over several tables, one under another, as many to a table as fit;
 * where that takes fewer tables, first column 0 moves to lines of its own over the rows that set
 * it (a long shape or device name), the rows indented under them. A part that still does not
 * fit (one group wider than the width) is printed as it is, for term_fit to wrap. */
void grid_print_fit(const struct cmp_grid *g, int nkey, int width, FILE *out);

/* Number formats for humans: milliseconds with about 4 significant digits, a ratio as
 * "2.10× slower" / "4.80× faster", a change as "+7.9%". */
void fmt_ms(char *buf, size_t len, double ms);
void fmt_ratio(char *buf, size_t len, double ratio);
void fmt_change(char *buf, size_t len, double change);

/* The file name without its directory (for labels). */
const char *cmp_basename(const char *path);

#endif
