/* regress.c — regression mode of `gpubench compare`: two runs of the same devices (say
 * before and after a driver upgrade), joined row by row, each with a verdict same / faster /
 * slower from a rank test on the samples (or the rows' confidence intervals when there are no
 * samples) and a minimum effect. A row that broke (ok → wrong, error, …) or vanished is a
 * regression too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/compare/cycles.h"
#include "harness/compare/internal.h"
#include "harness/compare/rankstats.h"

/* Below this many samples per side the rank test cannot reach any useful significance; the
 * confidence intervals decide instead. */
enum { MIN_SAMPLES = 5 };

/* Resampled values a bootstrap may draw per row (2000 resamples of 10000 timings): about 0.2 s. */
#define BOOT_BUDGET 2e7

struct rr {
    const struct run_row *b, *n;
    double change;    /* new median / base median − 1 */
    double lo, hi;    /* bootstrap 95% CI of the ratio of medians (NaN without samples) */
    double p;         /* Mann-Whitney p (NaN without samples) */
    size_t nb, nn;    /* samples per side */
    const char *test; /* "mann-whitney", "ci-overlap", "threshold", "" */
    const char *verdict;
    int regression;
    char cycles[200]; /* how the rows' clocks or throttling differ (cycles.h), or "" */
};

static int same_key(const struct run_row *a, const struct run_row *b) {
    return !strcmp(a->device, b->device) && !strcmp(a->workload, b->workload) &&
           !strcmp(a->impl, b->impl) && !strcmp(a->shape, b->shape) && !strcmp(a->dtype, b->dtype);
}

/* One run per file: regression mode joins on device, not on host or run. */
static int one_run(const struct csv_table *t, char *err, size_t errlen) {
    for (size_t r = 1; r < t->nrows; r++)
        if (strcmp(t->run[r].run_id, t->run[0].run_id)) {
            snprintf(err, errlen,
                     "%s:%d: column run_id: a second run (%s after %s): regression "
                     "mode compares one run per file (use --baseline to compare many)",
                     t->name, t->run[r].line, t->run[r].run_id, t->run[0].run_id);
            return -1;
        }
    return 0;
}

static void judge(const struct cmp_input *in, const struct cmp_opts *o, struct rr *x,
                  uint64_t seed) {
    x->change = x->lo = x->hi = x->p = NAN;
    x->test = "";
    x->regression = 0;
    if (!x->n) {
        x->verdict = "vanished";
        x->regression = 1;
        return;
    }
    if (!x->b) {
        x->verdict = "new";
        return;
    }
    int bok = x->b->status == ST_OK, nok = x->n->status == ST_OK;
    if (bok && !nok) {
        x->verdict = "broken";
        x->regression = 1;
        return;
    }
    if (!bok) {
        x->verdict = nok ? "fixed" : "not ok";
        return;
    }
    x->change = x->n->median_ms / x->b->median_ms - 1;
    if (!isfinite(x->change)) {
        x->verdict = "n/a";
        return;
    }
    const struct cmp_group *gb = cmp_row_samples(in, x->b), *gn = cmp_row_samples(in, x->n);
    x->nb = gb ? gb->n : 0;
    x->nn = gn ? gn->n : 0;
    int differs; /* is the difference real (beyond noise)? */
    if (x->nb >= MIN_SAMPLES && x->nn >= MIN_SAMPLES) {
        struct rank_mwu u;
        x->test = "mann-whitney";
        differs = 0;
        if (rank_mwu_test(gb->ms, gb->n, gn->ms, gn->n, &u) == 0) {
            x->p = u.p;
            differs = u.p < o->alpha;
        }
        /* resampling costs iters × samples: beyond the budget the order-statistic interval
         * (the same thing for large samples) is used instead */
        double work = (double)o->boot_iters * (double)(x->nb + x->nn);
        int ci = work <= BOOT_BUDGET
                     ? rank_boot_ratio_ci(gb->ms, gb->n, gn->ms, gn->n, o->boot_iters, 0.95, seed,
                                          &x->lo, &x->hi)
                     : rank_orderstat_ratio_ci(gb->ms, gb->n, gn->ms, gn->n, 0.95, &x->lo, &x->hi);
        if (ci)
            x->lo = x->hi = NAN;
    } else if (isfinite(x->b->ci95_lo_ms) && isfinite(x->b->ci95_hi_ms) &&
               isfinite(x->n->ci95_lo_ms) && isfinite(x->n->ci95_hi_ms)) {
        /* Two 95% intervals that do not overlap: a conservative test (about p < 0.01). */
        x->test = "ci-overlap";
        differs = x->n->ci95_lo_ms > x->b->ci95_hi_ms || x->n->ci95_hi_ms < x->b->ci95_lo_ms;
    } else {
        x->test = "threshold";
        differs = 1;
    }
    if (differs && x->change >= o->threshold) {
        x->verdict = "slower";
        x->regression = 1;
    } else if (differs && x->change <= -o->threshold) {
        x->verdict = "faster";
    } else {
        x->verdict = "same";
    }
}

