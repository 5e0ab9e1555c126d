/* test_emu.h — the launchers of kernels/mlp_train/cuda.cu on the emulation (same grids and
 * blocks), and the check of one whole SGD step against the workload's reference step. Test-only
 * code: include after tests/emu/emu.h and kernels/mlp_train/kernels.cuh. */
#ifndef GPUBENCH_MLP_TEST_EMU_H
#define GPUBENCH_MLP_TEST_EMU_H

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "bench/mlp_train.h"
#include "tests/emu/emu.h"
#include "tests/emu/emu_test.h"

struct emu_mlp_args {
    const float *cx, *cy, *cz;
    float *x, *y;
    int rows, cols;
    size_t n;
    float f;
};

static void emu_bias_relu_body(void *p) {
    const struct emu_mlp_args *a = p;
    gb_bias_relu_kernel(a->x, a->cx, a->rows, a->cols);
}
static void emu_relu_backward_body(void *p) {
    const struct emu_mlp_args *a = p;
    gb_relu_backward_kernel(a->x, a->cx, a->n);
}
static void emu_softmax_body(void *p) {
    const struct emu_mlp_args *a = p;
    gb_softmax_xent_kernel(a->cx, a->cy, a->cz, a->x, a->y, a->rows, a->cols, a->f);
}
static void emu_colsum_body(void *p) {
    const struct emu_mlp_args *a = p;
    gb_colsum_kernel(a->cx, a->x, a->rows, a->cols, a->f);
}
static void emu_sgd_body(void *p) {
    const struct emu_mlp_args *a = p;
    gb_sgd_kernel(a->x, a->cx, a->n, a->f);
}

/* Element-wise grid: the launchers' gb_ew_blocks, or `blocks` when nonzero (a test may shrink
 * the grid so that every thread strides several times). */
static inline dim3 emu_ew_grid(size_t n, unsigned blocks) {
    return emu_dim3(blocks ? blocks : gb_ew_blocks(n), 1, 1);
}

/* The launchers of kernels/mlp_train/cuda.cu on the emulation, same grids and blocks. */
static inline int emu_bias_relu(const struct emu_run *r, unsigned blocks, float *z,
                                const float *bias, int rows, int cols) {
    struct emu_mlp_args a = {.x = z, .cx = bias, .rows = rows, .cols = cols};
    return emu_launch(emu_ew_grid((size_t)rows * cols, blocks), emu_dim3(GB_EW_THREADS, 1, 1), 0,
                      r->order, r->seed, emu_bias_relu_body, &a);
}
static inline int emu_relu_backward(const struct emu_run *r, unsigned blocks, float *dh,
                                    const float *h, size_t n) {
    struct emu_mlp_args a = {.x = dh, .cx = h, .n = n};
    return emu_launch(emu_ew_grid(n, blocks), emu_dim3(GB_EW_THREADS, 1, 1), 0, r->order, r->seed,
                      emu_relu_backward_body, &a);
}
static inline int emu_softmax_xent(const struct emu_run *r, unsigned blocks, const float *logits,
                                   const float *bias, const float *labels, float *dlogits,
                                   float *rowloss, int rows, int cols, float scale) {
    struct emu_mlp_args a = {.cx = logits,
                             .cy = bias,
                             .cz = labels,
                             .x = dlogits,
                             .y = rowloss,
                             .rows = rows,
                             .cols = cols,
                             .f = scale};
    return emu_launch(emu_dim3(blocks ? blocks : gb_grid_of(rows, 1), 1, 1),
                      emu_dim3(GB_SMX_THREADS, 1, 1), 0, r->order, r->seed, emu_softmax_body, &a);
}
static inline int emu_colsum(const struct emu_run *r, unsigned blocks, const float *x, float *out,
                             int rows, int cols, float scale) {
    struct emu_mlp_args a = {.cx = x, .x = out, .rows = rows, .cols = cols, .f = scale};
    return emu_launch(emu_dim3(blocks ? blocks : gb_grid_of(cols, GB_COLSUM_X), 1, 1),
                      emu_dim3(GB_COLSUM_X, GB_COLSUM_Y, 1),
                      GB_COLSUM_X * GB_COLSUM_Y * sizeof(float), r->order, r->seed, emu_colsum_body,
                      &a);
}
static inline int emu_sgd(const struct emu_run *r, unsigned blocks, float *w, const float *g,
                          size_t n, float lr) {
    struct emu_mlp_args a = {.x = w, .cx = g, .n = n, .f = lr};
    return emu_launch(emu_ew_grid(n, blocks), emu_dim3(GB_EW_THREADS, 1, 1), 0, r->order, r->seed,
                      emu_sgd_body, &a);
}

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

/* --- the f64 tier ------------------------------------------------------------------------- */
struct emu_mlp64_args {
    const double *cx, *cy;
    const float *labels;
    double *x, *y;
    int rows, cols;
    size_t n;
    double f;
};

static void emu_bias_relu64_body(void *p) {
    const struct emu_mlp64_args *a = p;
    gb_bias_relu64_kernel(a->x, a->cx, a->rows, a->cols);
}
static void emu_relu_backward64_body(void *p) {
    const struct emu_mlp64_args *a = p;
    gb_relu_backward64_kernel(a->x, a->cx, a->n);
}
static void emu_softmax64_body(void *p) {
    const struct emu_mlp64_args *a = p;
    gb_softmax_xent64_kernel(a->cx, a->cy, a->labels, a->x, a->y, a->rows, a->cols, a->f);
}
static void emu_colsum64_body(void *p) {
    const struct emu_mlp64_args *a = p;
    gb_colsum64_kernel(a->cx, a->x, a->rows, a->cols, a->f);
}
static void emu_sgd64_body(void *p) {
    const struct emu_mlp64_args *a = p;
    gb_sgd64_kernel(a->x, a->cx, a->n, a->f);
}

