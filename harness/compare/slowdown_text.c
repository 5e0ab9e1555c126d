/* slowdown_text.c — the slowdown report for people: an aligned terminal table or GitHub
 * Markdown, one table per workload and tier, the overall and per-tier means; the tables that set
 * devices against each other (side by side, crossovers) are slowdown_side.c's. */
#include <math.h>
#include <stdlib.h>

#include "harness/compare/shared.h"
#include "harness/compare/slowdown.h"
#include "harness/core/dtype.h"
#include "harness/io/termcols.h"

void sd_head_pair(struct cmp_grid *g, int c, const char *group) {
    grid_head(g, c, "kernel", 1);
    grid_head(g, c + 1, "e2e", 1);
    grid_group(g, c, 2, group); /* NULL: no label, but the two stay together in a split table */
}

void sd_mean_cells(struct cmp_grid *g, int row, int c, int n, double gk, double ge) {
    char k[64], e[64];
    fmt_ratio(k, sizeof k, gk);
    fmt_ratio(e, sizeof e, ge);
    grid_set(g, row, c, "%s", n ? k : "-");
    grid_set(g, row, c + 1, "%s", n ? e : "-");
}

void sd_show(const struct cmp_grid *g, int nkey, int width, int md, const char *dash, FILE *out) {
    if (md)
        grid_print(g, 1, out);
    else
        grid_print_fit(g, nkey, width, out);
    int any = 0;
    for (size_t i = 0; i < (size_t)g->nrows * (size_t)g->ncols && !any; i++)
        any = g->cells[i] && !strcmp(g->cells[i], "-");
    if (any && dash) /* after a blank line: prose, not a row of the table */
        fprintf(out, "\n%s\n", dash);
}

/* Every CPU column that ran far under its peak, with the cause the files measured
 * (slow_cpu.c): the baseline first, whose every speedup it overstates. */
static void slow_cpus(const struct sd *d, FILE *out, int md) {
    struct sd_slow sl;
    for (int i = -1; i < d->in->nseries; i++)
        if ((i < 0 ? sd_slow_cpu(d, d->base, &sl) : i != d->base && sd_slow_cpu(d, i, &sl)))
            fprintf(out, "%s%s\n", md ? "- " : "", sl.text);
}

static void print_intro(const struct sd *d, FILE *out, int md) {
    const struct cmp_series *b = &d->in->series[d->base];
    const struct run_row *r = b->first;
    fprintf(out, "%sgpubench compare: slowdown against %s\n\n", md ? "## " : "", b->label);
    fprintf(out, "%sbaseline: device %s of run %s (%s, host %s, %s)\n", md ? "- " : "", b->device,
            b->run_id, d->in->runs[b->file].name, r->host[0] ? r->host : "?",
            r->utc[0] ? r->utc : "?");
    fprintf(out,
            "%scells: median time / baseline median time, \"2.00× slower\" = twice as long; "
            "kernel = compute only, e2e = with host<->device copies (CPU rows: the same); "
            "\"baseline ms\" shows both times the ratios divide by\n",
            md ? "- " : "");
    fprintf(out,
            "%sa line whose implementation the baseline device lacks is measured against "
            "its fastest one, named in brackets\n",
            md ? "- " : "");
    slow_cpus(d, out, md);
    if (sd_any_simulated(d))
        fprintf(out, "%s%s\n", md ? "- **" : "", md ? SD_EMULATION_NOTE "**" : SD_EMULATION_NOTE);
    if (d->in->nseries == 1)
        fprintf(out,
                "%sthe files hold no other device: the tables list the baseline's own "
                "times (add a run with a GPU, or another machine's run, to compare)\n",
                md ? "- " : "");
    for (int s = 0; s < d->in->nseries; s++) {
        const struct cmp_series *se = &d->in->series[s];
        char what[128];
        snprintf(what, sizeof what, "%s of", se->device);
        cmp_shared_line(d->in, se->file, se->run_id, se->device, md ? "- " : "", what, out);
    }
    fputc('\n', out);
}

