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

/* Fastest usable CPU time of series cpu at line c's point. */
static double cpu_time(const struct sd *d, int cpu, int c0, int c1, const struct combo *pt) {
    double best = NAN;
    for (int k = c0; k < c1; k++) {
        const struct run_row *r = at(d, k, cpu);
        if (usable(r) && same_point(pt, r) && !(e2e_ms(r) >= best))
            best = e2e_ms(r);
    }
    return best;
}

int sd_crossovers(const struct sd *d, int c0, int c1, struct xover *x) {
    const struct cmp_input *in = d->in;
    int nx = 0, npts = c1 - c0;
    const struct combo **pt = malloc(sizeof *pt * (size_t)(npts + 1));
    double *ratio = malloc(sizeof *ratio * (size_t)(npts + 1));
    if (!pt || !ratio)
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
                double t = cpu_time(d, cpu, c0, c1, &d->combo[k]);
                if (!(t > 0))
                    continue;
                pt[n] = &d->combo[k];
                ratio[n] = e2e_ms(r) / t;
                n++;
            }
            if (n < 2)
                continue; /* one size is not a sweep */
            struct xover *o = &x[nx++];
            *o = (struct xover){s, cpu, d->combo[c].workload, impl, dtype, "", NULL, ""};
            int from = n;
            while (from > 0 && ratio[from - 1] < 1)
                from--;
            char a[64], b[64], sa[256], sb[256];
            if (from == 0) {
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
    return nx;
}
