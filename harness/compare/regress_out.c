/* regress_out.c — how regression mode prints: the mode and the runs of each side first, what
 * differs, how the verdicts were reached, the table of rows, the summary; or the same as CSV
 * (one record per row) or JSON. Percentages are named as such (change_pct, threshold_pct). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/compare/regress.h"
#include "harness/compare/shared.h"
#include "harness/core/device.h"
#include "harness/core/shape.h"
#include "harness/io/termcols.h"

/* --- cells ------------------------------------------------------------------------------------ */

static void fmt_pct_range(char *buf, size_t len, double lo, double hi) {
    char a[32], b[32];
    if (isnan(lo) || isnan(hi)) {
        snprintf(buf, len, "-");
        return;
    }
    fmt_change(a, sizeof a, expm1(lo));
    fmt_change(b, sizeof b, expm1(hi));
    snprintf(buf, len, "%s..%s", a, b);
}

/* "ok -> wrong" and, when only some runs failed, "in 2 of 5 runs". */
static void status_change(char *buf, size_t len, const struct rg_row *w) {
    const char *was = w->nbad[RG_BASE] ? status_name(w->bad[RG_BASE]) : "ok";
    const char *now = w->nbad[RG_NEW] ? status_name(w->bad[RG_NEW]) : "ok";
    int k = snprintf(buf, len, "%s -> %s", was, now);
    if (w->nbad[RG_NEW] && w->nbad[RG_NEW] < w->n[RG_NEW] && k > 0 && (size_t)k < len)
        snprintf(buf + k, len - (size_t)k, " in %d of %d runs", w->nbad[RG_NEW], w->n[RG_NEW]);
}

static const char *state_name(enum rg_state s) {
    switch (s) {
    case RG_VANISHED: return "VANISHED";
    case RG_ADDED: return "NEW";
    case RG_BROKEN: return "BROKEN";
    case RG_FIXED: return "FIXED";
    case RG_NOT_OK: return "NOT OK";
    case RG_UNSUPPORTED: return "UNSUPPORTED";
    case RG_NA: return "N/A";
    default: return "";
    }
}

/* The verdict word of a row (one token, as in CSV and JSON). */
static const char *verdict_word(const struct rg_row *w) {
    return w->state == RG_TIMED ? vd_name(w->vd.kind) : state_name(w->state);
}

/* Why a timed row's CPU makes it UNSURE: "the new run's CPU was shared: 41% of its time
 * waiting" (a side of several runs: their median). */
static void cpu_shared_reason(char *buf, size_t len, const struct rg_row *w) {
    if (w->cpu_shared == (1 << RG_BASE | 1 << RG_NEW)) {
        snprintf(buf, len, "both sides' CPU was shared: %.0f%% and %.0f%% of their time waiting",
                 w->cpu_wait[RG_BASE], w->cpu_wait[RG_NEW]);
        return;
    }
    int side = w->cpu_shared & 1 << RG_NEW ? RG_NEW : RG_BASE;
    const char *name = side == RG_NEW ? "new" : "base";
    if (w->n[side] == 1)
        snprintf(buf, len, "the %s run's CPU was shared: %.0f%% of its time waiting", name,
                 w->cpu_wait[side]);
    else
        snprintf(buf, len, "the %s runs' CPU was shared: %.0f%% of their time waiting (median)",
                 name, w->cpu_wait[side]);
}

/* "5 runs/side", ">1000 runs/side". */
static void runs_phrase(char *buf, size_t len, int runs) {
    if (runs > 1000)
        snprintf(buf, len, ">1000 runs/side");
    else
        snprintf(buf, len, "%d runs/side", runs);
}

