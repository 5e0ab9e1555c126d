/* startup.c — workload `startup`: what it costs to start using a library or a GPU, in ms.
 *
 * Each implementation is one start-up cost, paid once per process, so each repetition is a fresh
 * process (`gpubench __child`, kernels/common/child.h) that times the call paying it with its own
 * clock: OpenBLAS's and our thread pool's first call on the CPU; on a GPU the context (first
 * runtime call), the first kernel launch (with the module load that lazy loading defers to it),
 * the first launch with the PTX JIT forced, cold and warm, cublasCreate, cudnnCreate and cuDNN's
 * algorithm search for conv2d's default shape. Then it computes a·b of n floats with what it
 * started, which is verified here. There is no work to rate: flops and bytes are 0, so a row's
 * figure is its time alone.
 */
#include <math.h>
#include <stdio.h>

#include "harness/core/inputs.h"
#include "harness/core/verify.h"
#include "bench/startup.h"

enum { N = STARTUP_KEY_N, IN_A = STARTUP_IN_A, IN_B = STARTUP_IN_B, OUT = STARTUP_OUT_DOT };

static const char *const keys[] = {"n", NULL};
static const char *const defaults[] = {"n=4096", NULL};
static const char *const quick[] = {"n=4096", NULL};
static const char *const sweep[] = {"n=4096", NULL}; /* the costs do not depend on n */
static const char *const tests[] = {"n=1", "n=4099", NULL};

static int startup_complete(struct shape *s, const int *given, char *err, size_t errlen) {
    if (!given[N]) {
        snprintf(err, errlen, "missing key 'n' for startup");
        return -1;
    }
    if (s->v[N] <= 0 || s->v[N] > (1L << 24)) {
        snprintf(err, errlen, "n=%ld must be in 1..16777216", s->v[N]);
        return -1;
    }
    return 0;
}

/* A start-up cost is a time, not a rate: no FLOPs or bytes to divide by it. */
static double startup_none(const struct shape *s) {
    (void)s;
    return 0;
}

/* a, b and the one result. */
static double startup_host_bytes(const struct shape *s) { return 8.0 * (double)s->v[N] + 4; }

static int startup_make(struct problem *p, char *err, size_t errlen) {
    (void)err, (void)errlen;
    size_t n = (size_t)p->shape.v[N];
    p->nin = 2;
    p->nout = 1;
    if (buf_alloc(&p->in[IN_A], "a", n) || buf_alloc(&p->in[IN_B], "b", n) ||
        buf_alloc(&p->out[OUT], "dot", 1))
        return -1;
    fill_uniform(p->in[IN_A].data, n, p->seed, 1, -1.0f, 1.0f);
    fill_uniform(p->in[IN_B].data, n, p->seed, 2, -1.0f, 1.0f);
    return 0;
}

/* The dot product in double; any float summation order is within n·2^-24 of Σ|a·b|. */
static enum status startup_verify(const struct problem *p, struct verify_report *r) {
    const float *a = p->in[IN_A].data, *b = p->in[IN_B].data;
    size_t n = p->in[IN_A].n;
    double ref = 0, mag = 0;
    for (size_t i = 0; i < n; i++) {
        ref += (double)a[i] * (double)b[i];
        mag += fabs((double)a[i] * (double)b[i]);
    }
    verify_close(r, "dot", p->out[OUT].data, &ref, NULL, 1, mag * (double)n * 6e-8 + 1e-6,
                 1e-5);
    return verify_status(r);
}

static void startup_free(struct problem *p) { problem_free_bufs(p); }

const struct workload startup_workload = {
    .name = "startup",
    .summary = "start-up costs: first calls, CUDA context, first launch, PTX JIT, library handles",
    .keys = keys,
    .default_shapes = defaults,
    .quick_shapes = quick,
    .sweep_shapes = sweep,
    .test_shapes = tests,
    .complete = startup_complete,
    .flops = startup_none,
    .bytes = startup_none,
    .host_bytes = startup_host_bytes,
    .make_problem = startup_make,
    .verify = startup_verify,
    .free_problem = startup_free,
};
