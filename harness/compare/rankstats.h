/* rankstats.h — distribution-free tests for comparing two sets of timings.
 *
 * Timings within a run are skewed (a floor plus occasional slow outliers): when `gpubench
 * compare` has one run per side, the Mann-Whitney U test on their repetitions tells whether the
 * two runs separate at all (never whether a change is real: that needs runs, verdict.h). Also
 * the medians and geometric means of both modes, and the one seeded generator, so that
 * everything random is reproducible.
 */
#ifndef GPUBENCH_RANKSTATS_H
#define GPUBENCH_RANKSTATS_H

#include <stddef.h>
#include <stdint.h>

/* Result of a two-sided Mann-Whitney U test of sample b against sample a. */
struct rank_mwu {
    double u; /* U of b: the number of (a, b) pairs with b > a, ties counting one half */
    double z; /* normal approximation, tie- and continuity-corrected; > 0 when b tends larger */
    double p; /* two-sided p-value; 1 when every value is tied */
};

/* Mann-Whitney U test of b against a. The normal approximation is good from about 8 values per
 * side; with fewer it is only indicative. Returns 0, or -1 when a side is empty or memory runs
 * out. */
int rank_mwu_test(const double *a, size_t na, const double *b, size_t nb, struct rank_mwu *r);

/* Median of x[0..n) by selection (reorders x). n must be > 0. */
double rank_median_inplace(double *x, size_t n);

/* Geometric mean of the n positive values of x; NaN when n == 0 or a value is not > 0. */
double rank_geomean(const double *x, size_t n);

/* Next value of a splitmix64 stream whose state is *state: the one seeded generator of the
 * comparison (also used by the tests to draw synthetic timings). */
uint64_t rank_rng_next(uint64_t *state);

/* A uniform double in [0, 1) from the stream. */
double rank_rng_uniform(uint64_t *state);

#endif
