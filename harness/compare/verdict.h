/* verdict.h — the regression verdict of one row from its runs, and the correction across rows.
 *
 * The unit of evidence is a run (one process): each run gives one median per row, and the
 * repetitions inside a run never enter the test as independent samples, because the variance
 * that matters — clocks, placement, page layout, other tenants — changes between runs, not
 * between repetitions. Per row the medians' logarithms of the base runs and of the new runs are
 * compared with Welch's t-test against a practical margin (is the change beyond ±margin?), a
 * permutation test of the same hypothesis cross-checks it, and Benjamini–Hochberg controls the
 * false discovery rate across rows; each row's confidence interval is given at the level that
 * correction implies (Benjamini–Yekutieli's false-coverage-rate interval), so a row is:
 *   SLOWER  the whole interval of the change lies above +margin (a regression);
 *   FASTER  the whole interval lies below −margin;
 *   SAME    the whole interval lies within ±margin (an equivalence test);
 *   UNSURE  otherwise, with the runs per side that would settle it if the change stays.
 * With one run per side the run-to-run noise is unknown: no interval and no decision, UNSURE with
 * the runs per side the test needs (vd_runs_for_test); a change past a documented floor (25% by
 * default) whose two runs' own timings separate "looks" slower or faster, and is said so.
 * Pure functions on numbers, no I/O: tests/compare/test_verdict.c checks them on synthetic runs.
 */
#ifndef GPUBENCH_VERDICT_H
#define GPUBENCH_VERDICT_H

#include <stdint.h>

enum vd_kind { VD_SAME, VD_SLOWER, VD_FASTER, VD_UNSURE };

struct vd_opts {
    double margin;       /* practical margin as a fraction of the base time (0.05) */
    double alpha;        /* false discovery rate across the tested rows (0.05) */
    double single_floor; /* one run per side: the smallest slowdown that "looks" slower (0.25) */
    uint64_t seed;       /* seed of the permutations drawn when there are too many to list */
};

/* What a row's two single runs say about each other (one run per side only). */
enum vd_within { VD_WITHIN_UNKNOWN, VD_WITHIN_SEPARATE, VD_WITHIN_OVERLAP };

/* One row: its evidence in, its verdict out. Log values are natural logarithms of times. */
struct vd_row {
    /* in */
    const double *base, *new_; /* ln(median) of each run of each side */
    int nb, nn;                /* runs per side, each ≥ 1 */
    enum vd_within within;     /* one run per side: do the two runs' timings separate? */
    /* out of vd_test_row */
    double d;          /* mean(new) − mean(base): the log of the ratio of the geometric means */
    double sd;         /* run-to-run standard deviation of a log median (pooled); NaN if unknown */
    double se, df;     /* standard error of d and its degrees of freedom; NaN if unknown */
    double p;          /* Welch's p of "the change lies within the margin" (small: beyond it) */
    double p_perm;     /* the permutation test of the same hypothesis; NaN if not computed */
    double p_perm_min; /* the smallest p the permutation test can give with these runs */
    /* out of vd_decide */
    double level;       /* confidence level of [lo, hi], e.g. 0.9944 */
    double lo, hi;      /* interval of d (log scale); NaN with one run per side */
    double mdc;         /* minimum detectable slowdown (log scale): the smallest d called SLOWER;
                           NaN with one run per side (none is) */
    int runs_needed;    /* UNSURE: runs per side that would settle it; 0 settled, -1 unknown */
    int perm_disagrees; /* Welch alone would have said SLOWER or FASTER */
    int looks;          /* one run per side: +1 past the floor, slower; -1 faster; 0 neither */
    enum vd_kind kind;
};

/* Stage 1, per row: d, the noise, Welch's p and the permutation p. Returns 0, or -1 when a side
 * has no run. A row with one run per side gets NaN for everything that needs the noise. */
int vd_test_row(struct vd_row *r, const struct vd_opts *o);

/* Stage 2, across the n rows of one comparison: Benjamini–Hochberg over the rows whose noise is
 * known, their intervals at the level that implies, the verdicts, the minimum detectable
 * changes and the runs needed. Returns the number of rows the correction counted. */
int vd_decide(struct vd_row *rows, int n, const struct vd_opts *o);

/* Runs per side from which the test can decide at false discovery rate alpha: the smallest n at
 * which the permutation cross-check, whose smallest p is 2 / C(2n, n), reaches alpha / 2 (room
 * for the correction across a few rows): 5 at alpha 0.05. */
int vd_runs_for_test(double alpha);

/* Benjamini–Hochberg: of the n p-values, how many are rejected at false discovery rate q (the
 * largest k with p_(k) ≤ k·q/n). */
int vd_bh_count(const double *p, int n, double q);

/* Student's t distribution with df > 0 degrees of freedom (df may be fractional, as Welch's):
 * P(T ≤ t), and its inverse for 0 < prob < 1. */
double vd_t_cdf(double t, double df);
double vd_t_quantile(double prob, double df);

/* Name of a verdict as printed: "SAME", "SLOWER", "FASTER", "UNSURE". */
const char *vd_name(enum vd_kind k);

#endif
