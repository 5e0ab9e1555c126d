/* test_compare.c — `gpubench compare` end to end through compare_run: regression verdicts on
 * synthetic samples (a known shift, pure noise, a shift below the threshold, status changes),
 * slowdown ratios on hand-made CSVs where they are exact, joins across files in different row
 * orders, and every kind of bad input (exit 2, one line, nothing on stdout). compare knows no
 * workload and neither does this test: synthetic rows are of a workload `wl`, and the hand-made
 * files' rows are found by implementation and shape, their workload read from the files.
 * usage: test_compare DATA_DIR (tests/data/compare) */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/compare/compare.h"
#include "harness/compare/rankstats.h"
#include "harness/core/stats.h"
#include "harness/io/csv_read.h"
#include "tests/testhelp.h"

static const char *data_dir;
static char tmp_dir[] = "/tmp/gpubench-compare-XXXXXX";

/* Paths: a ring of buffers, so a call can name several files. */
static const char *in_dir(const char *dir, const char *name) {
    static char ring[32][1024];
    static int next;
    char *p = ring[next++ % 32];
    snprintf(p, 1024, "%s/%s", dir, name);
    return p;
}
#define D(name) in_dir(data_dir, name)
#define T(name) in_dir(tmp_dir, name)

static char *slurp(FILE *f) {
    long n = ftell(f);
    char *s = malloc((size_t)n + 1);
    rewind(f);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

struct result {
    int rc;
    char *out, *err;
};

/* Run `gpubench compare ARGS...` (NULL-terminated); free with result_free. */
static struct result cmp_v(const char *const *args) {
    char *argv[64];
    int argc = 0;
    argv[argc++] = "compare";
    for (; args[argc - 1] && argc < 63; argc++)
        argv[argc] = (char *)args[argc - 1];
    argv[argc] = NULL;
    FILE *out = tmpfile(), *err = tmpfile();
    struct result r;
    r.rc = compare_run(argc, argv, out, err);
    fflush(out);
    fflush(err);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}
#define CMP(...) cmp_v((const char *const[]){__VA_ARGS__, NULL})

static void result_free(struct result *r) {
    free(r->out);
    free(r->err);
}

/* --- the CSV that `--format csv` prints, parsed for lookups ------------------------------ */

struct tab {
    int nrows, ncols;
    struct csv_table t; /* not used: the output is not a gpubench-1 file */
    char *store;
    char **cell; /* (nrows + 1) × ncols, row 0 the header */
};

static int tab_parse(const char *text, struct tab *t) {
    memset(t, 0, sizeof *t);
    size_t len = strlen(text);
    t->store = malloc(len + 1);
    t->cell = malloc(sizeof(char *) * (len + 2));
    char *o = t->store;
    size_t ncell = 0;
    int cols_in_row = 0;
    for (size_t i = 0; i < len;) {
        t->cell[ncell++] = o;
        if (text[i] == '"') {
            for (i++; i < len; i++) {
                if (text[i] == '"' && text[i + 1] == '"') {
                    *o++ = '"';
                    i++;
                } else if (text[i] == '"') {
                    i++;
                    break;
                } else {
                    *o++ = text[i];
                }
            }
        } else {
            while (i < len && text[i] != ',' && text[i] != '\n')
                *o++ = text[i++];
        }
        *o++ = '\0';
        cols_in_row++;
        if (i < len && text[i] == ',') {
            i++;
            continue;
        }
        i++; /* the line end */
        if (t->nrows == 0 && t->ncols == 0)
            t->ncols = cols_in_row;
        if (cols_in_row != t->ncols)
            return -1;
        cols_in_row = 0;
        t->nrows++;
    }
    t->nrows--; /* the header */
    return 0;
}

static int tab_col(const struct tab *t, const char *name) {
    for (int c = 0; c < t->ncols; c++)
        if (!strcmp(t->cell[c], name))
            return c;
    return -1;
}

static const char *tab_get(const struct tab *t, int row, const char *col) {
    int c = tab_col(t, col);
    return (row < 0 || c < 0) ? "" : t->cell[(size_t)(row + 1) * (size_t)t->ncols + (size_t)c];
}

/* The first row where every (column, value) pair of kv (NULL-terminated) matches, or -1. */
static int tab_find_v(const struct tab *t, const char *const *kv) {
    for (int r = 0; r < t->nrows; r++) {
        int ok = 1;
        for (int k = 0; kv[k] && ok; k += 2)
            ok = !strcmp(tab_get(t, r, kv[k]), kv[k + 1]);
        if (ok)
            return r;
    }
    return -1;
}
#define FIND(t, ...) tab_find_v(t, (const char *const[]){__VA_ARGS__, NULL})

static double tab_num(const struct tab *t, int row, const char *col) {
    const char *s = tab_get(t, row, col);
    return s[0] ? atof(s) : NAN;
}

static void tab_free(struct tab *t) {
    free(t->store);
    free(t->cell);
}

/* --- the hand-made files ---------------------------------------------------------------- */

/* Shapes of tests/data/compare's rows (make_data.py); with an implementation each names one row
 * per device and file. */
#define MNK256 "m=256;n=256;k=256"
#define MNK512 "m=512;n=512;k=512"
#define CONV "n=1;c=3;h=32;w=32;k=8;r=3;s=3;stride_h=1;stride_w=1;pad_h=1;pad_w=1"

/* Parse DATA_DIR/name (not through D(): callers may hold the ring's paths). */
static int tab_read(const char *name, struct tab *t) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        if (f)
            fclose(f);
        memset(t, 0, sizeof *t);
        return -1;
    }
    char *text = slurp(f);
    int rc = tab_parse(text, t);
    free(text);
    return rc;
}

/* The workload of the hand-made rows with implementation `impl` and shape `shape` (the same in
 * every file that has such a row), or "" when no file has one. */
static const char *workload_of(const char *impl, const char *shape) {
    static const char *const files[] = {"sd_a.csv", "sd_b.csv", "reg_base.csv", "reg_new.csv"};
    static char ring[8][64];
    static int next;
    char *w = ring[next++ % 8];
    w[0] = '\0';
    for (size_t i = 0; i < sizeof files / sizeof *files && !w[0]; i++) {
        struct tab t;
        if (tab_read(files[i], &t) == 0)
            snprintf(w, 64, "%s", tab_get(&t, FIND(&t, "impl", impl, "shape", shape), "workload"));
        tab_free(&t);
    }
    return w;
}

/* Every row of compare's CSV output (of `kind`, or all when NULL) carries the workload of its
 * input rows: compare passes the workload through untouched. */
static void check_workloads(const struct tab *t, const char *kind) {
    int n = 0;
    for (int r = 0; r < t->nrows; r++) {
        if (kind && strcmp(tab_get(t, r, "kind"), kind) != 0)
            continue;
        const char *got = tab_get(t, r, "workload");
        const char *want = workload_of(tab_get(t, r, "impl"), tab_get(t, r, "shape"));
        CHECK_MSG(want[0] && !strcmp(got, want), "%s %s: workload '%s', the files say '%s'",
                  tab_get(t, r, "impl"), tab_get(t, r, "shape"), got, want);
        n++;
    }
    CHECK_MSG(n > 0, "no %s rows", kind ? kind : "output");
}

/* --- synthetic runs ---------------------------------------------------------------------- */

static double normal(uint64_t *s) {
    double u1 = rank_rng_uniform(s), u2 = rank_rng_uniform(s);
    return sqrt(-2 * log(1 - u1)) * cos(6.283185307179586 * u2);
}

static const char *HEADER =
    "schema,run_id,utc,host,device,device_name,cc,driver,runtime,blas_lib,dnn_lib,threads,"
    "workload,impl,dtype,shape,flops,bytes,reps,median_ms,min_ms,mean_ms,stddev_ms,ci95_lo_ms,"
    "ci95_hi_ms,e2e_median_ms,gflops,gbps,peak_pct,max_rel_err,status,note,run";

/* Synthetic runs: how the truth and the noise are drawn. */
struct synth {
    double shift;         /* the new side's true change (0.10: 10% slower) */
    double between;       /* run-to-run noise (sd of a run's log level) */
    double within;        /* repetition noise inside a run (sd of log) */
    int runs, reps;       /* runs per side, repetitions per run */
    const char *host_new; /* the new side's host ("h" like the base when NULL) */
    double wait_new;      /* nonzero: a cpu_wait_pct column, this on the new side's rows and 2
                             (a quiet CPU) on the base side's */
};

/* A run CSV `tag`.csv of sy->runs runs (run ids TAG-K), one row each (cuda:0, workload wl,
 * `impl`): every run at 10 ms × (1 + shift) × its own level, its reps repetitions around that
 * level, summarized as gpubench would; with `status` other than ok, the last run's row fails.
 * Its samples go to `tag`.samples.csv. */
static void write_runs(const char *tag, const char *impl, const struct synth *sy, double shift,
                       const char *host, const char *status, uint64_t *s) {
    char name[64];
    snprintf(name, sizeof name, "%s.csv", tag);
    FILE *f = fopen(T(name), "w");
    snprintf(name, sizeof name, "%s.samples.csv", tag);
    FILE *g = fopen(T(name), "w");
    int wait = sy->wait_new != 0;
    fprintf(f, "%s%s\n", HEADER, wait ? ",cpu_wait_pct" : "");
    fprintf(g, "run_id,device,workload,impl,shape,rep,ms\n");
    double x[4096];
    for (int k = 0; k < sy->runs; k++) {
        double level = log(10 * (1 + shift)) + sy->between * normal(s);
        for (int i = 0; i < sy->reps; i++)
            x[i] = exp(level + sy->within * normal(s));
        struct stats st;
        stats_compute(x, (size_t)sy->reps, &st);
        const char *pre = "gpubench-1,%s-%d,2025-01-01T00:00:0%dZ,%s,cuda:0,GPU,3.5,1,12,cuBLAS,,,"
                          "wl,%s,float32,m=64;n=64;k=64,524288,49152,";
        fprintf(f, pre, tag, k, k % 10, host, impl);
        if (strcmp(status, "ok") && k == sy->runs - 1) {
            fprintf(f, "0,,,,,,,,,,,inf,%s,\"c[3]=nan, want 1; second clause\",%d%s\n", status, k,
                    wait ? "," : "");
            continue;
        }
        fprintf(f, "%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,,,,1e-06,ok,,%d", sy->reps, st.median,
                st.min, st.mean, st.stddev, st.ci_lo, st.ci_hi, 2 * st.median, k);
        if (wait)
            fprintf(f, ",%g", strcmp(tag, "new") ? 2 : sy->wait_new);
        fputc('\n', f);
        for (int i = 0; i < sy->reps; i++)
            fprintf(g, "%s-%d,cuda:0,wl,%s,m=64;n=64;k=64,%d,%.9g\n", tag, k, impl, i, x[i]);
    }
    fclose(f);
    fclose(g);
}

