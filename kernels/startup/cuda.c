/* cuda.c — the GPU's start-up costs, each in a fresh process per repetition:
 *   context       the first runtime call (cudaSetDevice + cudaFree(0)): driver, context
 *   first_launch  after the context: the first kernel launch and its completion, which under
 *                 lazy module loading (CUDA ≥ 11.7, the default from 12.2) includes loading
 *                 the module
 *   ptx_jit_cold  the same with the PTX JIT forced (CUDA_FORCE_PTX_JIT=1) and its cache off
 *                 (CUDA_CACHE_DISABLE=1): what a binary without SASS for the card costs each time
 *   ptx_jit_warm  the same with a JIT cache of the row's own (CUDA_CACHE_PATH, filled by the
 *                 warm-up), so the user's cache is never touched
 * The child's environment is set by the parent (kernels/common/child.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/common/child.h"
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

/* The JIT rows: the startup checks, then PTX this device can JIT (gb_check_ptx_jit). */
static enum status jit_check(struct impl_ctx *ctx) {
    enum status st = startup_check(ctx);
    return st == ST_OK ? gb_check_ptx_jit(ctx) : st;
}

static enum status jit_cold_run(struct impl_ctx *ctx) {
    static const char *const env[] = {"CUDA_FORCE_PTX_JIT=1", "CUDA_CACHE_DISABLE=1", NULL};
    return gb_child_run(ctx, "startup", "ptx_jit_cold", env);
}

/* The warm row's JIT cache: a folder of its own, made in prepare, removed in release. */
struct jit_cache {
    char dir[64];
    char env_path[96];
};

static enum status jit_warm_prepare(struct impl_ctx *ctx) {
    enum status st = jit_check(ctx);
    if (st != ST_OK)
        return st;
    struct jit_cache *c = calloc(1, sizeof *c);
    if (!c)
        return ST_OOM;
    ctx->state = c;
    snprintf(c->dir, sizeof c->dir, "/tmp/gpubench-jit-XXXXXX");
    if (!mkdtemp(c->dir)) {
        snprintf(ctx->note, sizeof ctx->note, "cannot make a JIT cache folder in /tmp");
        c->dir[0] = '\0';
        return ST_ERROR;
    }
    snprintf(c->env_path, sizeof c->env_path, "CUDA_CACHE_PATH=%s", c->dir);
    return ST_OK;
}

static enum status jit_warm_run(struct impl_ctx *ctx) {
    struct jit_cache *c = ctx->state;
    const char *const env[] = {"CUDA_FORCE_PTX_JIT=1", "CUDA_CACHE_DISABLE=0", c->env_path, NULL};
    return gb_child_run(ctx, "startup", "ptx_jit_warm", env);
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
    .summary = "first launch with the PTX JIT forced and its cache off",
    .prepare = jit_check, .run = jit_cold_run, .child = launch_child};

const struct impl startup_ptx_jit_warm_impl = {
    .name = "ptx_jit_warm", .kind = DEV_CUDA,
    .summary = "first launch with the PTX JIT forced, from a warm JIT cache of its own",
    .prepare = jit_warm_prepare, .run = jit_warm_run, .release = jit_warm_release,
    .child = launch_child};
