/* regress.h — what the two halves of regression mode share: the sides, the rows joined across
 * their runs with their verdicts (regress.c), and the printers (regress_out.c). Internal to
 * harness/compare. */
#ifndef GPUBENCH_COMPARE_REGRESS_H
#define GPUBENCH_COMPARE_REGRESS_H

#include "harness/compare/internal.h"
#include "harness/compare/verdict.h"

enum { RG_SIDES = 2, RG_BASE = 0, RG_NEW = 1, RG_DIFF_LEN = 256, RG_MAX_DIFFS = 64 };

/* One run (run_id) of one side, in file order. */
struct rg_run {
    const struct run_row *first; /* its first row: run_id, host, utc */
    int file;
    int shared; /* rows of it timed on a shared GPU (shared.h); -1 none says yes or no */
};

/* One side: its files, every row of them, its runs. */
struct rg_side {
    int file0, nfiles; /* in->runs[file0 .. file0 + nfiles) */
    const struct run_row **rows;
    size_t nrows;
    struct rg_run *runs;
    int nruns;
};

/* What the statuses of a key's runs say, before any timing is judged. */
enum rg_state {
    RG_TIMED,    /* ok in every run of both sides: the verdict is vd.kind */
    RG_VANISHED, /* in the base runs, in no new run: a regression */
    RG_ADDED,    /* in no base run */
    RG_BROKEN,   /* a new failure (ok → not ok, or a new wrong/error): a regression */
    RG_FIXED,    /* not ok before, ok in every new run */
    RG_NOT_OK,   /* not ok before and still (no new kind of failure) */
    RG_UNSUPPORTED, /* unsupported in every run of both sides: a fact of the device or build */
    RG_NA        /* ok, but a median that is not a positive number */
};

/* One row of the report: a (device, workload, impl, shape, dtype) and its runs on each side. */
struct rg_row {
    const struct run_row *key;             /* the key's fields (its first row) */
    const struct run_row **side[RG_SIDES]; /* its row in each run that has it */
    int n[RG_SIDES];
    int first_seen;            /* order of first appearance (base files first) */
    enum status bad[RG_SIDES]; /* each side's first non-ok status (when it has one) */
    int nbad[RG_SIDES];        /* runs of each side that are not ok */
    enum rg_state state;
    double ms[RG_SIDES];    /* geometric mean of the runs' medians (NaN: not timed) */
    double *logs;           /* ln(median) per run: base runs, then new runs */
    struct vd_row vd;       /* the statistics and verdict when state is RG_TIMED */
    const char *test;       /* "welch-log", "single-run" or "" */
    int regression, unsure; /* counts toward exit 1; UNSURE (exit 1 with --strict) */
    char cycles[200];       /* how the sides' clocks or throttling differ (cycles.h), or "" */
    /* A shared CPU: each side's median over its runs of cpu_wait_pct (NaN: no run says), and the
     * sides above CPU_WAIT_SHARED_PCT (bit 1 << side): such a row is UNSURE, never decided. */
    double cpu_wait[RG_SIDES];
    int cpu_shared;
    char cause[200]; /* BROKEN from ok: the failing new row's status and note ("timeout: …") */
};

/* What differs between the sides: a field of a device (or the host), base and new values;
 * `machine` when it says the sides ran on two machines (host name, a device's name or compute
 * capability, a fact of the rows' hardware column), not only on two set-ups of one. */
struct rg_diff {
    const char *device, *field;
    char was[RG_DIFF_LEN], now[RG_DIFF_LEN];
    int machine;
};

/* Everything the printers need. */
struct rg_report {
    const struct cmp_input *in;
    const struct cmp_opts *o;
    struct rg_side s[RG_SIDES];
    struct rg_row *rows;
    size_t nrows;
    struct rg_diff d[RG_MAX_DIFFS];
    int nd;
    int tested;   /* rows the false-discovery correction counted */
    int single;   /* rows judged with one run per side */
    double level; /* confidence level of the tested rows' intervals */
    int slower, faster, same, unsure, broken, vanished;
    int slower_cycles; /* SLOWER rows whose clocks or throttling differ */
    int shared_runs;   /* runs (both sides) with a row timed on a shared GPU */
    int cpu_shared;    /* timed rows left UNSURE because a side's CPU was shared */
    int left_out;      /* --common: rows of one side only, left out */
    int hw_unknown;    /* a side's rows have no hardware column: machine identity not checked */
    const struct run_row **store_; /* private: every row of both sides, grouped by key */
};

/* The human name of a provenance field ("BLAS (cuBLAS/OpenBLAS)" for blas_lib). */
const char *rg_field_title(const char *field);

/* Print the report as a table (or markdown), CSV or JSON, by o->format. */
void rg_print(const struct rg_report *r, FILE *out);

/* The exit code of a report: 1 when something regressed (or, with --strict, is UNSURE, a shared
 * CPU's rows included, or rests on a run timed on a shared GPU). */
int rg_exit_code(const struct rg_report *r);

#endif
