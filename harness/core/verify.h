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

/* verify_close for a problem's output buffer: reads b->data64 when it is set (f64), else
 * b->data. */
size_t verify_buf(struct verify_report *r, const struct buf *b, const double *ref,
                  const size_t *idx, size_t n, double atol, double rtol);

/* Tolerances of a row of tier t (docs/measurement.md, "Verification per tier"). */
struct tol {
    double atol, rtol;
};

/* The tolerance for outputs that are sums of `terms` products, each at most `term_max` in size,
 * computed in tier t against a reference in double:
 *   atol = term_max · (TOL_SAFETY · terms · u_acc + TOL_SIGMAS · √terms · e_in)
 *   rtol = TOL_SAFETY · u_out
 * where u_acc is the tier's accumulation round-off (FP32, or FP64 for f64), e_in the relative
 * error the hardware's conversion of two exact float32 operands puts in their product (tf32
 * only: inputs of every other tier are drawn as values it stores; verify_tol says why 3·2^-11)
 * and u_out the round-off of the stored output (`out_in_tier`: 1 when the output is stored in
 * the tier — vecadd's f16 c —, 0 when it is FP32 — GEMM with FP32 output). The worst case of
 * recursive summation is terms·u·Σ|term|; in practice errors grow like √terms, so the safety
 * factor of 32 covers any summation order and still catches one missing term and a lower tier
 * than the one asked for (a tf32 result in an f32 row). The conversion of inputs is
 * independent from term to term, and of random sign (the inputs are of random sign): its error
 * is a random walk of √terms steps of at most e_in, bounded by TOL_SIGMAS of them (the worst
 * case, terms·e_in, would accept garbage at k = 2048). */
struct tol verify_tol(enum dtype t, double terms, double term_max, int out_in_tier);

enum { TOL_SAFETY = 32, TOL_SIGMAS = 8 };

/* Start an empty report. */
void verify_begin(struct verify_report *r);

/* ST_OK when r holds no mismatch, ST_WRONG otherwise. */
enum status verify_status(const struct verify_report *r);

#endif