/* The verdict cell of the table: the word and what it rests on. */
static void verdict_cell(char *buf, size_t len, const struct rg_row *w) {
    char sc[96], runs[32];
    if (w->state == RG_BROKEN && w->cause[0]) { /* ok before: the cause, as the new run said it */
        char some[48] = "";
        if (w->nbad[RG_NEW] < w->n[RG_NEW])
            snprintf(some, sizeof some, "; in %d of %d new runs", w->nbad[RG_NEW], w->n[RG_NEW]);
        snprintf(buf, len, "BROKEN: %s (ok in the base runs%s)", w->cause, some);
    } else if (w->state == RG_BROKEN || w->state == RG_FIXED || w->state == RG_NOT_OK) {
        status_change(sc, sizeof sc, w);
        snprintf(buf, len, "%s: %s", state_name(w->state), sc);
    } else if (w->state == RG_UNSUPPORTED) {
        snprintf(buf, len, w->n[RG_NEW] ? "unsupported, as before"
                                        : "unsupported before, not run now");
    } else if (w->state != RG_TIMED || w->vd.kind != VD_UNSURE) {
        snprintf(buf, len, "%s", verdict_word(w));
    } else if (w->cpu_shared) {
        char why[160];
        cpu_shared_reason(why, sizeof why, w);
        snprintf(buf, len, "UNSURE: %s", why);
    } else if (w->vd.runs_needed < 0) {
        snprintf(buf, len, "UNSURE: noise unknown");
    } else if (isnan(w->vd.se)) { /* one run a side */
        runs_phrase(runs, sizeof runs, w->vd.runs_needed);
        snprintf(buf, len, "UNSURE: %sone run a side; %s would decide",
                 w->vd.looks > 0   ? "looks slower, "
                 : w->vd.looks < 0 ? "looks faster, "
                                   : "",
                 runs);
    } else {
        runs_phrase(runs, sizeof runs, w->vd.runs_needed);
        snprintf(buf, len, "UNSURE: %s%s",
                 w->vd.perm_disagrees ? "permutation test disagrees; " : "", runs);
    }
}

/* A side's time of a row: the geometric mean of its runs' medians, or its status. */
static void ms_cell(struct cmp_grid *g, int row, int c, const struct rg_row *w, int side) {
    char a[32];
    if (isfinite(w->ms[side])) {
        fmt_ms(a, sizeof a, w->ms[side]);
        grid_set(g, row, c, "%s", a);
    } else if (w->n[side] && w->nbad[side]) {
        grid_set(g, row, c, "%s", status_name(w->bad[side]));
    } else if (w->n[side] && w->side[side][0]->status == ST_OK) {
        fmt_ms(a, sizeof a, w->side[side][0]->median_ms);
        grid_set(g, row, c, "%s", a);
    }
}

static void grid_rg(struct cmp_grid *g, int row, const struct rg_row *w) {
    const struct run_row *k = w->key;
    char a[512];
    shape_compact(k->shape, a, sizeof a);
    grid_set(g, row, 0, "%s", k->device);
    grid_set(g, row, 1, "%s", k->workload);
    grid_set(g, row, 2, "%s", k->impl);
    if (strcmp(k->dtype, "float32"))
        grid_set(g, row, 3, "%s (%s)", a, k->dtype);
    else
        grid_set(g, row, 3, "%s", a);
    grid_set(g, row, 4, "%d/%d", w->n[RG_BASE], w->n[RG_NEW]);
    ms_cell(g, row, 5, w, RG_BASE);
    ms_cell(g, row, 6, w, RG_NEW);
    if (w->state == RG_TIMED) {
        fmt_change(a, sizeof a, expm1(w->vd.d));
        grid_set(g, row, 7, "%s", a);
        fmt_pct_range(a, sizeof a, w->vd.lo, w->vd.hi);
        grid_set(g, row, 8, "%s", a);
        fmt_change(a, sizeof a, expm1(w->vd.mdc));
        grid_set(g, row, 9, "%s", a);
    }
    verdict_cell(a, sizeof a, w);
    grid_set(g, row, 10, "%s", a);
}

/* --- the human report ------------------------------------------------------------------------- */