struct verdict {
    int rc;
    char verdict[32], test[32];
    double change, lo, hi, mdc;
    int needed;
};

/* One seeded trial: base and new files of sy->runs runs each, compared (extra arguments after
 * the files, e.g. "--strict"), the one row's verdict parsed from --format csv. */
static struct verdict trial(const struct synth *sy, uint64_t seed, const char *extra) {
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    write_runs("base", "cublas", sy, 0, "h", "ok", &s);
    write_runs("new", "cublas", sy, sy->shift, sy->host_new ? sy->host_new : "h", "ok", &s);
    struct result r = extra ? CMP(T("base.csv"), T("new.csv"), "--format", "csv", extra)
                            : CMP(T("base.csv"), T("new.csv"), "--format", "csv");
    struct verdict v = {.rc = r.rc, .needed = -1};
    struct tab t;
    if (tab_parse(r.out, &t) == 0 && t.nrows == 1) {
        snprintf(v.verdict, sizeof v.verdict, "%s", tab_get(&t, 0, "verdict"));
        snprintf(v.test, sizeof v.test, "%s", tab_get(&t, 0, "test"));
        v.change = tab_num(&t, 0, "change_pct");
        v.lo = tab_num(&t, 0, "ci_lo_pct");
        v.hi = tab_num(&t, 0, "ci_hi_pct");
        v.mdc = tab_num(&t, 0, "mdc_pct");
        const char *n = tab_get(&t, 0, "runs_needed");
        v.needed = n[0] ? atoi(n) : -1;
    } else if (r.rc != 2) {
        fprintf(stderr, "unexpected output:\n%s%s", r.out, r.err);
    }
    tab_free(&t);
    result_free(&r);
    return v;
}

/* A 30% slowdown with 5 runs per side and 3% noise is found every time, its CI above the
 * margin; a 30% speed-up is FASTER and exits 0. */
static void test_known_shift(void) {
    struct synth sy = {.shift = 0.30, .between = 0.03, .within = 0.03, .runs = 5, .reps = 30};
    int slower = 0, exit1 = 0, welch = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        struct verdict v = trial(&sy, seed, NULL);
        slower += !strcmp(v.verdict, "SLOWER");
        exit1 += v.rc == 1;
        welch += !strcmp(v.test, "welch-log") && v.lo > 5 && v.lo < 30 && v.hi > 30 && v.mdc > 5 &&
                 v.mdc < 30;
    }
    CHECK_MSG(slower == 20 && exit1 == 20 && welch == 20, "SLOWER %d, exit 1 %d, welch %d of 20",
              slower, exit1, welch);
    sy.shift = -0.30;
    struct verdict v = trial(&sy, 99, NULL);
    CHECK_MSG(!strcmp(v.verdict, "FASTER") && v.rc == 0, "%s rc %d", v.verdict, v.rc);
}

/* The flaw this design removes: repetitions tight inside each run (0.5%) while runs differ by
 * 10%. Testing repetitions called most of these "faster" or "slower"; runs as the evidence
 * call none of them, and say how many runs would settle it. */
static void test_pure_noise(void) {
    struct synth sy = {.between = 0.10, .within = 0.005, .runs = 5, .reps = 30};
    int alarms = 0, unsure = 0, needed = 0;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        struct verdict v = trial(&sy, seed, NULL);
        alarms += v.rc != 0 || !strcmp(v.verdict, "FASTER") || !strcmp(v.verdict, "SLOWER");
        unsure += !strcmp(v.verdict, "UNSURE");
        needed += !strcmp(v.verdict, "UNSURE") && v.needed > 5;
    }
    CHECK_MSG(alarms <= 5, "nothing changed: %d false alarms in 100", alarms);
    CHECK_MSG(unsure >= 80 && needed == unsure, "UNSURE %d (needing more runs: %d)", unsure,
              needed);
    /* --strict: an UNSURE row fails the check */
    struct verdict v = trial(&sy, 3, "--strict");
    CHECK_MSG(!strcmp(v.verdict, "UNSURE") && v.rc == 1, "%s rc %d", v.verdict, v.rc);
    struct result r = CMP(T("base.csv"), T("new.csv"), "--strict");
    CHECK(r.rc == 1 && strstr(r.out, "UNSURE (--strict): 1 row not settled"));
    result_free(&r);
    r = CMP(T("base.csv"), T("new.csv"));
    CHECK(r.rc == 0 && strstr(r.out, "no regression: 0 SAME, 0 FASTER, 1 UNSURE"));
    result_free(&r);
}

/* A real 3% change on quiet runs is SAME (within the 5% margin); with --threshold 2 it is
 * SLOWER. */
static void test_below_threshold(void) {
    struct synth sy = {.shift = 0.03, .between = 0.003, .within = 0.003, .runs = 8, .reps = 20};
    int same = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        struct verdict v = trial(&sy, seed, NULL);
        same += !strcmp(v.verdict, "SAME") && v.rc == 0 && v.lo > -5 && v.hi < 5;
    }
    CHECK_MSG(same == 10, "3%% change: SAME in %d of 10", same);
    struct verdict v = trial(&sy, 1, "--threshold=2%");
    CHECK_MSG(!strcmp(v.verdict, "SLOWER") && v.rc == 1, "%s rc %d", v.verdict, v.rc);
}

/* One run per side: run-to-run noise unknown, no CI, no decision: UNSURE and exit 0 whatever the
 * change (a busy machine fakes any), "looks slower" past the 25% floor, the runs per side that
 * would decide; --strict fails on it. */
static void test_single_run(void) {
    struct synth sy = {.shift = 0.10, .between = 0.01, .within = 0.01, .runs = 1, .reps = 30};
    struct verdict v = trial(&sy, 5, NULL);
    CHECK_MSG(!strcmp(v.verdict, "UNSURE") && !strcmp(v.test, "single-run") && v.rc == 0 &&
                  isnan(v.lo) && isnan(v.mdc) && v.needed == 5,
              "%s %s rc %d lo %g mdc %g needed %d", v.verdict, v.test, v.rc, v.lo, v.mdc,
              v.needed);
    sy.shift = 0.40;
    v = trial(&sy, 6, NULL);
    CHECK_MSG(!strcmp(v.verdict, "UNSURE") && v.rc == 0, "%s rc %d", v.verdict, v.rc);
    struct result r = CMP(T("base.csv"), T("new.csv"));
    CHECK_MSG(r.rc == 0 && strstr(r.out, "run-to-run noise is unknown") &&
                  strstr(r.out, "UNSURE: looks slower, one run a side; 5 runs/side would decide") &&
                  strstr(r.out, "beyond +25% or -20%") && strstr(r.out, "--runs 5 or more"),
              "rc %d\n%s", r.rc, r.out);
    result_free(&r);
    r = CMP(T("base.csv"), T("new.csv"), "--strict");
    CHECK_MSG(r.rc == 1 && strstr(r.out, "UNSURE (--strict)"), "rc %d\n%s", r.rc, r.out);
    result_free(&r);
    /* a lower floor is the user's call: what looks slower, never a verdict */
    sy.shift = 0.10;
    v = trial(&sy, 5, "--single-run-floor=8");
    CHECK_MSG(!strcmp(v.verdict, "UNSURE") && v.rc == 0, "%s rc %d", v.verdict, v.rc);
    r = CMP(T("base.csv"), T("new.csv"), "--single-run-floor=8");
    CHECK_MSG(strstr(r.out, "looks slower"), "%s", r.out);
    result_free(&r);
    /* the runs' own repetitions overlap (samples given): never SLOWER, whatever the change */
    sy = (struct synth){.shift = 0.40, .between = 0.01, .within = 0.8, .runs = 1, .reps = 30};
    uint64_t s = 9;
    write_runs("base", "cublas", &sy, 0, "h", "ok", &s);
    write_runs("new", "cublas", &sy, sy.shift, "h", "ok", &s);
    r = CMP(T("base.csv"), T("new.csv"), "--samples", T("base.samples.csv"), "--samples",
            T("new.samples.csv"));
    CHECK_MSG(r.rc == 0 && strstr(r.out, "UNSURE"), "rc %d\n%s", r.rc, r.out);
    result_free(&r);
}

static void test_status_changes(void) {
    struct synth sy = {.between = 0.01, .within = 0.01, .runs = 3, .reps = 20};
    static const char *const bad[] = {"wrong", "error", "timeout"};
    uint64_t s = 7;
    write_runs("base", "cublas", &sy, 0, "h", "ok", &s);
    for (int i = 0; i < 3; i++) {
        write_runs("new", "cublas", &sy, 0, "h", bad[i], &s);
        struct result r = CMP(T("base.csv"), T("new.csv"));
        char want[160];
        /* the cause from the new row's status and note (its first clause) */
        snprintf(want, sizeof want,
                 "BROKEN: %s: c[3]=nan, want 1 (ok in the base runs; in 1 of 3 new runs)", bad[i]);
        CHECK_MSG(r.rc == 1 && strstr(r.out, want) && strstr(r.out, "REGRESSION"), "rc %d\n%s%s",
                  r.rc, r.out, r.err);
        result_free(&r);
    }
    /* fixed: failing before, ok in every new run, is not a regression */
    struct result r = CMP(T("new.csv"), T("base.csv"));
    CHECK_MSG(r.rc == 0 && strstr(r.out, "FIXED: timeout -> ok"), "rc %d\n%s", r.rc, r.out);
    result_free(&r);
    /* vanished: the new runs lack the row (they measured another implementation) */
    write_runs("new", "cuda", &sy, 0, "h", "ok", &s);
    r = CMP(T("base.csv"), T("new.csv"), "--format", "json");
    CHECK_MSG(
        r.rc == 1 &&
            strstr(r.out, "\"verdict\": \"VANISHED\",\"runs_needed\": null,"
                          "\"regression\": true") &&
            strstr(r.out, "\"verdict\": \"NEW\",\"runs_needed\": null,\"regression\": false") &&
            strstr(r.out, "\"base_ms\": 10"),
        "rc %d\n%s", r.rc, r.out);
    result_free(&r);
}

