/* test_core_units.c — statistics, shape parsing, CSV quoting and column order, the validator,
 * deterministic inputs, the thread pool's ranges. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/inputs.h"
#include "harness/io/csv_write.h"
#include "harness/core/shape.h"
#include "harness/core/stats.h"
#include "harness/core/verify.h"
#include "kernels/common/cpu_pool.h"
#include "tests/testhelp.h"

/* A uniform double in [0, 1) from (trial, i): the tests' seeded samples. */
static double unit(uint64_t trial, uint64_t i) {
    return ((double)(splitmix64(trial * 1000003ULL + i) >> 11) + 0.5) / 9007199254740992.0;
}

/* Coverage of the 95% CI of the median against a simulation: for n from the smallest that has
 * an interval up, and for four shapes of distribution (uniform, exponential, log-normal, and
 * timing-like: a floor with heavy-tailed interference), the interval of `trials` seeded samples
 * contains the true median in 95% ± 2% of them. */
static void test_ci_coverage(void) {
    static const size_t ns[] = {6, 7, 8, 9, 10, 12, 15, 20, 30, 50, 100};
    enum { TRIALS = 4000, DISTS = 4 };
    static const char *const names[DISTS] = {"uniform", "exponential", "log-normal", "timing"};
    double med[DISTS] = {0.5, log(2.0), 1.0, 0};
    /* timing: 1 + 0.2·Pareto(1.5) spikes: median 1 + 0.2·(2^(1/1.5) − 1) */
    med[3] = 1.0 + 0.2 * (pow(2.0, 1 / 1.5) - 1.0);
    double x[100];
    struct stats st;
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (int dist = 0; dist < DISTS; dist++) {
            size_t n = ns[k], cover = 0;
            for (uint64_t t = 0; t < TRIALS; t++) {
                uint64_t trial = (uint64_t)dist << 40 | (uint64_t)n << 20 | t;
                for (size_t i = 0; i < n; i++) {
                    double u = unit(trial, i);
                    if (dist == 0)
                        x[i] = u;
                    else if (dist == 1)
                        x[i] = -log(1 - u);
                    else if (dist == 2) /* Box-Muller from two uniforms */
                        x[i] = exp(sqrt(-2 * log(u)) * cos(2 * M_PI * unit(trial, i + 500)));
                    else
                        x[i] = 1.0 + 0.2 * (pow(1 - u, -1 / 1.5) - 1.0);
                }
                CHECK(stats_compute(x, n, &st) == 0);
                cover += st.ci_lo <= med[dist] && med[dist] <= st.ci_hi;
            }
            double c = (double)cover / TRIALS;
            CHECK_MSG(fabs(c - 0.95) <= 0.02, "n=%zu %s: coverage %.4f, want 0.95 +- 0.02", n,
                      names[dist], c);
        }
}

