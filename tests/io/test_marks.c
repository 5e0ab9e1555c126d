/* test_marks.c — one row of each mark (harness/io/marks.h) through every printer of a run: the
 * table and Markdown (harness/run/sinks.c), the CSV (written, then read back by csv_read.c), the
 * run JSON, Google Benchmark JSON and Bencher's BMF. Each row's mark must arrive in each, and a
 * plain row must carry none. (compare's and the plots' marks: tests/compare/marks_plot.py.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/io/csv_read.h"
#include "harness/io/marks.h"
#include "harness/io/rows.h"
#include "harness/run/sinks.h"
#include "tests/capture.h"
#include "tests/testhelp.h"

static const struct workload toy = {.name = "toy"};
static const struct impl im = {.name = "loop", .kind = DEV_CUDA};
static struct device gpu = {.id = "cuda:0", .kind = DEV_CUDA, .name = "Real GPU", .cc = "9.0"};
static struct device sim = {
    .id = "cuda:1", .kind = DEV_CUDA, .name = DEVICE_SIMULATED_PREFIX "Tesla K40m", .cc = "3.5"};
static const struct device *const devs[] = {&gpu, &sim};
static const struct run_info ri = {
    .run_id = "r1", .utc = "2026-01-01T00:00:00Z", .host = "h", .devs = devs, .ndevs = 2};
static const double samples[] = {2.0, 2.5, 3.0};

/* Row 0 is plain; row 1 + i has mark_kinds[i] alone. Each row's shape names its row: n=1+i. */
enum { NROWS = 1 + MARK_KINDS };
static void make_rows(struct result r[NROWS]) {
    memset(r, 0, NROWS * sizeof *r);
    for (int i = 0; i < NROWS; i++) {
        r[i] = (struct result){.dev = &gpu,
                               .w = &toy,
                               .im = &im,
                               .flops = 1e9,
                               .bytes = 12,
                               .e2e_median_ms = 4.5,
                               .batch_ms = -1,
                               .gflops = 400,
                               .gbps = -1,
                               .peak_pct = -1,
                               .max_rel_err = 0,
                               .cpu_wait_pct = -1,
                               .status = ST_OK,
                               .samples = samples};
        stats_compute(samples, 3, &r[i].st);
        snprintf(r[i].shape, sizeof r[i].shape, "n=%d", i);
        snprintf(r[i].shape_short, sizeof r[i].shape_short, "n=%d", i);
        unsigned bit = i ? mark_kinds[i - 1].bit : 0;
        if (bit == MARK_EMULATED)
            r[i].dev = &sim;
        r[i].cached = bit == MARK_CACHED;
        r[i].below_timer_res = bit == MARK_BELOW_RES;
        if (bit == MARK_SHARED_CPU)
            r[i].cpu_wait_pct = MARK_SHARED_CPU_PCT + 1;
        else if (i == 0)
            r[i].cpu_wait_pct = MARK_SHARED_CPU_PCT; /* at the threshold: not shared */
    }
}

/* The line of `text` that holds the row n=i (its first), with its newline. */
static const char *row_line(const char *text, int i, char *line, size_t len) {
    char key[16];
    snprintf(key, sizeof key, "n=%d", i);
    const char *p = strstr(text, key);
    line[0] = '\0';
    if (!p)
        return line;
    const char *a = p, *b = strchr(p, '\n');
    while (a > text && a[-1] != '\n')
        a--;
    snprintf(line, len, "%.*s", (int)(b ? b + 1 - a : (long)strlen(a)), a); /* with its \n */
    return line;
}

/* Every row's line must hold its mark's word (as the format writes it) and the plain row none. */
static void check_lines(const char *fmt, const char *text, const char *pre, const char *post) {
    char line[8192], want[64];
    for (int i = 0; i < NROWS; i++) {
        row_line(text, i, line, sizeof line);
        CHECK_MSG(line[0], "%s: no line for n=%d", fmt, i);
        for (int k = 0; k < MARK_KINDS; k++) {
            snprintf(want, sizeof want, "%s%s%s", pre, mark_kinds[k].word, post);
            int has = strstr(line, want) != NULL;
            CHECK_MSG(has == (i == k + 1), "%s: row n=%d %s '%s': %s", fmt, i,
                      has ? "has" : "lacks", want, line);
        }
    }
}