/* Several files per side (--base/--new), and the refusals around them. */
static void test_sides(void) {
    struct synth sy = {.shift = 0.30, .between = 0.02, .within = 0.01, .runs = 2, .reps = 20};
    uint64_t s = 11;
    write_runs("a1", "cublas", &sy, 0, "h", "ok", &s);
    write_runs("a2", "cublas", &sy, 0, "h", "ok", &s);
    write_runs("b1", "cublas", &sy, sy.shift, "h", "ok", &s);
    write_runs("b2", "cublas", &sy, sy.shift, "h", "ok", &s);
    struct result r = CMP("--base", T("a1.csv"), T("a2.csv"), "--new", T("b1.csv"), T("b2.csv"));
    CHECK_MSG(r.rc == 1 && strstr(r.out, "regression check (--base and --new)") &&
                  strstr(r.out, "base: 4 runs of ") && strstr(r.out, " 4/4 ") &&
                  strstr(r.out, "SLOWER"),
              "rc %d\n%s%s", r.rc, r.out, r.err);
    result_free(&r);
    char base_eq[1100], new_eq[1100];
    snprintf(base_eq, sizeof base_eq, "--base=%s", T("a1.csv"));
    snprintf(new_eq, sizeof new_eq, "--new=%s", T("b1.csv"));
    r = CMP(base_eq, T("a2.csv"), new_eq);
    CHECK_MSG(r.rc == 1 && strstr(r.out, "base: 4 runs of ") && strstr(r.out, "new:  2 runs of "),
              "rc %d\n%s%s", r.rc, r.out, r.err);
    result_free(&r);
    /* after "--" the rest are files, of the side named last (scripts/plot passes "--") */
    r = CMP("--base", T("a1.csv"), "--new", "--", T("b1.csv"), T("b2.csv"));
    CHECK_MSG(r.rc == 1 && strstr(r.out, "base: 2 runs of ") && strstr(r.out, "new:  4 runs of "),
              "rc %d\n%s%s", r.rc, r.out, r.err);
    result_free(&r);
    /* the same run on both sides, or twice on one, is one piece of evidence, not two */
    r = CMP("--base", T("a1.csv"), "--new", T("b1.csv"), T("a1.csv"));
    CHECK_MSG(r.rc == 2 && strstr(r.err, "given twice"), "%s", r.err);
    result_free(&r);
    FILE *f = fopen(T("a1copy.csv"), "w"), *g = fopen(T("a1.csv"), "r");
    for (int c; (c = getc(g)) != EOF;)
        putc(c, f);
    fclose(f);
    fclose(g);
    r = CMP("--base", T("a1.csv"), "--new", T("a1copy.csv"));
    CHECK_MSG(r.rc == 2 && strstr(r.err, "column run_id: run a1-0 is also in") &&
                  strstr(r.err, "on both sides"),
              "%s", r.err);
    result_free(&r);
}

/* No silent mode switch: two files of two hosts are refused as a regression check, with what
 * differs and the two ways on; each way works. */
static void test_hosts(void) {
    struct synth sy = {.between = 0.01, .within = 0.01, .runs = 3, .reps = 10, .host_new = "h2"};
    struct verdict v = trial(&sy, 1, NULL);
    CHECK(v.rc == 2);
    struct result r = CMP(T("base.csv"), T("new.csv"));
    CHECK_MSG(r.rc == 2 && !r.out[0] && strstr(r.err, "different machines: host h vs h2") &&
                  strstr(r.err, "--baseline") && strstr(r.err, "--allow-different-hosts"),
              "%s", r.err);
    result_free(&r);
    r = CMP(T("base.csv"), T("new.csv"), "--allow-different-hosts");
    CHECK_MSG(r.rc == 0 && strstr(r.out, "differs: host: h -> h2"), "rc %d %s", r.rc, r.err);
    result_free(&r);
    r = CMP(T("base.csv"), T("new.csv"), "--baseline", "cuda:0");
    CHECK_MSG(r.rc == 0 && !strncmp(r.out, "gpubench compare: slowdown", 26), "%.80s", r.out);
    result_free(&r);
}

/* A run file `name` of one run (run id = name) on host vm: a CPU row with `threads`, and with
 * `gpu` a cuda:0 row of that card and driver; with `hw` the hardware column (the CPU row's
 * facts; the GPU row's add gpu_pci=`pci`). */
static void write_machine(const char *name, int threads, const char *gpu, const char *driver,
                          const char *hw, const char *pci) {
    FILE *f = fopen(T(name), "w");
    const char *row = "gpubench-1,%s,2025-01-01T00:00:00Z,vm,%s,%s,%s,%s,%s,%s,,%s,wl,%s,float32,"
                      "m=64;n=64;k=64,524288,49152,10,1,1,1,0.01,0.9,1.1,1,,,,1e-06,ok,,0";
    char t[16];
    snprintf(t, sizeof t, "%d", threads);
    fprintf(f, "%s%s\n", HEADER, hw ? ",hardware" : "");
    fprintf(f, row, name, "cpu", "Intel(R) Xeon(R) Processor", "", "", "", "OpenBLAS", t,
            "openblas");
    fprintf(f, hw ? ",\"%s\"\n" : "\n", hw);
    if (gpu) {
        fprintf(f, row, name, "cuda:0", gpu, "9.0", driver, "13.0", "cuBLAS", "", "cublas");
        if (hw)
            fprintf(f, ",\"%s;gpu_pci=%s;gpu_memory_mib=143771\"", hw, pci);
        fputc('\n', f);
    }
    fclose(f);
}

/* A hardware column (harness/run/hardware.h) of a 16-thread Xeon host with `cores` cores,
 * `mem_mib` of memory and NVIDIA GPUs at `gpus` (a ring of buffers: several may be live). */
static const char *hw_of(int cores, long mem_mib, const char *gpus) {
    static char ring[4][256];
    static int next;
    char *p = ring[next++ % 4];
    snprintf(p, 256,
             "cpu=Intel(R) Xeon(R) Processor;features=avx avx2 fma;packages=1;cores=%d;pus=16;"
             "numa=1;llc_mib=300;memory_mib=%ld;gpus=%s",
             cores, mem_mib, gpus);
    return p;
}

/* Two machines that share a host name (cloud VMs are all `vm`) and a CPU model string are told
 * apart by what the rows record, and refused in one line naming what differs; the same machine
 * after a driver upgrade is judged. */
static void test_machines(void) {
    /* files without the hardware column: the CPU's threads and the devices present */
    write_machine("m16.csv", 16, "NVIDIA H200", "580.1", NULL, NULL);
    write_machine("m2.csv", 2, NULL, NULL, NULL, NULL);
    struct result r = CMP(T("m16.csv"), T("m2.csv"));
    CHECK_MSG(r.rc == 2 && !r.out[0] && strchr(r.err, '\n') == r.err + strlen(r.err) - 1 &&
                  strstr(r.err, "runs are of different machines: cpu threads 16 vs 2, cuda:0 "
                                "NVIDIA H200 vs absent; --allow-different-hosts"),
              "rc %d: %s", r.rc, r.err);
    result_free(&r);
    r = CMP(T("m16.csv"), T("m2.csv"), "--allow-different-hosts");
    CHECK_MSG(r.rc == 1 && strstr(r.out, "differs: cpu threads: 16 -> 2"), "rc %d: %s", r.rc,
              r.err);
    result_free(&r);
    /* the hardware column: one machine before and after a driver upgrade is judged */
    const char *hw = hw_of(16, 193000, "0000:3b:00.0");
    write_machine("up0.csv", 16, "NVIDIA H200", "580.1", hw, "0000:3B:00.0");
    write_machine("up1.csv", 16, "NVIDIA H200", "590.2", hw, "0000:3B:00.0");
    r = CMP(T("up0.csv"), T("up1.csv"));
    CHECK_MSG(r.rc == 0 && strstr(r.out, "differs: cuda:0 driver: 580.1 -> 590.2"), "rc %d: %s%s",
              r.rc, r.out, r.err);
    result_free(&r);
    /* memory within 3% (a kernel reserves a little more) is the same machine */
    write_machine("mem.csv", 16, "NVIDIA H200", "580.1", hw_of(16, 192000, "0000:3b:00.0"),
                  "0000:3B:00.0");
    r = CMP(T("up0.csv"), T("mem.csv"));
    CHECK_MSG(r.rc == 0, "rc %d: %s", r.rc, r.err);
    result_free(&r);
    /* the same thread count on another machine: its cores, memory and GPU's bus say so */
    write_machine("other.csv", 16, "NVIDIA H200", "580.1", hw_of(8, 96000, "0000:5e:00.0"),
                  "0000:5E:00.0");
    r = CMP(T("up0.csv"), T("other.csv"));
    CHECK_MSG(r.rc == 2 && strstr(r.err, "runs are of different machines: cpu cores 16 vs 8, "
                                         "memory MiB 193000 vs 96000, NVIDIA GPUs at PCI "
                                         "0000:3b:00.0 vs 0000:5e:00.0, cuda:0 PCI bus "
                                         "0000:3B:00.0 vs 0000:5E:00.0;"),
              "rc %d: %s", r.rc, r.err);
    result_free(&r);
}

/* --- regression mode on the hand-made files --------------------------------------------- */