/* --- provenance: what differs between the two runs ------------------------------------- */

enum { DIFF_LEN = 256, NPROV = 7, COL_THREADS = 11 /* fixed column, as in csv_run_columns */ };

struct diff {
    const char *device, *field;
    char was[DIFF_LEN], now[DIFF_LEN];
};

static void set_diff(struct diff *d, const char *device, const char *field, const char *was,
                     const char *now) {
    d->device = device;
    d->field = field;
    snprintf(d->was, sizeof d->was, "%s", was);
    snprintf(d->now, sizeof d->now, "%s", now);
}

/* The provenance a device's rows carry, by number (threads as written: the CPU's count). */
static const char *const prov_names[NPROV] = {"device_name", "cc",      "driver", "runtime",
                                              "blas_lib",    "dnn_lib", "threads"};

static const char *prov_value(const struct run_row *r, int fi) {
    const char *const v[NPROV] = {r->device_name, r->cc,      r->driver,          r->runtime,
                                  r->blas_lib,    r->dnn_lib, r->raw[COL_THREADS]};
    return v[fi];
}

static void distinct_host(const struct csv_table *t, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t r = 0; r < t->nrows; r++) {
        int dup = 0;
        for (size_t k = 0; k < r && !dup; k++)
            dup = !strcmp(t->run[k].host, t->run[r].host);
        if (dup)
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? " / " : "", t->run[r].host);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
}

/* The distinct values of field `fi` over device `dev`'s rows of t, in order, " / "-joined (a
 * device's libraries are normally one value; several are shown as they are). */
static void distinct(const struct csv_table *t, const char *dev, int fi, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t r = 0; r < t->nrows; r++) {
        const struct run_row *a = &t->run[r];
        if (strcmp(a->device, dev))
            continue;
        const char *v = prov_value(a, fi), *dup = NULL;
        for (size_t k = 0; k < r && !dup; k++)
            if (!strcmp(t->run[k].device, dev) && !strcmp(prov_value(&t->run[k], fi), v))
                dup = v;
        if (dup)
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? " / " : "", v);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
}

static int differences(const struct csv_table *bt, const struct csv_table *nt, struct diff *d,
                       int maxd) {
    int nd = 0;
    char was[DIFF_LEN], now[DIFF_LEN];
    distinct_host(bt, was, sizeof was);
    distinct_host(nt, now, sizeof now);
    if (strcmp(was, now) && nd < maxd)
        set_diff(&d[nd++], "", "host", was, now);
    /* per device present in either run */
    for (int side = 0; side < 2; side++) {
        const struct csv_table *t = side ? nt : bt, *u = side ? bt : nt;
        for (size_t r = 0; r < t->nrows && nd < maxd; r++) {
            const struct run_row *a = &t->run[r];
            int firstdev = 1, inu = 0;
            for (size_t k = 0; k < r && firstdev; k++)
                firstdev = strcmp(t->run[k].device, a->device) != 0;
            if (!firstdev)
                continue;
            for (size_t k = 0; k < u->nrows && !inu; k++)
                inu = !strcmp(u->run[k].device, a->device);
            if (!inu) {
                set_diff(&d[nd++], a->device, "device", side ? "(absent)" : a->device_name,
                         side ? a->device_name : "(absent)");
                continue;
            }
            if (side)
                continue; /* devices in both: compared once, from the base side */
            for (int fi = 0; fi < NPROV && nd < maxd; fi++) {
                distinct(bt, a->device, fi, was, sizeof was);
                distinct(nt, a->device, fi, now, sizeof now);
                if (strcmp(was, now))
                    set_diff(&d[nd++], a->device, prov_names[fi], was, now);
            }
        }
    }
    return nd;
}