/* The rows through a machine format into a malloc'd text. */
static char *machine(const struct row_format *fmt) {
    struct result r[NROWS];
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int written = 0;
    make_rows(r);
    fmt->begin(f, &ri);
    for (int i = 0; i < NROWS; i++)
        written += fmt->row(f, &ri, &r[i], written);
    fmt->end(f, written);
    fclose(f);
    return buf;
}

/* The rows through the table or Markdown sink (stdout, taken into a file). */
static char *human(enum out_format fmt) {
    struct result r[NROWS];
    struct sink s;
    struct stdout_capture cap;
    stdout_capture_begin(&cap);
    make_rows(r);
    sink_begin(&s, fmt, 8, 8, &ri, "");
    for (int i = 0; i < NROWS; i++)
        sink_row(&s, &ri, &r[i]);
    sink_end(&s);
    return stdout_capture_end(&cap);
}

static void test_human(void) {
    for (int md = 0; md < 2; md++) {
        const char *name = md ? "markdown" : "table";
        char *t = human(md ? FMT_MARKDOWN : FMT_TABLE);
        check_lines(name, t, "ok [", "]");
        for (int k = 0; k < MARK_KINDS; k++) { /* the legend under the table */
            char want[300];
            snprintf(want, sizeof want, "[%s] in 1 row: %s", mark_kinds[k].word,
                     mark_kinds[k].legend);
            CHECK_MSG(strstr(t, want) != NULL, "%s: no legend '%s'", name, want);
        }
        free(t);
    }
}

static void test_machine(void) {
    char *t = machine(&rows_csv);
    check_lines("csv", t, ",", "\n"); /* the last column */
    struct csv_table tab;
    char err[CSV_ERR_LEN];
    CHECK_MSG(csv_read_buffer("marks.csv", t, strlen(t), CSV_RUN, &tab, err, sizeof err) == 0, "%s",
              err);
    for (size_t i = 0; i < tab.nrows; i++) /* read back as they were written */
        CHECK_MSG(tab.run[i].marks == (i ? mark_kinds[i - 1].bit : 0u), "csv read: row %zu: %u", i,
                  tab.run[i].marks);
    CHECK(tab.nrows == NROWS);
    csv_free(&tab);
    free(t);

    t = machine(&rows_json);
    check_lines("json", t, "\"marks\": [\"", "\"]}");
    CHECK(strstr(t, "\"marks\": []}") != NULL); /* the plain row */
    free(t);

    t = machine(&rows_gbench);
    check_lines("gbench", t, "\"label\": \"", "\"");
    CHECK(strstr(t, "\"gpubench_emulated\": \"cuda:1 (simulated Tesla K40m)\"") != NULL);
    CHECK(strstr(t, "\"gpubench_marks\": \"emulated: ") != NULL);
    free(t);

    t = machine(&rows_bmf);
    check_lines("bmf", t, " [", "]\"");
    free(t);
}

/* Files written before the `marks` column: a simulated device and runner.c's cache note. */
static void test_old_files(void) {
    CHECK(marks_of_fields(NULL, "simulated NVIDIA H100", "") == MARK_EMULATED);
    CHECK(marks_of_fields(NULL, "NVIDIA H200",
                          "working set 192 MiB fits in L3 (300 MiB): cache "
                          "bandwidth, not memory") == MARK_CACHED);
    CHECK(marks_of_fields(NULL, "NVIDIA H200", "working set 1 MiB fits in L2 (50 MiB)") == 0);
    CHECK(marks_of_fields("", "simulated NVIDIA H100", "") == 0); /* the column decides */
    CHECK(marks_parse("cached+emulated+newword") == (MARK_CACHED | MARK_EMULATED));
}

int main(void) {
    test_human();
    test_machine();
    test_old_files();
    return TEST_END();
}
