/* list.c — `gpubench list`: workloads, implementations, devices and default shapes; columns are
 * padded by display columns (harness/io/termcols.h). */
#include "harness/run/list.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench/registry.h"
#include "harness/io/termcols.h"

static void shapes_line(FILE *o, const char *label, const char *const *shapes) {
    fprintf(o, "    %-*s", term_field(label, 8), label);
    for (int i = 0; shapes[i]; i++)
        fprintf(o, "%s%s", i ? "  " : "", shapes[i]);
    fprintf(o, "\n");
}

/* The CPU's own default shapes (workload.cpu_default, from its cache and memory), under the CPU
 * among the devices: machine facts, as the rest of that section. */
static void cpu_defaults(FILE *o, const struct device *d) {
    char shape[64], why[256];
    for (int wi = 0; registry_workloads[wi]; wi++) {
        const struct workload *w = registry_workloads[wi];
        if (d->kind == DEV_CPU && w->cpu_default &&
            w->cpu_default(d->cache_bytes, d->mem_bytes, shape, sizeof shape, why, sizeof why) == 0)
            fprintf(o, "           default %s %s (%s)\n", w->name, shape, why);
    }
}

/* The tiers of a mask as "f32,f64,…" (tier order). */
static void tiers_text(unsigned mask, char *out, size_t len) {
    size_t used = 0;
    out[0] = '\0';
    for (int t = 0; t < DT_COUNT; t++)
        if (mask & DT_BIT(t))
            used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s",
                                     used ? "," : "", dtype_flag((enum dtype)t));
}

/* The tiers an implementation of w runs in. */
static void impl_tiers(const struct workload *w, const struct impl *im, char *out, size_t len) {
    tiers_text(dtype_mask(im->dtypes) & dtype_mask(w->dtypes), out, len);
}

/* The implementation and tier columns are as wide as the longest of any workload (at least 12
 * and 15), so that every line of the listing lines up ("openblas_first"). */
static void impl_widths(int *name_cols, int *tier_cols) {
    *name_cols = 12;
    *tier_cols = 15;
    for (int wi = 0; registry_workloads[wi]; wi++) {
        const struct impl *im;
        for (int i = 0; (im = registry_impl(registry_workloads[wi], i)) != NULL; i++) {
            char tiers[64];
            impl_tiers(registry_workloads[wi], im, tiers, sizeof tiers);
            *name_cols = term_cols(im->name) > *name_cols ? term_cols(im->name) : *name_cols;
            *tier_cols = term_cols(tiers) > *tier_cols ? term_cols(tiers) : *tier_cols;
        }
    }
}

/* The listing at its full width. */
static void list_wide(FILE *o, const struct device_list *devs, const char *gpu_why) {
    int name_cols, tier_cols;
    impl_widths(&name_cols, &tier_cols);
    fprintf(o, "workloads and implementations (with the precision tiers each runs, --dtype):\n");
    for (int wi = 0; registry_workloads[wi]; wi++) {
        const struct workload *w = registry_workloads[wi];
        fprintf(o, "  %-*s %s\n", term_field(w->name, 10), w->name, w->summary);
        const struct impl *im;
        for (int i = 0; (im = registry_impl(w, i)) != NULL; i++) {
            char tiers[64];
            impl_tiers(w, im, tiers, sizeof tiers);
            const char *kind = im->kind == DEV_CPU ? "[cpu]" : "[cuda]";
            fprintf(o, "    %-*s %-*s %-*s %s\n", term_field(im->name, name_cols), im->name,
                   term_field(kind, 6), kind, term_field(tiers, tier_cols), tiers, im->summary);
        }
        shapes_line(o, "default", w->default_shapes);
        shapes_line(o, "quick", w->quick_shapes);
        shapes_line(o, "sweep", w->sweep_shapes);
    }
    fprintf(o, "devices:\n");
    for (int i = 0; i < devs->n; i++) {
        const struct device *d = &devs->d[i];
        fprintf(o, "  %-*s %s%s%s%s\n", term_field(d->id, 8), d->id, d->name,
               d->cc[0] ? " (compute capability " : "", d->cc, d->cc[0] ? ")" : "");
        fprintf(o, "           %s\n", d->extra);
        cpu_defaults(o, d);
    }
    if (gpu_why[0])
        fprintf(o, "  (no CUDA device: %s)\n", gpu_why);
}

int list_main(const struct device_list *devs, const char *gpu_why) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) { /* no memory to fit it: the wide form */
        list_wide(stdout, devs, gpu_why);
        return 0;
    }
    list_wide(m, devs, gpu_why);
    fclose(m);
    term_fit(stdout, buf, len, term_width(stdout)); /* long lines wrapped under their values */
    free(buf);
    return 0;
}
