/* shared.h — compare's shared-card check: which runs were timed on a GPU that another process
 * held, or that was busy without gpubench's work (the run CSV's shared_gpu column,
 * results/README.md).
 *
 * Time-slicing leaves a short kernel's event time almost untouched, so two runs can agree, or
 * disagree, for reasons a busy card gives rather than the software: compare names such runs in
 * its report, and under --strict gives no verdict built on them. Files without the column, and
 * rows with it empty (no NVML), are never counted as shared.
 */
#ifndef GPUBENCH_COMPARE_SHARED_H
#define GPUBENCH_COMPARE_SHARED_H

#include <stdio.h>

#include "harness/compare/internal.h"

/* The rows of one run (and device, or every device when `device` is NULL) of file `file`: how
 * many say shared_gpu = yes, of how many that say yes or no. */
struct cmp_shared {
    int yes, known;
};
struct cmp_shared cmp_shared_of(const struct cmp_input *in, int file, const char *run_id,
                                const char *device);

/* "run 6b61ca60f27387dc of shared.csv: cuda:0, 4 of 4 rows" as one line, led by `li`, or
 * nothing when the run has no shared row. Returns 1 when it printed. */
int cmp_shared_line(const struct cmp_input *in, int file, const char *run_id, const char *device,
                    const char *li, const char *what, FILE *out);

/* The --strict refusal: "SHARED GPU (--strict): no verdict: N run(s) …" (one line). */
void cmp_shared_refusal(int nruns, int md, FILE *out);

#endif