/* "5 runs of before.csv (host vm, FIRST .. LAST)"; one run also names its id. */
static void print_side(const struct rg_report *r, int side, const char *li, FILE *out) {
    const struct rg_side *s = &r->s[side];
    const char *lo = s->runs[0].first->utc, *hi = lo;
    for (int i = 1; i < s->nruns; i++) {
        const char *u = s->runs[i].first->utc;
        lo = strcmp(u, lo) < 0 ? u : lo;
        hi = strcmp(u, hi) > 0 ? u : hi;
    }
    fprintf(out, "%s%s %d run%s of ", li, side ? "new: " : "base:", s->nruns,
            s->nruns == 1 ? "" : "s");
    for (int f = 0; f < s->nfiles && f < 3; f++)
        fprintf(out, "%s%s", f ? ", " : "", r->in->runs[s->file0 + f].name);
    if (s->nfiles > 3)
        fprintf(out, ", ... (%d files)", s->nfiles);
    if (s->nruns == 1)
        fprintf(out, " (run %s, host %s, %s)\n", s->runs[0].first->run_id, s->runs[0].first->host,
                lo);
    else
        fprintf(out, " (host %s, %s .. %s)\n", s->runs[0].first->host, lo, hi);
}

/* Are a row's times CPU emulation: is any of its runs, on either side, of a simulated device
 * (gpubench-sim)? The text form says so once for the report, CSV and JSON on each row. */
static int row_emulated(const struct rg_row *w) {
    for (int side = 0; side < RG_SIDES; side++)
        for (int i = 0; i < w->n[side]; i++)
            if (device_is_simulated(w->side[side][i]->device_name))
                return 1;
    return 0;
}

static int any_emulated(const struct rg_report *r) {
    for (size_t i = 0; i < r->nrows; i++)
        if (row_emulated(&r->rows[i]))
            return 1;
    return 0;
}

/* The mode and why, the sides, and what differs; `li` starts each line (markdown: "- "). */
static void print_head(const struct rg_report *r, int md, FILE *out) {
    const char *li = md ? "- " : "";
    fprintf(out, "%sgpubench compare: regression check (%s)\n\n", md ? "## " : "",
            r->o->sides_given ? "--base and --new"
                              : "two files: the first is the base, the second the new side");
    print_side(r, RG_BASE, li, out);
    print_side(r, RG_NEW, li, out);
    if (r->nd == 0)
        fprintf(out,
                "%sdiffers: nothing recorded (same host, devices, driver, runtime and "
                "libraries)\n",
                li);
    for (int i = 0; i < r->nd; i++)
        fprintf(out, "%sdiffers: %s%s%s: %s -> %s\n", li, r->d[i].device,
                r->d[i].device[0] ? " " : "", rg_field_title(r->d[i].field),
                r->d[i].was[0] ? r->d[i].was : "(empty)", r->d[i].now[0] ? r->d[i].now : "(empty)");
    if (r->hw_unknown) /* files written before the hardware column, or with it empty */
        fprintf(out,
                "%smachine identity not recorded: cannot check (a side's rows have no hardware "
                "column; the CPU's thread count stands in)\n",
                li);
    if (r->o->common && r->left_out)
        fprintf(out, "%s--common: %d row%s of one side only left out (not run on the other)\n",
                li, r->left_out, r->left_out == 1 ? "" : "s");
    if (any_emulated(r)) /* said once, as the slowdown report says it (issue 38 item 3) */
        fprintf(out,
                "%sthe simulated devices' times are CPU emulation (gpubench-sim), not "
                "measurements of the cards: a verdict on their rows is about the emulation\n",
                li);
    for (int side = 0; side < RG_SIDES; side++)
        for (int i = 0; i < r->s[side].nruns; i++)
            if (r->s[side].runs[i].shared > 0)
                cmp_shared_line(r->in, r->s[side].runs[i].file, r->s[side].runs[i].first->run_id,
                                NULL, li, side ? "new" : "base", out);
}

