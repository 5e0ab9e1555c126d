/* slowdown_json.c — the slowdown report as one JSON document: the baseline, the lines, the
 * geometric means and the crossovers, each section printed by its own function. */
#include "harness/compare/shared.h"
#include "harness/compare/slowdown.h"

static void json_kv(FILE *out, const char *k, const char *v, int comma) {
    json_string(out, k);
    fputc(':', out);
    json_string(out, v);
    if (comma)
        fputc(',', out);
}

static void json_kn(FILE *out, const char *k, double v, int comma) {
    json_string(out, k);
    fputc(':', out);
    json_number(out, v);
    if (comma)
        fputc(',', out);
}

/* "slow_cpu": a CPU that ran far under its peak, its cause and the report's sentence
 * (slow_cpu.c); null for every other device. */
static void json_slow(const struct sd *d, FILE *out, int s) {
    struct sd_slow sl;
    json_string(out, "slow_cpu");
    if (!sd_slow_cpu(d, s, &sl)) {
        fputs(":null", out);
        return;
    }
    fputs(":{", out);
    json_kn(out, "peak_pct", sl.pct, 1);
    json_kv(out, "workload", sl.row->workload, 1);
    json_kv(out, "shape", sl.row->shape, 1);
    json_kv(out, "dtype", sl.row->dtype, 1);
    json_kv(out, "impl", sl.row->impl, 1);
    json_kn(out, "cpu_wait_pct", sl.wait_pct, 1);
    const char *names[4];
    int n;
    sd_slow_cause_names(sl.causes, names, &n);
    fputs("\"causes\":[", out);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        json_string(out, names[i]);
    }
    fputs("],", out);
    json_kv(out, "text", sl.text, 0);
    fputc('}', out);
}

static void json_series(const struct sd *d, FILE *out, int s) {
    const struct cmp_series *se = &d->in->series[s];
    json_kv(out, "device", se->device, 1);
    json_kv(out, "device_name", se->first->device_name, 1);
    json_kv(out, "cc", se->first->cc, 1);
    json_kv(out, "label", se->label, 1);
    json_kv(out, "file", d->in->runs[se->file].name, 1);
    json_kv(out, "run_id", se->run_id, 1);
    struct cmp_shared sh = cmp_shared_of(d->in, se->file, se->run_id, se->device);
    fprintf(out, "\"simulated\":%s,", sd_simulated(d, s) ? "true" : "false");
    fprintf(out, "\"shared_gpu\":%s,", !sh.known ? "null" : sh.yes ? "true" : "false");
    json_slow(d, out, s);
}

/* One geomean entry, opened by `open`; with_dtype: it has a dtype member (several tiers). */
static void json_mean(const struct sd *d, FILE *out, const char *open, const char *workload,
                      int with_dtype, const char *dtype, int s, int n, double gk, double ge) {
    fputs(open, out);
    json_kv(out, "workload", workload, 1);
    if (with_dtype)
        json_kv(out, "dtype", dtype, 1);
    json_series(d, out, s);
    fputc(',', out);
    json_kn(out, "lines", n, 1);
    json_kn(out, "kernel_ratio", gk, 1);
    json_kn(out, "e2e_ratio", ge, 0);
    fputc('}', out);
}

/* With several tiers, the geomean entries of each tier over all workloads (workload null). */
static void json_tier_geomeans(struct sd *d, FILE *out) {
    for (int c = 0; c < d->ncombo && sd_tier_count(d) > 1; c++) {
        int seen = 0;
        for (int e = 0; e < c && !seen; e++)
            seen = !strcmp(d->combo[e].dtype, d->combo[c].dtype);
        for (int s = 0; s < d->in->nseries && !seen; s++) {
            double gk, ge;
            d->only_dtype = d->combo[c].dtype;
            int n = sd_geomeans(d, s, 0, d->ncombo, &gk, &ge);
            d->only_dtype = NULL;
            if (s != d->base && n)
                json_mean(d, out, ",\n{", NULL, 1, d->combo[c].dtype, s, n, gk, ge);
        }
    }
}

/* The workloads whose lines are one-time costs, in no geometric mean. */
static void json_left_out(const struct sd *d, FILE *out) {
    int first = 1;
    for (int c = 0; c < d->ncombo; c++)
        if (d->combo[c].one_time && (c == 0 || !d->combo[c - 1].one_time ||
                                     strcmp(d->combo[c - 1].workload, d->combo[c].workload))) {
            if (!first)
                fputc(',', out);
            json_string(out, d->combo[c].workload);
            first = 0;
        }
}

/* One entry per line and device: its times, the baseline's, the ratios (sd_each_line). */
struct json_ctx {
    FILE *out;
    int first;
};