static void test_regression_files(void) {
    /* one run per side: only status changes and changes past the floor decide */
    struct result r = CMP(D("reg_base.csv"), D("reg_new.csv"), "--format", "csv");
    CHECK_MSG(r.rc == 1, "rc %d: %s", r.rc, r.err);
    struct tab t;
    CHECK(tab_parse(r.out, &t) == 0);
    static const char *const want[][3] = {
        {"cublas", MNK512, "UNSURE"},       {"cuda", MNK512, "UNSURE"},
        {"openblas", MNK512, "UNSURE"},     {"cuda", "n=1024", "BROKEN"},
        {"cublas", "n=1024", "VANISHED"},   {"cudnn", CONV, "FIXED"},
        {"h2d_pinned", "n=1048576", "NEW"},
    };
    CHECK(t.nrows == 7);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        int row = FIND(&t, "impl", want[i][0], "shape", want[i][1]);
        CHECK_MSG(row >= 0 && !strcmp(tab_get(&t, row, "verdict"), want[i][2]),
                  "%s %s: %s, want %s", want[i][0], want[i][1], tab_get(&t, row, "verdict"),
                  want[i][2]);
    }
    check_workloads(&t, NULL);
    int row = FIND(&t, "impl", "cublas", "shape", MNK512);
    CHECK(fabs(tab_num(&t, row, "change_pct") - 10) < 1e-9);
    CHECK(!strcmp(tab_get(&t, row, "test"), "single-run"));
    tab_free(&t);
    result_free(&r);

    r = CMP(D("reg_base.csv"), D("reg_new.csv"));
    CHECK(strstr(r.out, "differs: cuda:0 driver: 570.86.15 -> 580.65.06") != NULL);
    CHECK(strstr(r.out, "differs: cuda:0 BLAS (cuBLAS/OpenBLAS): cuBLAS 12.8.3 -> cuBLAS 13.0.0"));
    CHECK(strstr(r.out, "REGRESSION: 0 SLOWER, 1 BROKEN (status no longer ok), 1 VANISHED"));
    CHECK(strstr(r.out, "base ms") && strstr(r.out, "new ms") && strstr(r.out, "MDC"));
    /* shapes as the run table prints them, not the canonical form */
    CHECK(strstr(r.out, "n=1 c=3 h=32 w=32 k=8 r=3 s=3 stride=1 pad=1") && !strstr(r.out, "pad_h"));
    result_free(&r);

    /* the same run with its rows in reverse order: nothing changed */
    r = CMP(D("reg_base.csv"), D("reg_same.csv"));
    CHECK_MSG(r.rc == 0 && strstr(r.out, "no regression") && !strstr(r.out, "REGRESSION") &&
                  strstr(r.out, "differs: nothing recorded"),
              "rc %d\n%s", r.rc, r.out);
    result_free(&r);

    /* a row unsupported on both sides is a fact of the device or build, not a failure */
    FILE *in = fopen(D("sd_b.csv"), "r"), *again = fopen(T("sd_b_again.csv"), "w");
    char line[4096];
    while (fgets(line, sizeof line, in)) {
        char *id = strstr(line, "-hostb-1,");
        if (id)
            id[7] = '2'; /* another run of the same machine */
        fputs(line, again);
    }
    fclose(in);
    fclose(again);
    r = CMP(D("sd_b.csv"), T("sd_b_again.csv"));
    CHECK_MSG(r.rc == 0 && strstr(r.out, "unsupported, as before") && !strstr(r.out, "NOT OK"),
              "rc %d\n%s%s", r.rc, r.out, r.err);
    result_free(&r);
    r = CMP(D("sd_b.csv"), T("sd_b_again.csv"), "--format", "csv");
    CHECK_MSG(strstr(r.out, ",unsupported,unsupported,1,1,,,,,,,,,,,UNSUPPORTED,,0,"), "%s", r.out);
    result_free(&r);

    /* extra columns after note do not matter: the same report from the file without them */
    r = CMP(D("sd_a.csv"), "--baseline", "cpu");
    struct result r2 = CMP(D("sd_a_noextra.csv"), "--baseline", "cpu");
    char *tail1 = strstr(r.out, "\ncells:"), *tail2 = strstr(r2.out, "\ncells:");
    CHECK_MSG(r.rc == 0 && r2.rc == 0 && tail1 && tail2 && !strcmp(tail1, tail2), "rc %d %d %s",
              r.rc, r2.rc, r2.err);
    result_free(&r);
    result_free(&r2);
    /* a run is evidence once: the same run on both sides is refused */
    r = CMP(D("sd_a.csv"), D("sd_a_noextra.csv"));
    CHECK_MSG(r.rc == 2 && strstr(r.err, "on both sides; a run counts once"), "%s", r.err);
    result_free(&r);

    r = CMP(D("reg_base.csv"), D("reg_new.csv"), "--format", "markdown");
    CHECK(strstr(r.out, "| device | workload | impl | shape | runs | base ms | new ms | change |"));
    CHECK(strstr(r.out, "**REGRESSION"));
    result_free(&r);
}

/* Five runs per side (with the run column): every verdict, from the runs' medians. */
static void test_regression_runs(void) {
    struct result r = CMP(D("reg_runs_base.csv"), D("reg_runs_new.csv"), "--format", "csv");
    CHECK_MSG(r.rc == 1, "rc %d: %s", r.rc, r.err);
    struct tab t;
    CHECK(tab_parse(r.out, &t) == 0 && t.nrows == 5);
    static const char *const runs_want[][3] = {{"cublas", MNK512, "SLOWER"},
                                               {"cuda", MNK512, "SAME"},
                                               {"openblas", MNK512, "UNSURE"},
                                               {"cublas", "n=1024", "FASTER"},
                                               {"cuda", "n=1024", "BROKEN"}};
    for (size_t i = 0; i < sizeof runs_want / sizeof *runs_want; i++) {
        int row = FIND(&t, "impl", runs_want[i][0], "shape", runs_want[i][1]);
        CHECK_MSG(row >= 0 && !strcmp(tab_get(&t, row, "verdict"), runs_want[i][2]) &&
                      !strcmp(tab_get(&t, row, "base_runs"), "5"),
                  "%s %s: %s, want %s", runs_want[i][0], runs_want[i][1],
                  tab_get(&t, row, "verdict"), runs_want[i][2]);
    }
    int row = FIND(&t, "impl", "cublas", "shape", MNK512);
    CHECK(fabs(tab_num(&t, row, "change_pct") - 30) < 0.1 && tab_num(&t, row, "ci_lo_pct") > 5);
    row = FIND(&t, "impl", "openblas", "shape", MNK512);
    CHECK(atoi(tab_get(&t, row, "runs_needed")) > 5);
    tab_free(&t);
    result_free(&r);

    /* JSON: percentages named as such, the threshold among them */
    r = CMP(D("reg_runs_base.csv"), D("reg_runs_new.csv"), "--format", "json", "--threshold", "3");
    CHECK_MSG(strstr(r.out, "\"threshold_pct\": 3,") && strstr(r.out, "\"change_pct\": ") &&
                  strstr(r.out, "\"exit\": 1}"),
              "%s", r.out);
    result_free(&r);
}

/* --- slowdown mode: ratios known exactly ------------------------------------------------- */

static void check_ratio(const struct tab *t, const char *file, const char *device, const char *impl,
                        const char *shape, double k, double e) {
    int row = FIND(t, "kind", "line", "file", file, "device", device, "impl", impl, "shape", shape);
    double gk = tab_num(t, row, "kernel_ratio"), ge = tab_num(t, row, "e2e_ratio");
    CHECK_MSG(row >= 0 && gk == k && ge == e, "%s %s %s: kernel %g e2e %g, want %g %g", device,
              impl, shape, gk, ge, k, e);
}

static void test_slowdown_exact(void) {
    struct result r = CMP(D("sd_a.csv"), "--baseline", "cpu", "--format", "csv");
    CHECK_MSG(r.rc == 0, "rc %d %s", r.rc, r.err);
    struct tab t;
    CHECK(tab_parse(r.out, &t) == 0);
    const char *a = D("sd_a.csv");
    check_ratio(&t, a, "cuda:0", "cublas", MNK256, 0.0625, 0.125);
    check_ratio(&t, a, "cuda:0", "cuda", MNK512, 1.0 / 32, 0.125);
    check_ratio(&t, a, "cuda:0", "cuda", "n=1024", 0.25, 4);
    check_ratio(&t, a, "cuda:0", "cudnn", CONV, 0.125, 0.25);
    check_ratio(&t, a, "cpu", "cpu", "n=1024", 1, 1); /* its own implementation */
    check_workloads(&t, "line");
    int row = FIND(&t, "kind", "line", "device", "cuda:0", "impl", "cublas", "shape", MNK256);
    CHECK(!strcmp(tab_get(&t, row, "baseline_impl"), "openblas"));
    /* geometric means: the m,n,k workload's kernel 2^-4.5, e2e 2^-3 */
    const char *mnk = workload_of("cublas", MNK256), *vec = workload_of("cuda", "n=1024");
    row = FIND(&t, "kind", "geomean", "workload", mnk, "device", "cuda:0");
    CHECK_MSG(fabs(tab_num(&t, row, "kernel_ratio") - pow(2, -4.5)) < 1e-9 &&
                  fabs(tab_num(&t, row, "e2e_ratio") - 0.125) < 1e-12,
              "%s geomean %s %s", mnk, tab_get(&t, row, "kernel_ratio"),
              tab_get(&t, row, "e2e_ratio"));
    row = FIND(&t, "kind", "geomean", "workload", "", "device", "cuda:0");
    CHECK(row >= 0 && !strcmp(tab_get(&t, row, "note"), "geometric mean of 11 lines"));
    /* crossover: the n workload's cuda wins end to end from the largest size; cublas always */
    row = FIND(&t, "kind", "crossover", "workload", vec, "impl", "cuda");
    CHECK_MSG(!strcmp(tab_get(&t, row, "shape"), "n=16777216") &&
                  !strncmp(tab_get(&t, row, "note"), "from:", 5),
              "%s / %s", tab_get(&t, row, "shape"), tab_get(&t, row, "note"));
    row = FIND(&t, "kind", "crossover", "workload", vec, "impl", "cublas");
    CHECK(!strncmp(tab_get(&t, row, "note"), "always:", 7));
    tab_free(&t);
    result_free(&r);

    /* the human table: device name and compute capability head the columns */
    r = CMP(D("sd_a.csv"));
    CHECK(r.rc == 0 && strstr(r.out, "slowdown against Test CPU A (cpu)"));
    CHECK(strstr(r.out, "A100-TEST (cc 8.0)") && strstr(r.out, "16.0× faster"));
    CHECK(strstr(r.out, "4.00× slower") && strstr(r.out, "baseline ms"));
    CHECK(strstr(r.out, "faster from n=16777216 on"));
    result_free(&r);
}

/* A sweep in two tiers: each tier has its own crossover, named by its dtype (float32 crosses
 * over at the larger size, float64 never), in the CSV, the JSON and the table. */
static void test_crossover_per_tier(void) {
    struct result r = CMP(D("tiers_sweep.csv"), "--baseline", "cpu", "--format", "csv");
    struct tab t;
    CHECK_MSG(r.rc == 0 && tab_parse(r.out, &t) == 0, "rc %d %s", r.rc, r.err);
    int f32 = FIND(&t, "kind", "crossover", "impl", "cublas", "dtype", "float32");
    int f64 = FIND(&t, "kind", "crossover", "impl", "cublas", "dtype", "float64");
    CHECK_MSG(f32 >= 0 && !strncmp(tab_get(&t, f32, "note"), "from:", 5) &&
                  strstr(tab_get(&t, f32, "shape"), "2048"),
              "float32 crossover: %s", f32 >= 0 ? tab_get(&t, f32, "note") : "none");
    CHECK_MSG(f64 >= 0 && !strncmp(tab_get(&t, f64, "note"), "never:", 6),
              "float64 crossover: %s", f64 >= 0 ? tab_get(&t, f64, "note") : "none");
    tab_free(&t);
    result_free(&r);
    r = CMP(D("tiers_sweep.csv"), "--baseline", "cpu", "--format", "json");
    CHECK_MSG(strstr(r.out, "\"impl\":\"cublas\",\"dtype\":\"float64\""), "%s", r.out);
    result_free(&r);
    r = CMP(D("tiers_sweep.csv"), "--baseline", "cpu");
    CHECK_MSG(strstr(r.out, "cublas (float64)"), "%s", r.out);
    result_free(&r);
}

/* sd_flip.csv: cuda:0 ran three GEMM sizes (two on tensor cores), cuda:1 only the smallest,
 * where it is 1.25× faster than cuda:0. Against the CPU each device's mean covers its own lines
 * (cuda:0 5.85× faster, cuda:1 2.50×): the pair rows rank the two over the points both ran, and
 * must say the same whatever the baseline (issue 38 item 2). */
