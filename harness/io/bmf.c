/* bmf.c — the run in Bencher Metric Format (rows.h: rows_bmf), the JSON that `bencher run
 * --adapter json` reads (https://bencher.dev/docs/reference/bencher-metric-format):
 *
 *   {"WORKLOAD/IMPL/DEVICE/SHAPE": {"latency": {"value": median, "lower_value": CI low,
 *                                               "upper_value": CI high},
 *                                   "e2e-latency": {"value": end-to-end median}}, …}
 *
 * Bencher's built-in Latency measure is in nanoseconds, so the milliseconds are converted.
 * `latency` is the kernel-only median with its 95% confidence interval; `e2e-latency` (GPU rows
 * only: on the CPU it equals latency) adds the host<->device copies and has no interval. Only
 * timed rows are written: a benchmark without a value is no BMF entry.
 *
 * Bencher knows a benchmark by its name, so what changes a figure's meaning (harness/io/marks.h)
 * is a suffix of the name: "gemm/cublas/cuda:0/m=256;n=256;k=256 [emulated]". An emulated or
 * cached row is then a benchmark of its own, never a point in the history of a card's or a
 * memory-bound row's. */
#include "harness/io/json.h"
#include "harness/io/marks.h"
#include "harness/io/rows.h"

#include <math.h>
#include <string.h>

enum { NS_PER_MS = 1000000 };

static void bmf_begin(FILE *f, const struct run_info *ri) {
    (void)ri;
    fputc('{', f);
}

static int bmf_row(FILE *f, const struct run_info *ri, const struct result *r, int written) {
    char name[512], words[96];
    (void)ri;
    if (r->st.n == 0)
        return 0;
    rows_bench_name(r, name, sizeof name);
    if (*marks_words(marks_of(r), ",", words, sizeof words)) {
        size_t n = strlen(name);
        snprintf(name + n, sizeof name - n, " [%s]", words);
    }
    fputs(written ? ",\n  " : "\n  ", f);
    json_string(f, name);
    fputs(": {\"latency\": {", f);
    json_member_number(f, "", "value", r->st.median * NS_PER_MS);
    if (isfinite(r->st.ci_lo) && isfinite(r->st.ci_hi)) { /* none from too few repetitions */
        json_member_number(f, ", ", "lower_value", r->st.ci_lo * NS_PER_MS);
        json_member_number(f, ", ", "upper_value", r->st.ci_hi * NS_PER_MS);
    }
    fputc('}', f);
    if (r->dev->kind != DEV_CPU && r->e2e_median_ms >= 0) {
        fputs(", \"e2e-latency\": {", f);
        json_member_number(f, "", "value", r->e2e_median_ms * NS_PER_MS);
        fputc('}', f);
    }
    fputc('}', f);
    return 1;
}

static void bmf_end(FILE *f, int written) {
    fputs(written ? "\n}\n" : "}\n", f);
}

const struct row_format rows_bmf = {"bmf", bmf_begin, bmf_row, bmf_end};