static void test_stats(void) {
    double x[] = {5, 1, 4, 2, 3};
    struct stats st;
    CHECK(stats_compute(x, 5, &st) == 0);
    CHECK(st.n == 5 && st.median == 3 && st.min == 1 && st.mean == 3);
    CHECK(fabs(st.stddev - sqrt(2.5)) < 1e-12);
    /* n < 6: even [min, max] covers only 1 - 2/2^5 = 93.75%: no interval, not [min, max] */
    CHECK_MSG(isnan(st.ci_lo) && isnan(st.ci_hi), "n=5: ci %g-%g, want none", st.ci_lo, st.ci_hi);
    CHECK(stats_median_ci_min_n(0.95) == 6 && stats_median_ci_min_n(0.99) == 8);
    CHECK(x[0] == 5); /* input untouched */
    double three[] = {3, 1, 2};
    CHECK(stats_compute(three, 3, &st) == 0 && isnan(st.ci_lo) && isnan(st.ci_hi));
    double even[] = {4, 1, 3, 2};
    CHECK(stats_compute(even, 4, &st) == 0 && st.median == 2.5);
    /* Binomial coverage of [s(d), s(n-d+1)]: n = 6, d = 1: 1 - 2/64; n = 10, d = 2: 1 - 22/1024 */
    CHECK(fabs(stats_median_ci_coverage(6, 1) - (1 - 2.0 / 64)) < 1e-12);
    CHECK(fabs(stats_median_ci_coverage(10, 2) - (1 - 22.0 / 1024)) < 1e-12);
    CHECK(stats_median_ci_coverage(10, 0) == 1);
    /* Large n: the normal approximation, 1 - 2·Φ((d - 1 + ½ - n/2)/(√n/2)) */
    double z = (40 - 1 + 0.5 - 50) / 5.0;
    CHECK(fabs(stats_median_ci_coverage(100, 40) - (1 - erfc(-z / sqrt(2.0)))) < 2e-3);
    CHECK(stats_median_ci_coverage(10000000, 4990000) > 0.999);
    /* n = 6: between s(1) and s(2) (Hettmansperger-Sheather: lambda = 0.357) */
    double six[] = {1, 2, 3, 4, 5, 6}, lo, hi;
    CHECK(stats_median_ci(six, 6, 0.95, &lo, &hi) == 0);
    CHECK_MSG(fabs(lo - 1.357) < 0.01 && fabs(hi - 5.643) < 0.01, "n=6: %g-%g", lo, hi);
    /* Ties at the timer's resolution: (1 − λ)a + λa rounded past a, so that the sample median
     * fell outside its own interval (test runner_notes, now and then). Every tied sample and
     * λ: the interval holds the median exactly. */
    for (int k = 1; k < 1000; k++) {
        double a = 2.99998e-05 * k / 7.0, tied[] = {a / 1.5, a, a, a, a, a};
        CHECK(stats_compute(tied, 6, &st) == 0);
        if (!(st.ci_lo <= st.median && st.median <= st.ci_hi && st.ci_hi == a)) {
            CHECK_MSG(0, "ties: median %.17g outside %.17g-%.17g", st.median, st.ci_lo, st.ci_hi);
            break;
        }
    }
    double big[100];
    for (int i = 0; i < 100; i++)
        big[i] = 100 - i; /* 100..1 */
    CHECK(stats_compute(big, 100, &st) == 0);
    /* n = 100: d = 40 (coverage 96.5%), interpolated towards 41 */
    CHECK_MSG(st.median == 50.5 && st.ci_lo > 40 && st.ci_lo < 41 && st.ci_hi > 60 && st.ci_hi < 61,
              "n=100: %g-%g", st.ci_lo, st.ci_hi);
    CHECK(fabs((st.ci_lo + st.ci_hi) / 2 - 50.5) < 1e-9); /* symmetric ranks */
    CHECK(stats_compute(NULL, 0, &st) == 0 && st.n == 0);
    test_ci_coverage();
}

/* A toy workload for the shape parser: a plain key, a required one, and an _h/_w pair that a
 * bare "stride" sets both of (as convolutions use). Its own complete() rejects n < 1
 * with a message of its own, as a real workload's does. */
static const char *const toy_keys[] = {"n", "k", "stride_h", "stride_w", NULL};
static const char *const toy_shapes[] = {"n=1,k=1", NULL};

static int toy_complete(struct shape *s, const int *given, char *err, size_t errlen) {
    if (!given[0] || !given[1]) {
        snprintf(err, errlen, "missing key '%s' for toy", given[0] ? "k" : "n");
        return -1;
    }
    if (s->v[0] <= 0) {
        snprintf(err, errlen, "n=%ld must be positive", s->v[0]);
        return -1;
    }
    for (int i = 2; i < 4; i++)
        if (!given[i])
            s->v[i] = 1;
    return 0;
}

static const struct workload toy = {.name = "toy", .summary = "shape parsing", .keys = toy_keys,
                                    .default_shapes = toy_shapes, .quick_shapes = toy_shapes,
                                    .sweep_shapes = toy_shapes, .test_shapes = toy_shapes,
                                    .complete = toy_complete};