static void ratio_cells(const struct sd *d, int c, struct cmp_grid *g, int row, int col,
                        const struct run_row *r, const struct run_row *b) {
    double kr, er;
    char k[64], e[64];
    if (!r)
        return;
    if (r->status != ST_OK) {
        grid_set(g, row, col, "%s", status_name(r->status));
        return;
    }
    if (!sd_ratios(d, c, r, b, &kr, &er)) {
        grid_set(g, row, col, d->combo[c].bw_shape && cache_against_memory(r, b)
                                  ? "cache vs memory" /* SD_CACHE_NOTE, under the table */
                                  : "no baseline");
        return;
    }
    fmt_ratio(k, sizeof k, kr);
    fmt_ratio(e, sizeof e, er);
    grid_set(g, row, col, "%s", k);
    grid_set(g, row, col + 1, "%s", e);
}

/* After a table whose rows include some that measured a last-level cache (harness/io/marks.h:
 * cached), which devices' they are: their rates are a cache's, not memory's. */
static void cached_rows(const struct sd *d, int c0, int c1, FILE *out) {
    char who[512] = "";
    size_t n = 0;
    for (int s = 0; s < d->in->nseries && n < sizeof who; s++) {
        int any = 0;
        for (int c = c0; c < c1 && !any; c++)
            any = usable(at(d, c, s)) && (at(d, c, s)->marks & MARK_CACHED);
        if (any)
            n += (size_t)snprintf(who + n, sizeof who - n, "%s%s", n ? ", " : "",
                                  d->in->series[s].label);
    }
    if (n)
        fprintf(out,
                "\n[cached] rows of %s: the working set was served by the last-level cache (a "
                "cache rate, not memory's)\n",
                who);
}

