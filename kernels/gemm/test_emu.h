/* test_emu.h — for the tests of this and other workloads' kernels: gb_sgemm on the emulation
 * (emu_sgemm, the launcher's own planning through gb_sgemm_plan) and its double-precision
 * reference with the magnitude each result's rounding grows with (ref_sgemm), which also covers
 * transposed operands and padded leading dimensions. Test-only code: include after
 * tests/emu/emu.h and kernels/gemm/kernels.cuh. */
#ifndef GPUBENCH_GEMM_TEST_EMU_H
#define GPUBENCH_GEMM_TEST_EMU_H

#include <math.h>
#include <stddef.h>

#include "tests/emu/emu.h"
#include "tests/emu/emu_test.h"

struct emu_gemm_args {
    void (*fn)(int, int, int, const float *, int, const float *, int, float *, int);
    int M, N, K, lda, ldb, ldc;
    const float *A, *B;
    float *C;
};

static void emu_gemm_body(void *p) {
    const struct emu_gemm_args *a = p;
    a->fn(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
}

/* gb_sgemm (kernels/gemm/cuda.cu) on the emulation, through the same gb_sgemm_plan. Returns 0
 * or -1. */
static inline int emu_sgemm(const struct emu_run *r, int trans_a, int trans_b, int M, int N, int K,
                            const float *A, int lda, const float *B, int ldb, float *C, int ldc) {
    static void (*const fns[2][3])(int, int, int, const float *, int, const float *, int, float *,
                                   int) = {
        {gb_sgemm_64x64_nn, gb_sgemm_64x64_tn, gb_sgemm_64x64_nt},
        {gb_sgemm_128x128_nn, gb_sgemm_128x128_tn, gb_sgemm_128x128_nt},
    };
    struct emu_gemm_args a;
    enum gb_gemm_cfg cfg;
    int variant, rc;
    dim3 grid;
    rc = gb_sgemm_plan(r->sm, r->sms, trans_a, trans_b, M, N, K, lda, ldb, ldc, &cfg, &variant,
                       &grid);
    if (rc != 0)
        return rc == 1 ? 0 : -1;
    a.fn = fns[cfg][variant];
    a.M = M, a.N = N, a.K = K, a.lda = lda, a.ldb = ldb, a.ldc = ldc;
    a.A = A, a.B = B, a.C = C;
    return emu_launch(grid, emu_dim3(GB_GEMM_THREADS, 1, 1), 0, r->order, r->seed, emu_gemm_body,
                      &a);
}

/* C = op(A)·op(B) in double (shapes as gb_sgemm takes them); scale[i] = Σ|a·b| + 1 of each
 * element, the magnitude its rounding error grows with. */
static inline void ref_sgemm(int ta, int tb, int M, int N, int K, const float *A, int lda,
                             const float *B, int ldb, double *ref, double *scale) {
    int i, j, k;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            double s = 0, sa = 0;
            for (k = 0; k < K; k++) {
                double a = ta ? A[(size_t)k * lda + i] : A[(size_t)i * lda + k];
                double b = tb ? B[(size_t)j * ldb + k] : B[(size_t)k * ldb + j];
                s += a * b;
                sa += fabs(a * b);
            }
            ref[(size_t)i * N + j] = s;
            scale[(size_t)i * N + j] = sa + 1.0;
        }
}

#endif