static void test_shapes(void) {
    const struct workload *w = &toy;
    struct shape s;
    char err[256], out[256];
    CHECK(shape_parse(w, "n=1000,k=3", &s, err, sizeof err) == 0 && s.v[0] == 1000);
    CHECK(shape_parse(w, "n=2^20,k=1", &s, err, sizeof err) == 0 && s.v[0] == 1048576);
    shape_format(w, &s, out, sizeof out);
    CHECK_MSG(strcmp(out, "n=1048576;k=1;stride_h=1;stride_w=1") == 0, "%s", out);
    CHECK(shape_parse(w, "n=0,k=1", &s, err, sizeof err) != 0 && strstr(err, "positive"));
    CHECK(shape_parse(w, "n=-5,k=1", &s, err, sizeof err) != 0 && strstr(err, "negative"));
    CHECK(shape_parse(w, "n=12x,k=1", &s, err, sizeof err) != 0 &&
          strstr(err, "not a whole number"));
    CHECK(shape_parse(w, "m=5", &s, err, sizeof err) != 0 && strstr(err, "unknown key 'm'"));
    CHECK(shape_parse(w, "n=5,n=6", &s, err, sizeof err) != 0 && strstr(err, "twice"));
    CHECK(shape_parse(w, "n", &s, err, sizeof err) != 0 && strstr(err, "key=value"));
    CHECK(shape_parse(w, "", &s, err, sizeof err) != 0);
    CHECK(shape_parse(w, "n=99999999999999999999999", &s, err, sizeof err) != 0);
    CHECK(shape_parse(w, "n=17;k=33", &s, err, sizeof err) == 0); /* ';' separates too */
    /* a partial shape takes the default shape's value ("n=1,k=1") for each key left out */
    CHECK(shape_parse(w, "n=17", &s, err, sizeof err) == 0 && s.v[0] == 17 && s.v[1] == 1);
    CHECK(shape_parse(w, "k=5", &s, err, sizeof err) == 0 && s.v[0] == 1 && s.v[1] == 5);
    /* stride= sets both axes; the canonical form always writes per-axis keys, the short form
     * folds an equal pair back. */
    CHECK(shape_parse(w, "n=1,k=4,stride=2", &s, err, sizeof err) == 0);
    shape_format(w, &s, out, sizeof out);
    CHECK_MSG(strstr(out, "stride_h=2;stride_w=2") != NULL, "%s", out);
    CHECK(shape_parse(w, "n=1,k=4,stride_h=2,stride_w=8", &s, err, sizeof err) == 0);
    shape_format_short(w, &s, out, sizeof out);
    CHECK_MSG(strstr(out, "stride_h=2 stride_w=8") != NULL, "%s", out);
    long v;
    CHECK(parse_long("12", 1, 100, 0, &v, err, sizeof err, "--reps") == 0 && v == 12);
    CHECK(parse_long("0", 1, 100, 0, &v, err, sizeof err, "--reps") != 0 &&
          strstr(err, "--reps"));
    CHECK(parse_long("1e3", 1, 10000, 0, &v, err, sizeof err, "--reps") != 0);
    CHECK(parse_long(" 5", 1, 100, 0, &v, err, sizeof err, "--reps") != 0);
}

/* Capture what csv_field writes. */
static void field_to(const char *in, char *out, size_t len) {
    memset(out, 0, len);
    FILE *f = fmemopen(out, len, "w");
    csv_field(f, in);
    fclose(f);
}

static void test_csv(void) {
    char out[128];
    field_to("plain", out, sizeof out);
    CHECK(strcmp(out, "plain") == 0);
    field_to("a,b", out, sizeof out);
    CHECK(strcmp(out, "\"a,b\"") == 0);
    field_to("say \"hi\"", out, sizeof out);
    CHECK(strcmp(out, "\"say \"\"hi\"\"\"") == 0);
    field_to("two\nlines", out, sizeof out);
    CHECK(strcmp(out, "\"two\nlines\"") == 0);
    field_to("", out, sizeof out);
    CHECK(strcmp(out, "") == 0);
    /* The fixed columns of results/README.md, in order, lead the header. */
    const char *fixed =
        "schema,run_id,utc,host,device,device_name,cc,driver,runtime,blas_lib,dnn_lib,threads,"
        "workload,impl,dtype,shape,flops,bytes,reps,median_ms,min_ms,mean_ms,stddev_ms,"
        "ci95_lo_ms,ci95_hi_ms,e2e_median_ms,gflops,gbps,peak_pct,max_rel_err,status,note";
    CHECK(strncmp(CSV_HEADER, fixed, strlen(fixed)) == 0);
    CHECK(CSV_HEADER[strlen(fixed)] == ',' || CSV_HEADER[strlen(fixed)] == '\0');
    /* the extra columns after them, in order (results/README.md): the telemetry's, the shared
     * CPU's, then the marks (harness/io/marks.h), last */
    const char *extra = ",batch_ms,run,slurm_job_id,slurm_array_task_id,hardware,";
    CHECK(strncmp(CSV_HEADER + strlen(fixed), extra, strlen(extra)) == 0);
    const char *last = strrchr(CSV_HEADER, ',');
    CHECK(last && strcmp(last, ",marks") == 0);
    CHECK(strstr(CSV_HEADER, ",shared_gpu,cpu_wait_pct,marks") != NULL);
    /* the seven fixed samples columns, the row's tier, then the telemetry trace */
    CHECK(strcmp(SAMPLES_HEADER,
                 "run_id,device,workload,impl,shape,rep,ms,dtype,sm_clock_mhz,power_w") == 0);

    /* A row has as many fields as the header, with quoting where the note needs it. */
    struct device d = {.id = "cpu", .kind = DEV_CPU, .name = "Test, CPU", .threads = 2};
    const struct impl im = {.name = "loop", .kind = DEV_CPU};
    struct result r = {.dev = &d, .w = &toy, .im = &im, .shape = "n=8", .flops = 8,
                       .bytes = 96, .e2e_median_ms = 1, .gflops = 1, .gbps = 1, .peak_pct = 1,
                       .max_rel_err = 0, .status = ST_OK};
    snprintf(r.note, sizeof r.note, "note with \"quotes\", commas");
    double sm[] = {1.0, 2.0};
    r.samples = sm;
    stats_compute(sm, 2, &r.st);
    struct run_info ri = {.run_id = "abc", .utc = "2026-01-01T00:00:00Z", .host = "h"};
    char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    csv_write_result(f, &ri, &r);
    fclose(f);
    int fields = 1, inq = 0;
    for (char *p = buf; *p && *p != '\n'; p++) {
        if (*p == '"')
            inq = !inq;
        else if (*p == ',' && !inq)
            fields++;
    }
    int header_fields = 1;
    for (const char *p = CSV_HEADER; *p; p++)
        header_fields += *p == ',';
    CHECK_MSG(fields == header_fields, "%d fields, header has %d: %s", fields, header_fields, buf);
    CHECK(strncmp(buf, "gpubench-1,abc,", 15) == 0);
    CHECK(strstr(buf, "\"Test, CPU\"") != NULL);
    CHECK(strstr(buf, ",ok,\"note with \"\"quotes\"\", commas\"") != NULL);
}

