/* test_io.c — harness/io: JSON numbers read back as the same double in the fewest digits; the
 * row formats write what their readers need (timed rows only in gbench and bmf, null where the
 * CSV is empty, nanoseconds in bmf); a result file on a device (/dev/null) leaves nothing; a
 * terminal table's cell is padded by display columns, not bytes (termcols.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/io/json.h"
#include "harness/io/rows.h"
#include "harness/io/termcols.h"
#include "tests/testhelp.h"

/* 1 when `text` reads back as exactly v (same bits), as a JSON reader would parse it. */
static int reads_back(const char *text, double v) {
    double got = strtod(text, NULL);
    return memcmp(&got, &v, sizeof v) == 0 || (got == 0 && v == 0);
}

/* The count of significant digits of a number's text ("1000000000" has 1, "0.00125" 3). */
static int digits(const char *text) {
    char d[64];
    int n = 0;
    for (const char *p = text; *p && *p != 'e' && n < 63; p++)
        if (*p >= '0' && *p <= '9' && (n || *p != '0'))
            d[n++] = *p;
    while (n > 1 && d[n - 1] == '0')
        n--;
    return n ? n : 1;
}

/* Round trip and shortness of one value: its text reads back, and one digit fewer would not. */
static void check_number(double v) {
    char text[JSON_NUMBER_MAX], shorter[400];
    json_number_text(text, sizeof text, v);
    CHECK_MSG(reads_back(text, v), "%.17g written as %s", v, text);
    int d = digits(text);
    snprintf(shorter, sizeof shorter, "%.*e", d - 2, v); /* d - 1 significant digits */
    CHECK_MSG(d == 1 || !reads_back(shorter, v), "%s is not the shortest: %s reads back too", text,
              shorter);
}

static void test_numbers(void) {
    char text[JSON_NUMBER_MAX];
    const struct {
        double v;
        const char *want;
    } known[] = {{0.1, "0.1"},
                 {1048576, "1048576"},
                 {17179869184.0, "17179869184"},
                 {1e9, "1000000000"},
                 {1e21, "1e+21"},
                 {2.5e-7, "2.5e-07"},
                 {-2.5, "-2.5"},
                 {0, "0"},
                 {1.0 / 3, "0.3333333333333333"},
                 {NAN, "null"},
                 {INFINITY, "null"},
                 {-INFINITY, "null"}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        json_number_text(text, sizeof text, known[i].v);
        CHECK_MSG(strcmp(text, known[i].want) == 0, "%.17g: %s, want %s", known[i].v, text,
                  known[i].want);
    }
    const double edges[] = {5e-324,
                            2.2250738585072014e-308,
                            1.7976931348623157e308,
                            -1.7976931348623157e308,
                            9007199254740993.0,
                            123456.789e-3};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        check_number(edges[i]);
    uint64_t x = 0x9e3779b97f4a7c15ULL; /* random bit patterns: every exponent, every mantissa */
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v;
        memcpy(&v, &x, sizeof v);
        if (isfinite(v))
            check_number(v);
        check_number((double)(x >> 11) / 1e6); /* times in ms as a run has them */
    }
}

/* A hand-made run of two rows: one timed, one unsupported (not timed). */
static const struct workload toy = {.name = "toy"};
static const struct impl im = {.name = "loop", .kind = DEV_CUDA};
static struct device dev = {.id = "cuda:0", .kind = DEV_CUDA, .name = "Fake GPU", .cc = "3.5"};
static const struct run_info ri = {
    .run_id = "r1", .utc = "2026-01-01T00:00:00Z", .host = "h", .slurm_job = "77", .run = 3};
static const double samples[] = {2.0, 2.5, 3.0};

static void make_rows(struct result r[2]) {
    memset(r, 0, 2 * sizeof *r);
    for (int i = 0; i < 2; i++) {
        r[i] = (struct result){.dev = &dev,
                               .w = &toy,
                               .im = &im,
                               .flops = 1e9,
                               .bytes = 12,
                               .e2e_median_ms = 4.5,
                               .batch_ms = 2.25,
                               .gflops = 400,
                               .gbps = -1,
                               .peak_pct = -1,
                               .max_rel_err = 0,
                               .status = ST_OK};
        snprintf(r[i].shape, sizeof r[i].shape, "n=%d", i + 8);
    }
    r[0].samples = samples;
    stats_compute(samples, 3, &r[0].st);
    r[0].cpu_wait_pct = 12.5;
    r[1].cpu_wait_pct = -1;
    r[1].status = ST_UNSUPPORTED;
    r[1].max_rel_err = -1;
    snprintf(r[1].note, sizeof r[1].note, "no kernel image");
}

/* Write the two rows in format `fmt` into buf. Returns the entries written. */
static int write_rows(const struct row_format *fmt, char *buf, size_t len) {
    struct result r[2];
    int written = 0;
    make_rows(r);
    FILE *f = fmemopen(buf, len, "w");
    fmt->begin(f, &ri);
    for (int i = 0; i < 2; i++)
        written += fmt->row(f, &ri, &r[i], written);
    fmt->end(f, written);
    fclose(f);
    return written;
}