/* The f64 launchers of kernels/mlp_train/cuda.cu on the emulation (same grids and blocks as
 * the float ones; `blocks` as there). */
static inline int emu_bias_relu64(const struct emu_run *r, unsigned blocks, double *z,
                                  const double *bias, int rows, int cols) {
    struct emu_mlp64_args a = {.x = z, .cx = bias, .rows = rows, .cols = cols};
    return emu_launch(emu_ew_grid((size_t)rows * cols, blocks), emu_dim3(GB_EW_THREADS, 1, 1), 0,
                      r->order, r->seed, emu_bias_relu64_body, &a);
}
static inline int emu_relu_backward64(const struct emu_run *r, unsigned blocks, double *dh,
                                      const double *h, size_t n) {
    struct emu_mlp64_args a = {.x = dh, .cx = h, .n = n};
    return emu_launch(emu_ew_grid(n, blocks), emu_dim3(GB_EW_THREADS, 1, 1), 0, r->order, r->seed,
                      emu_relu_backward64_body, &a);
}
static inline int emu_softmax_xent64(const struct emu_run *r, unsigned blocks,
                                     const double *logits, const double *bias,
                                     const float *labels, double *dlogits, double *rowloss,
                                     int rows, int cols, double scale) {
    struct emu_mlp64_args a = {.cx = logits,
                               .cy = bias,
                               .labels = labels,
                               .x = dlogits,
                               .y = rowloss,
                               .rows = rows,
                               .cols = cols,
                               .f = scale};
    return emu_launch(emu_dim3(blocks ? blocks : gb_grid_of(rows, 1), 1, 1),
                      emu_dim3(GB_SMX_THREADS, 1, 1), 0, r->order, r->seed, emu_softmax64_body,
                      &a);
}
static inline int emu_colsum64(const struct emu_run *r, unsigned blocks, const double *x,
                               double *out, int rows, int cols, double scale) {
    struct emu_mlp64_args a = {.cx = x, .x = out, .rows = rows, .cols = cols, .f = scale};
    return emu_launch(emu_dim3(blocks ? blocks : gb_grid_of(cols, GB_COLSUM_X), 1, 1),
                      emu_dim3(GB_COLSUM_X, GB_COLSUM_Y, 1),
                      GB_COLSUM_X * GB_COLSUM_Y * sizeof(double), r->order, r->seed,
                      emu_colsum64_body, &a);
}
static inline int emu_sgd64(const struct emu_run *r, unsigned blocks, double *w, const double *g,
                            size_t n, double lr) {
    struct emu_mlp64_args a = {.x = w, .cx = g, .n = n, .f = lr};
    return emu_launch(emu_ew_grid(n, blocks), emu_dim3(GB_EW_THREADS, 1, 1), 0, r->order, r->seed,
                      emu_sgd64_body, &a);
}

struct emu_tr_args {
    const double *in;
    double *out;
    int rows, cols, ld;
};
static void emu_transpose64_body(void *p) {
    const struct emu_tr_args *a = p;
    gb_transpose64_kernel(a->in, a->rows, a->cols, a->ld, a->out);
}
/* gb_transpose64 on the emulation; gx, gy: the grid, or 0 for the launcher's. */
static inline int emu_transpose64(const struct emu_run *r, unsigned gx, unsigned gy,
                                  const double *in, int rows, int cols, int ld, double *out) {
    struct emu_tr_args a = {in, out, rows, cols, ld};
    return emu_launch(emu_dim3(gx ? gx : gb_grid_of(cols, GB_TR_TILE),
                               gy ? gy : gb_grid_of(rows, GB_TR_TILE), 1),
                      emu_dim3(GB_TR_TILE, GB_TR_ROWS, 1), 0, r->order, r->seed,
                      emu_transpose64_body, &a);
}

/* Doubles with 53 random bits, deterministic in (seed, i), in [lo, hi) (about): two float
 * draws, the second one 2^-24 below the first, so that a kernel that rounds to float32 on the
 * way is off by far more than double rounding. */
static inline void emu_fill64(double *x, size_t n, uint64_t seed, double lo, double hi) {
    float *a = emu_alloc(n * sizeof(float)), *b = emu_alloc(n * sizeof(float));
    size_t i;
    emu_fill(a, n, seed, 0, 1);
    emu_fill(b, n, seed + 1000, 0, 1);
    for (i = 0; i < n; i++)
        x[i] = lo + (hi - lo) * ((double)a[i] + 0x1p-24 * (double)b[i]);
    free(a), free(b);
}

/* Count got[i] with |got − ref| > tol·scale[i] (scale NULL: |ref| + 1); the first three printed.
 * NaN fails. */
static inline size_t emu_mismatches64(const char *what, const double *got, const double *ref,
                                      const double *scale, size_t n, double tol) {
    size_t i, bad = 0;
    for (i = 0; i < n; i++) {
        double s = scale ? scale[i] : fabs(ref[i]) + 1.0;
        if (!(fabs(got[i] - ref[i]) <= tol * s)) {
            if (bad < 3)
                fprintf(stderr, "  %s[%zu] = %.17g, want %.17g\n", what, i, got[i], ref[i]);
            bad++;
        }
    }
    return bad;
}

#endif