static int print_workload(const struct sd *d, int c0, int c1, FILE *out, int md, int width) {
    const struct cmp_input *in = d->in;
    int cols[64], ncol = 0;
    for (int s = 0; s < in->nseries && ncol < 64; s++)
        if (s != d->base && sd_has_rows(d, s, c0, c1))
            cols[ncol++] = s;
    /* The baseline's kernel and end-to-end times: every time a ratio of the line divides by. */
    struct cmp_grid g;
    if (grid_init(&g, 4 + 2 * ncol))
        return -1;
    grid_head(&g, 0, "shape", 0);
    grid_head(&g, 1, "impl", 0);
    sd_head_pair(&g, 2, "baseline ms");
    for (int i = 0; i < ncol; i++)
        sd_head_pair(&g, 4 + 2 * i, in->series[cols[i]].label);
    char ms[64], ems[64];
    for (int c = c0; c < c1; c++) {
        const struct combo *cb = &d->combo[c];
        int row = grid_row(&g, 0);
        if (row < 0)
            break;
        if (c == c0 || strcmp(cb->shape, d->combo[c - 1].shape) ||
            strcmp(cb->dtype, d->combo[c - 1].dtype)) {
            char sh[256], bsh[256]; /* the table's title names its tier */
            if (cb->bw_shape)
                grid_set(&g, row, 0, "%s vs %s, by GB/s", SHORT(cb->shape, sh),
                         SHORT(cb->bw_shape, bsh));
            else
                grid_set(&g, row, 0, "%s", SHORT(cb->shape, sh));
        }
        grid_set(&g, row, 1, "%s", cb->impl);
        const struct run_row *b = d->ref[c];
        if (b) {
            fmt_ms(ms, sizeof ms, b->median_ms);
            fmt_ms(ems, sizeof ems, e2e_ms(b));
            if (strcmp(b->impl, cb->impl))
                grid_set(&g, row, 2, "%s [%s]", ms, b->impl);
            else
                grid_set(&g, row, 2, "%s", ms);
            grid_set(&g, row, 3, "%s", ems);
        } else {
            const struct run_row *own = at(d, c, d->base);
            grid_set(&g, row, 2, "%s", own ? status_name(own->status) : "-");
        }
        for (int i = 0; i < ncol; i++)
            ratio_cells(d, c, &g, row, 4 + 2 * i, at(d, c, cols[i]), b);
    }
    /* no other device, or start-up costs only: no ratios to average */
    int row = ncol && !d->combo[c0].one_time ? grid_row(&g, 1) : -1;
    if (row >= 0) {
        grid_set(&g, row, 0, "geomean");
        for (int i = 0; i < ncol; i++) {
            double gk, ge;
            int n = sd_geomeans(d, cols[i], c0, c1, &gk, &ge);
            if (n) /* none: blank, as the device's cells above are */
                sd_mean_cells(&g, row, 4 + 2 * i, n, gk, ge);
        }
    }
    if (strcmp(d->combo[c0].dtype, "float32")) /* float32 tables keep their plain title */
        fprintf(out, md ? "### %s, %s\n\n" : "%s, %s\n", d->combo[c0].workload, d->combo[c0].dtype);
    else
        fprintf(out, md ? "### %s\n\n" : "%s\n", d->combo[c0].workload);
    sd_show(&g, 2, width, md,
            "\"-\" in baseline ms: the baseline device has no row of this implementation, and none "
            "of its rows at this point ran ok to stand in for it",
            out);
    for (int c = c0; c < c1; c++) /* prose after a blank line, not a row of the table */
        if (d->combo[c].bw_shape && (c == c0 || !d->combo[c - 1].bw_shape)) {
            char sh[256], bsh[256];
            fprintf(out,
                    "\n%s: %s's %s set beside the others' %s by bandwidth (GB/s), the shapes "
                    "differ: each device ran its own default (a CPU's arrays are sized past its "
                    "last-level cache)\n",
                    d->combo[c].workload, d->in->series[d->base].label,
                    SHORT(d->combo[c].bw_shape, bsh), SHORT(d->combo[c].shape, sh));
            break;
        }
    cached_rows(d, c0, c1, out);
    for (int c = c0, said = 0; c < c1 && !said; c++) /* the lines left unpaired for a cache */
        for (int s = 0; s < in->nseries && !said; s++)
            if (d->combo[c].bw_shape && s != d->base && usable(at(d, c, s)) &&
                cache_against_memory(at(d, c, s), d->ref[c])) {
                fprintf(out, "\n\"cache vs memory\": %s\n", SD_CACHE_NOTE);
                said = 1;
            }
    if (d->combo[c0].one_time) /* prose after a blank line, as above */
        fprintf(out, "\none-time costs, paid once per process (the first call of a library or a "
                     "device, a context, a JIT), not workload speed: in no geometric mean; each "
                     "is set only against the baseline's same one (a CPU library's first call "
                     "is no GPU context: \"-\" where the baseline has none)\n");
    fputc('\n', out);
    grid_free(&g);
    return 0;
}

static void print_overall(const struct sd *d, FILE *out, int md, int width) {
    const struct cmp_input *in = d->in;
    struct cmp_grid g;
    if (grid_init(&g, 4))
        return;
    grid_head(&g, 0, "device", 0);
    grid_head(&g, 1, "lines", 1);
    sd_head_pair(&g, 2, NULL);
    for (int s = 0; s < in->nseries; s++) {
        if (s == d->base)
            continue;
        double gk, ge;
        int n = sd_geomeans(d, s, 0, d->ncombo, &gk, &ge);
        int row = grid_row(&g, 0);
        if (row < 0)
            break;
        grid_set(&g, row, 0, "%s", in->series[s].label);
        grid_set(&g, row, 1, "%d", n);
        sd_mean_cells(&g, row, 2, n, gk, ge);
    }
    const char *left = sd_has_one_time(d) ? " (start-up costs left out: not workload speed)" : "";
    fprintf(out,
            md ? "### geometric mean over all workloads%s\n\n"
               : "geometric mean over all workloads%s\n",
            left);
    sd_show(&g, 1, width, md, "\"-\": no line that this device and the baseline both ran", out);
    if (in->nseries > 2) /* each mean covers other lines: not a ranking of the devices */
        fprintf(out, "\neach mean covers the lines that device and the baseline both ran; to rank "
                     "two devices read the side-by-side table below\n");
    fputc('\n', out);
    grid_free(&g);
}