/* How the verdicts were reached: only the parts some row used. */
static void print_method(const struct rg_report *r, int md, FILE *out) {
    const char *li = md ? "- " : "", *sub = md ? "  - " : "  ", *cont = "    ";
    const struct cmp_opts *o = r->o;
    fprintf(out,
            "%sverdict: one median per run and row (runs are the evidence, not repetitions); "
            "margin %g%% (--threshold)\n",
            li, 100 * o->threshold);
    if (r->tested) {
        fprintf(out,
                "%s%d row%s with 2 or more runs on a side: Welch's t-test on the log medians, a "
                "permutation test\n",
                sub, r->tested, r->tested == 1 ? "" : "s");
        fprintf(out,
                "%sas a cross-check, Benjamini-Hochberg across them (false discovery rate %g%%); "
                "CI = %.4g%% interval\n",
                cont, 100 * o->alpha, 100 * r->level);
        fprintf(out,
                "%sof the change (the level that rate implies); SLOWER/FASTER: the CI lies "
                "beyond the margin,\n",
                cont);
        fprintf(out,
                "%sSAME: within it, UNSURE: neither (runs per side that would settle it if "
                "the change stays);\n",
                cont);
        fprintf(out, "%sMDC = the smallest slowdown these runs can call SLOWER\n", cont);
    }
    if (r->single) {
        fprintf(out,
                "%s%d row%s with one run per side: run-to-run noise is unknown (a busy machine "
                "alone can slow\n",
                sub, r->single, r->single == 1 ? "" : "s");
        /* the floor is a factor, as every change here is a ratio: +25% one way, -20% the
         * other (verdict.c, decide_single) */
        fprintf(out,
                "%sone run many times over), so UNSURE; beyond %+.3g%% or %+.3g%% it \"looks\" "
                "slower or faster\n",
                cont, 100 * o->single_floor, 100 * (1 / (1 + o->single_floor) - 1));
        fprintf(out,
                "%s(--single-run-floor); run both sides with --runs %d or more for a verdict\n",
                cont, vd_runs_for_test(o->alpha));
    }
    if (r->cpu_shared)
        fprintf(out,
                "%s%d row%s timed on a shared CPU (a side's cpu_wait_pct above %.0f%%: its "
                "threads waited for\n%sa core that long): UNSURE, whatever the times\n",
                sub, r->cpu_shared, r->cpu_shared == 1 ? "" : "s", CPU_WAIT_SHARED_PCT, cont);
    fputc('\n', out);
}

/* The table; returns 0, or -1 (nothing printed) when it cannot be allocated. Where the width is
 * known (> 0: term_width) and the table is wider, the columns MDC, CI and runs are left out in
 * that order until it fits, and named under it. */
static int print_rows(const struct rg_report *r, int md, FILE *out, int width) {
    static const char *const heads[] = {"device", "workload", "impl", "shape", "runs",   "base ms",
                                        "new ms", "change",   "CI",   "MDC",   "verdict"};
    enum { NCOL = 11 };
    static const int optional[] = {9, 8, 4}; /* MDC, CI, runs */
    struct cmp_grid g, fit;
    int keep[NCOL], left = 0;
    if (grid_init(&g, NCOL))
        return -1;
    for (int c = 0; c < NCOL; c++) {
        grid_head(&g, c, heads[c], c >= 4 && c < NCOL - 1);
        keep[c] = 1;
    }
    for (size_t i = 0; i < r->nrows; i++) {
        int row = grid_row(&g, 0);
        if (row < 0)
            break;
        grid_rg(&g, row, &r->rows[i]);
    }
    const struct cmp_grid *show = &g;
    for (int i = 0; width > 0 && i < 3 && grid_width(show) > width; i++) {
        if (show == &fit)
            grid_free(&fit);
        keep[optional[i]] = 0;
        left = i + 1;
        if (grid_keep(&g, keep, &fit)) {
            grid_free(&fit);
            show = &g; /* no memory to fit it: the wide table */
            left = 0;
            break;
        }
        show = &fit;
    }
    grid_print(show, md, out);
    if (left) {
        fprintf(out, "left out to fit %d columns:", width);
        for (int i = 0; i < left; i++)
            fprintf(out, "%s %s", i ? "," : "", heads[optional[i]]);
        fprintf(out, " (--format csv or json has every column)\n");
    }
    if (show == &fit)
        grid_free(&fit);
    grid_free(&g);
    return 0;
}

