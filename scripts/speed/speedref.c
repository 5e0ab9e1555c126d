/* speedref.c — the bare references that scripts/speedcheck measures gpubench against.
 *
 *   speedref sgemm M N K THREADS SECONDS      a bare loop of cblas_sgemm (row-major, no harness)
 *   speedref dgemm M N K THREADS SECONDS      the same with cblas_dgemm (the f64 tier)
 *   speedref stream_add N THREADS SECONDS     STREAM's Add kernel, c[j] = a[j] + b[j], OpenMP
 *   speedref mix N THREADS SECONDS            c = a + b right after each cblas_sgemm (512³), once
 *                                             with an OpenMP loop and once with gpubench's pinned
 *                                             pool: does OpenBLAS's spinning hurt our loops?
 *
 * Prints one line: "median_ms=… rate=… unit" (rate in GFLOP/s for sgemm, GB/s for stream_add,
 * counting 12 bytes per element as STREAM does). Built with OpenMP and -march=native on purpose:
 * the reference should be as demanding as a user's own hand-tuned loop.
 */
#include <omp.h>

#include "harness/core/blas.h"
#include "harness/run/topology.h"
#include "kernels/common/cpu_pool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static float *alloc_fill(size_t n, float v) {
    float *p = aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64);
    if (!p) {
        fprintf(stderr, "speedref: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = v * (float)((i * 2654435761u) % 1000) / 1000.0f;
    return p;
}

/* Time fn until `seconds` have passed (at least 5 runs, 2 warm-up), return the median ms. */
static double time_median(void (*fn)(void *), void *arg, double seconds) {
    enum { MAXS = 100000 };
    static double s[MAXS];
    fn(arg);
    fn(arg);
    size_t n = 0;
    double t0 = now_ms();
    while (n < MAXS && (n < 5 || now_ms() - t0 < seconds * 1e3)) {
        double t = now_ms();
        fn(arg);
        s[n++] = now_ms() - t;
    }
    qsort(s, n, sizeof *s, cmp);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

struct gemm_args {
    int m, n, k;
    float *a, *b, *c;
};

static void gemm_once(void *p) {
    struct gemm_args *g = p;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->m, g->n, g->k, 1.0f, g->a, g->k,
                g->b, g->n, 0.0f, g->c, g->n);
}

struct dgemm_args {
    int m, n, k;
    double *a, *b, *c;
};

static void dgemm_once(void *p) {
    struct dgemm_args *g = p;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->m, g->n, g->k, 1.0, g->a, g->k,
                g->b, g->n, 0.0, g->c, g->n);
}

