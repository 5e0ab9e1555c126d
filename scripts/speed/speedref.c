/* speedref.c — the bare references that scripts/speedcheck measures gpubench against.
 *
 *   speedref sgemm M N K THREADS SECONDS      a bare loop of cblas_sgemm (row-major, no harness)
 *   speedref stream_add N THREADS SECONDS     STREAM's Add kernel, c[j] = a[j] + b[j], OpenMP
 *
 * Prints one line: "median_ms=… rate=… unit" (rate in GFLOP/s for sgemm, GB/s for stream_add,
 * counting 12 bytes per element as STREAM does). Built with OpenMP and -march=native on purpose:
 * the reference should be as demanding as a user's own hand-tuned loop.
 */
#include <cblas.h>
#include <omp.h>
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

int main(int argc, char **argv) {
    if (argc == 7 && strcmp(argv[1], "sgemm") == 0) {
        struct gemm_args g = {atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), NULL, NULL, NULL};
        openblas_set_num_threads(atoi(argv[5]));
        g.a = alloc_fill((size_t)g.m * g.k, 1);
        g.b = alloc_fill((size_t)g.k * g.n, 1);
        g.c = alloc_fill((size_t)g.m * g.n, 0);
        double ms = time_median(gemm_once, &g, atof(argv[6]));
        printf("median_ms=%.6g rate=%.6g GFLOP/s\n", ms, 2.0 * g.m * g.n * g.k / ms / 1e6);
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
    fprintf(stderr, "usage: speedref sgemm M N K THREADS SECONDS | stream_add N THREADS SECONDS\n");
    return 2;
}