/* The cycle-space check's findings (cycles.h), one line per timed row whose sides' clocks or
 * throttling differ. */
static void print_cycles(const struct rg_report *r, int md, FILE *out) {
    int shown = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct rg_row *w = &r->rows[i];
        if (!w->cycles[0])
            continue;
        if (!shown++)
            fprintf(out, "\ncycle-space: these rows ran at other clocks or throttled otherwise, "
                         "so a change may be the card's state (heat, power cap), not the "
                         "software:\n");
        fprintf(out, "%s%s %s/%s %s (%s): %s\n", md ? "- " : "  ", w->key->device,
                w->key->workload, w->key->impl, w->key->shape, verdict_word(w), w->cycles);
    }
}

/* The last line: the regressions by kind, or the verdicts of a clean check. */
static void print_summary(const struct rg_report *r, int md, FILE *out) {
    const char *b = md ? "**" : "";
    print_cycles(r, md, out);
    if (r->o->strict && r->shared_runs) {
        cmp_shared_refusal(r->shared_runs, md, out);
        return;
    }
    if (r->shared_runs)
        fprintf(out,
                "\n%d run%s above %s timed on a shared GPU: the verdict rests on a busy card's "
                "times (--strict refuses it)\n",
                r->shared_runs, r->shared_runs == 1 ? "" : "s",
                r->shared_runs == 1 ? "was" : "were");
    if (r->slower + r->broken + r->vanished) {
        fprintf(out, "\n%sREGRESSION: %d SLOWER, %d BROKEN (status no longer ok), %d VANISHED%s\n",
                b, r->slower, r->broken, r->vanished, b);
        if (r->slower_cycles)
            fprintf(out, "%d of the SLOWER rows ran at other clocks or throttled otherwise "
                         "(above)\n",
                    r->slower_cycles);
        return;
    }
    if (r->o->strict && r->unsure) {
        fprintf(out, "\n%sUNSURE (--strict): %d row%s not settled: run more runs per side%s%s\n",
                b, r->unsure, r->unsure == 1 ? "" : "s",
                r->cpu_shared ? " on a quiet machine (a shared CPU's rows are refused)" : "", b);
        return;
    }
    fprintf(out, "\n%sno regression%s: %d SAME, %d FASTER, %d UNSURE%s\n", b, b, r->same, r->faster,
            r->unsure, r->unsure ? " (exit 0; --strict makes UNSURE fail)" : "");
}

/* --- CSV and JSON ------------------------------------------------------------------------------
 */

static void csv_num(FILE *out, double v) {
    fputc(',', out);
    if (isfinite(v))
        fprintf(out, "%.10g", v);
}

/* A timed row's figures as percentages (NaN where they do not apply). */
struct pct {
    double change, lo, hi, level, mdc, p, p_perm;
    int needed; /* -1: not applicable or unknown */
};

static struct pct row_pct(const struct rg_row *w) {
    struct pct x = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, -1};
    if (w->state != RG_TIMED)
        return x;
    x.change = 100 * expm1(w->vd.d);
    x.lo = 100 * expm1(w->vd.lo);
    x.hi = 100 * expm1(w->vd.hi);
    x.level = 100 * w->vd.level;
    x.mdc = 100 * expm1(w->vd.mdc);
    x.p = w->vd.p;
    x.p_perm = w->vd.p_perm;
    x.needed = w->vd.kind == VD_UNSURE ? w->vd.runs_needed : -1;
    return x;
}

