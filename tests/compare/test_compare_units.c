/* test_compare_units.c — the strict CSV reader and the rank statistics behind `gpubench compare`.
 * usage: test_compare_units DATA_DIR (tests/data/compare) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/io/csv_write.h"
#include "harness/io/csv_read.h"
#include "harness/compare/rankstats.h"
#include "tests/testhelp.h"

static const char *data_dir;

static void path_of(char *buf, size_t len, const char *name) {
    snprintf(buf, len, "%s/%s", data_dir, name);
}

/* The reader's fixed columns are the writer's (harness/io/csv_write.c): one fact, checked here. */
static void test_columns_match_writer(void) {
    char joined[1024] = "";
    for (int i = 0; csv_run_columns[i]; i++) {
        if (i)
            strcat(joined, ",");
        strcat(joined, csv_run_columns[i]);
    }
    size_t n = strlen(joined);
    CHECK_MSG(strncmp(CSV_HEADER, joined, n) == 0 && (CSV_HEADER[n] == ',' || !CSV_HEADER[n]),
              "writer header '%s' does not start with the reader's '%s'", CSV_HEADER, joined);
    joined[0] = '\0';
    for (int i = 0; csv_samples_columns[i]; i++) {
        if (i)
            strcat(joined, ",");
        strcat(joined, csv_samples_columns[i]);
    }
    strcat(joined, ",dtype"); /* the writer adds the row's tier after the fixed columns, */
    /* then the telemetry trace (sm_clock_mhz, power_w) */
    CHECK(strncmp(SAMPLES_HEADER, joined, strlen(joined)) == 0 &&
          SAMPLES_HEADER[strlen(joined)] == ',');
    int n_run = 0, n_samples = 0;
    while (csv_run_columns[n_run])
        n_run++;
    while (csv_samples_columns[n_samples])
        n_samples++;
    CHECK(n_run == CSV_RUN_NCOLS);
    CHECK(n_samples == CSV_SAMPLES_NCOLS);
}

static void test_read_good(void) {
    char p[1024], err[CSV_ERR_LEN];
    struct csv_table t;
    path_of(p, sizeof p, "sd_a.csv");
    CHECK_MSG(csv_read_file(p, CSV_RUN, &t, err, sizeof err) == 0, "%s", err);
    CHECK(t.nrows == 20);
    CHECK(t.ncols == CSV_RUN_NCOLS + 2);
    CHECK(csv_col_index(&t, "slurm_array_task_id") == CSV_RUN_NCOLS + 1);
    CHECK(strncmp(t.header_raw, "schema,run_id,", 14) == 0);
    CHECK(strstr(t.header_raw, "\n") == NULL);
    const struct run_row *r = &t.run[0];
    CHECK(r->line == 2);
    CHECK(!strcmp(r->device, "cpu") && !strcmp(r->impl, "openblas"));
    CHECK(r->threads == 2);
    CHECK(r->reps == 20);
    CHECK(r->median_ms == 8.0);
    CHECK(isnan(r->e2e_median_ms)); /* empty number → NaN */
    CHECK(r->status == ST_OK);
    CHECK(r->cc[0] == '\0');
    CHECK(!strcmp(r->raw[CSV_RUN_NCOLS], "")); /* the extra columns are kept, raw */
    const struct run_row *u = &t.run[19];
    CHECK(!strcmp(u->impl, "cudnn") && u->e2e_median_ms == 1.0);
    CHECK(u->threads == -1); /* empty integer → -1 */
    csv_free(&t);

    path_of(p, sizeof p, "sd_b.csv"); /* written in reverse: its unsupported row comes first */
    CHECK_MSG(csv_read_file(p, CSV_RUN, &t, err, sizeof err) == 0, "%s", err);
    CHECK(t.nrows == 20 && t.run[0].status == ST_UNSUPPORTED);
    CHECK(t.nrows == 20 && strstr(t.run[0].note, "needs compute capability") != NULL);
    CHECK(t.nrows == 20 && isnan(t.run[0].median_ms));
    csv_free(&t);

    path_of(p, sizeof p, "sd_a.samples.csv");
    CHECK_MSG(csv_read_file(p, CSV_SAMPLES, &t, err, sizeof err) == 0, "%s", err);
    CHECK(t.nrows > 0 && t.samples[0].rep == 0 && t.samples[0].ms > 0);
    csv_free(&t);
}

