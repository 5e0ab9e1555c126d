/* verify.h — the one validator every workload uses: |got − ref| ≤ atol + rtol·|ref|. */
#ifndef GPUBENCH_VERIFY_H
#define GPUBENCH_VERIFY_H

#include <stddef.h>

#include "harness/core/workload.h"

/* Compare got[idx[j]] with ref[j] for j in [0, n) — or got[j] with ref[j] when idx is NULL.
 * NaN or Inf in `got` always fails. Adds to r (so several buffers of one problem accumulate),
 * records the first few mismatches as "name[i]=got want ref" in r->first_bad, and returns the
 * number of mismatches found in this call. */
size_t verify_close(struct verify_report *r, const char *name, const float *got,
                    const double *ref, const size_t *idx, size_t n, double atol, double rtol);

/* Start an empty report. */
void verify_begin(struct verify_report *r);

/* ST_OK when r holds no mismatch, ST_WRONG otherwise. */
enum status verify_status(const struct verify_report *r);

#endif
