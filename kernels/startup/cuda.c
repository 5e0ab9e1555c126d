/* cuda.c — the GPU's start-up costs, each in a fresh process per repetition:
 *   context       the first runtime call (cudaSetDevice + cudaFree(0)): driver, context
 *   first_launch  after the context: the first kernel launch and its completion, which under
 *                 lazy module loading (CUDA ≥ 11.7, the default from 12.2) includes loading
 *                 the module
 *   ptx_jit_cold  after the context, the first launch of a kernel whose module has only PTX
 *                 (kernels/startup/jit.cu, the build's lowest architecture): its load
 *                 JIT-compiles it, with the JIT cache off (CUDA_CACHE_DISABLE=1) — what a binary
 *                 without SASS for the card costs each time
 *   ptx_jit_warm  the same from a JIT cache of the row's own (CUDA_CACHE_PATH, a folder made in
 *                 prepare; CUDA_CACHE_MAXSIZE 256 MiB), which the row's first, verified, run
 *                 fills: what it costs once the driver has cached the compiled code
 * Neither JIT row sets CUDA_FORCE_PTX_JIT (it sets it to 0): under it the driver ignores its JIT
 * cache (on an H200 a forced JIT took 15.3 ms three times with a cache of its own, while a
 * PTX-only module took 69.0 ms, then 0.18 and 0.17 ms from its cache), and it would JIT every
 * module of the binary. Both rows ask for lazy module loading (CUDA_MODULE_LOADING=LAZY, CUDA
 * 11.7+), so the module loads at its first launch, inside the timed call; a runtime before 11.7
 * loads every module with the context, so there the JIT rows time the context too (the note
 * says so). The child's environment is set by the parent (kernels/common/child.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/common/child.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/startup/gpu_steps.h"
#include "bench/startup.h"

static enum status context_child(struct impl_ctx *ctx, double *ms) {
    double t0 = startup_now_ms();
    enum status st = startup_context(ctx);
    *ms = startup_now_ms() - t0;
    return st == ST_OK ? startup_device_dot(ctx, NULL) : st;
}

static enum status launch_child(struct impl_ctx *ctx, double *ms) {
    enum status st = startup_context(ctx);
    return st == ST_OK ? startup_device_dot(ctx, ms) : st;
}

static enum status context_run(struct impl_ctx *ctx) {
    return gb_child_run(ctx, "startup", "context", NULL);
}

static enum status launch_run(struct impl_ctx *ctx) {
    return gb_child_run(ctx, "startup", "first_launch", NULL);
}

/* The JIT rows' check and note: the startup checks, then whether this card can JIT the
 * PTX-only module (its architecture not above the card's); the note says what is timed. */
static enum status jit_check(struct impl_ctx *ctx, const char *cache) {
    enum status st = startup_check(ctx);
    if (st != ST_OK)
        return st;
#ifdef GPUBENCH_STARTUP_JIT_ARCH
    struct gb_arch arch;
    CU_TRY(gb_arch_query(&arch), ctx);
    if (arch.sm < GPUBENCH_STARTUP_JIT_ARCH) {
        snprintf(ctx->note, sizeof ctx->note,
                 "no PTX in this build that sm_%d can JIT: the JIT rows' module is compute_%d, "
                 "the build's lowest architecture",
                 arch.sm, GPUBENCH_STARTUP_JIT_ARCH);
        return ST_UNSUPPORTED;
    }
    snprintf(ctx->note, sizeof ctx->note,
             "first launch of a PTX-only module (compute_%d, JIT-compiled for sm_%d), %s%s",
             GPUBENCH_STARTUP_JIT_ARCH, arch.sm, cache,
#if CUDART_VERSION >= 11070
             ""
#else
             "; CUDA before 11.7 loads modules with the context: context included"
#endif
    );
    return ST_OK;
#else
    (void)cache;
    snprintf(ctx->note, sizeof ctx->note, "this build has no PTX-only module (no architecture)");
    return ST_UNSUPPORTED;
#endif
}

static enum status jit_child(struct impl_ctx *ctx, double *ms) {
#ifdef GPUBENCH_STARTUP_JIT_ARCH
#if CUDART_VERSION >= 11070
    enum status st = startup_context(ctx);
    return st == ST_OK ? startup_device_jit_dot(ctx, ms) : st;
#else /* eager loading: the module is JIT-compiled while the context is made */
    double t0 = startup_now_ms();
    enum status st = startup_context(ctx);
    if (st == ST_OK)
        st = startup_device_jit_dot(ctx, NULL);
    *ms = startup_now_ms() - t0;
    return st;
#endif
#else
    (void)ms;
    snprintf(ctx->note, sizeof ctx->note, "this build has no PTX-only module");
    return ST_UNSUPPORTED;
#endif
}

