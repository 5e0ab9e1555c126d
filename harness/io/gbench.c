/* gbench.c — the run in Google Benchmark's JSON format (rows.h: rows_gbench), so that tools
 * written for it read gpubench results unchanged: its tools/compare.py (Debian's
 * libbenchmark-tools: `compare.py benchmarks A.json B.json`), github-action-benchmark's
 * `googlecpp` tool, and the dashboards that take `--benchmark_format=json` output.
 *
 *   {"context": {"date", "host_name", "executable": "gpubench", gpubench_* provenance},
 *    "benchmarks": [{"name": "WORKLOAD/IMPL/DEVICE/SHAPE", "run_type": "iteration",
 *                    "iterations": reps, "real_time": median, "cpu_time": median,
 *                    "time_unit": "ns", counters…}, …]}
 *
 * One entry per timed row. Rows that were not timed (unsupported, wrong, oom, error) are left
 * out: compare.py reads real_time and cpu_time of every entry, and a failed row has none (the
 * CSV and JSON keep them). cpu_time repeats the kernel-only median: gpubench measures wall time
 * (CUDA events on a GPU), not process CPU time. Counters, as Google Benchmark writes user
 * counters: bytes_per_second and flops_per_second where the workload declares them, e2e_time
 * (the median with host<->device copies, in time_unit) on GPU rows. Times are in nanoseconds,
 * Google Benchmark's default unit: compare.py prints them as whole numbers of the unit.
 *
 * What changes a figure's meaning (harness/io/marks.h) is the entry's `label`, as Google
 * Benchmark writes a SetLabel ("emulated, cached"), and the context says the run's simulated
 * devices ("gpubench_emulated": "cuda:0 (simulated Tesla K40m)") and what each label word means
 * ("gpubench_marks", one string), so a file of a simulated run is not taken for a card's. */
#include "harness/io/json.h"
#include "harness/io/marks.h"
#include "harness/io/rows.h"

enum { NS_PER_MS = 1000000 };

static void gbench_begin(FILE *f, const struct run_info *ri) {
    fputs("{\n  \"context\": {", f);
    json_member_string(f, "", "date", ri->utc);
    json_member_string(f, ", ", "host_name", ri->host);
    json_member_string(f, ", ", "executable", "gpubench");
    json_member_string(f, ", ", "gpubench_schema", JSON_SCHEMA);
    json_member_string(f, ", ", "gpubench_version", GPUBENCH_VERSION);
    json_member_string(f, ", ", "gpubench_run_id", ri->run_id);
    char sim[512] = "";
    size_t n = 0;
    for (int i = 0; i < ri->ndevs && n < sizeof sim; i++)
        if (device_is_simulated(ri->devs[i]->name))
            n += (size_t)snprintf(sim + n, sizeof sim - n, "%s%s (%s)", n ? ", " : "",
                                  ri->devs[i]->id, ri->devs[i]->name);
    if (n)
        json_member_string(f, ", ", "gpubench_emulated", sim);
    char legend[1024];
    n = 0;
    for (int i = 0; i < MARK_KINDS && n < sizeof legend; i++)
        n += (size_t)snprintf(legend + n, sizeof legend - n, "%s%s: %s", i ? "; " : "",
                              mark_kinds[i].word, mark_kinds[i].legend);
    json_member_string(f, ", ", "gpubench_marks", legend);
    fputs("},\n  \"benchmarks\": [", f);
}

/* A counter, only when it applies (json_number would write null, which is no counter). */
static void counter(FILE *f, const char *key, double v, int applies) {
    if (applies)
        json_member_number(f, ", ", key, v);
}

/* Entries are numbered among the timed rows: family_index counts the entries written. */
static int gbench_row(FILE *f, const struct run_info *ri, const struct result *r, int written) {
    char name[512];
    (void)ri;
    if (r->st.n == 0)
        return 0;
    rows_bench_name(r, name, sizeof name);
    fputs(written ? ",\n    {" : "\n    {", f);
    json_member_string(f, "", "name", name);
    json_member_number(f, ", ", "family_index", written);
    json_member_number(f, ", ", "per_family_instance_index", 0);
    json_member_string(f, ", ", "run_name", name);
    json_member_string(f, ", ", "run_type", "iteration");
    json_member_number(f, ", ", "repetitions", 1);
    json_member_number(f, ", ", "repetition_index", 0);
    json_member_number(f, ", ", "threads", r->dev->kind == DEV_CPU ? r->dev->threads : 1);
    json_member_number(f, ", ", "iterations", (double)r->st.n);
    json_member_number(f, ", ", "real_time", r->st.median * NS_PER_MS);
    json_member_number(f, ", ", "cpu_time", r->st.median * NS_PER_MS);
    json_member_string(f, ", ", "time_unit", "ns");
    char label[96];
    if (*marks_words(marks_of(r), ", ", label, sizeof label))
        json_member_string(f, ", ", "label", label);
    counter(f, "bytes_per_second", r->gbps * 1e9, r->gbps >= 0);
    counter(f, "flops_per_second", r->gflops * 1e9, r->gflops >= 0);
    counter(f, "e2e_time", r->e2e_median_ms * NS_PER_MS,
            r->dev->kind != DEV_CPU && r->e2e_median_ms >= 0);
    fputc('}', f);
    return 1;
}

static void gbench_end(FILE *f, int written) {
    fputs(written ? "\n  ]\n}\n" : "]\n}\n", f);
}

const struct row_format rows_gbench = {"gbench", gbench_begin, gbench_row, gbench_end};