static void print_csv(const struct rg_report *r, FILE *out) {
    fputs("device,workload,impl,shape,dtype,base_status,new_status,base_runs,new_runs,base_ms,"
          "new_ms,change_pct,ci_lo_pct,ci_hi_pct,ci_level_pct,mdc_pct,p,p_perm,test,verdict,"
          "runs_needed,regression,cycles,emulated,cpu_wait_base_pct,cpu_wait_new_pct,cause\n",
          out);
    for (size_t i = 0; i < r->nrows; i++) {
        const struct rg_row *w = &r->rows[i];
        const struct run_row *k = w->key;
        const char *f[] = {k->device, k->workload, k->impl, k->shape, k->dtype};
        for (int j = 0; j < 5; j++) {
            csv_field(out, f[j]);
            fputc(',', out);
        }
        for (int side = 0; side < RG_SIDES; side++)
            fprintf(out, "%s,",
                    !w->n[side]     ? ""
                    : w->nbad[side] ? status_name(w->bad[side])
                                    : "ok");
        fprintf(out, "%d,%d", w->n[RG_BASE], w->n[RG_NEW]);
        struct pct x = row_pct(w);
        const double v[] = {w->ms[RG_BASE], w->ms[RG_NEW], x.change, x.lo,    x.hi,
                            x.level,        x.mdc,         x.p,      x.p_perm};
        for (size_t j = 0; j < sizeof v / sizeof *v; j++)
            csv_num(out, v[j]);
        fprintf(out, ",%s,%s,", w->test ? w->test : "", verdict_word(w));
        if (x.needed >= 0)
            fprintf(out, "%d", x.needed);
        fprintf(out, ",%d,", w->regression);
        csv_field(out, w->cycles);
        fprintf(out, ",%d", row_emulated(w));
        csv_num(out, w->state == RG_TIMED ? w->cpu_wait[RG_BASE] : NAN);
        csv_num(out, w->state == RG_TIMED ? w->cpu_wait[RG_NEW] : NAN);
        fputc(',', out);
        csv_field(out, w->cause);
        fputc('\n', out);
    }
}

static void json_side(FILE *out, const struct rg_report *r, int side) {
    const struct rg_side *s = &r->s[side];
    fputs("{\"files\":[", out);
    for (int f = 0; f < s->nfiles; f++) {
        fputs(f ? "," : "", out);
        json_string(out, r->in->runs[s->file0 + f].name);
    }
    fputs("],\"runs\":[", out);
    for (int i = 0; i < s->nruns; i++) {
        const struct run_row *x = s->runs[i].first;
        fputs(i ? ",{" : "{", out);
        json_member_string(out, "", "run_id", x->run_id);
        json_member_string(out, ",", "file", r->in->runs[s->runs[i].file].name);
        json_member_string(out, ",", "host", x->host);
        json_member_string(out, ",", "utc", x->utc);
        if (s->runs[i].shared < 0) /* no row says yes or no: unknown */
            fputs(",\"shared_gpu\": null", out);
        else
            fprintf(out, ",\"shared_gpu\": %s", s->runs[i].shared > 0 ? "true" : "false");
        fputc('}', out);
    }
    fputs("]}", out);
}

