/* vecadd.c — workload `vecadd`: c = a + b, float32, n elements.
 *
 * Memory-bound: the figure of merit is GB/s. Implementations (kernels/vecadd/): a threaded C
 * loop (`cpu`), OpenBLAS saxpy with alpha = 1 (`openblas`, y = x + y in place), and on CUDA
 * devices a grid-stride kernel (`cuda`) and cublasSaxpy (`cublas`).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/inputs.h"
#include "harness/core/interrupt.h"
#include "harness/core/verify.h"
#include "bench/vecadd.h"

enum { N = VECADD_KEY_N, IN_A = VECADD_IN_A, IN_B = VECADD_IN_B, OUT_C = VECADD_OUT_C };

static const char *const keys[] = {"n", NULL};
/* 2^24: 3 × 64 MiB, past the L3 of most CPUs and the L2 of every GPU; the CPU's own below */
static const char *const defaults[] = {"n=16777216", NULL};
enum { DEFAULT_LOG2_N = 24 };
static const char *const quick[] = {"n=1048576", NULL};
static const char *const tests[] = {"n=1", "n=1000", "n=4099", NULL}; /* odd: scalar tails */
static const char *const sweep[] = {"n=4096",     "n=16384",    "n=65536",   "n=262144",
                                    "n=1048576",  "n=4194304",  "n=16777216", "n=67108864",
                                    NULL};

/* cblas_saxpy takes an int length: keep n within it, so no row silently truncates. */
static int vecadd_complete(struct shape *s, const int *given, char *err, size_t errlen) {
    if (!given[N]) {
        snprintf(err, errlen, "missing key 'n' for vecadd");
        return -1;
    }
    if (s->v[N] <= 0) {
        snprintf(err, errlen, "n=%ld must be positive", s->v[N]);
        return -1;
    }
    if (s->v[N] > INT_MAX) {
        snprintf(err, errlen, "n=%ld must be in 1..%d", s->v[N], INT_MAX);
        return -1;
    }
    return 0;
}

/* One add per element. */
static double vecadd_flops(const struct shape *s) { return (double)s->v[N]; }

/* Read a and b, write c: 3 × 4 bytes per element (STREAM's counting: write-allocate traffic
 * is not counted). */
static double vecadd_bytes(const struct shape *s) { return 12.0 * (double)s->v[N]; }

/* a, b, c. */
/* The CPU's default: STREAM's rule, each array at least 4× the last-level cache (a float32
 * array of n elements: n ≥ the cache in bytes), so that none of it is served from the cache: on
 * a server CPU with a 256–512 MiB L3 the common 2^24 fits and measures the cache (or a mix).
 * A power of two, never below the common default, and within host memory: an f64 problem holds
 * 24n bytes (a, b, c) beside an implementation's own, so n ≤ memory / 64 keeps it under half. */
static int vecadd_cpu_default(size_t llc, size_t mem, char *shape, size_t shapelen, char *why,
                              size_t whylen) {
    long n = 1L << DEFAULT_LOG2_N, most = mem > 0 ? (long)(mem / 64) : LONG_MAX;
    while ((double)n < (double)llc && 2 * n <= INT_MAX && 2 * n <= most)
        n *= 2;
    if (n == 1L << DEFAULT_LOG2_N)
        return -1;
    snprintf(shape, shapelen, "n=%ld", n);
    snprintf(why, whylen,
             "each array %s 4x the %.4g MiB last-level cache (STREAM's rule: memory, not "
             "cache)%s; GPUs keep %s, the same on every card",
             (double)n >= (double)llc ? "at least" : "as near as host memory allows to",
             (double)llc / (1 << 20), (double)n >= (double)llc ? "" : ", capped by host memory",
             defaults[0]);
    return 0;
}

static double vecadd_host_bytes(const struct shape *s) { return 12.0 * (double)s->v[N]; }

static int vecadd_make(struct problem *p, char *err, size_t errlen) {
    (void)err, (void)errlen;
    size_t n = (size_t)p->shape.v[N];
    enum dtype t = p->dtype;
    p->nin = 2;
    p->nout = 1;
    if (buf_alloc_dt(&p->in[IN_A], "a", n, t) || buf_alloc_dt(&p->in[IN_B], "b", n, t) ||
        buf_alloc_dt(&p->out[OUT_C], "c", n, t))
        return -1;
    fill_uniform_dt(&p->in[IN_A], t, p->seed, 1, -1.0f, 1.0f);
    fill_uniform_dt(&p->in[IN_B], t, p->seed, 2, -1.0f, 1.0f);
    return 0;
}

/* The reference is computed here, in double, element by element: it is exact up to the single
 * rounding of the sum in the row's tier (f16: c is stored in half precision), so the tolerance
 * is one ulp of that tier, 2u, relative, and 4u absolute for sums that cancel (|a| + |b| < 2).
 * Streaming over the output avoids holding a second n-element reference array. */
static enum status vecadd_verify(const struct problem *p, struct verify_report *r) {
    enum { CHUNK = 4096 };
    double ref[CHUNK];
    const struct buf *a = &p->in[IN_A], *b = &p->in[IN_B], *c = &p->out[OUT_C];
    double u = dtype_unit_roundoff(p->dtype);
    size_t n = c->n;
    for (size_t i0 = 0; i0 < n && !gb_interrupted; i0 += CHUNK) {
        size_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        for (size_t j = 0; j < m; j++)
            ref[j] = buf_get(a, i0 + j) + buf_get(b, i0 + j);
        /* verify_buf reads c[idx[j]] for ref[j]: this chunk's indices */
        size_t idx[CHUNK];
        for (size_t j = 0; j < m; j++)
            idx[j] = i0 + j;
        verify_buf(r, c, ref, idx, m, 4 * u, 2 * u);
    }
    return verify_status(r);
}

static void vecadd_free(struct problem *p) { problem_free_bufs(p); }

const struct workload vecadd_workload = {
    .name = "vecadd",
    .summary = "c = a + b (memory bandwidth)",
    .keys = keys,
    .default_shapes = defaults,
    .quick_shapes = quick,
    .sweep_shapes = sweep,
    .cpu_default = vecadd_cpu_default,
    .test_shapes = tests,
    .complete = vecadd_complete,
    .flops = vecadd_flops,
    .bytes = vecadd_bytes,
    .host_bytes = vecadd_host_bytes,
    .make_problem = vecadd_make,
    .verify = vecadd_verify,
    .free_problem = vecadd_free,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
};
