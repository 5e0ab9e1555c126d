/* stats.h — summary statistics of a run's samples. */
#ifndef GPUBENCH_STATS_H
#define GPUBENCH_STATS_H

#include <stddef.h>

struct stats {
    size_t n;
    double median, min, mean, stddev; /* stddev: sample (n − 1) standard deviation */
    double ci_lo, ci_hi; /* 95% confidence interval of the median (distribution-free) */
};

/* Summarize x[0..n). Does not modify x. n == 0 gives all zeros. Returns 0, or -1 when out of
 * memory (for the sorted copy). */
int stats_compute(const double *x, size_t n, struct stats *st);

/* 1-based ranks (lo, hi) of the order statistics that bound a 95% confidence interval of the
 * median of n samples: n/2 ∓ 1.96·√n/2, widened outward and clamped to [1, n]. With fewer than
 * 6 samples the interval is [min, max] (no narrower interval reaches 95%). */
void stats_median_ci_ranks(size_t n, size_t *lo, size_t *hi);

/* Median of x[0..n) (sorts x in place). */
double stats_median_inplace(double *x, size_t n);

#endif