static void json_line(const struct sd *d, int c, int s, const struct run_row *r,
                      const struct run_row *b, double kr, double er, void *ctx) {
    struct json_ctx *j = ctx;
    FILE *out = j->out;
    fputs(j->first ? "\n{" : ",\n{", out);
    j->first = 0;
    json_kv(out, "workload", d->combo[c].workload, 1);
    json_kv(out, "shape", d->combo[c].shape, 1);
    json_kv(out, "dtype", d->combo[c].dtype, 1);
    json_kv(out, "impl", d->combo[c].impl, 1);
    json_series(d, out, s);
    fputc(',', out);
    json_kv(out, "status", status_name(r->status), 1);
    json_kn(out, "flops", r->flops, 1);
    json_kn(out, "bytes", r->bytes, 1);
    json_kn(out, "ms", r->median_ms, 1);
    json_kn(out, "e2e_ms", r->e2e_median_ms, 1);
    json_kv(out, "baseline_impl", b ? b->impl : NULL, 1);
    json_kn(out, "baseline_ms", b ? b->median_ms : NAN, 1);
    json_kn(out, "baseline_e2e_ms", b ? e2e_ms(b) : NAN, 1);
    json_kn(out, "kernel_ratio", kr, 1);
    json_kn(out, "e2e_ratio", er, 1);
    /* what changes the meaning of a time (harness/io/marks.h), the row's and its baseline's */
    fprintf(out, "\"cached\":%s,\"baseline_cached\":%s",
            r->marks & MARK_CACHED ? "true" : "false",
            b && (b->marks & MARK_CACHED) ? "true" : "false");
    if (d->combo[c].bw_shape && cache_against_memory(r, b)) {
        fputc(',', out);
        json_kv(out, "note", SD_CACHE_NOTE, 0);
    }
    fputc('}', out);
}

/* The geometric means per workload table and over all workloads (workload null), then per tier. */
static void json_geomeans(struct sd *d, FILE *out) {
    const struct cmp_input *in = d->in;
    int first = 1;
    for (int c0 = 0; c0 <= d->ncombo; c0 = c0 < d->ncombo ? sd_wl_end(d, c0) : d->ncombo + 1)
        for (int s = 0; s < in->nseries; s++) {
            int all = c0 == d->ncombo;
            double gk, ge;
            int n = sd_geomeans(d, s, all ? 0 : c0, all ? d->ncombo : sd_wl_end(d, c0), &gk, &ge);
            if (s == d->base || !n)
                continue;
            /* the tier of a workload's table; null: all tiers */
            json_mean(d, out, first ? "\n{" : ",\n{", all ? NULL : d->combo[c0].workload,
                      sd_tier_count(d) > 1, all ? NULL : d->combo[c0].dtype, s, n, gk, ge);
            first = 0;
        }
    json_tier_geomeans(d, out);
}

static void json_crossovers(const struct sd *d, const struct xover *x, int nx, FILE *out) {
    for (int i = 0; i < nx; i++) {
        fputs(i ? ",\n{" : "\n{", out);
        json_kv(out, "workload", x[i].workload, 1);
        json_kv(out, "impl", x[i].impl, 1);
        json_kv(out, "dtype", x[i].dtype, 1);
        json_series(d, out, x[i].series);
        fputc(',', out);
        json_kv(out, "cpu", d->in->series[x[i].cpu].label, 1);
        json_kv(out, "kind", x[i].kind, 1);
        json_kv(out, "shape", x[i].shape, 1);
        json_kv(out, "text", x[i].text, 0);
        fputc('}', out);
    }
}

/* Every two devices over the points both ran (device against "against"): baseline-free. */
static void json_pair(const struct sd *d, int b, int a, int n, int left, double gk, double ge,
                      void *ctx) {
    struct json_ctx *j = ctx;
    FILE *out = j->out;
    fputs(j->first ? "\n{" : ",\n{", out);
    j->first = 0;
    json_series(d, out, b);
    fputc(',', out);
    json_kv(out, "against", d->in->series[a].device, 1);
    json_kv(out, "against_label", d->in->series[a].label, 1);
    json_kn(out, "points", n, 1);
    json_kn(out, "left_out", left, 1);
    json_kn(out, "kernel_ratio", gk, 1);
    json_kn(out, "e2e_ratio", ge, 0);
    fputc('}', out);
}

void sd_print_json(struct sd *d, const struct xover *x, int nx, FILE *out) {
    json_document_begin(out, "compare");
    fputs(", \"mode\":\"slowdown\",\"baseline\":{", out);
    json_series(d, out, d->base);
    fputs("},\n\"left_out_of_means\":[", out);
    json_left_out(d, out);
    fputs("],\n\"lines\":[", out);
    struct json_ctx lines = {out, 1}, pairs = {out, 1};
    sd_each_line(d, json_line, &lines);
    fputs("],\n\"geomean\":[", out);
    json_geomeans(d, out);
    fputs("],\n\"pairs\":[", out);
    sd_each_pair(d, json_pair, &pairs);
    fputs("],\n\"crossover\":[", out);
    json_crossovers(d, x, nx, out);
    fputs("]}\n", out);
}
