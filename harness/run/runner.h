/* runner.h — the one timing loop: every row of a plan, measured, verified and written. */
#ifndef GPUBENCH_RUNNER_H
#define GPUBENCH_RUNNER_H

#include "harness/io/csv_write.h"
#include "harness/io/rows.h"
#include "harness/run/plan.h"
#include "harness/run/sinks.h"

enum { RUN_FILES = 2 };

struct run_outputs {
    struct result_file *files[RUN_FILES]; /* the --out and --json files; NULL where absent */
    struct csv_file *samples;             /* may be NULL */
    struct sink *sink;
    int rows; /* rows finished and written so far (set by runner_run) */
};

/* Run every row of the plan. Returns 0 when every row is ok or unsupported, 1 when some row
 * is wrong, oom, error or timeout, 130 when interrupted (gb_interrupted, harness/core/
 * interrupt.h: checked between stages and repetitions; the row in progress is not written). */
int runner_run(const struct plan *pl, const struct run_info *ri, struct run_outputs *out);

/* Measure one implementation on one device for problem p into r (exposed for tests).
 * r->samples points into storage owned by the runner until the next call. */
void runner_measure(const struct options *o, const struct device *dev, const struct workload *w,
                    const struct impl *im, struct problem *p, struct result *r);

#endif
