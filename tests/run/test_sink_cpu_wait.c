/* test_sink_cpu_wait.c — the run table and markdown mark a row timed on a shared CPU (its
 * cpu_wait_pct above CPU_WAIT_SHARED_PCT) "ok [shared-cpu]" and say once, under the table, how many rows did
 * and which were worst; a row at or below the threshold, or unknown, is a plain "ok". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/run/sinks.h"
#include "tests/capture.h"
#include "tests/testhelp.h"

static const struct workload w = {.name = "gemm"};
static const struct impl im = {.name = "openblas"};
static const struct device dev = {.id = "cpu", .kind = DEV_CPU, .name = "Test CPU"};

/* The sink's stdout, in format fmt, for rows whose cpu_wait_pct are pct[0..n). */
static char *sink_output(enum out_format fmt, const double *pct, int n) {
    struct stdout_capture cap;
    stdout_capture_begin(&cap);
    struct run_info ri = {.run_id = "r", .utc = "t", .host = "h"};
    struct sink s;
    sink_begin(&s, fmt, 20, 8, &ri, NULL);
    for (int i = 0; i < n; i++) {
        struct result r;
        memset(&r, 0, sizeof r);
        r.dev = &dev;
        r.w = &w;
        r.im = &im;
        r.status = ST_OK;
        r.st.n = 10;
        r.st.median = 1;
        r.gflops = r.gbps = r.peak_pct = -1;
        r.cpu_wait_pct = pct[i];
        snprintf(r.shape_short, sizeof r.shape_short, "m=%d", i + 1);
        sink_row(&s, &ri, &r);
    }
    sink_end(&s);
    return stdout_capture_end(&cap);
}

static int count(const char *text, const char *what) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

int main(void) {
    const double pct[] = {41.4, 5, 97, CPU_WAIT_SHARED_PCT, -1, 60.2};
    for (int md = 0; md < 2; md++) {
        char *t = sink_output(md ? FMT_MARKDOWN : FMT_TABLE, pct, 6);
        CHECK(t != NULL);
        if (!t)
            continue;
        /* three rows marked (harness/io/marks.h), and the footer's "CPU shared" once */
        CHECK_MSG(count(t, "ok [shared-cpu]") == 3, "%s", t);
        CHECK_MSG(count(t, "CPU shared: 3 of 5 timed rows waited for a core more than 10%") ==
                      1,
                  "%s", t);
        /* the worst first, with their shares */
        const char *a = strstr(t, "cpu gemm openblas f32 m=3 (97%)"),
                   *b = strstr(t, "cpu gemm openblas f32 m=6 (60%)"),
                   *c = strstr(t, "cpu gemm openblas f32 m=1 (41%)");
        CHECK_MSG(a && b && c && a < b && b < c, "%s", t);
        free(t);
    }
    /* no shared row: no mark, no footer */
    const double quiet[] = {1, 4.9, -1};
    char *t = sink_output(FMT_TABLE, quiet, 3);
    CHECK_MSG(t && !strstr(t, "[shared-cpu]") && !strstr(t, "CPU shared"), "%s", t ? t : "");
    free(t);
    return TEST_END();
}