static void test_pairs_ignore_baseline(void) {
    const char *bases[] = {"cpu", "cuda:0", "cuda:1"};
    for (int i = 0; i < 3; i++) {
        struct result r = CMP(D("sd_flip.csv"), "--baseline", bases[i], "--format", "csv");
        struct tab t;
        CHECK_MSG(r.rc == 0 && tab_parse(r.out, &t) == 0, "rc %d %s", r.rc, r.err);
        int p = FIND(&t, "kind", "pair", "device", "cuda:1", "baseline_device", "cuda:0");
        CHECK_MSG(p >= 0 && fabs(tab_num(&t, p, "e2e_ratio") - 0.8) < 1e-9 &&
                      strstr(tab_get(&t, p, "note"), "1 points both ran; 2 left out"),
                  "--baseline %s: pair cuda:1/cuda:0 %s", bases[i],
                  p >= 0 ? tab_get(&t, p, "note") : "missing");
        tab_free(&t);
        result_free(&r);
        r = CMP(D("sd_flip.csv"), "--baseline", bases[i]);
        CHECK_MSG(strstr(r.out, "left out of Old GPU (cc 3.5) against New GPU (cc 9.0) (only one of them ran): gemm "
                                "m=512 n=512 k=512, gemm m=1024 n=1024 k=1024"),
                  "--baseline %s: %s", bases[i], r.out);
        result_free(&r);
    }
}

/* sd_noisy.csv: the CPU's 128³ GEMM hit a load spike (3.44 ms, 1.08 ms at 256³), so the GPU
 * looks 15× faster there and only 1.01× at 256³, within the intervals: no crossover is stated
 * from 128³, it is uncertain between 64³ and 256³ (issue 38 item 4). */
static void test_crossover_uncertain(void) {
    struct result r = CMP(D("sd_noisy.csv"), "--format", "csv");
    struct tab t;
    CHECK_MSG(r.rc == 0 && tab_parse(r.out, &t) == 0, "rc %d %s", r.rc, r.err);
    int x = FIND(&t, "kind", "crossover", "impl", "cublas");
    CHECK_MSG(x >= 0 && strstr(tab_get(&t, x, "note"),
                               "uncertain: crossover uncertain between m=64 n=64 k=64 and m=256 "
                               "n=256 k=256"),
              "%s", x >= 0 ? tab_get(&t, x, "note") : r.out);
    tab_free(&t);
    result_free(&r);
}

/* A CPU that ran far under its peak is named with the cause its file measured, never the core by
 * default (issue 45 item 3): sd_overstate.csv records SkylakeX but no CPU flags, so no cause is
 * known; sd_slow_cpu.csv holds one CPU run per cause (an AVX2 core on an AVX-512 CPU, a
 * cpu_wait_pct of 41, 2 threads on 16 cores, a 64³ GEMM on 4 threads), one with every fact
 * recorded and none of them a cause, one at 80% (not named), and one far below what its old core
 * can reach (the core named as a part of the cause). Text, CSV and JSON alike. */
static void test_overstating_baseline(void) {
    struct result r = CMP(D("sd_overstate.csv"));
    CHECK_MSG(strstr(r.out, "the CPU baseline's GEMM ran at 9% of its FP32 peak at best (m=256 "
                            "n=256 k=256); no cause is known (the run records no CPU flags to "
                            "judge OpenBLAS's SkylakeX kernels by, and no wait for a core); "
                            "speedups against it are overstated"),
              "%s", r.out);
    CHECK_MSG(!strstr(r.out, "kernels on an"), "the core blamed by default: %s", r.out);
    result_free(&r);
    r = CMP(D("sd_flip.csv"));
    CHECK_MSG(!strstr(r.out, "overstated"), "%s", r.out);
    result_free(&r);

    static const char *const want[] = {
        "the CPU baseline's GEMM ran at 20% of its FP32 peak at best (m=2048 n=2048 k=2048); "
        "cause: OpenBLAS's Haswell (AVX2) kernels on an AVX-512 CPU; speedups against it are "
        "overstated",
        "the GEMM of Test CPU B (cpu) ran at 20% of its FP32 peak at best (m=2048 n=2048 k=2048); "
        "cause: a shared CPU (its threads waited for a core 41% of the timed time); its ratios "
        "understate this CPU",
        "the GEMM of Test CPU C (cpu) ran at 11% of its FP32 peak at best (m=2048 n=2048 k=2048); "
        "cause: 2 threads on 16 cores (90% of those threads' peak); its ratios understate this CPU",
        "the GEMM of Test CPU D (cpu) ran at 5% of its FP32 peak at best (m=64 n=64 k=64); cause: "
        "a shape too small to fill 4 threads (under a 128³ GEMM a thread); its ratios understate "
        "this CPU",
        "the GEMM of Test CPU E (cpu) ran at 10% of its FP32 peak at best (m=2048 n=2048 k=2048); "
        "no cause is known; its ratios understate this CPU",
        /* 2% where Prescott's SSE3 kernels reach 12.5% of an AVX-512 CPU: not the whole cause */
        "the GEMM of Test CPU G (cpu) ran at 2% of its FP32 peak at best (m=2048 n=2048 k=2048); "
        "cause: OpenBLAS's Prescott (SSE3) kernels on an AVX-512 CPU (whose kernels reach up to "
        "12.5%: the core explains only part of it); its ratios understate this CPU"};
    r = CMP(D("sd_slow_cpu.csv"));
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        CHECK_MSG(strstr(r.out, want[i]), "text: want \"%s\" in %s", want[i], r.out);
    CHECK_MSG(!strstr(r.out, "Test CPU F (cpu) ran"), "a CPU at 80%% named: %s", r.out);
    result_free(&r);
    r = CMP(D("sd_slow_cpu.csv"), "--format", "markdown");
    CHECK_MSG(strstr(r.out, "- the GEMM of Test CPU B (cpu) ran at 20%"), "%s", r.out);
    result_free(&r);

    /* CSV: a record carries its device's sentence and its baseline's */
    r = CMP(D("sd_slow_cpu.csv"), "--format", "csv");
    struct tab t;
    CHECK_MSG(r.rc == 0 && tab_parse(r.out, &t) == 0, "rc %d %s", r.rc, r.err);
    int b = FIND(&t, "kind", "line", "run_id", "b-shared");
    int f = FIND(&t, "kind", "line", "run_id", "f-fine");
    const char *bs = b >= 0 ? tab_get(&t, b, "slow_cpu") : "";
    const char *fs = f >= 0 ? tab_get(&t, f, "slow_cpu") : "";
    CHECK_MSG(bs && strstr(bs, want[1]) && strstr(bs, " | ") && strstr(bs, want[0]),
              "csv b-shared: %s", bs ? bs : "no column");
    CHECK_MSG(fs && !strcmp(fs, want[0]), "csv f-fine: %s", fs ? fs : "no column");
    tab_free(&t);
    result_free(&r);

    /* JSON: each series' slow_cpu, its causes by name */
    r = CMP(D("sd_slow_cpu.csv"), "--format", "json");
    CHECK_MSG(r.rc == 0 && strstr(r.out, "\"causes\":[\"old_core\"]") &&
                  strstr(r.out, "\"causes\":[\"shared_cpu\"]") &&
                  strstr(r.out, "\"causes\":[\"few_threads\"]") &&
                  strstr(r.out, "\"causes\":[\"small_shape\"]") &&
                  strstr(r.out, "\"causes\":[]") && strstr(r.out, "\"cpu_wait_pct\":41,") &&
                  strstr(r.out, "\"slow_cpu\":null"),
              "%s", r.out);
    result_free(&r);
}

/* sd_sim.csv again as another run of its machine (run id ...-hostc-2): a regression pair of
 * simulated rows. Returns the copy's path. */
static const char *sim_again(void) {
    const char *path = T("sd_sim_again.csv");
    FILE *in = fopen(D("sd_sim.csv"), "r"), *again = fopen(path, "w");
    char line[4096];
    while (in && again && fgets(line, sizeof line, in)) {
        char *id = strstr(line, "-hostc-1,");
        if (id)
            id[7] = '2';
        fputs(line, again);
    }
    if (in)
        fclose(in);
    if (again)
        fclose(again);
    return path;
}

/* Simulated devices' times are CPU emulation: every form says so, the text form once (issue 38
 * item 3). */
static void test_emulation_named(void) {
    const char *fmts[] = {"table", "markdown"};
    for (int i = 0; i < 2; i++) {
        struct result r = CMP(D("sd_sim.csv"), "--format", fmts[i]);
        const char *at = strstr(r.out, "CPU emulation (gpubench-sim), not measurements");
        CHECK_MSG(r.rc == 0 && at && !strstr(at + 1, "CPU emulation (gpubench-sim)"), "%s: %s",
                  fmts[i], r.out);
        result_free(&r);
    }
    struct result r = CMP(D("sd_sim.csv"), "--format", "json");
    CHECK_MSG(strstr(r.out, "\"device\":\"cuda:1\"") && strstr(r.out, "\"simulated\":true") &&
                  strstr(r.out, "\"simulated\":false"),
              "%s", r.out);
    result_free(&r);
    r = CMP(D("sd_flip.csv"));
    CHECK_MSG(!strstr(r.out, "emulation"), "%s", r.out);
    result_free(&r);
    /* regression mode says it once too: sd_sim.csv against another run of its machine */
    r = CMP(D("sd_sim.csv"), sim_again());
    const char *at = strstr(r.out, "CPU emulation (gpubench-sim), not measurements");
    CHECK_MSG(r.rc == 0 && at && !strstr(at + 1, "CPU emulation (gpubench-sim)"), "rc %d\n%s%s",
              r.rc, r.out, r.err);
    result_free(&r);
    r = CMP(D("reg_base.csv"), D("reg_new.csv"));
    CHECK_MSG(!strstr(r.out, "emulation"), "%s", r.out);
    result_free(&r);
    /* the CSV form too, the tidy way: a column `emulated`, 1 on every record whose device or
     * baseline device is simulated (sd_sim.csv: cuda:0 and cuda:1; the CPU is real) */
    for (int sim = 1; sim >= 0; sim--) {
        struct tab t;
        r = CMP(D(sim ? "sd_sim.csv" : "sd_flip.csv"), "--format", "csv");
        CHECK_MSG(r.rc == 0 && tab_parse(r.out, &t) == 0, "rc %d %s", r.rc, r.err);
        int cpu = FIND(&t, "kind", "line", "device", "cpu", "emulated", "0");
        int gpu = FIND(&t, "kind", "line", "device", "cuda:0", "emulated", sim ? "1" : "0");
        int pair = FIND(&t, "kind", "pair", "device", "cuda:1", "baseline_device", "cuda:0",
                        "emulated", sim ? "1" : "0");
        int wrong = FIND(&t, "device", "cuda:0", "emulated", sim ? "0" : "1");
        CHECK_MSG(cpu >= 0 && gpu >= 0 && pair >= 0 && wrong < 0, "%s: %s",
                  sim ? "sd_sim.csv" : "sd_flip.csv", r.out);
        tab_free(&t);
        result_free(&r);
    }
}

