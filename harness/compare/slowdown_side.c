/* slowdown_side.c — the slowdown report's tables that set devices against each other, for
 * people (text, Markdown): every two devices side by side over the points both ran (the ranking
 * no --baseline can flip), and the crossovers, where a GPU starts to beat a CPU in a sweep. */
#include <stdlib.h>

#include "harness/compare/slowdown.h"

/* The crossover table into g; `narrow`: each row's comparison on a line of its own under it
 * ("against CPU: faster from n=… on (…)"), the sentence too long for a column of a terminal. */
static int crossover_grid(const struct sd *d, const struct xover *x, int nx, int narrow,
                          struct cmp_grid *g) {
    static const char *const heads[] = {"workload", "device", "impl", "against", "end to end"};
    if (grid_init(g, narrow ? 3 : 5))
        return -1;
    for (int c = 0; c < g->ncols; c++)
        grid_head(g, c, heads[c], 0);
    for (int i = 0; i < nx; i++) {
        int row = grid_row(g, 0);
        if (row < 0)
            return -1;
        const char *cpu = d->in->series[x[i].cpu].label;
        grid_set(g, row, 0, "%s", x[i].workload);
        grid_set(g, row, 1, "%s", d->in->series[x[i].series].label);
        if (strcmp(x[i].dtype, "float32"))
            grid_set(g, row, 2, "%s (%s)", x[i].impl, x[i].dtype);
        else
            grid_set(g, row, 2, "%s", x[i].impl);
        if (narrow && grid_line(g, 0, "    against %s: %s", cpu, x[i].text) < 0)
            return -1;
        if (!narrow) {
            grid_set(g, row, 3, "%s", cpu);
            grid_set(g, row, 4, "%s", x[i].text);
        }
    }
    return 0;
}

void sd_print_crossovers(const struct sd *d, const struct xover *x, int nx, FILE *out, int md,
                         int width) {
    struct cmp_grid g;
    if (nx == 0 || crossover_grid(d, x, nx, 0, &g)) {
        if (nx)
            grid_free(&g);
        return;
    }
    if (!md && width > 0 && grid_width(&g) > width) {
        grid_free(&g);
        if (crossover_grid(d, x, nx, 1, &g)) {
            grid_free(&g);
            return;
        }
    }
    fprintf(out, md ? "### crossover: where the GPU starts to beat the CPU\n\n"
                    : "crossover: where the GPU starts to beat the CPU (end to end, against the "
                      "CPU's fastest implementation at each size)\n");
    grid_print(&g, md, out);
    fputc('\n', out);
    grid_free(&g);
}

/* The points only one of devices a and b ran: "conv2d n=1 c=3 …, gemm m=512 n=512 k=512". */
static void left_out_list(const struct sd *d, int a, int b, char *buf, size_t len) {
    size_t used = 0;
    int more = 0;
    buf[0] = 0;
    for (int c = 0; c < d->ncombo; c++) {
        double k, e;
        const struct combo *cb = &d->combo[c];
        if (cb->one_time || !sd_point_first(d, c) || sd_pair_by_bytes(d, a, b, c) >= 0 ||
            sd_point_best(d, a, c, &k, &e) == sd_point_best(d, b, c, &k, &e))
            continue;
        char sh[256], item[400];
        snprintf(item, sizeof item, "%s%s %s%s%s", used ? ", " : "", cb->workload,
                 SHORT(cb->shape, sh), strcmp(cb->dtype, "float32") ? " " : "",
                 strcmp(cb->dtype, "float32") ? cb->dtype : "");
        if (used + strlen(item) + 32 >= len) {
            more++;
            continue;
        }
        used += (size_t)snprintf(buf + used, len - used, "%s", item);
    }
    if (more)
        snprintf(buf + used, len - used, " and %d more", more);
}

/* The side-by-side table being built, and the notes that name each pair's left-out points. */
struct pairs_ctx {
    struct cmp_grid g;
    int md;
    char notes[4096];
    size_t used;
};

static void pair_row(const struct sd *d, int b, int a, int n, int left, double gk, double ge,
                     void *ctx) {
    struct pairs_ctx *p = ctx;
    const struct cmp_series *sb = &d->in->series[b], *sa = &d->in->series[a];
    int row = grid_row(&p->g, 0);
    if (row < 0)
        return;
    grid_set(&p->g, row, 0, "%s", sb->label);
    grid_set(&p->g, row, 1, "%s", sa->label);
    grid_set(&p->g, row, 2, left ? "%d (%d left out)" : "%d", n, left);
    sd_mean_cells(&p->g, row, 3, n, gk, ge);
    if (left && p->used < sizeof p->notes - 256) {
        char list[1024];
        left_out_list(d, a, b, list, sizeof list);
        int w = snprintf(p->notes + p->used, sizeof p->notes - p->used,
                         "%sleft out of %s against %s (only one of them ran): %s\n",
                         p->md ? "- " : "", sb->label, sa->label, list);
        if (w > 0)
            p->used += (size_t)w;
    }
}

/* Every two devices side by side over the points both ran: the ranking, which no --baseline can
 * flip; the lines each pair leaves out are named. */
void sd_print_pairs(const struct sd *d, FILE *out, int md, int width) {
    struct pairs_ctx *p = d->in->nseries < 3 ? NULL : calloc(1, sizeof *p); /* 4 KiB of notes */
    if (!p || grid_init(&p->g, 5)) {
        if (p)
            grid_free(&p->g);
        free(p);
        return;
    }
    p->md = md;
    grid_head(&p->g, 0, "device", 0);
    grid_head(&p->g, 1, "against", 0);
    grid_head(&p->g, 2, "points", 1);
    sd_head_pair(&p->g, 3, NULL);
    sd_each_pair(d, pair_row, p);
    fprintf(out, md ? "### devices side by side, over the points both ran\n\n"
                    : "devices side by side, over the points both ran (the same whatever the "
                      "baseline; each at its fastest implementation; start-up costs left out)\n");
    sd_show(&p->g, 2, width, md, "\"-\": no point that both devices ran", out);
    if (p->notes[0])
        fprintf(out, "\n%s", p->notes); /* after a blank line: prose, not a row of the table */
    fputc('\n', out);
    grid_free(&p->g);
    free(p);
}