static void test_formats(void) {
    char buf[8192];
    CHECK(rows_find("json") == &rows_json && rows_find("gbench") == &rows_gbench &&
          rows_find("bmf") == &rows_bmf && rows_find("csv") == &rows_csv && !rows_find("xml"));

    CHECK(write_rows(&rows_json, buf, sizeof buf) == 2);
    CHECK(strncmp(buf, "{\"schema\": \"gpubench-1\", \"command\": \"run\"", 41) == 0);
    CHECK(strstr(buf, "\"threads\": null") && strstr(buf, "\"gbps\": null"));
    CHECK(strstr(buf, "\"median_ms\": 2.5, ") && strstr(buf, "\"flops\": 1000000000, "));
    CHECK(strstr(buf, "\"batch_ms\": 2.25, \"run\": 3, \"slurm_job_id\": \"77\", "
                      "\"slurm_array_task_id\": null, \"hardware\": null, \"sm_clock_start_mhz\": null"));
    CHECK(strstr(buf, "\"ecc\": null, \"persistence\": null, \"shared_gpu\": null, "
                      "\"cpu_wait_pct\": 12.5, \"marks\": [\"shared-cpu\"]}")); /* no telemetry */
    CHECK(strstr(buf, "\"shared_gpu\": null, \"cpu_wait_pct\": null, \"marks\": []}")); /* untimed */
    CHECK(strstr(buf, "\"batch_ms\": null, \"run\": 3, \"slurm_job_id\"") != NULL); /* untimed */
    CHECK(strstr(buf, "\"reps\": 0, \"median_ms\": null") != NULL); /* the untimed row */

    CHECK(write_rows(&rows_gbench, buf, sizeof buf) == 1); /* the timed row only */
    CHECK(strstr(buf, "\"name\": \"toy/loop/cuda:0/n=8\", \"family_index\": 0") != NULL);
    CHECK(strstr(buf, "\"real_time\": 2500000, \"cpu_time\": 2500000, \"time_unit\": \"ns\"") !=
          NULL);
    CHECK(strstr(buf, "\"flops_per_second\": 400000000000, \"e2e_time\": 4500000}") != NULL);
    CHECK(!strstr(buf, "n=9") && !strstr(buf, "bytes_per_second"));

    CHECK(write_rows(&rows_bmf, buf, sizeof buf) == 1);
    /* 3 samples: no 95% interval of the median (stats.h), so no lower_value/upper_value */
    /* timed on a shared CPU (cpu_wait_pct 12.5): its mark ends the name (harness/io/marks.h) */
    CHECK(strstr(buf, "\"toy/loop/cuda:0/n=8 [shared-cpu]\": {\"latency\": {\"value\": 2500000}") !=
          NULL);
    CHECK(!strstr(buf, "lower_value") && !strstr(buf, "null"));
    CHECK(strstr(buf, "\"e2e-latency\": {\"value\": 4500000}") != NULL);
    CHECK(!strstr(buf, "n=9"));
}

/* A result file on /dev/null: written in place, nothing created beside it. */
static void test_device_file(void) {
    struct result_file rf;
    struct result r[2];
    char err[256];
    make_rows(r);
    CHECK(result_file_open(&rf, "/dev/null", &rows_json, &ri, err, sizeof err) == 0);
    result_file_row(&rf, &ri, &r[0]);
    CHECK(result_file_commit(&rf, err, sizeof err) == 0);
    CHECK(access("/dev/null.partial", F_OK) != 0);
    CHECK(result_file_open(&rf, "/tmp", &rows_csv, &ri, err, sizeof err) == -1 &&
          strstr(err, "not a regular file"));
}

/* "0.1–0.2" is 9 bytes and 7 columns: padded to 10 columns it takes 10, by printf's "%*s" with
 * term_field's width and by term_cell, on either side. */
static void test_term_cols(void) {
    const char *ci = "0.1\u20130.2", *mu = "5 \u00b5s \u00d72";
    char buf[64];
    CHECK(strlen(ci) == 9 && term_cols(ci) == 7 && term_cols(mu) == 7 && term_cols(NULL) == 0);
    CHECK(term_cols("ascii") == 5 && term_field("ascii", 8) == 8);
    snprintf(buf, sizeof buf, "[%*s]", term_field(ci, 10), ci);
    CHECK_MSG(strcmp(buf, "[   0.1\u20130.2]") == 0, "%s", buf);
    snprintf(buf, sizeof buf, "[%-*s]", term_field(mu, 9), mu);
    CHECK_MSG(strcmp(buf, "[5 \u00b5s \u00d72  ]") == 0, "%s", buf);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    term_cell(f, ci, 8, 1);
    term_cell(f, mu, 8, 0);
    term_cell(f, "toolong", 3, 0); /* wider than its column: whole, no padding */
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    CHECK_MSG(strcmp(buf, " 0.1\u20130.25 \u00b5s \u00d72 toolong") == 0, "%s", buf);
}

int main(void) {
    test_term_cols();
    test_numbers();
    test_formats();
    test_device_file();
    return TEST_END();
}