/* Regression mode's CSV and JSON mark each row whose times are emulation, as slowdown's do: a
 * column `emulated` 0/1, a member "simulated" true/false (sd_sim.csv: cuda:0 and cuda:1 are
 * simulated, the CPU is real; reg_base.csv against reg_new.csv: nothing is). */
static void test_regression_emulation_marked(void) {
    for (int sim = 1; sim >= 0; sim--) {
        const char *base = sim ? D("sd_sim.csv") : D("reg_base.csv");
        const char *new = sim ? sim_again() : D("reg_new.csv");
        struct tab t;
        struct result r = CMP(base, new, "--format", "csv");
        int right = 0;
        CHECK_MSG(tab_parse(r.out, &t) == 0 && t.nrows > 0, "rc %d %s", r.rc, r.err);
        for (int i = 0; i < t.nrows; i++) {
            int emulated = sim && !strncmp(tab_get(&t, i, "device"), "cuda:", 5);
            right += !strcmp(tab_get(&t, i, "emulated"), emulated ? "1" : "0");
        }
        CHECK_MSG(right == t.nrows, "%s csv: %d of %d rows marked right: %s", sim ? "sim" : "reg",
                  right, t.nrows, r.out);
        tab_free(&t);
        result_free(&r);
        /* JSON: one row a line, each with its "simulated" */
        r = CMP(base, new, "--format", "json");
        int rows = 0;
        right = 0;
        for (const char *at = strstr(r.out, "\n{\"device\": "); at;
             at = strstr(at + 1, "\n{\"device\": ")) {
            const char *end = strchr(at + 1, '\n');
            int emulated = sim && !strncmp(at + strlen("\n{\"device\": "), "\"cuda:", 6);
            const char *m = strstr(at, emulated ? "\"simulated\": true" : "\"simulated\": false");
            rows++;
            right += m && (!end || m < end);
        }
        CHECK_MSG(rows > 0 && right == rows, "%s json: %d of %d rows marked right: %s",
                  sim ? "sim" : "reg", right, rows, r.out);
        result_free(&r);
    }
}

/* The startup table's line ("one-time costs ...") is prose after a blank line, as every line
 * under a table is, in the text form and in Markdown (sd_a.csv, its conv2d rows renamed
 * startup). */