static void test_verify(void) {
    float got[4] = {1.0f, 2.0f, NAN, 4.0f};
    double ref[4] = {1.0, 2.0000001, 3.0, 5.0};
    struct verify_report r;
    verify_begin(&r);
    CHECK(verify_close(&r, "x", got, ref, NULL, 2, 1e-6, 1e-6) == 0);
    CHECK(verify_status(&r) == ST_OK);
    CHECK(verify_close(&r, "x", got, ref, NULL, 4, 1e-6, 1e-6) == 2); /* NaN and 4 vs 5 */
    CHECK(r.bad == 2 && r.checked == 6 && verify_status(&r) == ST_WRONG);
    CHECK(strstr(r.first_bad, "x[2]=nan") != NULL && strstr(r.first_bad, "x[3]=4 want 5"));
    CHECK(isinf(r.max_rel_err));
    size_t idx[2] = {1, 3};
    double sref[2] = {2.0, 4.0};
    verify_begin(&r);
    CHECK(verify_close(&r, "y", got, sref, idx, 2, 1e-6, 1e-6) == 0 && r.checked == 2);
}

static void test_inputs(void) {
    float a[1000], b[1000];
    fill_uniform(a, 1000, 42, 1, -1, 1);
    fill_uniform(b, 1000, 42, 1, -1, 1);
    CHECK(memcmp(a, b, sizeof a) == 0);                /* deterministic */
    fill_uniform(b + 500, 500, 42, 1, -1, 1);          /* pure function of the index? */
    CHECK(memcmp(a, b + 500, 500 * sizeof(float)) == 0); /* same stream restarts at index 0 */
    fill_uniform(b, 1000, 43, 1, -1, 1);
    CHECK(memcmp(a, b, sizeof a) != 0); /* the seed matters */
    int zeros = 0, inrange = 1;
    double mean = 0;
    for (int i = 0; i < 1000; i++) {
        zeros += a[i] == 0;
        inrange &= a[i] >= -1 && a[i] < 1;
        mean += a[i] / 1000.0;
    }
    CHECK(zeros == 0 && inrange && fabs(mean) < 0.1);
    size_t *idx = sample_indices(100, 10, 7);
    CHECK(idx && idx[0] == 0 && idx[9] == 99);
    for (int i = 1; idx && i < 10; i++)
        CHECK(idx[i - 1] <= idx[i] && idx[i] < 100);
    free(idx);
}

static void count_part(void *arg, int tid, int n) {
    size_t lo, hi;
    pool_range(1000, n, tid, 16, &lo, &hi);
    int *hits = arg;
    for (size_t i = lo; i < hi; i++)
        __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
}

static void test_pool(void) {
    /* Ranges cover [0, n) exactly once, aligned starts. */
    for (int parts = 1; parts <= 7; parts++) {
        size_t expect = 0;
        for (int i = 0; i < parts; i++) {
            size_t lo, hi;
            pool_range(1001, parts, i, 16, &lo, &hi);
            CHECK(lo == expect && lo % 16 == 0 && hi >= lo);
            expect = hi;
        }
        CHECK(expect == 1001);
    }
    int hits[1000] = {0};
    CHECK(pool_start(3, NULL, NULL) == 0 && pool_threads() == 3);
    pool_run(count_part, hits);
    pool_run(count_part, hits);
    int all_two = 1;
    for (int i = 0; i < 1000; i++)
        all_two &= hits[i] == 2;
    CHECK(all_two);
    pool_stop();
    CHECK(pool_threads() == 1);
}

int main(void) {
    test_stats();
    test_shapes();
    test_csv();
    test_verify();
    test_inputs();
    test_pool();
    return TEST_END();
}
