/* runner.h — the one timing loop: every row of a plan, measured and verified, each reported as
 * it goes (the worker's, harness/run/worker.c). */
#ifndef GPUBENCH_RUNNER_H
#define GPUBENCH_RUNNER_H

#include "harness/core/result.h"
#include "harness/run/plan.h"

/* The stages of a row, each begun with its deadline (docs/measurement.md, "Deadlines"). */
enum row_stage {
    STAGE_INPUTS,   /* the shape's inputs and CPU reference (w->make_problem) */
    STAGE_PREPARE,  /* im->prepare: allocation, handles, the implementation's choices */
    STAGE_VERIFIED, /* the verified end-to-end run and its check */
    STAGE_WARMUP,   /* the untimed runs */
    STAGE_TIMING,   /* timed repetitions, batches, end-to-end repetitions */
    STAGE_RELEASE,  /* im->release */
};
/* "inputs and reference", "prepare", "verified run", "warm-up", "timing", "release". */
const char *row_stage_name(enum row_stage s);

/* What runner_run reports as it goes (the worker sends each to the supervisor, worker.c); rows
 * are plan indices. */
struct runner_hooks {
    void *ctx;
    int (*want)(void *ctx, int row);                          /* measure this row? */
    void (*begin)(void *ctx, int row, const struct result *r); /* its identity, first */
    /* a stage begins: its deadline in seconds from now, and the row's note so far (the
     * implementation's: which kernel it chose, once prepared) */
    void (*stage)(void *ctx, int row, enum row_stage s, double deadline_s, const char *note);
    void (*done)(void *ctx, int row, const struct result *r); /* the finished row */
};

/* runner_run's answer when a sticky error broke a device's context in the row just done: the
 * process must end, so that the device's later rows get a fresh context (supervise.c). */
enum { RUNNER_RESTART = 3 };

/* Run every row of the plan that h->want wants. `prev_end`: when the cards were last busy with
 * our own work (CLOCK_MONOTONIC seconds; 0: not known to be ours, runs.h). Returns 0 when every
 * row is ok or unsupported, 1 when some row is wrong, oom, error or timeout, RUNNER_RESTART
 * (above), 130 when interrupted (gb_interrupted, harness/core/interrupt.h: checked between
 * stages and repetitions; the row in progress is not reported). */
int runner_run(const struct plan *pl, double prev_end, const struct runner_hooks *h);

/* Measure one implementation on one device for problem p into r (exposed for tests).
 * r->samples points into storage owned by the runner until the next call. */
void runner_measure(const struct options *o, const struct device *dev, const struct workload *w,
                    const struct impl *im, struct problem *p, struct result *r);

#endif
