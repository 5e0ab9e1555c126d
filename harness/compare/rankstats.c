/* rankstats.c — Mann-Whitney U, medians, geometric means, the seeded generator. */
#include "harness/compare/rankstats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t rank_rng_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double rank_rng_uniform(uint64_t *state) {
    return (double)(rank_rng_next(state) >> 11) * (1.0 / 9007199254740992.0); /* 53 bits */
}

static void swapd(double *a, double *b) {
    double t = *a;
    *a = *b;
    *b = t;
}

/* k-th smallest of x[0..n) (0-based), Hoare selection with a median-of-three pivot. */
static double select_kth(double *x, size_t n, size_t k) {
    size_t lo = 0, hi = n - 1;
    while (hi > lo) {
        size_t mid = lo + (hi - lo) / 2;
        if (x[mid] < x[lo])
            swapd(&x[mid], &x[lo]);
        if (x[hi] < x[lo])
            swapd(&x[hi], &x[lo]);
        if (x[hi] < x[mid])
            swapd(&x[hi], &x[mid]);
        double pivot = x[mid];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i <= j) {
                swapd(&x[i], &x[j]);
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return x[k];
    }
    return x[k];
}

double rank_median_inplace(double *x, size_t n) {
    double hi = select_kth(x, n, n / 2);
    if (n % 2)
        return hi;
    /* the other middle value is the largest of the lower half, which selection left below */
    double lo = x[0];
    for (size_t i = 1; i < n / 2; i++)
        if (x[i] > lo)
            lo = x[i];
    return 0.5 * (lo + hi);
}

double rank_geomean(const double *x, size_t n) {
    if (n == 0)
        return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0))
            return NAN;
        s += log(x[i]);
    }
    return exp(s / (double)n);
}

struct tagged {
    double v;
    int from_b;
};

static int tagged_cmp(const void *pa, const void *pb) {
    const struct tagged *a = pa, *b = pb;
    return (a->v > b->v) - (a->v < b->v);
}

int rank_mwu_test(const double *a, size_t na, const double *b, size_t nb, struct rank_mwu *r) {
    if (na == 0 || nb == 0)
        return -1;
    size_t n = na + nb;
    struct tagged *t = malloc(n * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < na; i++)
        t[i] = (struct tagged){a[i], 0};
    for (size_t i = 0; i < nb; i++)
        t[na + i] = (struct tagged){b[i], 1};
    qsort(t, n, sizeof *t, tagged_cmp);
    /* Ranks 1..n, tied values share their average rank; the ties shrink the variance. */
    double rank_sum_b = 0, tie_term = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && t[j + 1].v == t[i].v)
            j++;
        double avg = 0.5 * (double)(i + 1 + j + 1), cnt = (double)(j - i + 1);
        for (size_t k = i; k <= j; k++)
            if (t[k].from_b)
                rank_sum_b += avg;
        tie_term += cnt * cnt * cnt - cnt;
        i = j + 1;
    }
    free(t);
    double dna = (double)na, dnb = (double)nb, dn = (double)n;
    r->u = rank_sum_b - dnb * (dnb + 1) / 2;
    double mean = dna * dnb / 2;
    double var = dna * dnb / 12 * ((dn + 1) - (n > 1 ? tie_term / (dn * (dn - 1)) : 0));
    if (!(var > 0)) {
        r->z = 0;
        r->p = 1;
        return 0;
    }
    double d = r->u - mean;
    double cc = d > 0 ? -0.5 : (d < 0 ? 0.5 : 0); /* continuity correction towards the mean */
    if (fabs(d) < 0.5)
        cc = -d;
    r->z = (d + cc) / sqrt(var);
    r->p = erfc(fabs(r->z) / sqrt(2.0));
    if (r->p > 1)
        r->p = 1;
    return 0;
}