/* RFC 4180 details: BOM, CRLF, quoted comma, doubled quote and a newline inside quotes (the
 * next record's line number counts it). */
static void test_read_quoting(void) {
    char p[1024], err[CSV_ERR_LEN];
    struct csv_table t;
    path_of(p, sizeof p, "crlf_quoted.csv");
    CHECK_MSG(csv_read_file(p, CSV_RUN, &t, err, sizeof err) == 0, "%s", err);
    CHECK(t.nrows == 20);
    CHECK(!strcmp(t.run[0].note, "a note, with \"quotes\"\r\nand a second line"));
    CHECK(t.run[0].line == 2);
    CHECK(t.run[1].line == 4);
    CHECK(!strcmp(t.cols[0], "schema")); /* the BOM is not part of the first name */
    csv_free(&t);

    /* in memory, no final line end, "inf" where the writer puts it */
    char buf[4096];
    int n = snprintf(buf, sizeof buf, "%s\n", CSV_HEADER);
    n += snprintf(buf + n, sizeof buf - (size_t)n,
                  "gpubench-1,r1,,h,cuda:0,GPU,3.5,,,,,,wl,cuda,float32,\"m=1;n=1;k=1\","
                  "2,12,0,,,,,,,,,,,inf,wrong,\"c[0]=nan\"");
    /* then empty fields for every column after `note` (Slurm provenance and later ones) */
    for (const char *c = strstr(CSV_HEADER, ",note") + 5; *c; c++)
        if (*c == ',')
            buf[n++] = ',';
    buf[n] = '\0';
    CHECK_MSG(csv_read_buffer("mem.csv", buf, (size_t)n, CSV_RUN, &t, err, sizeof err) == 0, "%s",
              err);
    CHECK(t.nrows == 1 && isinf(t.run[0].max_rel_err) && t.run[0].status == ST_WRONG);
    CHECK(t.nrows == 1 && !strcmp(t.run[0].shape, "m=1;n=1;k=1"));
    csv_free(&t);
    /* "inf" anywhere else is refused */
    char *at = strstr(buf, ",2,12,");
    memcpy(at, ",i,12,", 6);
    CHECK(csv_read_buffer("mem.csv", buf, (size_t)n, CSV_RUN, &t, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "mem.csv:2: column flops: 'i' is not a number") != NULL, "%s", err);
    csv_free(&t); /* safe after a failure */
}

