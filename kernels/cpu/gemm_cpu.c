/* gemm_cpu.c — C = A·B in float32 through OpenBLAS, and the double reference it is checked
 * against. */
#include "kernels/cpu/gemm_cpu.h"

#include <stdlib.h>

#include <cblas.h>

void gemm_cpu_sgemm(int m, int n, int k, const float *a, const float *b, float *c) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}

size_t gemm_ref_scratch_bytes(size_t m, size_t n, size_t k) {
    (void)m;
    return k * n * sizeof(float);
}

/* bt = Bᵀ (n×k), in 32×32 blocks so that both the reads and the writes stay in cache. */
static void gemm_ref_transpose(size_t n, size_t k, const float *b, float *bt) {
    enum { TB = 32 };
    for (size_t l0 = 0; l0 < k; l0 += TB)
        for (size_t j0 = 0; j0 < n; j0 += TB) {
            size_t l1 = l0 + TB < k ? l0 + TB : k, j1 = j0 + TB < n ? j0 + TB : n;
            for (size_t l = l0; l < l1; l++)
                for (size_t j = j0; j < j1; j++)
                    bt[j * k + l] = b[l * n + j];
        }
}

int gemm_ref(size_t m, size_t n, size_t k, const float *a, const float *b, const size_t *idx,
             size_t count, double *ref) {
    float *bt = malloc(gemm_ref_scratch_bytes(m, n, k));
    if (!bt)
        return -1;
    gemm_ref_transpose(n, k, b, bt);
    for (size_t j = 0; j < count; j++) {
        size_t e = idx ? idx[j] : j;
        const float *arow = a + (e / n) * k, *bcol = bt + (e % n) * k;
        /* Four partial sums: a single running sum is a serial chain of dependent adds, four
         * times slower, and the reference of a sampled 4096³ output is 300 M terms. */
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        size_t l = 0;
        for (; l + 4 <= k; l += 4) {
            s0 += (double)arow[l] * bcol[l];
            s1 += (double)arow[l + 1] * bcol[l + 1];
            s2 += (double)arow[l + 2] * bcol[l + 2];
            s3 += (double)arow[l + 3] * bcol[l + 3];
        }
        for (; l < k; l++)
            s0 += (double)arow[l] * bcol[l];
        ref[j] = (s0 + s1) + (s2 + s3);
    }
    free(bt);
    return 0;
}
