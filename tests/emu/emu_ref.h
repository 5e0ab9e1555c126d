/* emu_ref.h — double-precision references for the kernel tests (the emulation tests and the
 * GPU test of the same kernels): plain loops that also return the magnitude each result's
 * rounding error grows with, which the workloads' own references (kernels/cpu) do not give, and
 * that cover what they do not (transposed operands, padded leading dimensions). The MLP step is
 * checked against the workload's reference itself (mlp_ref_step). Test-only code; include after
 * kernels/cuda/conv2d_dims.h for ref_conv2d, after kernels/cpu/mlp_cpu.h for ref_mlp_check. */
#ifndef GPUBENCH_EMU_REF_H
#define GPUBENCH_EMU_REF_H

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "tests/emu/emu_test.h"

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

#ifdef GPUBENCH_CONV2D_DIMS_H
/* Direct convolution in double; scale[i] = Σ |x·w| + 1 of each output. */
static inline void ref_conv2d(const struct gb_conv2d_dims *d, const float *x, const float *wt,
                              double *ref, double *scale) {
    int n, k, p, q, c, r, s;
    for (n = 0; n < d->n; n++)
        for (k = 0; k < d->k; k++)
            for (p = 0; p < d->p; p++)
                for (q = 0; q < d->q; q++) {
                    double acc = 0, mag = 0;
                    for (c = 0; c < d->c; c++)
                        for (r = 0; r < d->r; r++)
                            for (s = 0; s < d->s; s++) {
                                int h = p * d->stride_h - d->pad_h + r;
                                int w = q * d->stride_w - d->pad_w + s;
                                double v;
                                if (h < 0 || h >= d->h || w < 0 || w >= d->w)
                                    continue;
                                v = (double)x[((size_t)(n * d->c + c) * d->h + h) * d->w + w] *
                                    wt[((size_t)(k * d->c + c) * d->r + r) * d->s + s];
                                acc += v;
                                mag += fabs(v);
                            }
                    size_t o = ((size_t)(n * d->k + k) * d->p + p) * d->q + q;
                    ref[o] = acc;
                    scale[o] = mag + 1.0;
                }
}
#endif

#ifdef GPUBENCH_MLP_CPU_H
/* Check one SGD step — parameters `now` (w1, b1, w2, b2 after the step), `loss` (before it) —
 * from the parameters `init` against the workload's own double-precision step (mlp_ref_step),
 * comparing each parameter's change as bench/mlp_train.c does: a step moves a weight by a small
 * fraction of it, so comparing new values would pass a step that was skipped. Tolerance as
 * there: float rounding of the new value plus 1e-4 of the largest change, then 1e-3 of each
 * change. Returns the number of mismatches (the first three printed), or -1 out of memory. */
static inline long ref_mlp_check(const struct mlp_dims *d, double lr, const float *x,
                                 const float *labels, float *const init[4], float *const now[4],
                                 float loss) {
    static const char *const names[4] = {"W1 step", "b1 step", "W2 step", "b2 step"};
    const size_t sizes[4] = {(size_t)(d->hidden * d->in), (size_t)d->hidden,
                             (size_t)(d->out * d->hidden), (size_t)d->out};
    double *np[4], rloss;
    long bad = 0;
    size_t i;
    int k;
    for (k = 0; k < 4; k++)
        np[k] = emu_alloc(sizes[k] * sizeof(double));
    if (mlp_ref_step(d, x, labels, init[0], init[1], init[2], init[3], lr, np[0], np[1], np[2],
                     np[3], &rloss) != 0)
        bad = -1;
    for (k = 0; k < 4 && bad >= 0; k++) {
        double m = 0, pm = 0, tol;
        for (i = 0; i < sizes[k]; i++) {
            m = fmax(m, fabs(np[k][i] - init[k][i]));
            pm = fmax(pm, fabs((double)init[k][i]));
        }
        for (i = 0; i < sizes[k]; i++) {
            double want = np[k][i] - init[k][i], got = (double)now[k][i] - init[k][i];
            tol = 0x1p-22 * (pm + m) + 1e-4 * m + 1e-3 * fabs(want);
            if (!(fabs(got - want) <= tol)) { /* NaN fails */
                if (bad < 3)
                    fprintf(stderr, "  %s[%zu] = %.9g, want %.9g\n", names[k], i, got, want);
                bad++;
            }
        }
    }
    if (bad >= 0 && !(fabs((double)loss - rloss) <= 1e-5 + 1e-4 * fabs(rloss))) {
        fprintf(stderr, "  loss = %.9g, want %.9g\n", (double)loss, rloss);
        bad++;
    }
    for (k = 0; k < 4; k++)
        free(np[k]);
    return bad;
}
#endif

#endif