/* Errors name file, line and column; nothing is kept. */
static void test_read_errors(void) {
    static const struct {
        const char *text;
        enum csv_kind kind;
        const char *want;
    } cases[] = {
        {"", CSV_RUN, "x.csv: empty file"},
        {"\n", CSV_RUN, "x.csv: empty file"},
        {"schema,run_id\ngpubench-1,a\n", CSV_RUN, "x.csv:1: column utc: missing"},
        {"run_id,device,workload,impl,shape,rep,ms\n", CSV_RUN, "this is a samples file"},
        {"run_id,device,workload,impl,shape,rep,ms\nr,cpu,w,i,s,0,\n", CSV_SAMPLES,
         "x.csv:2: column ms: empty"},
        {"run_id,device,workload,impl,shape,rep,ms\nr,cpu,w,i,s,-1,1\n", CSV_SAMPLES,
         "x.csv:2: column rep: '-1' is not a whole number"},
        {"run_id,device,workload,impl,shape,rep,ms\nr,cpu,w,i,s,0, 1\n", CSV_SAMPLES,
         "x.csv:2: column ms: ' 1' is not a number"},
        {"run_id,device,workload,impl,shape,rep,ms\nr,cpu,w,i,s,0,1\nr,cpu,w,i,s,0,2\n",
         CSV_SAMPLES,
         "x.csv:3: column rep: duplicate row (same run_id=r device=cpu workload=w "
         "impl=i shape=s rep=0 as line 2)"},
        {"run_id,device,workload,impl,shape,rep,ms\nr,cpu,w,i,s,0,1\r", CSV_SAMPLES,
         "x.csv:2: column ms: carriage return without a line feed"},
        {"run_id,device,workload,impl,shape,rep,ms\n\"r\"x,cpu,w,i,s,0,1\n", CSV_SAMPLES,
         "x.csv:2: column run_id: text after a closing quote"},
        {"run_id,device,workload,impl,shape,rep,ms\nr,cpu,w,i,s,0,1\n\nr,cpu,w,i,s,1,1\n",
         CSV_SAMPLES, "x.csv:3: column run_id: blank line between rows"},
        {"run_id,device,workload,impl,shape,rep,ms,ms\n", CSV_SAMPLES,
         "x.csv:1: column ms: appears twice"},
        {"run_id,device,workload,impl,shape,rep,ms,\n", CSV_SAMPLES,
         "x.csv:1: column #8: empty column name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct csv_table t;
        char err[CSV_ERR_LEN] = "";
        int rc = csv_read_buffer("x.csv", cases[i].text, strlen(cases[i].text), cases[i].kind, &t,
                                 err, sizeof err);
        CHECK_MSG(rc == -1 && strstr(err, cases[i].want) && !strchr(err, '\n'),
                  "case %zu: got '%s', want '%s'", i, err, cases[i].want);
        CHECK(t.nrows == 0 && t.run == NULL && t.samples == NULL);
    }
    /* trailing blank lines are fine */
    const char *ok = "run_id,device,workload,impl,shape,rep,ms\r\nr,cpu,w,i,s,0,1\r\n\r\n\n";
    struct csv_table t;
    char err[CSV_ERR_LEN];
    CHECK_MSG(csv_read_buffer("x.csv", ok, strlen(ok), CSV_SAMPLES, &t, err, sizeof err) == 0, "%s",
              err);
    CHECK(t.nrows == 1);
    csv_free(&t);
}

/* Reference values from scipy.stats.mannwhitneyu(b, a, method="asymptotic",
 * use_continuity=True, alternative="two-sided"). */
static void test_mwu(void) {
    struct rank_mwu r;
    const double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
    CHECK(rank_mwu_test(a, 5, b, 5, &r) == 0);
    CHECK(r.u == 25);
    CHECK(fabs(r.p - 0.012185780355344813) < 1e-12);
    CHECK(r.z > 0);
    CHECK(rank_mwu_test(b, 5, a, 5, &r) == 0);
    CHECK(r.u == 0 && r.z < 0 && fabs(r.p - 0.012185780355344813) < 1e-12);
    /* ties: scipy gives U = 12.5 (for b) and p = 0.4098467293684632 */
    const double ta[] = {1, 2, 2, 3, 3, 3}, tb[] = {2, 3, 4};
    CHECK(rank_mwu_test(ta, 6, tb, 3, &r) == 0);
    CHECK_MSG(r.u == 12.5, "u=%g", r.u);
    CHECK_MSG(fabs(r.p - 0.4098467293684632) < 1e-12, "p=%.17g", r.p);
    /* all tied: no evidence at all */
    const double same[] = {4, 4, 4};
    CHECK(rank_mwu_test(same, 3, same, 3, &r) == 0 && r.p == 1);
    CHECK(rank_mwu_test(a, 0, b, 5, &r) == -1);
}

/* A row of the fixed columns (note empty) and the extra columns of `header` after note, all
 * empty but `run` (value run_value; NULL: empty), into buf at *n. */
static void add_row(char *buf, size_t len, int *n, const char *header, const char *run_id,
                    const char *run_value) {
    *n += snprintf(buf + *n, len - (size_t)*n,
                   "gpubench-1,%s,,h,cpu,CPU,,,,,,2,wl,cpu,float32,n=8,8,96,3,1,1,1,0,1,1,1,,,,0,"
                   "ok,",
                   run_id);
    const char *c = strstr(header, ",note") + 5;
    while (*c == ',') {
        const char *name = c + 1, *end = strchr(name, ',');
        size_t nl = end ? (size_t)(end - name) : strlen(name);
        *n += snprintf(buf + *n, len - (size_t)*n, ",%s",
                       nl == 3 && !strncmp(name, "run", 3) && run_value ? run_value : "");
        c = end ? end : name + nl;
    }
    *n += snprintf(buf + *n, len - (size_t)*n, "\n");
}

/* The extra column `run`: read as a number, -1 when empty or absent, refused when not one. */
static void test_run_column(void) {
    char buf[4096], err[CSV_ERR_LEN];
    struct csv_table t;
    int n = snprintf(buf, sizeof buf, "%s\n", CSV_HEADER);
    add_row(buf, sizeof buf, &n, CSV_HEADER, "r1", "3");
    add_row(buf, sizeof buf, &n, CSV_HEADER, "r2", NULL);
    CHECK_MSG(csv_read_buffer("run.csv", buf, (size_t)n, CSV_RUN, &t, err, sizeof err) == 0, "%s",
              err);
    CHECK(t.nrows == 2 && t.run[0].run == 3 && t.run[1].run == -1);
    csv_free(&t);
    n = snprintf(buf, sizeof buf, "%s\n", CSV_HEADER);
    add_row(buf, sizeof buf, &n, CSV_HEADER, "r1", "x");
    CHECK(csv_read_buffer("run.csv", buf, (size_t)n, CSV_RUN, &t, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "run.csv:2: column run: 'x' is not a whole number") != NULL, "%s", err);
    /* a file of before the column: every run -1 */
    char old[1024];
    snprintf(old, sizeof old, "%.*s", (int)(strstr(CSV_HEADER, ",run,") - CSV_HEADER), CSV_HEADER);
    n = snprintf(buf, sizeof buf, "%s\n", old);
    add_row(buf, sizeof buf, &n, old, "r1", "5");
    CHECK_MSG(csv_read_buffer("old.csv", buf, (size_t)n, CSV_RUN, &t, err, sizeof err) == 0, "%s",
              err);
    CHECK(t.nrows == 1 && t.run[0].run == -1);
    csv_free(&t);
}

/* The extra column `cpu_wait_pct` (the last but `marks`): a percentage, NaN when empty or absent, refused
 * above 100 or negative. */
static void test_cpu_wait_column(void) {
    static const struct {
        const char *value, *err; /* NULL: read */
        double want;             /* NaN: empty */
    } cases[] = {{"41.5", NULL, 41.5},
                 {"", NULL, NAN},
                 {"0", NULL, 0},
                 {"150", "w.csv:2: column cpu_wait_pct: 150 is above 100", 0},
                 {"-3", "w.csv:2: column cpu_wait_pct: -3 is negative", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char buf[4096], err[CSV_ERR_LEN] = "";
        struct csv_table t;
        int n = snprintf(buf, sizeof buf, "%s\n", CSV_HEADER);
        add_row(buf, sizeof buf, &n, CSV_HEADER, "r1", "0");
        /* the row ends ",,\n": cpu_wait_pct's field, then the marks' (left empty) */
        n += snprintf(buf + n - 2, sizeof buf - (size_t)n + 2, "%s,\n", cases[i].value) - 2;
        int rc = csv_read_buffer("w.csv", buf, (size_t)n, CSV_RUN, &t, err, sizeof err);
        if (cases[i].err) {
            CHECK_MSG(rc == -1 && strstr(err, cases[i].err), "case %zu: %s", i, err);
        } else {
            CHECK_MSG(rc == 0, "case %zu: %s", i, err);
            double got = rc == 0 ? t.run[0].cpu_wait_pct : -1;
            CHECK_MSG(isnan(cases[i].want) ? isnan(got) : got == cases[i].want, "case %zu: %g", i,
                      got);
        }
        csv_free(&t);
    }
}

static int dcmp(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void test_median_geomean(void) {
    uint64_t s = 3;
    int bad = 0;
    for (int t = 0; t < 2000; t++) {
        size_t n = 1 + rank_rng_next(&s) % 60;
        double x[64], y[64];
        for (size_t i = 0; i < n; i++)
            x[i] = y[i] = (double)(rank_rng_next(&s) % 9);
        qsort(y, n, sizeof *y, dcmp);
        double want = n % 2 ? y[n / 2] : 0.5 * (y[n / 2 - 1] + y[n / 2]);
        bad += rank_median_inplace(x, n) != want;
    }
    CHECK(bad == 0);
    const double g[] = {0.25, 4, 2, 8};
    CHECK(fabs(rank_geomean(g, 4) - 2) < 1e-15);
    CHECK(isnan(rank_geomean(g, 0)));
    const double neg[] = {1, -1};
    CHECK(isnan(rank_geomean(neg, 2)));
    uint64_t s1 = 42, s2 = 42;
    CHECK(rank_rng_next(&s1) == rank_rng_next(&s2));
    double u = rank_rng_uniform(&s1);
    CHECK(u >= 0 && u < 1);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    data_dir = argv[1];
    test_columns_match_writer();
    test_read_good();
    test_read_quoting();
    test_read_errors();
    test_mwu();
    test_run_column();
    test_cpu_wait_column();
    test_median_geomean();
    return TEST_END();
}