/* Human names of the provenance fields. */
static const char *field_title(const char *f) {
    if (!strcmp(f, "blas_lib"))
        return "BLAS (cuBLAS/OpenBLAS)";
    if (!strcmp(f, "dnn_lib"))
        return "cuDNN";
    if (!strcmp(f, "device_name"))
        return "device";
    if (!strcmp(f, "cc"))
        return "compute capability";
    return f;
}

/* --- output ------------------------------------------------------------------------------ */

static void fmt_p(char *buf, size_t len, double p) {
    if (!isfinite(p))
        snprintf(buf, len, "-");
    else if (p < 0.001)
        snprintf(buf, len, "<0.001");
    else
        snprintf(buf, len, "%.3f", p);
}

/* How many rows each test decided: the legend explains only the tests that were used. */
struct tests_used {
    int mwu, ci, thr;
};

static void count_tests(const struct rr *x, size_t nx, struct tests_used *t) {
    *t = (struct tests_used){0};
    for (size_t i = 0; i < nx; i++) {
        t->mwu += !strcmp(x[i].test, "mann-whitney");
        t->ci += !strcmp(x[i].test, "ci-overlap");
        t->thr += !strcmp(x[i].test, "threshold");
    }
}

/* The rows that make the exit status 1, by kind. */
struct regressions {
    int slow, broke, gone;
    int slow_cycles; /* slower rows whose clocks or throttling differ */
};

static void count_regressions(const struct rr *x, size_t nx, struct regressions *n) {
    *n = (struct regressions){0};
    for (size_t i = 0; i < nx; i++) {
        n->slow += !strcmp(x[i].verdict, "slower");
        n->slow_cycles += !strcmp(x[i].verdict, "slower") && x[i].cycles[0];
        n->broke += !strcmp(x[i].verdict, "broken");
        n->gone += !strcmp(x[i].verdict, "vanished");
    }
}

/* The two runs and what differs between them; `li` starts each line (markdown: "- "). */
static void print_runs(const struct cmp_input *in, const struct diff *d, int nd, int md,
                       FILE *out) {
    const char *li = md ? "- " : "";
    const struct run_row *b0 = &in->runs[0].run[0], *n0 = &in->runs[1].run[0];
    fprintf(out, "%sgpubench compare: regression check\n\n", md ? "## " : "");
    fprintf(out, "%sbase: %s (run %s, host %s, %s)\n", li, in->runs[0].name, b0->run_id, b0->host,
            b0->utc);
    fprintf(out, "%snew:  %s (run %s, host %s, %s)\n", li, in->runs[1].name, n0->run_id, n0->host,
            n0->utc);
    if (nd == 0)
        fprintf(out,
                "%sdiffers: nothing recorded (same host, devices, driver, runtime and "
                "libraries)\n",
                li);
    for (int i = 0; i < nd; i++)
        fprintf(out, "%sdiffers: %s%s%s: %s -> %s\n", li, d[i].device, d[i].device[0] ? " " : "",
                field_title(d[i].field), d[i].was[0] ? d[i].was : "(empty)",
                d[i].now[0] ? d[i].now : "(empty)");
}

/* How a verdict is reached, one line per test that decided some row. */
static void print_legend(const struct cmp_opts *o, const struct tests_used *t, int md, FILE *out) {
    const char *li = md ? "- " : "", *sub = md ? "  - " : "  ";
    fprintf(out,
            "%sverdict: slower/faster needs a change of at least %g%% that is also "
            "statistically real:\n",
            li, 100 * o->threshold);
    if (t->mwu)
        fprintf(out,
                "%s%d row%s: Mann-Whitney U test on the samples (two-sided, p < %g); "
                "CI = bootstrap 95%% interval of the change of the median\n",
                sub, t->mwu, t->mwu == 1 ? "" : "s", o->alpha);
    if (t->ci)
        fprintf(out,
                "%s%d row%s: without samples (none given with --samples, or fewer than %d "
                "per side), so from the rows' 95%% confidence intervals of the median: a change "
                "counts when they do not overlap\n",
                sub, t->ci, t->ci == 1 ? "" : "s", MIN_SAMPLES);
    if (t->thr)
        fprintf(out,
                "%s%d row%s: neither samples nor confidence intervals: the threshold "
                "alone decides\n",
                sub, t->thr, t->thr == 1 ? "" : "s");
    fputc('\n', out);
}

