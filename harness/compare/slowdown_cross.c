/* slowdown_cross.c — the crossovers of a size sweep: for each GPU implementation, the size from
 * which it (end to end) beats the CPU's fastest implementation at each size. */
#include <stdlib.h>

#include "harness/compare/slowdown.h"

/* The CPU a GPU series is judged against: the CPU of its own run, else of its file, else any. */
static int cpu_for(const struct sd *d, int s) {
    const struct cmp_input *in = d->in;
    int best = -1, score = -1;
    for (int k = 0; k < in->nseries; k++) {
        if (!in->series[k].is_cpu)
            continue;
        int sc = (in->series[k].file == in->series[s].file) +
                 (in->series[k].file == in->series[s].file &&
                  !strcmp(in->series[k].run_id, in->series[s].run_id));
        if (sc > score) {
            best = k;
            score = sc;
        }
    }
    return best;
}

/* Fastest usable CPU row of series cpu at line c's point (NULL: none). */
static const struct run_row *cpu_row(const struct sd *d, int cpu, int c0, int c1,
                                     const struct combo *pt) {
    const struct run_row *best = NULL;
    for (int k = c0; k < c1; k++) {
        const struct run_row *r = at(d, k, cpu);
        if (usable(r) && same_point(pt, r) && (!best || e2e_ms(r) < e2e_ms(best)))
            best = r;
    }
    return best;
}

/* r's end-to-end time scaled by its 95% interval's bound (hi: upper); the run records the
 * interval of the kernel time, taken here as the same share of the end-to-end time. A row
 * without an interval is its median. */
static double e2e_bound(const struct run_row *r, int hi) {
    double b = hi ? r->ci95_hi_ms : r->ci95_lo_ms;
    if (!(b > 0) || !isfinite(b) || !(r->median_ms > 0))
        return e2e_ms(r);
    return e2e_ms(r) * b / r->median_ms;
}

/* Is the GPU row g faster than the CPU row c beyond both 95% intervals? */
static int surely_faster(const struct run_row *g, const struct run_row *c) {
    return e2e_bound(g, 1) < e2e_bound(c, 0);
}

int sd_crossovers(const struct sd *d, int c0, int c1, struct xover *x) {
    const struct cmp_input *in = d->in;
    int nx = 0, npts = c1 - c0;
    const struct combo **pt = malloc(sizeof *pt * (size_t)(npts + 1));
    double *ratio = malloc(sizeof *ratio * (size_t)(npts + 1));
    int *sure = malloc(sizeof *sure * (size_t)(npts + 1)); /* faster beyond the intervals */
    if (!pt || !ratio || !sure)
        goto out;
    for (int s = 0; s < in->nseries; s++) {
        if (in->series[s].is_cpu)
            continue;
        int cpu = cpu_for(d, s);
        if (cpu < 0)
            continue;
        for (int c = c0; c < c1; c++) {
            /* once per implementation and tier of this series: at its first line (the sizes
             * of one tier only: an f64 point must not continue an f32 ladder) */
            const char *impl = d->combo[c].impl, *dtype = d->combo[c].dtype;
            int first = 1;
            for (int k = c0; k < c && first; k++)
                if (!strcmp(d->combo[k].impl, impl) && !strcmp(d->combo[k].dtype, dtype) &&
                    at(d, k, s))
                    first = 0;
            if (!first || !at(d, c, s))
                continue;
            int n = 0;
            for (int k = c; k < c1; k++) {
                const struct run_row *r = at(d, k, s);
                if (strcmp(d->combo[k].impl, impl) || strcmp(d->combo[k].dtype, dtype) ||
                    !usable(r))
                    continue;
                const struct run_row *cr = cpu_row(d, cpu, c0, c1, &d->combo[k]);
                if (!cr)
                    continue;
                pt[n] = &d->combo[k];
                ratio[n] = e2e_ms(r) / e2e_ms(cr);
                sure[n] = surely_faster(r, cr);
                n++;
            }
            if (n < 2)
                continue; /* one size is not a sweep */
            struct xover *o = &x[nx++];
            *o = (struct xover){s, cpu, d->combo[c].workload, impl, dtype, "", NULL, ""};
            int from = n;
            while (from > 0 && ratio[from - 1] < 1)
                from--;
            /* A crossover is stated only where the GPU is faster beyond both intervals at the
             * size it names and at every larger size: one noisy CPU point (a load spike) must
             * not decide it. sure_from: the first size from which that holds. */
            int sure_from = n;
            while (sure_from > 0 && sure[sure_from - 1])
                sure_from--;
            char a[64], b[64], sa[256], sb[256], sc[256];
            if (from < n && sure_from > from) {
                int lo = from > 0 ? from - 1 : 0, hi = sure_from < n ? sure_from : n - 1;
                o->kind = "uncertain";
                o->shape = pt[hi]->shape;
                fmt_ratio(a, sizeof a, ratio[from]);
                snprintf(o->text, sizeof o->text,
                         "crossover uncertain between %s and %s (%s: %s, within the 95%% "
                         "intervals or not held at larger sizes)",
                         SHORT(pt[lo]->shape, sa), SHORT(pt[hi]->shape, sb),
                         SHORT(pt[from]->shape, sc), a);
            } else if (from == 0) {
                o->kind = "always";
                o->shape = pt[0]->shape;
                fmt_ratio(a, sizeof a, ratio[0]);
                snprintf(o->text, sizeof o->text, "faster at every size tried (smallest %s: %s)",
                         SHORT(pt[0]->shape, sa), a);
            } else if (from == n) {
                o->kind = "never";
                fmt_ratio(a, sizeof a, ratio[n - 1]);
                snprintf(o->text, sizeof o->text,
                         "no crossover: slower at the largest size "
                         "tried (%s: %s)",
                         SHORT(pt[n - 1]->shape, sa), a);
            } else {
                o->kind = "from";
                o->shape = pt[from]->shape;
                fmt_ratio(a, sizeof a, ratio[from - 1]);
                fmt_ratio(b, sizeof b, ratio[from]);
                snprintf(o->text, sizeof o->text, "faster from %s on (%s: %s; %s: %s)",
                         SHORT(pt[from]->shape, sa), SHORT(pt[from - 1]->shape, sb), a, sa, b);
            }
        }
    }
out:
    free(pt);
    free(ratio);
    free(sure);
    return nx;
}