static void test_startup_line_apart(void) {
    FILE *in = fopen(D("sd_a.csv"), "r"), *out = fopen(T("sd_startup.csv"), "w");
    char line[4096];
    while (in && out && fgets(line, sizeof line, in)) {
        char *w = strstr(line, ",conv2d,");
        if (w) /* ",startup," is one longer than ",conv2d," */
            fprintf(out, "%.*s,startup,%s", (int)(w - line), line, w + strlen(",conv2d,"));
        else
            fputs(line, out);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    const char *fmts[] = {"table", "markdown"};
    for (int i = 0; i < 2; i++) {
        struct result r = CMP(T("sd_startup.csv"), "--format", fmts[i]);
        const char *at = strstr(r.out, "one-time costs, paid once per process");
        CHECK_MSG(r.rc == 0 && at && at - r.out >= 2 && !strncmp(at - 2, "\n\n", 2), "%s: %s",
                  fmts[i], r.out);
        result_free(&r);
    }
}

/* Two files that hold the same device ids (sd_a.csv and sd_b.csv: cpu and cuda:0 each): a pair
 * record names the device it is set against by its file and run too, so the two records of
 * sd_b's cpu against a cuda:0 say which cuda:0 (issue 38: the id alone was ambiguous). */
static void test_pair_names_its_file(void) {
    const char *a = D("sd_a.csv"), *b = D("sd_b.csv");
    struct result r = CMP("--baseline", "cpu", a, b, "--format", "csv");
    struct tab t;
    CHECK_MSG(r.rc == 0 && tab_parse(r.out, &t) == 0, "rc %d %s", r.rc, r.err);
    for (int i = 0; i < 2; i++) {
        const char *against = i ? b : a;
        int p = FIND(&t, "kind", "pair", "device", "cpu", "file", b, "baseline_device", "cuda:0",
                     "baseline_file", against);
        CHECK_MSG(p >= 0 && tab_get(&t, p, "baseline_run_id")[0] &&
                      strstr(against, i ? "sd_b" : "sd_a"),
                  "pair cpu of sd_b.csv against the cuda:0 of %s: %s", against, r.out);
        /* and the baseline's run: the run of that file's rows */
        int line = FIND(&t, "kind", "line", "device", "cuda:0", "file", against);
        CHECK(p >= 0 && line >= 0 &&
              !strcmp(tab_get(&t, p, "baseline_run_id"), tab_get(&t, line, "run_id")));
    }
    /* a line record names the baseline's file too (the baseline is sd_a.csv's cpu) */
    CHECK(FIND(&t, "kind", "line", "file", b, "baseline_file", a) >= 0);
    tab_free(&t);
    result_free(&r);
}

/* Two machines, rows of the second in reverse order; the baseline is the first's GPU. */
static void test_slowdown_join(void) {
    const char *b = D("sd_b.csv");
    for (int listed = 0; listed < 2; listed++) {
        char spec[1100];
        snprintf(spec, sizeof spec, "%s:cuda:0", D("sd_a.csv"));
        struct result r = listed ? CMP(D("sd_a.csv"), b, "--baseline", spec, "--format", "csv")
                                 : CMP(b, "--baseline", spec, "--format", "csv");
        CHECK_MSG(r.rc == 0, "rc %d %s", r.rc, r.err);
        struct tab t;
        CHECK(tab_parse(r.out, &t) == 0);
        check_ratio(&t, b, "cuda:0", "cublas", MNK512, 16, 8);
        check_ratio(&t, b, "cuda:0", "cuda", MNK256, 2, 2);
        check_ratio(&t, b, "cuda:0", "cublas", "n=16777216", 2, 2);
        check_ratio(&t, b, "cpu", "openblas", MNK256, 32, 16);
        check_workloads(&t, "line");
        int row = FIND(&t, "kind", "line", "file", b, "impl", "cudnn");
        CHECK(!strcmp(tab_get(&t, row, "status"), "unsupported") &&
              !tab_get(&t, row, "kernel_ratio")[0]);
        CHECK(strstr(tab_get(&t, row, "note"), "needs compute capability") != NULL);
        tab_free(&t);
        result_free(&r);
    }
    struct result r = CMP(D("sd_a.csv"), b, "--baseline", "cuda:0");
    CHECK(strstr(r.out, "Tesla K40m (cc 3.5)") && strstr(r.out, "unsupported"));
    CHECK(strstr(r.out, "geometric mean over all workloads"));
    result_free(&r);
}

static void test_formats(void) {
    struct result r = CMP(D("sd_a.csv"), D("sd_b.csv"), "--baseline", "cpu", "--format", "json");
    CHECK(r.rc == 0 && strstr(r.out, "\"mode\":\"slowdown\"") &&
          !strncmp(r.out, "{\"schema\": \"gpubench-1\", \"command\": \"compare\"", 45));
    FILE *f = fopen(T("out.json"), "w");
    fputs(r.out, f);
    fclose(f);
    result_free(&r);
    r = CMP(D("reg_base.csv"), D("reg_new.csv"), "--format", "json");
    f = fopen(T("reg.json"), "w");
    fputs(r.out, f);
    fclose(f);
    result_free(&r);
    if (system("python3 -c '' 2>/dev/null") == 0) {
        char cmd[2300];
        snprintf(cmd, sizeof cmd,
                 "python3 -m json.tool %s >/dev/null && python3 -m json.tool %s "
                 ">/dev/null",
                 T("out.json"), T("reg.json"));
        CHECK_MSG(system(cmd) == 0, "compare --format json is not valid JSON");
    }
    r = CMP("--help");
    CHECK(r.rc == 0 && strstr(r.out, "examples:") && !r.err[0]);
    result_free(&r);
}

/* --- bad input: exit 2, one line on stderr naming what is wrong, nothing on stdout ------- */

static void bad_case(const char *const *args, const char *want) {
    struct result r = cmp_v(args);
    const char *nl = strchr(r.err, '\n');
    /* one line, in the one form of every error line: "gpubench compare: ..." */
    CHECK_MSG(r.rc == 2 && !r.out[0] && strstr(r.err, want) && nl && !nl[1] &&
                  strncmp(r.err, "gpubench compare: ", 18) == 0,
              "rc %d, want '%s'\nstdout: %.200s\nstderr: %s", r.rc, want, r.out, r.err);
    result_free(&r);
}
#define BAD(want, ...) bad_case((const char *const[]){__VA_ARGS__, NULL}, want)

static void test_bad_input(void) {
    char w[4096];
#define W(fmt, name) (snprintf(w, sizeof w, fmt, D(name)), w)
    BAD(W("%s: cannot open: No such file or directory", "nothere.csv"), D("nothere.csv"));
    BAD(W("%s: empty file (no header)", "bad/empty.csv"), D("bad/empty.csv"));
    BAD(W("%s:1: column schema: missing: not a gpubench-1 run CSV", "bad/not_gpubench.csv"),
        D("bad/not_gpubench.csv"));
    BAD(W("%s:1: column schema: missing: this is a samples file", "bad/samples_as_run.csv"),
        D("bad/samples_as_run.csv"));
    BAD(W("%s:2: column schema: 'gpubench-2' is not gpubench-1", "bad/schema2.csv"),
        D("reg_base.csv"), D("bad/schema2.csv"));
    BAD(W("%s:3: column schema: 'gpubench-2' is not gpubench-1 (rows of different",
          "bad/mixed_schema.csv"),
        D("bad/mixed_schema.csv"));
    BAD(W("%s:1: column median_ms: missing (column 20 is 'median')", "bad/wrong_column.csv"),
        D("bad/wrong_column.csv"));
    BAD(W("%s:1: column note: missing", "bad/missing_column.csv"), D("bad/missing_column.csv"));
    BAD(W("%s:1: column median_ms: out of place", "bad/swapped_columns.csv"),
        D("bad/swapped_columns.csv"));
    BAD(W("%s:3: column gbps: missing (the row has 27 fields, the header 34)", "bad/ragged.csv"),
        D("bad/ragged.csv"));
    BAD(W("%s:4: column #35: extra field", "bad/extra_field.csv"), D("bad/extra_field.csv"));
    BAD(W("%s:2: column median_ms: 'fast' is not a number", "bad/nonnumeric.csv"),
        D("bad/nonnumeric.csv"));
    BAD(W("%s:3: column gflops: 'inf' is not a number", "bad/not_finite.csv"),
        D("bad/not_finite.csv"));
    BAD(W("%s:3: column min_ms: -1 is negative", "bad/negative.csv"), D("bad/negative.csv"));
    BAD(W("%s:2: column threads: 'two' is not a whole number", "bad/bad_int.csv"),
        D("bad/bad_int.csv"));
    BAD(W("%s:5: column status: unknown status 'slow'", "bad/unknown_status.csv"),
        D("bad/unknown_status.csv"));
    BAD(W("%s:22: column dtype: duplicate row (same run_id=", "bad/duplicate.csv"),
        D("bad/duplicate.csv"));
    BAD(W("%s:21: column #35: quote never closed", "bad/unclosed_quote.csv"),
        D("bad/unclosed_quote.csv"));
    BAD(W("%s:4: column note: quote inside an unquoted field", "bad/stray_quote.csv"),
        D("bad/stray_quote.csv"));
    /* slowdown mode too: a run copied into a second file would be set beside itself */
    BAD("the same run given twice", D("sd_a.csv"), D("sd_a_noextra.csv"), "--baseline", "cpu");
    BAD(W("%s:2: column schema: no result rows (only a header)", "bad/header_only.csv"),
        D("bad/header_only.csv"));
    BAD(W("%s:4: column schema: blank line between rows", "bad/blank_line.csv"),
        D("bad/blank_line.csv"));
    BAD(W("%s:6: column workload: empty", "bad/empty_key.csv"), D("bad/empty_key.csv"));
    BAD(W("%s:3: column ms: 'x' is not a number", "bad/bad_ms.samples.csv"), D("sd_a.csv"),
        "--samples", D("bad/bad_ms.samples.csv"));
    BAD(W("%s:4: column run_id: run 'nope' is in none of the run CSVs given",
          "bad/unknown_run.samples.csv"),
        D("sd_a.csv"), "--samples", D("bad/unknown_run.samples.csv"));
    BAD(W("%s:4: column shape: run 20250101T000000Z-hosta-1 has no row for device cpu",
          "bad/unknown_row.samples.csv"),
        D("sd_a.csv"), "--samples", D("bad/unknown_row.samples.csv"));
    BAD(W("%s:3: column rep: duplicate row", "bad/dup_rep.samples.csv"), D("sd_a.csv"), "--samples",
        D("bad/dup_rep.samples.csv"));
    BAD(W("%s:1: column run_id: missing: this is a run CSV", "reg_base.csv"), D("sd_a.csv"),
        "--samples", D("reg_base.csv"));
    BAD(W("compare: %s: given twice", "sd_a.samples.csv"), D("sd_a.csv"), "--samples",
        D("sd_a.samples.csv"), "--samples", D("sd_a.samples.csv"));
    /* a bad second file: nothing of the first is printed */
    BAD(W("%s:2: column median_ms: 'fast' is not a number", "bad/nonnumeric.csv"), D("sd_a.csv"),
        D("sd_b.csv"), D("bad/nonnumeric.csv"));
    BAD("--baseline cuda:7: no such device", D("sd_a.csv"), "--baseline", "cuda:7");
    /* files of 5 runs each: each device of each file named once, not once per run */
    BAD("--baseline cuda:7: no such device in the files given (the files hold: cuda:0 in "
        "reg_runs_base.csv, cpu in reg_runs_base.csv, cuda:0 in reg_runs_new.csv, cpu in "
        "reg_runs_new.csv)",
        D("reg_runs_base.csv"), D("reg_runs_new.csv"), "--baseline", "cuda:7");
    char spec[1200];
    snprintf(spec, sizeof spec, "%s:cuda:3", D("reg_new.csv"));
    snprintf(w, sizeof w, "--baseline %s: no such device in %s", spec, D("reg_new.csv"));
    BAD(w, D("reg_new.csv"), D("reg_base.csv"), D("sd_b.csv"), "--baseline", spec);
    BAD("compare: --threshold 'abc': want a percentage", D("sd_a.csv"), "--threshold", "abc");
    BAD("compare: --alpha '2': want a number in (0, 1)", D("sd_a.csv"), "--alpha", "2");
    BAD("compare: --format 'xml': want table, markdown, csv or json", D("sd_a.csv"), "-f", "xml");
    BAD("compare: unknown option '--bogus'", D("sd_a.csv"), "--bogus");
    BAD("compare: --samples needs a value", D("sd_a.csv"), "--samples");
    BAD("compare: no run CSV given", "--format", "csv");
#undef W
}

/* Files that are plainly no CSV are named for what they are, and a default baseline the files
 * lack is not reported as an option the user typed (issue 33). */
static void test_not_csv(void) {
    char w[4096];
    FILE *f = fopen(T("run.json"), "w");
    fputs("{\"schema\": \"gpubench-1\", \"command\": \"run\", \"rows\": [\"a,\\\"b\"]}\n", f);
    fclose(f);
    snprintf(w, sizeof w, "%s: this is a gpubench JSON file, not a CSV: give the run's CSV",
             T("run.json"));
    BAD(w, T("run.json"), D("sd_a.csv"));
    f = fopen(T("s.csv.gz"), "wb");
    fwrite("\x1f\x8b\x08\x00\x00\x00\x00\x00", 1, 8, f);
    fclose(f);
    snprintf(w, sizeof w, "%s: gzip-compressed, not a CSV: gunzip it first", T("s.csv.gz"));
    BAD(w, D("sd_a.csv"), "--samples", T("s.csv.gz"));
    /* one file of GPU rows only, no --baseline: the default (cpu) is named as a default */
    uint64_t seed = 5;
    struct synth sy = {.shift = 0, .between = 0.01, .within = 0.01, .runs = 1, .reps = 30};
    write_runs("gpuonly", "cublas", &sy, 0, "h", "ok", &seed);
    snprintf(w, sizeof w,
             "%s: no cpu rows to compare against (the default baseline); pass --baseline DEVICE "
             "(devices in the file: cuda:0)",
             T("gpuonly.csv"));
    BAD(w, T("gpuonly.csv"));
    struct result r = CMP(T("gpuonly.csv"));
    CHECK_MSG(!strstr(r.err, "--baseline cpu"), "%s", r.err);
    result_free(&r);
}

/* The options of regression mode and the short options compare does not have. */
static void test_bad_options(void) {
    char w[4096];
#define W(fmt, name) (snprintf(w, sizeof w, fmt, D(name)), w)
    BAD("compare: --single-run-floor '-3': want a percentage", D("sd_a.csv"), "--single-run-floor",
        "-3");
    /* short options mean what they mean in `run`, or nothing: -s is --shape, -t --threads */
    BAD("compare: unknown option '-s'", D("sd_a.csv"), "-s", D("sd_a.samples.csv"));
    BAD("compare: unknown option '-t'", D("sd_a.csv"), "-t", "5");
    BAD("compare: unknown option '--bootstrap'", D("sd_a.csv"), "--bootstrap", "200");
    BAD(W("compare: %s: give every file after --base or --new", "reg_base.csv"), D("reg_base.csv"),
        "--base", D("reg_new.csv"), "--new", D("sd_a.csv"));
    BAD("compare: --new: no file given", "--base", D("reg_base.csv"), D("reg_new.csv"));
    BAD("compare: --baseline (slowdown mode) and --base/--new (regression mode) exclude",
        "--baseline", "cpu", "--base", D("reg_base.csv"), "--new", D("reg_new.csv"));
    BAD("runs are of different machines: host hosta vs hostb", D("sd_a.csv"), D("sd_b.csv"));
#undef W
}

/* sd_llc.csv: the CPU ran its memory-bound workload at its own default n=2^27 (arrays past its
 * last-level cache), both GPUs at the common n=2^24, each one shape: the GPUs' lines are measured
 * against the CPU's row by bandwidth (CPU GB/s / GPU GB/s: 25.2 / 1611 = 1/64), counted in the
 * means and the side-by-side pairs, and said so (issue 37 item 4). */
static void test_pair_by_bandwidth(void) {
    static const struct {
        const char *device;
        double k, e; /* time per byte over the CPU's */
    } want[] = {{"cuda:0", 1.0 / 64, 0.5}, {"cuda:1", 1.0 / 32, 1}};
    const char *f = D("sd_llc.csv");
    struct result r = CMP(f, "--baseline", "cpu", "--format", "csv");
    struct tab t;
    CHECK_MSG(r.rc == 0 && tab_parse(r.out, &t) == 0, "rc %d %s", r.rc, r.err);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        check_ratio(&t, f, want[i].device, "cuda", "n=16777216", want[i].k, want[i].e);
        int row = FIND(&t, "kind", "line", "device", want[i].device, "shape", "n=16777216");
        CHECK_MSG(row >= 0 && !strcmp(tab_get(&t, row, "note"),
                                      "by GB/s against the baseline's n=134217728"),
                  "%s: %s", want[i].device, row >= 0 ? tab_get(&t, row, "note") : "no line");
        row = FIND(&t, "kind", "geomean", "workload", "", "device", want[i].device);
        CHECK_MSG(row >= 0 && !strcmp(tab_get(&t, row, "note"), "geometric mean of 2 lines"),
                  "%s: %s", want[i].device, row >= 0 ? tab_get(&t, row, "note") : "no mean");
        row = FIND(&t, "kind", "pair", "device", want[i].device, "baseline_device", "cpu");
        CHECK_MSG(row >= 0 && strstr(tab_get(&t, row, "note"), "2 points both ran; 0 left out"),
                  "%s: %s", want[i].device, row >= 0 ? tab_get(&t, row, "note") : "no pair");
    }
    tab_free(&t);
    result_free(&r);
    /* a second CPU shape makes its side a ladder: only exact shapes pair, nothing by GB/s */
    FILE *in = fopen(f, "r"), *ladder = fopen(T("sd_llc_ladder.csv"), "w");
    CHECK(in && ladder);
    char line[1024];
    while (in && ladder && fgets(line, sizeof line, in))
        fputs(line, ladder);
    if (ladder)
        fputs("gpubench-1,20250104T000000Z-hostd-1,2025-01-04T00:00:00Z,hostd,cpu,Test CPU D,,,,,,,"
              "vecadd,cpu,float32,n=1048576,1048576.0,12582912.0,20,0.5,0.5,0.5,,0.495,0.505,,,,,,"
              "ok,,,\n",
              ladder);
    if (in)
        fclose(in);
    if (ladder)
        fclose(ladder);
    r = CMP(T("sd_llc_ladder.csv"), "--baseline", "cpu");
    CHECK_MSG(r.rc == 0 && !strstr(r.out, "by GB/s") && strstr(r.out, "no baseline"), "%s", r.out);
    result_free(&r);
    r = CMP(f, "--baseline", "cpu");
    CHECK_MSG(strstr(r.out, "n=16777216 vs n=134217728, by GB/s") &&
                  strstr(r.out, "64.0× faster") &&
                  strstr(r.out, "vecadd: Test CPU D (cpu)'s n=134217728 set beside the others' "
                                "n=16777216 by bandwidth (GB/s)"),
              "%s", r.out);
    result_free(&r);
    /* the CPU's row measured its cache (its note, as runner.c's cache_note writes it; a file
     * with the `marks` column says `cached`): a cache rate is set beside no memory rate */
    in = fopen(f, "r");
    FILE *cached = fopen(T("sd_llc_cached.csv"), "w");
    CHECK(in && cached);
    while (in && cached && fgets(line, sizeof line, in)) {
        char *ok = strstr(line, "vecadd,cpu,float32,n=134217728") ? strstr(line, ",ok,,") : NULL;
        if (ok)
            fprintf(cached, "%.*s,ok,\"working set 1.5 GiB fits in L3 (2 GiB): cache bandwidth, "
                            "not memory\",%s", (int)(ok - line), line, ok + 5);
        else
            fputs(line, cached);
    }
    if (in)
        fclose(in);
    if (cached)
        fclose(cached);
    r = CMP(T("sd_llc_cached.csv"), "--baseline", "cpu");
    CHECK_MSG(r.rc == 0 && !strstr(r.out, "64.0× faster") && strstr(r.out, "cache vs memory") &&
                  strstr(r.out, "not set side by side by bandwidth: one side's working set was "
                                "served by its last-level cache") &&
                  strstr(r.out, "[cached] rows of Test CPU D (cpu): the working set was served "
                                "by the last-level cache"),
              "%s", r.out);
    result_free(&r);
    r = CMP(T("sd_llc_cached.csv"), "--baseline", "cpu", "--format", "csv");
    CHECK_MSG(r.rc == 0 && tab_parse(r.out, &t) == 0, "rc %d %s", r.rc, r.err);
    int row = FIND(&t, "kind", "line", "device", "cuda:0", "shape", "n=16777216");
    CHECK_MSG(row >= 0 && !strcmp(tab_get(&t, row, "kernel_ratio"), "") &&
                  !strcmp(tab_get(&t, row, "cached"), "1") &&
                  strstr(tab_get(&t, row, "note"), "not set side by side by bandwidth"),
              "%s", row >= 0 ? tab_get(&t, row, "note") : "no line");
    row = FIND(&t, "kind", "pair", "device", "cuda:0", "baseline_device", "cpu");
    CHECK_MSG(row >= 0 && strstr(tab_get(&t, row, "note"), "1 points both ran; 1 left out"),
              "%s", row >= 0 ? tab_get(&t, row, "note") : "no pair");
    tab_free(&t);
    result_free(&r);
}