static double *alloc_fill64(size_t n, double v) {
    double *p = aligned_alloc(64, (n * sizeof(double) + 63) / 64 * 64);
    if (!p) {
        fprintf(stderr, "speedref: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = v * (double)((i * 2654435761u) % 1000) / 1000.0;
    return p;
}

struct add_args {
    size_t n;
    float *a, *b, *c;
};

static void add_once(void *p) {
    struct add_args *s = p;
    float *restrict a = s->a, *restrict b = s->b, *restrict c = s->c;
    size_t n = s->n;
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < n; j++)
        c[j] = a[j] + b[j];
}

/* c = a + b on gpubench's pinned pool (kernels/common/cpu_pool.h), each thread a contiguous
 * range: the pool side of `mix`. */
static void pool_add_part(void *p, int tid, int nthreads) {
    struct add_args *s = p;
    size_t lo, hi;
    pool_range(s->n, nthreads, tid, 16, &lo, &hi);
    for (size_t j = lo; j < hi; j++)
        s->c[j] = s->a[j] + s->b[j];
}

/* One round of `mix`: an SGEMM (OpenBLAS threads busy, then spinning), then the add, timed. */
struct mix_args {
    struct gemm_args g;
    struct add_args s;
    int pool;      /* 1: gpubench's pool, 0: OpenMP */
    double add_ms; /* accumulated time of the adds */
};

static void mix_once(void *p) {
    struct mix_args *m = p;
    gemm_once(&m->g);
    double t = now_ms();
    if (m->pool)
        pool_run(pool_add_part, &m->s);
    else
        add_once(&m->s);
    m->add_ms = now_ms() - t;
}

static void mix_add_only(void *p) { mix_once(p); }

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "mix") == 0) {
        int threads = atoi(argv[3]);
        char err[128];
        if (topology_load(err, sizeof err) != 0 ||
            pool_start(threads, topology_bind_thread, NULL)) {
            fprintf(stderr, "speedref: %s\n", err);
            return 1;
        }
        openblas_set_num_threads(threads);
        omp_set_num_threads(threads);
        struct mix_args m = {
            {512, 512, 512, NULL, NULL, NULL}, {(size_t)atol(argv[2]), NULL, NULL, NULL}, 0, 0};
        m.g.a = alloc_fill(512 * 512, 1);
        m.g.b = alloc_fill(512 * 512, 1);
        m.g.c = alloc_fill(512 * 512, 0);
        m.s.a = alloc_fill(m.s.n, 1);
        m.s.b = alloc_fill(m.s.n, 2);
        m.s.c = alloc_fill(m.s.n, 0);
        /* Interleave: rounds of OpenMP and pool, each the median add time of its own run. */
        enum { ROUNDS = 5, PER = 40 };
        double omp_ms[ROUNDS], pool_ms[ROUNDS], x[PER];
        for (int r = 0; r < ROUNDS; r++)
            for (int which = 0; which < 2; which++) {
                m.pool = which;
                for (int i = 0; i < PER; i++) {
                    mix_add_only(&m);
                    x[i] = m.add_ms;
                }
                qsort(x, PER, sizeof *x, cmp);
                (which ? pool_ms : omp_ms)[r] = x[PER / 2];
            }
        qsort(omp_ms, ROUNDS, sizeof(double), cmp);
        qsort(pool_ms, ROUNDS, sizeof(double), cmp);
        printf("add after sgemm: OpenMP median_ms=%.4g, gpubench pool median_ms=%.4g (n=%zu)\n",
               omp_ms[ROUNDS / 2], pool_ms[ROUNDS / 2], m.s.n);
        (void)argv[4];
        return 0;
    }
    if (argc == 7 && strcmp(argv[1], "sgemm") == 0) {
        struct gemm_args g = {atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), NULL, NULL, NULL};
        openblas_set_num_threads(atoi(argv[5]));
        g.a = alloc_fill((size_t)g.m * g.k, 1);
        g.b = alloc_fill((size_t)g.k * g.n, 1);
        g.c = alloc_fill((size_t)g.m * g.n, 0);
        double ms = time_median(gemm_once, &g, atof(argv[6]));
        printf("median_ms=%.6g rate=%.6g GFLOP/s core=%s\n", ms, 2.0 * g.m * g.n * g.k / ms / 1e6,
               openblas_get_corename());
        return 0;
    }
    if (argc == 7 && strcmp(argv[1], "dgemm") == 0) {
        struct dgemm_args g = {atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), NULL, NULL, NULL};
        openblas_set_num_threads(atoi(argv[5]));
        g.a = alloc_fill64((size_t)g.m * g.k, 1);
        g.b = alloc_fill64((size_t)g.k * g.n, 1);
        g.c = alloc_fill64((size_t)g.m * g.n, 0);
        double ms = time_median(dgemm_once, &g, atof(argv[6]));
        printf("median_ms=%.6g rate=%.6g GFLOP/s core=%s\n", ms, 2.0 * g.m * g.n * g.k / ms / 1e6,
               openblas_get_corename());
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "stream_add") == 0) {
        struct add_args s = {(size_t)atol(argv[2]), NULL, NULL, NULL};
        omp_set_num_threads(atoi(argv[3]));
        s.a = alloc_fill(s.n, 1);
        s.b = alloc_fill(s.n, 2);
        s.c = alloc_fill(s.n, 0);
        double ms = time_median(add_once, &s, atof(argv[4]));
        printf("median_ms=%.6g rate=%.6g GB/s\n", ms, 12.0 * (double)s.n / ms / 1e6);
        return 0;
    }
    fprintf(stderr, "usage: speedref sgemm|dgemm M N K THREADS SECONDS | stream_add N THREADS "
                    "SECONDS\n");
    return 2;
}