/* The cells of table row `row` from r; `tested`: fill the CI and p columns (7, 8) too. */
static void grid_rr(struct cmp_grid *g, int row, const struct rr *r, int tested, int cv) {
    const struct run_row *k = r->b ? r->b : r->n;
    char a[64], b[64];
    grid_set(g, row, 0, "%s", k->device);
    grid_set(g, row, 1, "%s", k->workload);
    grid_set(g, row, 2, "%s", k->impl);
    if (strcmp(k->dtype, "float32"))
        grid_set(g, row, 3, "%s (%s)", k->shape, k->dtype);
    else
        grid_set(g, row, 3, "%s", k->shape);
    if (r->b) {
        fmt_ms(a, sizeof a, r->b->median_ms);
        grid_set(g, row, 4, "%s", r->b->status == ST_OK ? a : status_name(r->b->status));
    }
    if (r->n) {
        fmt_ms(a, sizeof a, r->n->median_ms);
        grid_set(g, row, 5, "%s", r->n->status == ST_OK ? a : status_name(r->n->status));
    }
    fmt_change(a, sizeof a, r->change);
    grid_set(g, row, 6, "%s", a);
    if (tested && isfinite(r->lo)) {
        fmt_change(a, sizeof a, r->lo - 1);
        fmt_change(b, sizeof b, r->hi - 1);
        grid_set(g, row, 7, "%s..%s", a, b);
    }
    if (tested) {
        fmt_p(a, sizeof a, r->p);
        grid_set(g, row, 8, "%s", a);
    }
    if (!strcmp(r->verdict, "broken") || !strcmp(r->verdict, "fixed") ||
        !strcmp(r->verdict, "not ok"))
        grid_set(g, row, cv, "%s (%s -> %s)", r->verdict, status_name(r->b->status),
                 status_name(r->n->status));
    else
        grid_set(g, row, cv, "%s", r->verdict);
}

/* The table of rows; the CI and p columns only when some row was tested on samples. Returns 0,
 * or -1 (nothing printed) when the table cannot be allocated. */
static int print_rows(const struct rr *x, size_t nx, int tested, int md, FILE *out) {
    const int ncol = tested ? 10 : 8, cv = ncol - 1;
    struct cmp_grid g;
    if (grid_init(&g, ncol))
        return -1;
    const char *heads[] = {"device", "workload", "impl",   "shape", "base ms",
                           "new ms", "change",   "95% CI", "p",     "verdict"};
    for (int c = 0; c < ncol - 1; c++)
        grid_head(&g, c, heads[c], c >= 4);
    grid_head(&g, cv, "verdict", 0);
    for (size_t i = 0; i < nx; i++) {
        int row = grid_row(&g, 0);
        if (row < 0)
            break;
        grid_rr(&g, row, &x[i], tested, cv);
    }
    grid_print(&g, md, out);
    grid_free(&g);
    return 0;
}

/* The cycle-space check's findings, one line per row whose clocks or throttling differ. */
static void print_cycles(const struct rr *x, size_t nx, int md, FILE *out) {
    int shown = 0;
    for (size_t i = 0; i < nx; i++) {
        if (!x[i].cycles[0])
            continue;
        if (!shown++)
            fprintf(out, "\ncycle-space: these rows ran at other clocks or throttled otherwise, "
                         "so a change may be the card's state (heat, power cap), not the "
                         "software:\n");
        fprintf(out, "%s%s %s/%s %s (%s): %s\n", md ? "- " : "  ", x[i].b->device,
                x[i].b->workload, x[i].b->impl, x[i].b->shape, x[i].verdict, x[i].cycles);
    }
}

