/* list.c — `gpubench list`: workloads, implementations, devices and default shapes. */
#include "harness/run/list.h"

#include <stdio.h>

#include "bench/registry.h"

static void shapes_line(const char *label, const char *const *shapes) {
    printf("    %-8s", label);
    for (int i = 0; shapes[i]; i++)
        printf("%s%s", i ? "  " : "", shapes[i]);
    printf("\n");
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

int list_main(const struct device_list *devs, const char *gpu_why) {
    printf("workloads and implementations (with the precision tiers each runs, --dtype):\n");
    for (int wi = 0; registry_workloads[wi]; wi++) {
        const struct workload *w = registry_workloads[wi];
        printf("  %-10s %s\n", w->name, w->summary);
        const struct impl *im;
        for (int i = 0; (im = registry_impl(w, i)) != NULL; i++) {
            char tiers[64];
            tiers_text(dtype_mask(im->dtypes) & dtype_mask(w->dtypes), tiers, sizeof tiers);
            printf("    %-12s %-6s %-15s %s\n", im->name, im->kind == DEV_CPU ? "[cpu]" : "[cuda]",
                   tiers, im->summary);
        }
        shapes_line("default", w->default_shapes);
        shapes_line("quick", w->quick_shapes);
        shapes_line("sweep", w->sweep_shapes);
    }
    printf("devices:\n");
    for (int i = 0; i < devs->n; i++) {
        const struct device *d = &devs->d[i];
        printf("  %-8s %s%s%s%s\n", d->id, d->name, d->cc[0] ? " (compute capability " : "",
               d->cc, d->cc[0] ? ")" : "");
        printf("           %s\n", d->extra);
    }
    if (gpu_why[0])
        printf("  (no CUDA device: %s)\n", gpu_why);
    return 0;
}