static void json_row(FILE *out, const struct rg_row *w) {
    const struct run_row *k = w->key;
    struct pct x = row_pct(w);
    json_member_string(out, "", "device", k->device);
    json_member_string(out, ",", "workload", k->workload);
    json_member_string(out, ",", "impl", k->impl);
    json_member_string(out, ",", "shape", k->shape);
    json_member_string(out, ",", "dtype", k->dtype);
    for (int side = 0; side < RG_SIDES; side++)
        json_member_string(out, ",", side ? "new_status" : "base_status",
                           !w->n[side]     ? NULL
                           : w->nbad[side] ? status_name(w->bad[side])
                                           : "ok");
    json_member_number(out, ",", "base_runs", w->n[RG_BASE]);
    json_member_number(out, ",", "new_runs", w->n[RG_NEW]);
    json_member_number(out, ",", "base_ms", w->ms[RG_BASE]);
    json_member_number(out, ",", "new_ms", w->ms[RG_NEW]);
    json_member_number(out, ",", "change_pct", x.change);
    json_member_number(out, ",", "ci_lo_pct", x.lo);
    json_member_number(out, ",", "ci_hi_pct", x.hi);
    json_member_number(out, ",", "ci_level_pct", x.level);
    json_member_number(out, ",", "mdc_pct", x.mdc);
    json_member_number(out, ",", "p", x.p);
    json_member_number(out, ",", "p_perm", x.p_perm);
    json_member_string(out, ",", "test", w->test);
    json_member_string(out, ",", "verdict", verdict_word(w));
    json_member_number(out, ",", "runs_needed", x.needed >= 0 ? x.needed : NAN);
    fprintf(out, ",\"regression\": %s", w->regression ? "true" : "false");
    json_member_string(out, ",", "cycles", w->cycles[0] ? w->cycles : NULL);
    fprintf(out, ",\"simulated\": %s", row_emulated(w) ? "true" : "false");
    json_member_number(out, ",", "cpu_wait_base_pct",
                       w->state == RG_TIMED ? w->cpu_wait[RG_BASE] : NAN);
    json_member_number(out, ",", "cpu_wait_new_pct",
                       w->state == RG_TIMED ? w->cpu_wait[RG_NEW] : NAN);
    json_member_string(out, ",", "cause", w->cause[0] ? w->cause : NULL);
}

static void print_json(const struct rg_report *r, FILE *out) {
    const struct cmp_opts *o = r->o;
    json_document_begin(out, "compare");
    fputs(", \"mode\":\"regression\",\"base\":", out);
    json_side(out, r, RG_BASE);
    fputs(",\"new\":", out);
    json_side(out, r, RG_NEW);
    json_member_number(out, ",", "threshold_pct", 100 * o->threshold);
    json_member_number(out, ",", "alpha", o->alpha);
    json_member_number(out, ",", "single_run_floor_pct", 100 * o->single_floor);
    fprintf(out, ",\"strict\": %s", o->strict ? "true" : "false");
    json_member_number(out, ",", "tested_rows", r->tested);
    json_member_number(out, ",", "ci_level_pct", 100 * r->level);
    fputs(",\n\"differs\":[", out);
    for (int i = 0; i < r->nd; i++) {
        fputs(i ? ",{" : "{", out);
        json_member_string(out, "", "device", r->d[i].device);
        json_member_string(out, ",", "field", r->d[i].field);
        json_member_string(out, ",", "base", r->d[i].was);
        json_member_string(out, ",", "new", r->d[i].now);
        fputc('}', out);
    }
    fputs("],\n\"rows\":[", out);
    for (size_t i = 0; i < r->nrows; i++) {
        fputs(i ? ",\n{" : "\n{", out);
        json_row(out, &r->rows[i]);
        fputc('}', out);
    }
    fprintf(out,
            "],\n\"regressions\": %d,\"unsure\": %d,\"shared_runs\": %d,\"cpu_shared_rows\": %d,"
            "\"left_out\": %d,\"exit\": %d}\n",
            r->slower + r->broken + r->vanished, r->unsure, r->shared_runs, r->cpu_shared,
            r->left_out, rg_exit_code(r));
}

/* The human report; where the width of `out` is known, its lines fit it (the table by leaving
 * columns out, print_rows; every other long line wrapped under its value, term_fit). */
static void print_text(const struct rg_report *r, int md, FILE *out) {
    int width = md ? 0 : term_width(out);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = width > 0 ? open_memstream(&buf, &len) : NULL;
    FILE *to = m ? m : out;
    print_head(r, md, to);
    print_method(r, md, to);
    if (print_rows(r, md, to, width) == 0)
        print_summary(r, md, to);
    if (m) {
        fclose(m);
        term_fit(out, buf, len, width);
        free(buf);
    }
}

void rg_print(const struct rg_report *r, FILE *out) {
    int md = r->o->format == CMP_MARKDOWN;
    if (r->o->format == CMP_CSV) {
        print_csv(r, out);
    } else if (r->o->format == CMP_JSON) {
        print_json(r, out);
    } else {
        print_text(r, md, out);
    }
}
