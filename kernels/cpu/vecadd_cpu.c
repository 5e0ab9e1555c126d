/* vecadd_cpu.c — c = a + b: a threaded loop the compiler vectorizes (restrict, unit stride). */
#include "kernels/cpu/vecadd_cpu.h"

#include "kernels/cpu/cpu_pool.h"

struct vecadd_job {
    const float *a, *b;
    float *c;
    size_t n;
};

/* Cloned for AVX-512, AVX2 and baseline x86-64, chosen at load time: one portable binary that
 * still uses the widest vectors of the machine it runs on (as OpenBLAS does). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static void add_range(const float *restrict a, const float *restrict b, float *restrict c,
                      size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++)
        c[i] = a[i] + b[i];
}

static void vecadd_part(void *arg, int tid, int nthreads) {
    const struct vecadd_job *j = arg;
    size_t lo, hi;
    pool_range(j->n, nthreads, tid, 16 /* floats per 64-byte line */, &lo, &hi);
    add_range(j->a, j->b, j->c, lo, hi);
}

void vecadd_cpu(const float *a, const float *b, float *c, size_t n) {
    struct vecadd_job j = {a, b, c, n};
    pool_run(vecadd_part, &j);
}
