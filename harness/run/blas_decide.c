/* blas_decide.c — the core trial's rule (blas_core.h, blas_core_decide): which candidate the
 * interleaved rounds name, and whether the evidence is clear yet. Pure: no environment, no I/O. */
#include <math.h>
#include <stdlib.h>

#include "harness/run/blas_core.h"

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double blas_trial_median(const struct blas_trial *t) {
    double v[BLAS_TRIAL_MAX_ROUNDS];
    for (int i = 0; i < t->n; i++)
        v[i] = t->ms[i];
    return t->n ? median_of(v, t->n) : 0;
}

/* k of the distribution-free interval [x_(k), x_(n+1-k)] (1-based order statistics) for the
 * median of n values, at 99% or more: the largest k with P(Binomial(n, 1/2) < k) <= 0.005. 0
 * when n is too small for any (n < 8): the interval is then unbounded. 99% rather than 95%,
 * because the rule looks again after every round: a chance exclusion at one look would end the
 * trial on it. */
static int order_k(int n) {
    double p = ldexp(1.0, -n), cum = 0; /* P(B = j) for j = 0 */
    int k = 0;
    for (int j = 0; j < n; j++) {
        cum += p;
        if (cum > 0.005)
            break;
        k = j + 1;
        p = p * (n - j) / (j + 1);
    }
    return k;
}

/* The interval of the median of log(a_r / b_r) over the rounds both answered. */
static void ratio_interval(const struct blas_trial *a, const struct blas_trial *b, double *lo,
                           double *hi) {
    double d[BLAS_TRIAL_MAX_ROUNDS];
    int n = a->n < b->n ? a->n : b->n;
    for (int r = 0; r < n; r++)
        d[r] = log(a->ms[r] / b->ms[r]);
    qsort(d, (size_t)n, sizeof *d, cmp_double);
    int k = order_k(n);
    *lo = k ? d[k - 1] : -INFINITY;
    *hi = k ? d[n - k] : INFINITY;
}

int blas_core_decide(const struct blas_trial *t, int n, int *clear) {
    int f = -1;
    double fm = 0;
    *clear = 0;
    for (int i = 0; i < n; i++) {
        double m = t[i].ok && t[i].n > 0 ? blas_trial_median(&t[i]) : 0;
        if (t[i].ok && t[i].n > 0 && (f < 0 || m < fm))
            f = i, fm = m;
    }
    if (f < 0) { /* none answered a round: the first that verified, if any */
        for (int i = 0; i < n; i++)
            if (t[i].ok)
                return i;
        return -1;
    }
    const double tie = log(1.0 + BLAS_TRIAL_TIE);
    int rounds = t[f].n;
    for (int i = 0; i < n; i++) {
        if (!t[i].ok || t[i].n == 0)
            continue;
        if (i == f) {
            *clear = rounds >= BLAS_TRIAL_MIN_ROUNDS;
            return f;
        }
        double lo, hi;
        ratio_interval(&t[i], &t[f], &lo, &hi);
        if (lo > tie)
            continue; /* clearly slower than the fastest: the next one in preference */
        *clear = rounds >= BLAS_TRIAL_MIN_ROUNDS && hi <= tie;
        return i;
    }
    return f; /* not reached: f itself ends the loop */
}