/* The last line: the regressions by kind, or none. */
static void print_summary(const struct regressions *n, int md, FILE *out) {
    const char *b = md ? "**" : "";
    if (n->slow + n->broke + n->gone)
        fprintf(out, "\n%sREGRESSION: %d slower, %d broken (status no longer ok), %d vanished%s\n",
                b, n->slow, n->broke, n->gone, b);
    else
        fprintf(out, "\n%sno regression%s\n", b, b);
    if (n->slow_cycles)
        fprintf(out, "%d of the slower rows ran at other clocks or throttled otherwise (above)\n",
                n->slow_cycles);
}

/* The report for a terminal (or markdown): runs, legend, table, summary. */
static void print_human(const struct cmp_input *in, const struct cmp_opts *o, const struct rr *x,
                        size_t nx, const struct diff *d, int nd, FILE *out) {
    int md = o->format == CMP_MARKDOWN;
    struct tests_used t;
    struct regressions n;
    count_tests(x, nx, &t);
    count_regressions(x, nx, &n);
    print_runs(in, d, nd, md, out);
    print_legend(o, &t, md, out);
    if (print_rows(x, nx, t.mwu != 0, md, out) == 0) {
        print_cycles(x, nx, md, out);
        print_summary(&n, md, out);
    }
}

static void csv_num(FILE *out, double v, int comma) {
    if (isfinite(v))
        fprintf(out, "%.10g", v);
    if (comma)
        fputc(',', out);
}

static void print_csv(const struct rr *x, size_t nx, FILE *out) {
    fputs("device,workload,impl,shape,dtype,base_status,new_status,base_ms,new_ms,change,"
          "ratio_ci_lo,ratio_ci_hi,p,base_samples,new_samples,test,verdict,regression,cycles\n",
          out);
    for (size_t i = 0; i < nx; i++) {
        const struct rr *r = &x[i];
        const struct run_row *k = r->b ? r->b : r->n;
        const char *f[] = {k->device,
                           k->workload,
                           k->impl,
                           k->shape,
                           k->dtype,
                           r->b ? status_name(r->b->status) : "",
                           r->n ? status_name(r->n->status) : ""};
        for (int j = 0; j < 7; j++) {
            csv_field(out, f[j]);
            fputc(',', out);
        }
        csv_num(out, r->b ? r->b->median_ms : NAN, 1);
        csv_num(out, r->n ? r->n->median_ms : NAN, 1);
        csv_num(out, r->change, 1);
        csv_num(out, r->lo, 1);
        csv_num(out, r->hi, 1);
        csv_num(out, r->p, 1);
        fprintf(out, "%zu,%zu,%s,%s,%d,", r->nb, r->nn, r->test, r->verdict, r->regression);
        csv_field(out, r->cycles);
        fputc('\n', out);
    }
}

static void jkv(FILE *out, const char *k, const char *v) {
    json_string(out, k);
    fputc(':', out);
    json_string(out, v);
}

static void jkn(FILE *out, const char *k, double v) {
    json_string(out, k);
    fputc(':', out);
    json_number(out, v);
}

static void json_run(FILE *out, const struct csv_table *t) {
    fputc('{', out);
    jkv(out, "file", t->name);
    fputc(',', out);
    jkv(out, "run_id", t->run[0].run_id);
    fputc(',', out);
    jkv(out, "host", t->run[0].host);
    fputc(',', out);
    jkv(out, "utc", t->run[0].utc);
    fputc('}', out);
}

