/* sup_rows.h — the supervisor's record of its run (supervise.c): the run's devices and rows, as
 * the first worker described them; which rows are done; the files and the sink they are written
 * to; and the rows the supervisor writes itself — a row whose worker hung or died, a row that
 * could not run after a fault. */
#ifndef GPUBENCH_SUP_ROWS_H
#define GPUBENCH_SUP_ROWS_H

#include <stddef.h>

#include "harness/core/result.h"
#include "harness/run/cli.h"
#include "harness/run/outputs.h"
#include "harness/run/sinks.h"

struct sup {
    const struct options *o;
    int argc;
    char **argv;
    int run_index;
    double prev_end;          /* when a worker last ended (the cards were ours until then) */
    struct run_info ri;
    struct device devs[DEVICE_MAX];
    const struct device *devp[DEVICE_MAX];
    int ndevs;
    char **keys;              /* the run's rows, by key (worker_row_key), in plan order */
    unsigned char *done;
    int nrows, cap_rows, ndone;
    int started;              /* the first HELLO came: files open, sink begun */
    int fatal;                /* an exit code that ends the run now (2: the files could not open) */
    int rc;                   /* 1 once a row is neither ok nor unsupported */
    char last_fault[320];     /* the fault that made the latest fresh worker ("… timed out") */
    struct run_files rf;
    char lost[4200];          /* what the run does once stdout fails (the sink keeps it) */
    struct sink sink;
    struct run_outputs outs;
    double *samples;          /* decoding buffers for the rows' samples and traces */
    float *traces;
    size_t cap;
};

void sup_init(struct sup *s, int argc, char **argv, const struct options *o, int run_index);

/* A worker's device → the run's device index: the first worker's devices are the run's; a
 * fresh worker's are found by id (-1: the run has no such device). */
int sup_device(struct sup *s, const struct device *d);
/* A worker's row key → the run's row index: the first worker's rows are the run's; a fresh
 * worker's are found by key (-1: not a row of the run). */
int sup_row_of(struct sup *s, const char *key);

/* A worker said HELLO: (the first) open the run's files and begin the sink; (a fresh one) the
 * run's rows it did not plan (a device it no longer found) are written `error`. want[i]: the
 * worker's row i is the run's and not done. Returns 0, or -1 with s->fatal set. */
int sup_hello(struct sup *s, const char *gpu_why, int shape_width, int impl_width,
              const int *wmap, int nrows, unsigned char *want);

/* The progress line of the row r is. */
void sup_progress(struct sup *s, const struct result *r);
/* A finished row of the run: to the sink and the files. */
void sup_write(struct sup *s, int row, struct result *r);
/* The row in progress when its worker was killed at its deadline (timed_out) or ended by
 * itself (status: waitpid's, crash: the worker's CRASH text), written `timeout` or `error`
 * with the implementation, the stage, the seconds, the signal or the call, and its note so
 * far. */
void sup_fault(struct sup *s, struct result *r, int row, int timed_out, int status, int stage,
               double stage_s, const char *note, const char *crash);
/* Every row not done, written `error`: "not run: WHY after LAST FAULT". Returns 1. */
int sup_not_run(struct sup *s, const char *why);
/* 1 while some row of the run is not done. */
int sup_rows_left(const struct sup *s);

/* The first worker ended before its HELLO: its usage error (2, already printed), or one line
 * saying how it ended (1). */
int sup_first_failed(struct sup *s, int status, int timed_out);
/* How a worker ended, as words ("it was killed by SIGSEGV in cublasGemmEx (libcublas.so.13)",
 * "it exited with 1", "it did not answer within 300 s"), in a static buffer. */
const char *sup_ended_how(int status, int timed_out, const char *crash, double seconds);
/* "SIGSEGV", "SIGBUS", … or "signal N". */
const char *sup_signal_name(int sig);

/* The end of the run: the sink ended, the files committed (none when the first worker never
 * said HELLO). Returns the exit code from rc (130, 2, or the workers' outcome) and the rows. */
int sup_finish(struct sup *s, int rc);

#endif
