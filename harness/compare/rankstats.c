/* rankstats.c — Mann-Whitney U, bootstrap CI of a ratio of medians, geometric mean. */
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

/* A uniform index in [0, n) for n < 2^32 (multiply-shift: no modulo bias worth the name). */
static size_t rng_index(uint64_t *state, size_t n) {
    return (size_t)(((rank_rng_next(state) >> 32) * (uint64_t)n) >> 32);
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

static int dcmp(const void *pa, const void *pb) {
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

int rank_boot_ratio_ci(const double *a, size_t na, const double *b, size_t nb, int iters,
                       double level, uint64_t seed, double *lo, double *hi) {
    if (na == 0 || nb == 0 || iters < 2)
        return -1;
    double *ra = malloc(na * sizeof *ra), *rb = malloc(nb * sizeof *rb);
    double *ratio = malloc((size_t)iters * sizeof *ratio);
    int rc = -1;
    if (!ra || !rb || !ratio)
        goto out;
    uint64_t st = seed;
    for (int it = 0; it < iters; it++) {
        for (size_t i = 0; i < na; i++)
            ra[i] = a[rng_index(&st, na)];
        for (size_t i = 0; i < nb; i++)
            rb[i] = b[rng_index(&st, nb)];
        double ma = rank_median_inplace(ra, na), mb = rank_median_inplace(rb, nb);
        if (!(ma > 0))
            goto out;
        ratio[it] = mb / ma;
    }
    qsort(ratio, (size_t)iters, sizeof *ratio, dcmp);
    double tail = (1 - level) / 2;
    size_t ilo = (size_t)floor(tail * (iters - 1)), ihi = (size_t)ceil((1 - tail) * (iters - 1));
    *lo = ratio[ilo];
    *hi = ratio[ihi];
    rc = 0;
out:
    free(ra);
    free(rb);
    free(ratio);
    return rc;
}

/* z with P(|N(0,1)| < z) = level, by bisection on erfc (exact to double precision). */
static double two_sided_z(double level) {
    double lo = 0, hi = 40;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (erfc(mid / sqrt(2.0)) > 1 - level)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Median and the log-scale standard error of the median of sorted x[0..n). */
static int log_median_se(const double *x, size_t n, double z, double *med, double *se) {
    double half = 0.5 * (double)n, w = 0.5 * z * sqrt((double)n);
    long lo = (long)floor(half - w), hi = (long)ceil(half + w);
    if (lo < 0)
        lo = 0;
    if (hi > (long)n - 1)
        hi = (long)n - 1;
    *med = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    if (!(x[0] > 0))
        return -1;
    *se = (log(x[hi]) - log(x[lo])) / (2 * z);
    return 0;
}

int rank_orderstat_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double level,
                            double *lo, double *hi) {
    if (na == 0 || nb == 0)
        return -1;
    double *sa = malloc(na * sizeof *sa), *sb = malloc(nb * sizeof *sb);
    int rc = -1;
    if (!sa || !sb)
        goto out;
    memcpy(sa, a, na * sizeof *sa);
    memcpy(sb, b, nb * sizeof *sb);
    qsort(sa, na, sizeof *sa, dcmp);
    qsort(sb, nb, sizeof *sb, dcmp);
    double z = two_sided_z(level), ma, mb, sea, seb;
    if (log_median_se(sa, na, z, &ma, &sea) || log_median_se(sb, nb, z, &mb, &seb))
        goto out;
    double r = mb / ma, s = sqrt(sea * sea + seb * seb);
    *lo = r * exp(-z * s);
    *hi = r * exp(z * s);
    rc = 0;
out:
    free(sa);
    free(sb);
    return rc;
}
