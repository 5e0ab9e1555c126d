/* stats.c — median, min, mean, standard deviation, and a distribution-free 95% CI of the median.
 *
 * Timing samples are skewed (a floor plus interference spikes), so the median leads and its
 * interval comes from order statistics, not from mean ± t·s: the number of samples below the
 * true median is Bin(n, ½) whatever the distribution, so [s(d), s(n−d+1)] covers it with
 * probability 1 − 2·P(Bin(n, ½) ≤ d − 1). That coverage moves in steps (n = 10: 97.9% or 89.1%),
 * so the interval is interpolated between the two steps around 95% (Hettmansperger & Sheather,
 * "Confidence intervals based on interpolated order statistics", Statistics & Probability
 * Letters 4, 1986), which keeps the coverage within about a percent of 95% for n ≥ 6. Below 6
 * samples even [min, max] covers less than 95% (n = 3: 75%): no interval is given.
 */
#include "harness/core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_median_inplace(double *x, size_t n) {
    if (n == 0)
        return 0;
    qsort(x, n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

size_t stats_median_ci_min_n(double level) {
    size_t n = 1;
    while (n < 64 && 1.0 - 2.0 * ldexp(1.0, -(int)n) < level)
        n++;
    return n;
}

/* P(Bin(n, ½) = i), from lgamma (no overflow for any n). */
static double half_pmf(size_t n, size_t i) {
    double ln = lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
                (double)n * log(2.0);
    return exp(ln);
}

/* The first i worth summing from: below n/2 − 10·√n the binomial tail is under 1e-22. */
static size_t tail_start(size_t n) {
    double i0 = floor((double)n / 2.0 - 10.0 * sqrt((double)n));
    return i0 > 0 ? (size_t)i0 : 0;
}

double stats_median_ci_coverage(size_t n, size_t d) {
    if (d == 0)
        return 1.0;
    if (2 * d > n + 1)
        return 0.0;
    size_t i = tail_start(n);
    double pmf = half_pmf(n, i), cdf = 0;
    for (; i < d; i++) { /* cdf = P(B ≤ d − 1) */
        cdf += pmf;
        pmf *= (double)(n - i) / (double)(i + 1);
    }
    double c = 1.0 - 2.0 * cdf;
    return c < 0 ? 0 : c;
}

int stats_median_ci(const double *s, size_t n, double level, double *lo, double *hi) {
    *lo = *hi = NAN;
    if (n == 0 || n < stats_median_ci_min_n(level))
        return -1;
    /* d: the largest with P(B ≤ d − 1) ≤ (1 − level)/2, walking the CDF up from the tail */
    double half_alpha = (1.0 - level) / 2.0;
    size_t i = tail_start(n);
    double pmf = half_pmf(n, i), cdf = pmf; /* cdf = P(B ≤ i) */
    while (i + 1 < n / 2 && cdf + pmf * (double)(n - i) / (double)(i + 1) <= half_alpha) {
        pmf *= (double)(n - i) / (double)(i + 1);
        cdf += pmf;
        i++;
    }
    if (cdf > half_alpha) /* only for i = 0: P(B = 0) alone is too much (n too small) */
        return -1;
    size_t d = i + 1;
    double gd = 1.0 - 2.0 * cdf;                                              /* coverage of d */
    double gd1 = 1.0 - 2.0 * (cdf + pmf * (double)(n - i) / (double)(i + 1)); /* of d + 1 */
    double lam = 0;
    if (2 * (d + 1) <= n + 1 && gd > gd1) {
        double I = (gd - level) / (gd - gd1);
        lam = (double)(n - d) * I / ((double)d + (double)(n - 2 * d) * I);
    }
    /* a + λ(b − a): exact where a = b (ties at the timer's resolution, where (1 − λ)a + λa can
     * round past a and leave the median outside), and kept between its two order statistics,
     * so that the interval always holds the median */
    *lo = fmin(s[d - 1] + lam * (s[d] - s[d - 1]), s[d]);
    *hi = fmax(s[n - d] + lam * (s[n - d - 1] - s[n - d]), s[n - d - 1]);
    return 0;
}

int stats_compute(const double *x, size_t n, struct stats *st) {
    memset(st, 0, sizeof *st);
    st->n = n;
    st->ci_lo = st->ci_hi = NAN;
    if (n == 0)
        return 0;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    memcpy(s, x, n * sizeof *s);
    st->median = stats_median_inplace(s, n);
    st->min = s[0];
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    st->mean = sum / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (s[i] - st->mean) * (s[i] - st->mean);
    st->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    stats_median_ci(s, n, STATS_CI_LEVEL, &st->ci_lo, &st->ci_hi);
    free(s);
    return 0;
}
