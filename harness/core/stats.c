/* stats.c — median, min, mean, standard deviation, and a distribution-free 95% CI of the median.
 *
 * Timing samples are skewed (a floor plus interference spikes), so the median leads and its
 * interval comes from order statistics (binomial, normal approximation), not from mean ± t·s.
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

void stats_median_ci_ranks(size_t n, size_t *lo, size_t *hi) {
    if (n < 6) {
        *lo = 1;
        *hi = n;
        return;
    }
    double half = 1.959964 * sqrt((double)n) / 2.0;
    double l = floor((double)n / 2.0 - half);
    double h = ceil(1.0 + (double)n / 2.0 + half);
    *lo = l < 1 ? 1 : (size_t)l;
    *hi = h > (double)n ? n : (size_t)h;
}

int stats_compute(const double *x, size_t n, struct stats *st) {
    memset(st, 0, sizeof *st);
    st->n = n;
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
    size_t lo, hi;
    stats_median_ci_ranks(n, &lo, &hi);
    st->ci_lo = s[lo - 1];
    st->ci_hi = s[hi - 1];
    free(s);
    return 0;
}