static void print_json(const struct cmp_input *in, const struct cmp_opts *o, const struct rr *x,
                       size_t nx, const struct diff *d, int nd, int nreg, FILE *out) {
    json_document_begin(out, "compare");
    fputs(", \"mode\":\"regression\",\"base\":", out);
    json_run(out, &in->runs[0]);
    fputs(",\"new\":", out);
    json_run(out, &in->runs[1]);
    fputs(",\"threshold\":", out);
    json_number(out, o->threshold);
    fputs(",\"alpha\":", out);
    json_number(out, o->alpha);
    fputs(",\n\"differs\":[", out);
    for (int i = 0; i < nd; i++) {
        fputs(i ? ",{" : "{", out);
        jkv(out, "device", d[i].device);
        fputc(',', out);
        jkv(out, "field", d[i].field);
        fputc(',', out);
        jkv(out, "base", d[i].was);
        fputc(',', out);
        jkv(out, "new", d[i].now);
        fputc('}', out);
    }
    fputs("],\n\"rows\":[", out);
    for (size_t i = 0; i < nx; i++) {
        const struct rr *r = &x[i];
        const struct run_row *k = r->b ? r->b : r->n;
        fputs(i ? ",\n{" : "\n{", out);
        jkv(out, "device", k->device);
        fputc(',', out);
        jkv(out, "workload", k->workload);
        fputc(',', out);
        jkv(out, "impl", k->impl);
        fputc(',', out);
        jkv(out, "shape", k->shape);
        fputc(',', out);
        jkv(out, "dtype", k->dtype);
        fputc(',', out);
        jkv(out, "base_status", r->b ? status_name(r->b->status) : NULL);
        fputc(',', out);
        jkv(out, "new_status", r->n ? status_name(r->n->status) : NULL);
        fputc(',', out);
        jkn(out, "base_ms", r->b ? r->b->median_ms : NAN);
        fputc(',', out);
        jkn(out, "new_ms", r->n ? r->n->median_ms : NAN);
        fputc(',', out);
        jkn(out, "change", r->change);
        fputc(',', out);
        jkn(out, "ratio_ci_lo", r->lo);
        fputc(',', out);
        jkn(out, "ratio_ci_hi", r->hi);
        fputc(',', out);
        jkn(out, "p", r->p);
        fputc(',', out);
        jkn(out, "base_samples", (double)r->nb);
        fputc(',', out);
        jkn(out, "new_samples", (double)r->nn);
        fputc(',', out);
        jkv(out, "test", r->test);
        fputc(',', out);
        jkv(out, "verdict", r->verdict);
        fprintf(out, ",\"regression\":%s,", r->regression ? "true" : "false");
        jkv(out, "cycles", r->cycles[0] ? r->cycles : NULL);
        fputc('}', out);
    }
    fprintf(out, "],\n\"regressions\":%d}\n", nreg);
}

int cmp_regress(const struct cmp_input *in, const struct cmp_opts *o, FILE *out, char *err,
                size_t errlen) {
    const struct csv_table *bt = &in->runs[0], *nt = &in->runs[1];
    if (one_run(bt, err, errlen) || one_run(nt, err, errlen))
        return 2;
    struct rr *x = calloc(bt->nrows + nt->nrows, sizeof *x);
    unsigned char *matched = calloc(nt->nrows + 1, 1);
    enum { MAXD = 64 };
    struct diff d[MAXD];
    if (!x || !matched) {
        free(x);
        free(matched);
        snprintf(err, errlen, "compare: out of memory");
        return 2;
    }
    size_t nx = 0;
    for (size_t i = 0; i < bt->nrows; i++) {
        x[nx] = (struct rr){.b = &bt->run[i]};
        for (size_t j = 0; j < nt->nrows; j++)
            if (!matched[j] && same_key(&bt->run[i], &nt->run[j])) {
                x[nx].n = &nt->run[j];
                matched[j] = 1;
                break;
            }
        nx++;
    }
    for (size_t j = 0; j < nt->nrows; j++)
        if (!matched[j])
            x[nx++] = (struct rr){.n = &nt->run[j]};
    int nreg = 0;
    for (size_t i = 0; i < nx; i++) {
        judge(in, o, &x[i], o->seed + 0x9E3779B97F4A7C15ull * (i + 1));
        nreg += x[i].regression;
        if (x[i].b && x[i].n && x[i].b->status == ST_OK && x[i].n->status == ST_OK)
            cmp_cycles_differ(bt, x[i].b, nt, x[i].n, x[i].cycles, sizeof x[i].cycles);
    }
    int nd = differences(bt, nt, d, MAXD);
    if (o->format == CMP_CSV)
        print_csv(x, nx, out);
    else if (o->format == CMP_JSON)
        print_json(in, o, x, nx, d, nd, nreg, out);
    else
        print_human(in, o, x, nx, d, nd, out);
    free(x);
    free(matched);
    return nreg ? 1 : 0;
}