/* With several tiers: every device's geometric mean per tier, over all workloads. */
static void print_tiers(struct sd *d, FILE *out, int md, int width) {
    const struct cmp_input *in = d->in;
    const char *tiers[DT_COUNT + 8];
    int nt = 0;
    for (int c = 0; c < d->ncombo && nt < DT_COUNT + 8; c++)
        if (nt == 0 || strcmp(tiers[nt - 1], d->combo[c].dtype)) {
            int seen = 0;
            for (int t = 0; t < nt; t++)
                seen |= !strcmp(tiers[t], d->combo[c].dtype);
            if (!seen)
                tiers[nt++] = d->combo[c].dtype;
        }
    struct cmp_grid g;
    if (nt < 2 || grid_init(&g, 1 + 2 * nt))
        return;
    grid_head(&g, 0, "device", 0);
    for (int t = 0; t < nt; t++)
        sd_head_pair(&g, 1 + 2 * t, tiers[t]);
    for (int s = 0; s < in->nseries; s++) {
        int row = s == d->base ? -1 : grid_row(&g, 0);
        if (row < 0)
            continue;
        grid_set(&g, row, 0, "%s", in->series[s].label);
        for (int t = 0; t < nt; t++) {
            double gk, ge;
            d->only_dtype = tiers[t];
            int n = sd_geomeans(d, s, 0, d->ncombo, &gk, &ge); /* before gk, ge are read */
            sd_mean_cells(&g, row, 1 + 2 * t, n, gk, ge);
        }
        d->only_dtype = NULL;
    }
    fprintf(out,
            md ? "### geometric mean per precision tier%s\n\n"
               : "geometric mean per precision tier (each tier against the baseline's rows "
                 "of the same tier)%s\n",
            sd_has_one_time(d) ? (md ? " (start-up costs left out)" : "; start-up costs left out")
                               : "");
    sd_show(&g, 1, width, md,
            "\"-\": no line of this tier that this device and the baseline both ran", out);
    fputc('\n', out);
    grid_free(&g);
}

static void print_all(struct sd *d, const struct xover *x, int nx, FILE *out, int md, int width) {
    print_intro(d, out, md);
    for (int c0 = 0; c0 < d->ncombo; c0 = sd_wl_end(d, c0))
        print_workload(d, c0, sd_wl_end(d, c0), out, md, width);
    if (d->in->nseries > 1)
        print_overall(d, out, md, width);
    sd_print_pairs(d, out, md, width);
    if (d->in->nseries > 1 && sd_tier_count(d) > 1)
        print_tiers(d, out, md, width);
    sd_print_crossovers(d, x, nx, out, md, width);
}

/* Where the width of `out` is known (term_width: COLUMNS, or a terminal), the report fits it:
 * each table by grid_print_fit (or the crossovers' own narrow form), printed whole into memory,
 * then every other long line (the notes) wrapped under its value by term_fit. Markdown, files and
 * pipes get the wide form. */
void sd_print_text(struct sd *d, const struct xover *x, int nx, FILE *out, int md) {
    int width = md ? 0 : term_width(out);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = width > 0 ? open_memstream(&buf, &len) : NULL;
    print_all(d, x, nx, m ? m : out, md, m ? width : 0);
    if (m) {
        fclose(m);
        term_fit(out, buf, len, width);
        free(buf);
    }
}