/* --- a busy machine, hangs, and the small items of issue 45 ----------------------------------- */

/* Write `text` into tmp_dir/name. */
static void put_text(const char *name, const char *text) {
    FILE *f = fopen(T(name), "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A row whose CPU was shared on a side (its cpu_wait_pct above 10%) is UNSURE with the reason,
 * never SLOWER; --strict refuses it; a quiet CPU (5%) leaves the verdict to the times. */
static void test_shared_cpu(void) {
    struct synth sy = {.shift = 0.30, .between = 0.02, .within = 0.01, .runs = 5, .reps = 20,
                       .wait_new = 41};
    struct verdict v = trial(&sy, 3, NULL);
    CHECK_MSG(!strcmp(v.verdict, "UNSURE") && v.rc == 0, "%s rc %d", v.verdict, v.rc);
    struct result r = CMP(T("base.csv"), T("new.csv"));
    CHECK_MSG(r.rc == 0 &&
                  strstr(r.out, "UNSURE: the new runs' CPU was shared: 41% of their time "
                                "waiting (median)") &&
                  strstr(r.out, "1 row timed on a shared CPU"),
              "rc %d\n%s", r.rc, r.out);
    result_free(&r);
    r = CMP(T("base.csv"), T("new.csv"), "--strict");
    CHECK_MSG(r.rc == 1 && strstr(r.out, "a shared CPU's rows are refused"), "rc %d\n%s", r.rc,
              r.out);
    result_free(&r);
    r = CMP(T("base.csv"), T("new.csv"), "--format", "json");
    CHECK_MSG(strstr(r.out, "\"cpu_wait_base_pct\": 2,\"cpu_wait_new_pct\": 41") &&
                  strstr(r.out, "\"cpu_shared_rows\": 1"),
              "%s", r.out);
    result_free(&r);
    sy.runs = 1; /* one run: "the new run's …, of its time" */
    v = trial(&sy, 4, NULL);
    r = CMP(T("base.csv"), T("new.csv"));
    CHECK_MSG(r.rc == 0 && strstr(r.out, "UNSURE: the new run's CPU was shared: 41% of its time "
                                         "waiting"),
              "rc %d\n%s", r.rc, r.out);
    result_free(&r);
    sy.runs = 5;
    sy.wait_new = 5; /* below the threshold: the times decide */
    v = trial(&sy, 3, NULL);
    CHECK_MSG(!strcmp(v.verdict, "SLOWER") && v.rc == 1, "%s rc %d", v.verdict, v.rc);
}

/* The fixed columns of a hand-made row up to `status`, of run RUN on host vm. */
#define HAND_HEAD                                                                                 \
    "schema,run_id,utc,host,device,device_name,cc,driver,runtime,blas_lib,dnn_lib,threads,"      \
    "workload,impl,dtype,shape,flops,bytes,reps,median_ms,min_ms,mean_ms,stddev_ms,ci95_lo_ms,"  \
    "ci95_hi_ms,e2e_median_ms,gflops,gbps,peak_pct,max_rel_err,status,note,hardware\n"
#define HAND_ROW(run, impl, median, status, note)                                                \
    "gpubench-1," run ",2026-01-01T00:00:00Z,vm,cuda:0,H100,9.0,580,13.0,cuBLAS,,,gemm," impl    \
    ",float16,m=512;n=512;k=512,1,1,20," median "," median "," median ",0,,," median            \
    ",,,,0," status "," note ",cpu=X;cores=2\n"

/* Issue 44 item 3: a row ok in the base runs and timeout (or error) in the new ones is a
 * regression whatever its times, named with the new row's note. */
static void test_hang_named(void) {
    put_text("hang_base.csv", HAND_HEAD HAND_ROW("b1", "cuda_tc", "1.5", "ok", "")
                                  HAND_ROW("b1", "cublas", "1.2", "ok", ""));
    put_text("hang_new.csv",
             HAND_HEAD HAND_ROW("n1", "cuda_tc", "", "timeout",
                                "gb_hgemm_wgmma_persist_128x256: timeout after 30 s; stage timing")
                 HAND_ROW("n1", "cublas", "1.2", "error", "cudaErrorIllegalAddress"));
    struct result r = CMP(T("hang_base.csv"), T("hang_new.csv"));
    CHECK_MSG(r.rc == 1 &&
                  strstr(r.out, "BROKEN: gb_hgemm_wgmma_persist_128x256: timeout after 30 s (ok "
                                "in the base runs)") &&
                  strstr(r.out, "BROKEN: error: cudaErrorIllegalAddress (ok in the base runs)") &&
                  strstr(r.out, "REGRESSION: 0 SLOWER, 2 BROKEN"),
              "rc %d\n%s%s", r.rc, r.out, r.err);
    result_free(&r);
    r = CMP(T("hang_base.csv"), T("hang_new.csv"), "--format", "csv");
    CHECK_MSG(r.rc == 1 && strstr(r.out, ",timeout,") &&
                  strstr(r.out, ",gb_hgemm_wgmma_persist_128x256: timeout after 30 s\n"),
              "%s", r.out);
    result_free(&r);
}

/* Issue 45 item 6: a 0 ms median refused; unsupported before and not chosen now is no
 * VANISHED; --common keeps the rows both sides ran; a side without the hardware column says the
 * machine's identity is not checked. */
static void test_small_items(void) {
    put_text("zero.csv", HAND_HEAD HAND_ROW("z1", "cublas", "0", "ok", ""));
    put_text("one.csv", HAND_HEAD HAND_ROW("o1", "cublas", "1.2", "ok", ""));
    struct result r = CMP(T("one.csv"), T("zero.csv"));
    CHECK_MSG(r.rc == 2 && strstr(r.err, "zero.csv:2: column median_ms: 0 is not a time"),
              "rc %d: %s", r.rc, r.err);
    result_free(&r);
    /* base: cublas ok, cuda_tc unsupported, cuda ok; new (run with -i cublas): cublas only */
    put_text("pick_base.csv", HAND_HEAD HAND_ROW("p1", "cublas", "1.2", "ok", "")
                                  HAND_ROW("p1", "cuda_tc", "", "unsupported", "no sm_90a")
                                      HAND_ROW("p1", "cuda", "3.0", "ok", ""));
    put_text("pick_new.csv", HAND_HEAD HAND_ROW("p2", "cublas", "1.2", "ok", ""));
    r = CMP(T("pick_base.csv"), T("pick_new.csv"));
    CHECK_MSG(r.rc == 1 && strstr(r.out, "unsupported before, not run now") &&
                  strstr(r.out, "1 VANISHED"),
              "rc %d\n%s", r.rc, r.out);
    result_free(&r);
    r = CMP(T("pick_base.csv"), T("pick_new.csv"), "--common");
    CHECK_MSG(r.rc == 0 && strstr(r.out, "--common: 1 row of one side only left out") &&
                  !strstr(r.out, "VANISHED") && strstr(r.out, "unsupported before, not run now"),
              "rc %d\n%s", r.rc, r.out);
    result_free(&r);
    /* the hand-made files have a hardware column; reg_base.csv has none */
    r = CMP(T("pick_base.csv"), T("pick_new.csv"));
    CHECK(!strstr(r.out, "machine identity not recorded"));
    result_free(&r);
    r = CMP(D("reg_base.csv"), D("reg_same.csv"));
    CHECK_MSG(strstr(r.out, "machine identity not recorded: cannot check"), "%s", r.out);
    result_free(&r);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    data_dir = argv[1];
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_known_shift();
    test_pure_noise();
    test_below_threshold();
    test_single_run();
    test_status_changes();
    test_shared_cpu();
    test_hang_named();
    test_small_items();
    test_sides();
    test_hosts();
    test_machines();
    test_regression_files();
    test_regression_runs();
    test_slowdown_exact();
    test_crossover_per_tier();
    test_pairs_ignore_baseline();
    test_pair_by_bandwidth();
    test_emulation_named();
    test_regression_emulation_marked();
    test_startup_line_apart();
    test_pair_names_its_file();
    test_crossover_uncertain();
    test_overstating_baseline();
    test_slowdown_join();
    test_formats();
    test_bad_input();
    test_bad_options();
    test_not_csv();
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp_dir);
    return TEST_END();
}
