/* verdict.c — Welch's t-test on log medians against a margin, its permutation cross-check,
 * Benjamini–Hochberg across rows, and the verdicts (see verdict.h). */
#include "harness/compare/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/compare/rankstats.h" /* the one seeded generator */

/* Permutations listed one by one up to this many; beyond, this many are drawn at random. */
enum { PERM_LIST = 200000, PERM_DRAWS = 20000 };

/* Runs per side searched for "runs needed"; beyond, the row is reported as needing more. */
enum { RUNS_CAP = 1000 };

const char *vd_name(enum vd_kind k) {
    switch (k) {
    case VD_SLOWER: return "SLOWER";
    case VD_FASTER: return "FASTER";
    case VD_SAME: return "SAME";
    default: return "UNSURE";
    }
}

/* --- Student's t ------------------------------------------------------------------------- */

/* The continued fraction of the regularized incomplete beta function I_x(a, b) (DLMF 8.17.22),
 * evaluated with the modified Lentz method; converges fast for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x) {
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 500; m++) {
        double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        double odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        for (int k = 0; k < 2; k++) {
            double t = k ? odd : even;
            d = 1 + t * d;
            c = 1 + t / c;
            d = 1 / (fabs(d) < tiny ? tiny : d);
            c = fabs(c) < tiny ? tiny : c;
            h *= d * c;
        }
        if (fabs(d * c - 1) < 1e-15)
            break;
    }
    return h;
}

/* I_x(a, b) for a, b > 0 and 0 ≤ x ≤ 1. */
static double ibeta(double a, double b, double x) {
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * beta_fraction(a, b, x) / a;
    return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double vd_t_cdf(double t, double df) {
    if (isnan(t) || !(df > 0))
        return NAN;
    if (df > 1e7) /* the normal distribution, to double precision */
        return 0.5 * erfc(-t / sqrt(2.0));
    double tail = 0.5 * ibeta(df / 2, 0.5, df / (df + t * t)); /* P(T > |t|) */
    return t >= 0 ? 1 - tail : tail;
}

double vd_t_quantile(double prob, double df) {
    if (!(prob > 0 && prob < 1) || !(df > 0))
        return NAN;
    if (prob < 0.5)
        return -vd_t_quantile(1 - prob, df);
    double lo = 0, hi = 1;
    while (vd_t_cdf(hi, df) < prob && hi < 1e300)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (vd_t_cdf(mid, df) < prob)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* --- Benjamini–Hochberg -------------------------------------------------------------------- */

static int dcmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int vd_bh_count(const double *p, int n, double q) {
    if (n <= 0)
        return 0;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return 0; /* no memory: reject nothing, the safe side */
    memcpy(s, p, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, dcmp);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (s[i] <= (i + 1) * q / n)
            k = i + 1;
    free(s);
    return k;
}

/* --- stage 1: one row ---------------------------------------------------------------------- */

static void mean_var(const double *x, int n, double *mean, double *var) {
    double m = 0, v = 0;
    for (int i = 0; i < n; i++)
        m += x[i];
    m /= n;
    for (int i = 0; i < n; i++)
        v += (x[i] - m) * (x[i] - m);
    *mean = m;
    *var = n > 1 ? v / (n - 1) : NAN;
}

/* The noise of d: Welch's standard error and degrees of freedom with two runs or more per side;
 * with one run on a side, the other side's spread stands for both (its runs − 1 degrees of
 * freedom); NaN with one run per side. */
static void noise(struct vd_row *r, double vb, double vn) {
    r->sd = r->se = r->df = NAN;
    if (r->nb >= 2 && r->nn >= 2) {
        double ub = vb / r->nb, un = vn / r->nn;
        r->se = sqrt(ub + un);
        double den = ub * ub / (r->nb - 1) + un * un / (r->nn - 1);
        r->df = den > 0 ? (ub + un) * (ub + un) / den : r->nb + r->nn - 2;
        r->sd = sqrt(((r->nb - 1) * vb + (r->nn - 1) * vn) / (r->nb + r->nn - 2));
    } else if (r->nb + r->nn >= 3) {
        int many = r->nb > 1 ? r->nb : r->nn;
        r->sd = sqrt(r->nb > 1 ? vb : vn);
        r->se = r->sd * sqrt(1.0 / r->nb + 1.0 / r->nn);
        r->df = many - 1;
    }
}

/* Welch's p of H0 "the change lies within ±L" against "it lies beyond, on d's side": twice the
 * one-sided tail at the margin, so that p ≤ γ exactly when the (1 − γ) interval clears it. */
static double margin_p(double d, double se, double df, double L) {
    double gap = fabs(d) - L;
    if (se == 0)
        return gap > 0 ? 0 : 1;
    double p = 2 * (1 - vd_t_cdf(gap / se, df));
    return p > 1 ? 1 : p;
}

/* C(n, k) as a double (exact while it matters: up to PERM_LIST). */
static double choose(int n, int k) {
    double c = 1;
    for (int i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

/* Count the k-subsets of z[0..n) whose sum is on the far side of `obs` (≥ when up, else ≤),
 * listing them all (C(n, k) ≤ PERM_LIST). */
static double perm_list(const double *z, int n, int k, double obs, int up, double *total) {
    int idx[64];
    double count = 0, eps = 1e-12 * (fabs(obs) + 1);
    for (int i = 0; i < k; i++)
        idx[i] = i;
    *total = 0;
    for (;;) {
        double s = 0;
        for (int i = 0; i < k; i++)
            s += z[idx[i]];
        count += up ? s >= obs - eps : s <= obs + eps;
        *total += 1;
        int i = k - 1;
        while (i >= 0 && idx[i] == n - k + i)
            i--;
        if (i < 0)
            return count;
        idx[i]++;
        for (int j = i + 1; j < k; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

/* The same by PERM_DRAWS random k-subsets (partial Fisher–Yates), seeded. */
static double perm_draw(const double *z, int n, int k, double obs, int up, uint64_t seed) {
    double *w = malloc((size_t)n * sizeof *w), count = 0, eps = 1e-12 * (fabs(obs) + 1);
    if (!w)
        return NAN;
    uint64_t st = seed;
    for (int t = 0; t < PERM_DRAWS; t++) {
        memcpy(w, z, (size_t)n * sizeof *w);
        double s = 0;
        for (int i = 0; i < k; i++) {
            int j = i + (int)(rank_rng_uniform(&st) * (n - i));
            double tmp = w[i];
            w[i] = w[j];
            w[j] = tmp;
            s += w[i];
        }
        count += up ? s >= obs - eps : s <= obs + eps;
    }
    free(w);
    return count;
}

/* The permutation test of the same hypothesis as margin_p: the new runs shifted back by the
 * margin (on d's side) are exchangeable with the base runs at the boundary of H0; the statistic
 * is the sum of the new group. Sets p_perm and p_perm_min. */
static void permutation(struct vd_row *r, double L, uint64_t seed) {
    int n = r->nb + r->nn, k = r->nn, up = r->d >= 0;
    double z[128], obs = 0, total, count;
    r->p_perm = r->p_perm_min = NAN;
    if (n > 128 || n < 3)
        return;
    for (int i = 0; i < r->nb; i++)
        z[i] = r->base[i];
    for (int i = 0; i < r->nn; i++) {
        z[r->nb + i] = r->new_[i] - (up ? L : -L);
        obs += z[r->nb + i];
    }
    if (n <= 62 && choose(n, k) <= PERM_LIST) {
        count = perm_list(z, n, k, obs, up, &total); /* the observed split among them */
        r->p_perm_min = 2 / total;
        r->p_perm = fmin(1, 2 * count / total);
    } else {
        count = perm_draw(z, n, k, obs, up, seed);
        r->p_perm_min = 2.0 / (PERM_DRAWS + 1);
        r->p_perm = fmin(1, 2 * (count + 1) / (PERM_DRAWS + 1));
    }
}

int vd_test_row(struct vd_row *r, const struct vd_opts *o) {
    if (r->nb < 1 || r->nn < 1)
        return -1;
    double mb, vb, mn, vn, L = log1p(o->margin);
    mean_var(r->base, r->nb, &mb, &vb);
    mean_var(r->new_, r->nn, &mn, &vn);
    r->d = mn - mb;
    noise(r, vb, vn);
    r->p = r->p_perm = r->p_perm_min = NAN;
    if (isnan(r->se))
        return 0;
    r->p = margin_p(r->d, r->se, r->df, L);
    permutation(r, L, o->seed);
    return 0;
}

/* --- stage 2: across rows -------------------------------------------------------------------- */

/* Half-width of the (1 − gamma) interval of d for standard error se with df degrees. */
static double half_width(double se, double df, double gamma) {
    return se > 0 ? vd_t_quantile(1 - gamma / 2, df) * se : 0;
}

/* Runs per side (equal) after which an interval at level 1 − gamma around the same d, with the
 * same run-to-run spread, would clear the margin or fit inside it: the smallest n with
 * t(1 − gamma/2, 2n − 2)·sd·√(2/n) < ||d| − L|. RUNS_CAP + 1 when even RUNS_CAP would not. */
static int runs_to_settle(double d, double sd, double L, double gamma) {
    double gap = fabs(fabs(d) - L);
    if (sd == 0)
        return 2;
    int lo = 2, hi = RUNS_CAP + 1; /* hi: settles (or the cap) */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (vd_t_quantile(1 - gamma / 2, 2.0 * mid - 2) * sd * sqrt(2.0 / mid) < gap)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* A row whose noise is known: interval, verdict, permutation cross-check, MDC, runs needed. */
static void decide_tested(struct vd_row *r, double L, double gamma) {
    double half = half_width(r->se, r->df, gamma);
    r->looks = 0;
    r->level = 1 - gamma;
    r->lo = r->d - half;
    r->hi = r->d + half;
    r->mdc = L + half;
    r->perm_disagrees = 0;
    if (r->lo > L)
        r->kind = VD_SLOWER;
    else if (r->hi < -L)
        r->kind = VD_FASTER;
    else if (r->lo >= -L && r->hi <= L)
        r->kind = VD_SAME;
    else
        r->kind = VD_UNSURE;
    /* Welch assumes normal log medians; with few runs one odd run can fool it. Where the
     * permutation test (no such assumption) could confirm at this level but does not, the row
     * stays UNSURE. */
    if ((r->kind == VD_SLOWER || r->kind == VD_FASTER) && r->p_perm_min <= gamma &&
        r->p_perm > gamma) {
        r->kind = VD_UNSURE;
        r->perm_disagrees = 1;
    }
    r->runs_needed = r->kind == VD_UNSURE ? runs_to_settle(r->d, r->sd, L, gamma) : 0;
    if (r->perm_disagrees && r->runs_needed <= (r->nb < r->nn ? r->nb : r->nn))
        r->runs_needed = 2 * (r->nb > r->nn ? r->nb : r->nn); /* more of the same, at least */
}

int vd_runs_for_test(double alpha) {
    for (int n = 2; n < 64; n++)
        if (2 / choose(2 * n, n) <= alpha / 2)
            return n;
    return 64;
}

/* One run per side: the run-to-run noise is unknown, so nothing is decided (a busy machine
 * slows one run by 10-35x, issue 45): UNSURE, with the runs per side the test needs. A change
 * past the floor (a factor, like the margin: new/base ≥ 1.25 or ≤ 1/1.25) whose two runs' own
 * timings do not overlap "looks" slower or faster: said, never decided. */
static void decide_single(struct vd_row *r, const struct vd_opts *o) {
    double F = log1p(o->single_floor);
    r->level = r->lo = r->hi = r->mdc = NAN;
    r->perm_disagrees = 0;
    r->kind = VD_UNSURE;
    r->runs_needed = vd_runs_for_test(o->alpha);
    r->looks = r->within == VD_WITHIN_OVERLAP ? 0 : r->d >= F ? 1 : r->d <= -F ? -1 : 0;
}

int vd_decide(struct vd_row *rows, int n, const struct vd_opts *o) {
    double L = log1p(o->margin);
    double *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    int m = 0;
    for (int i = 0; i < n && p; i++)
        if (!isnan(rows[i].se))
            p[m++] = rows[i].p;
    int rejected = p ? vd_bh_count(p, m, o->alpha) : 0;
    free(p);
    /* the false-coverage-rate level: 1 − α·R/m for every row, R ≥ 1 (Benjamini–Yekutieli) */
    double gamma = m ? o->alpha * (rejected > 0 ? rejected : 1) / m : o->alpha;
    for (int i = 0; i < n; i++) {
        if (isnan(rows[i].se))
            decide_single(&rows[i], o);
        else
            decide_tested(&rows[i], L, gamma);
    }
    return m;
}
