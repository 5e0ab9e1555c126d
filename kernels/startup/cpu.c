/* cpu.c — startup/openblas_first and startup/pool_first: the first call into OpenBLAS and into
 * our pinned pool (kernels/common/cpu_pool.h) in a fresh process, each its own repetition. */
#include <time.h>

#include "harness/core/blas.h"

#include "kernels/common/child.h"
#include "kernels/common/cpu_pool.h"
#include "bench/startup.h"

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* --- OpenBLAS: the first cblas_sdot of the process (its dispatch and lazy set-up; what the
 * dynamic loader does before main is not in it) */

static enum status openblas_child(struct impl_ctx *ctx, double *ms) {
    struct problem *p = ctx->p;
    openblas_set_num_threads(ctx->threads > 0 ? ctx->threads : 1);
    double t0 = now_ms();
    float dot = cblas_sdot((blasint)p->in[STARTUP_IN_A].n, p->in[STARTUP_IN_A].data, 1,
                           p->in[STARTUP_IN_B].data, 1);
    *ms = now_ms() - t0;
    p->out[STARTUP_OUT_DOT].data[0] = dot;
    return ST_OK;
}

static enum status openblas_run(struct impl_ctx *ctx) {
    return gb_child_run(ctx, "startup", "openblas_first", NULL);
}

const struct impl startup_openblas_first_impl = {
    .name = "openblas_first", .kind = DEV_CPU,
    .summary = "first OpenBLAS call (cblas_sdot) of a fresh process; a process per repetition",
    .run = openblas_run, .child = openblas_child};

/* --- our pool: starting its threads and the first pool_run */

struct partials {
    const struct problem *p;
    double sum[64];
};

static void dot_part(void *arg, int tid, int nthreads) {
    struct partials *d = arg;
    size_t lo, hi;
    pool_range(d->p->in[STARTUP_IN_A].n, nthreads, tid, 16, &lo, &hi);
    double s = 0;
    for (size_t i = lo; i < hi; i++)
        s += (double)d->p->in[STARTUP_IN_A].data[i] * d->p->in[STARTUP_IN_B].data[i];
    d->sum[tid] = s;
}

static enum status pool_child(struct impl_ctx *ctx, double *ms) {
    struct partials d = {.p = ctx->p};
    int threads = ctx->threads > 0 && ctx->threads <= 64 ? ctx->threads : 1;
    double t0 = now_ms();
    if (pool_start(threads, NULL, NULL) != 0) {
        snprintf(ctx->note, sizeof ctx->note, "pool_start(%d) failed", threads);
        return ST_ERROR;
    }
    pool_run(dot_part, &d);
    *ms = now_ms() - t0;
    double s = 0;
    for (int i = 0; i < pool_threads(); i++)
        s += d.sum[i];
    pool_stop();
    ctx->p->out[STARTUP_OUT_DOT].data[0] = (float)s;
    return ST_OK;
}

static enum status pool_run_child(struct impl_ctx *ctx) {
    return gb_child_run(ctx, "startup", "pool_first", NULL);
}

const struct impl startup_pool_first_impl = {
    .name = "pool_first", .kind = DEV_CPU,
    .summary = "our pool's start (threads) and first pool_run; a process per repetition",
    .run = pool_run_child, .child = pool_child};
