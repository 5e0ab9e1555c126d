/* registry.c — the table of workloads: adding one is one line here plus its file in bench/. */
#include "harness/registry.h"

#include <string.h>

const struct workload *const registry_workloads[] = {
    &vecadd_workload,
    &gemm_workload,
    &conv2d_workload,
    &mlp_train_workload,
#ifdef GPUBENCH_HAVE_CUDA
    &memcpy_workload, /* host↔device copies: CUDA devices only */
#endif
    NULL,
};

const struct workload *registry_find_workload(const char *name) {
    for (int i = 0; registry_workloads[i]; i++)
        if (strcmp(registry_workloads[i]->name, name) == 0)
            return registry_workloads[i];
    return NULL;
}

const struct impl *registry_find_impl(const struct workload *w, const char *name) {
    for (int i = 0; w->impls[i]; i++)
        if (strcmp(w->impls[i]->name, name) == 0)
            return w->impls[i];
    return NULL;
}

int registry_impl_exists(const char *name) {
    for (int i = 0; registry_workloads[i]; i++)
        if (registry_find_impl(registry_workloads[i], name))
            return 1;
    return 0;
}
