/* stats.h — summary statistics of a run's samples. */
#ifndef GPUBENCH_STATS_H
#define GPUBENCH_STATS_H

#include <stddef.h>

/* The confidence level of every row's interval of the median. */
#define STATS_CI_LEVEL 0.95

struct stats {
    size_t n;
    double median, min, mean, stddev; /* stddev: sample (n − 1) standard deviation */
    /* 95% confidence interval of the median (distribution-free, see stats_median_ci); NaN when
     * the repetitions are too few for 95% (fewer than stats_median_ci_min_n(0.95) = 6). */
    double ci_lo, ci_hi;
};

/* Summarize x[0..n). Does not modify x. n == 0 gives all zeros. Returns 0, or -1 when out of
 * memory (for the sorted copy). */
int stats_compute(const double *x, size_t n, struct stats *st);

/* The confidence interval of the median of the ascending sample s[0..n) at `level` (0.95):
 * the order-statistic interval [s(d), s(n−d+1)] with the largest d whose binomial coverage
 * 1 − 2·P(Bin(n, ½) ≤ d − 1) is at least `level`, interpolated towards [s(d+1), s(n−d)] as
 * Hettmansperger & Sheather (1986) do so that the coverage is `level` rather than the next
 * binomial step above it. Distribution-free (exactly so for symmetric distributions, and within
 * a percent of the level for skewed ones: tests/core). Returns 0, or -1 (lo, hi NaN) when n is
 * below stats_median_ci_min_n(level). */
int stats_median_ci(const double *s, size_t n, double level, double *lo, double *hi);

/* The fewest samples whose widest order-statistic interval [min, max] reaches `level`:
 * 1 − 2·(½)^n ≥ level, so 6 for 95%, 8 for 99%. */
size_t stats_median_ci_min_n(double level);

/* Coverage of the order-statistic interval [s(d), s(n−d+1)] of the median of n samples:
 * 1 − 2·P(Bin(n, ½) ≤ d − 1) (1 for d = 0). */
double stats_median_ci_coverage(size_t n, size_t d);

/* Median of x[0..n) (sorts x in place). */
double stats_median_inplace(double *x, size_t n);

#endif
