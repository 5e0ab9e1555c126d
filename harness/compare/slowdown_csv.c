/* slowdown_csv.c — the slowdown report as CSV: one record per line and device, per geometric
 * mean, per two devices and per crossover, told apart by the `kind` column. Each record names
 * the device it divides by whole (baseline_device, baseline_file, baseline_run_id: one id is
 * ambiguous across files), and `emulated` says when a time it shows or divides by is CPU
 * emulation (a simulated device, gpubench-sim), as the other forms say in words; `cached` when
 * the row or the baseline row it is measured against measured its last-level cache, not memory
 * (harness/io/marks.h); `slow_cpu` holds the report's sentence for its device and its baseline
 * device where either is a CPU that ran far under its peak (slow_cpu.c), joined by " | ". */
#include "harness/compare/slowdown.h"

static const char *const csv_head[] = {"kind",
                                       "workload",
                                       "shape",
                                       "dtype",
                                       "impl",
                                       "device",
                                       "device_name",
                                       "cc",
                                       "file",
                                       "run_id",
                                       "status",
                                       "ms",
                                       "e2e_ms",
                                       "baseline_device",
                                       "baseline_file",
                                       "baseline_run_id",
                                       "baseline_impl",
                                       "baseline_ms",
                                       "baseline_e2e_ms",
                                       "kernel_ratio",
                                       "e2e_ratio",
                                       "note",
                                       "emulated",
                                       "cached",
                                       "slow_cpu",
                                       NULL};

static void csv_num(FILE *out, double v) {
    if (isfinite(v))
        fprintf(out, "%.10g", v);
}

/* One record; bsi: the series in baseline_device (the baseline; for a pair the other device, for
 * a crossover the CPU). */
static void csv_line(const struct sd *d, FILE *out, const char *kind, const struct combo *cb,
                     const char *workload, int s, int bsi, const struct run_row *r,
                     const struct run_row *b, double kr, double er, const char *note) {
    const struct cmp_series *se = s >= 0 ? &d->in->series[s] : NULL;
    const struct cmp_series *bs = &d->in->series[bsi];
    const char *f[] = {kind,
                       workload,
                       cb ? cb->shape : "",
                       cb ? cb->dtype : "",
                       cb ? cb->impl : "",
                       se ? se->device : "",
                       se ? se->first->device_name : "",
                       se ? se->first->cc : "",
                       se ? d->in->runs[se->file].name : "",
                       se ? se->run_id : "",
                       r ? status_name(r->status) : ""};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
        csv_field(out, f[i]);
        fputc(',', out);
    }
    csv_num(out, r ? r->median_ms : NAN);
    fputc(',', out);
    csv_num(out, r && isfinite(r->e2e_median_ms) ? r->e2e_median_ms : NAN);
    fputc(',', out);
    csv_field(out, bs->device);
    fputc(',', out);
    csv_field(out, d->in->runs[bs->file].name);
    fputc(',', out);
    csv_field(out, bs->run_id);
    fputc(',', out);
    csv_field(out, b ? b->impl : "");
    fputc(',', out);
    csv_num(out, b ? b->median_ms : NAN);
    fputc(',', out);
    csv_num(out, b ? e2e_ms(b) : NAN);
    fputc(',', out);
    csv_num(out, kr);
    fputc(',', out);
    csv_num(out, er);
    fputc(',', out);
    csv_field(out, note);
    fprintf(out, ",%d,%d,", (s >= 0 && sd_simulated(d, s)) || sd_simulated(d, bsi),
            ((r ? r->marks : 0) | (b ? b->marks : 0)) & MARK_CACHED ? 1 : 0);
    struct sd_slow a, b2;
    int sa = s >= 0 && s != bsi && sd_slow_cpu(d, s, &a), sb = sd_slow_cpu(d, bsi, &b2);
    char both[sizeof a.text + sizeof b2.text + 4];
    snprintf(both, sizeof both, "%s%s%s", sa ? a.text : "", sa && sb ? " | " : "",
             sb ? b2.text : "");
    csv_field(out, both);
    fputc('\n', out);
}

static void line_record(const struct sd *d, int c, int s, const struct run_row *r,
                        const struct run_row *b, double kr, double er, void *out) {
    char bw[320] = "";
    if (d->combo[c].bw_shape && b && cache_against_memory(r, b))
        snprintf(bw, sizeof bw, "%s", SD_CACHE_NOTE);
    else if (d->combo[c].bw_shape && b)
        snprintf(bw, sizeof bw, "by GB/s against the baseline's %s", d->combo[c].bw_shape);
    csv_line(d, out, "line", &d->combo[c], d->combo[c].workload, s, d->base, r, b, kr, er,
             r->status == ST_OK ? bw : r->note);
}

/* Every two devices over the points both ran: the ranking no baseline can flip. */
static void pair_record(const struct sd *d, int b, int a, int n, int left, double gk, double ge,
                        void *out) {
    char note[128];
    snprintf(note, sizeof note, "geometric mean of %d points both ran; %d left out", n, left);
    csv_line(d, out, "pair", NULL, "", b, a, NULL, NULL, gk, ge, note);
}

void sd_print_csv(const struct sd *d, const struct xover *x, int nx, FILE *out) {
    const struct cmp_input *in = d->in;
    for (int i = 0; csv_head[i]; i++)
        fprintf(out, "%s%s", i ? "," : "", csv_head[i]);
    fputc('\n', out);
    sd_each_line(d, line_record, out);
    for (int c0 = 0; c0 < d->ncombo; c0 = sd_wl_end(d, c0))
        for (int s = 0; s < in->nseries; s++) {
            double gk, ge;
            int n = sd_geomeans(d, s, c0, sd_wl_end(d, c0), &gk, &ge);
            if (s == d->base || !n)
                continue;
            char note[64];
            snprintf(note, sizeof note, "geometric mean of %d lines", n);
            struct combo tier = {
                d->combo[c0].workload, "", d->combo[c0].dtype, "", 0, 0, 0, 0, 0, 0, NULL};
            csv_line(d, out, "geomean", sd_tier_count(d) > 1 ? &tier : NULL, d->combo[c0].workload,
                     s, d->base, NULL, NULL, gk, ge, note);
        }
    for (int s = 0; s < in->nseries; s++) {
        double gk, ge;
        int n = sd_geomeans(d, s, 0, d->ncombo, &gk, &ge);
        if (s == d->base || !n)
            continue;
        char note[96];
        snprintf(note, sizeof note, "geometric mean of %d lines%s", n,
                 sd_has_one_time(d) ? " (start-up costs left out)" : "");
        csv_line(d, out, "geomean", NULL, "", s, d->base, NULL, NULL, gk, ge, note);
    }
    sd_each_pair(d, pair_record, out);
    for (int i = 0; i < nx; i++) {
        struct combo cb = {
            x[i].workload, x[i].shape ? x[i].shape : "", x[i].dtype, x[i].impl, 0, 0, 0, 0, 0, 0,
            NULL};
        char note[480];
        snprintf(note, sizeof note, "%s: %s", x[i].kind, x[i].text);
        csv_line(d, out, "crossover", &cb, x[i].workload, x[i].series, x[i].cpu, NULL, NULL, NAN,
                 NAN, note);
    }
}
