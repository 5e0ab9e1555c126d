/* registry.c — the registry, generated from bench/workloads.def by X-macros: declarations of
 * every workload and implementation the build compiled, the workload table, and the flat table
 * of (workload, implementation) entries in the order of the file.
 *
 * An implementation whose library the build lacks (cuBLAS, cuDNN) is not compiled; its entry is
 * a stand-in row here that runs nowhere and says why (`unsupported`), so that no configuration
 * vanishes from the results. Without CUDA at all, the CUDA entries are left out.
 */
#include "bench/registry.h"

#include <stdio.h>
#include <string.h>

/* --- what each `needs` value means in this build ------------------------------------------ */
#define REG_YES(x) x
#define REG_NO(x)
#ifdef GPUBENCH_HAVE_CUDA
#define REG_IF_CUDA REG_YES
#else
#define REG_IF_CUDA REG_NO
#endif
#ifdef GPUBENCH_HAVE_CUBLAS
#define REG_IF_CUBLAS REG_YES
#define REG_IFNOT_CUBLAS REG_NO
#else
#define REG_IF_CUBLAS REG_NO
#define REG_IFNOT_CUBLAS REG_IF_CUDA
#endif
#ifdef GPUBENCH_HAVE_CUDNN
#define REG_IF_CUDNN REG_YES
#define REG_IFNOT_CUDNN REG_NO
#else
#define REG_IF_CUDNN REG_NO
#define REG_IFNOT_CUDNN REG_IF_CUDA
#endif
#define REG_WORKLOAD_ANY REG_YES
#define REG_WORKLOAD_CUDA REG_IF_CUDA

/* The stand-in row of an implementation whose library is not in this build. */
#if defined(GPUBENCH_HAVE_CUDA) && !defined(GPUBENCH_HAVE_CUBLAS)
static enum status registry_no_cublas(struct impl_ctx *ctx) {
    snprintf(ctx->note, sizeof ctx->note,
             "this gpubench was built without cuBLAS (not found in the CUDA toolkit at configure "
             "time)");
    return ST_UNSUPPORTED;
}
#endif

#if defined(GPUBENCH_HAVE_CUDA) && !defined(GPUBENCH_HAVE_CUDNN)
static enum status registry_no_cudnn(struct impl_ctx *ctx) {
    snprintf(ctx->note, sizeof ctx->note,
             "this gpubench was built without cuDNN (cudnn.h or libcudnn not found at configure "
             "time; set CUDNN_ROOT)");
    return ST_UNSUPPORTED;
}
#endif

#define REG_STUB(w, i, lib, fn)                                                                    \
    static const struct impl w##_##i##_impl = {.name = #i,                                         \
                                               .kind = DEV_CUDA,                                   \
                                               .summary = "(not in this build: no " lib ")",       \
                                               .prepare = fn,                                      \
                                               .run = fn};

/* --- declarations: extern for what was compiled, stand-ins for what was not --------------- */
#define REG_DECLARE_CPU(w, i) extern const struct impl w##_##i##_impl;
#define REG_DECLARE_CUDA(w, i) REG_IF_CUDA(extern const struct impl w##_##i##_impl;)
#define REG_DECLARE_CUBLAS(w, i)                                                                   \
    REG_IF_CUBLAS(extern const struct impl w##_##i##_impl;)                                        \
    REG_IFNOT_CUBLAS(REG_STUB(w, i, "cuBLAS", registry_no_cublas))
#define REG_DECLARE_CUDNN(w, i)                                                                    \
    REG_IF_CUDNN(extern const struct impl w##_##i##_impl;)                                         \
    REG_IFNOT_CUDNN(REG_STUB(w, i, "cuDNN", registry_no_cudnn))
#define WORKLOAD(w, needs) REG_WORKLOAD_##needs(extern const struct workload w##_workload;)
#define IMPL(w, i, needs, sources) REG_DECLARE_##needs(w, i)
#include "bench/workloads.def"
#undef WORKLOAD
#undef IMPL

/* --- the workload table -------------------------------------------------------------------- */
const struct workload *const registry_workloads[] = {
#define REG_WORKLOAD_PTR(w) &w##_workload,
#define WORKLOAD(w, needs) REG_WORKLOAD_##needs(REG_WORKLOAD_PTR(w))
#define IMPL(w, i, needs, sources)
#include "bench/workloads.def"
#undef WORKLOAD
#undef IMPL
    NULL,
};

/* --- the implementation table -------------------------------------------------------------- */
struct registry_entry {
    const struct workload *w;
    const struct impl *im;
    const char *needs;
};

#define REG_ENTRY(w, i, needs) {&w##_workload, &w##_##i##_impl, needs},
#define REG_ENTRY_CPU(w, i) REG_ENTRY(w, i, "CPU")
#define REG_ENTRY_CUDA(w, i) REG_IF_CUDA(REG_ENTRY(w, i, "CUDA"))
#define REG_ENTRY_CUBLAS(w, i) REG_IF_CUDA(REG_ENTRY(w, i, "CUBLAS"))
#define REG_ENTRY_CUDNN(w, i) REG_IF_CUDA(REG_ENTRY(w, i, "CUDNN"))
static const struct registry_entry registry_entries[] = {
#define WORKLOAD(w, needs)
#define IMPL(w, i, needs, sources) REG_ENTRY_##needs(w, i)
#include "bench/workloads.def"
#undef WORKLOAD
#undef IMPL
    {NULL, NULL, NULL},
};

const struct impl *registry_impl(const struct workload *w, int i) {
    for (const struct registry_entry *e = registry_entries; e->w; e++)
        if (e->w == w && i-- == 0)
            return e->im;
    return NULL;
}

const char *registry_impl_needs(const struct workload *w, const struct impl *im) {
    for (const struct registry_entry *e = registry_entries; e->w; e++)
        if (e->w == w && e->im == im)
            return e->needs;
    return NULL;
}

const struct workload *registry_find_workload(const char *name) {
    for (int i = 0; registry_workloads[i]; i++)
        if (strcmp(registry_workloads[i]->name, name) == 0)
            return registry_workloads[i];
    return NULL;
}

const struct impl *registry_find_impl(const struct workload *w, const char *name) {
    const struct impl *im;
    for (int i = 0; (im = registry_impl(w, i)) != NULL; i++)
        if (strcmp(im->name, name) == 0)
            return im;
    return NULL;
}

int registry_impl_exists(const char *name) {
    for (int i = 0; registry_workloads[i]; i++)
        if (registry_find_impl(registry_workloads[i], name))
            return 1;
    return 0;
}