static enum status jit_cold_prepare(struct impl_ctx *ctx) {
    return jit_check(ctx, "JIT cache off (CUDA_CACHE_DISABLE=1)");
}

static enum status jit_cold_run(struct impl_ctx *ctx) {
    static const char *const env[] = {"CUDA_CACHE_DISABLE=1", "CUDA_FORCE_PTX_JIT=0",
                                      "CUDA_MODULE_LOADING=LAZY", NULL};
    return gb_child_run(ctx, "startup", "ptx_jit_cold", env);
}

/* The warm row's JIT cache: a folder of its own, made in prepare, removed in release. */
struct jit_cache {
    char dir[64];
    char env_path[96];
    int empty_noted;
};

static enum status jit_warm_prepare(struct impl_ctx *ctx) {
    enum status st = jit_check(ctx, "from a JIT cache of its own (CUDA_CACHE_PATH, filled by "
                                    "the row's first run)");
    if (st != ST_OK)
        return st;
    struct jit_cache *c = calloc(1, sizeof *c);
    if (!c)
        return ST_OOM;
    ctx->state = c;
    snprintf(c->dir, sizeof c->dir, "/tmp/gpubench-jit-XXXXXX");
    if (!mkdtemp(c->dir)) {
        snprintf(ctx->note, sizeof ctx->note, "cannot make a JIT cache folder in /tmp: %s",
                 strerror(errno));
        c->dir[0] = '\0';
        return ST_ERROR;
    }
    snprintf(c->env_path, sizeof c->env_path, "CUDA_CACHE_PATH=%s", c->dir);
    return ST_OK;
}

/* 1 when the folder holds nothing but . and .. */
static int dir_empty(const char *path) {
    DIR *d = opendir(path);
    struct dirent *e;
    int empty = 1;
    while (d && empty && (e = readdir(d)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return empty;
}

static enum status jit_warm_run(struct impl_ctx *ctx) {
    struct jit_cache *c = ctx->state;
    const char *const env[] = {"CUDA_CACHE_DISABLE=0",         c->env_path,
                               "CUDA_CACHE_MAXSIZE=268435456", "CUDA_FORCE_PTX_JIT=0",
                               "CUDA_MODULE_LOADING=LAZY",     NULL};
    enum status st = gb_child_run(ctx, "startup", "ptx_jit_warm", env);
    if (st == ST_OK && !c->empty_noted && dir_empty(c->dir)) {
        size_t at = strlen(ctx->note);
        snprintf(ctx->note + at, sizeof ctx->note - at,
                 "; the JIT cache stayed empty after a run: every run JIT-compiled");
        c->empty_noted = 1;
    }
    return st;
}

static void jit_warm_release(struct impl_ctx *ctx) {
    struct jit_cache *c = ctx->state;
    if (c && c->dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", c->dir);
        if (system(cmd) != 0)
            fprintf(stderr, "gpubench: warning: could not remove %s\n", c->dir);
    }
    free(c);
    ctx->state = NULL;
}

const struct impl startup_context_impl = {
    .name = "context", .kind = DEV_CUDA,
    .summary = "CUDA context: the first runtime call of a fresh process",
    .prepare = startup_check, .run = context_run, .child = context_child};

const struct impl startup_first_launch_impl = {
    .name = "first_launch", .kind = DEV_CUDA,
    .summary = "first kernel launch after the context (lazy module load included)",
    .prepare = startup_check, .run = launch_run, .child = launch_child};

const struct impl startup_ptx_jit_cold_impl = {
    .name = "ptx_jit_cold", .kind = DEV_CUDA,
    .summary = "first launch of a PTX-only module: its JIT, cache off",
    .prepare = jit_cold_prepare, .run = jit_cold_run, .child = jit_child};

const struct impl startup_ptx_jit_warm_impl = {
    .name = "ptx_jit_warm", .kind = DEV_CUDA,
    .summary = "first launch of a PTX-only module from a warm JIT cache of its own",
    .prepare = jit_warm_prepare, .run = jit_warm_run, .release = jit_warm_release,
    .child = jit_child};
