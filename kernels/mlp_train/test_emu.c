/* test_emu.c — the MLP step's kernels (kernels/mlp_train/kernels.cuh) on the CPU emulation,
 * each against a double-precision reference on three or more shapes in every thread order, then
 * the whole step as the `cuda` row sequences it (kernels/mlp_train/step.h) against the workload's
 * own reference step (mlp_ref_step), checked the way bench/mlp_train.c checks it. The step's
 * matrix products are a plain host loop here: the SGEMM kernels have their own emulation test in
 * their workload's folder, and the `cuda` row as shipped — step, SGEMM and these kernels
 * together — runs on the simulated device (tests/sim) on every card profile. The f16 step
 * (amp_step.h) runs as mlp_train/cuda_tc sequences it, on the twins of its WMMA GEMMs
 * (kernels/gemm/wmma.cuh), at odd sizes, checked by the workload's own f16 verification
 * (bench/mlp_train.c: the problem made and verified as for the cublas and cuda_tc f16 rows).
 *
 * Emulation builds: arch 750 200
 */
#include "tests/emu/emu.h"

#include "harness/core/dtype.h"
#include "harness/core/shape.h"
#include "harness/core/verify.h"
#include "bench/mlp_train.h"
#include "kernels/gemm/wmma.cuh"
#include "kernels/mlp_train/kernels.cuh"
#include "kernels/mlp_train/amp_step.h"
#include "kernels/mlp_train/step.h"
#include "kernels/mlp_train/test_emu.h"
#include "tests/emu/emu_test.h"

#include <string.h>
#include <time.h>

static struct emu_run run_of(int o) {
    struct emu_run r = {(enum emu_order)o, 99, GB_EMU_ARCH / 10, 1};
    return r;
}

#define CASE_CHECK(rc, bad, ...) EMU_CHECK((rc) == 0 && (bad) == 0, __VA_ARGS__)

/* --- element-wise kernels ------------------------------------------------------------------ */
static void test_bias_relu(int o) {
    static const int shapes[][3] = {{3, 5, 0}, {17, 33, 1}, {40, 257, 3}, {1, 1000, 0}};
    size_t s;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int rows = shapes[s][0], cols = shapes[s][1], i, j;
        size_t n = (size_t)rows * cols;
        float *z = emu_alloc(n * sizeof(float)), *b = emu_alloc((size_t)cols * sizeof(float));
        double *ref = emu_alloc(n * sizeof(double));
        struct emu_run r = run_of(o);
        int rc;
        emu_fill(z, n, 1 + s, -1, 1);
        emu_fill(b, (size_t)cols, 2 + s, -0.5f, 0.5f);
        for (i = 0; i < rows; i++)
            for (j = 0; j < cols; j++) {
                double v = (double)z[(size_t)i * cols + j] + b[j];
                ref[(size_t)i * cols + j] = v > 0 ? (double)(float)v : 0.0;
            }
        rc = emu_bias_relu(&r, (unsigned)shapes[s][2], z, b, rows, cols);
        CASE_CHECK(rc, emu_mismatches("z", z, ref, NULL, n, 1e-7, 1), "bias_relu %dx%d %s", rows,
                   cols, emu_order_name(r.order));
        free(z), free(b), free(ref);
    }
}

static void test_relu_backward(int o) {
    static const size_t sizes[] = {1, 1000, 4099};
    static const unsigned blocks[] = {0, 1, 2};
    size_t s, i;
    for (s = 0; s < 3; s++) {
        size_t n = sizes[s];
        float *dh = emu_alloc(n * sizeof(float)), *h = emu_alloc(n * sizeof(float));
        double *ref = emu_alloc(n * sizeof(double));
        struct emu_run r = run_of(o);
        int rc;
        emu_fill(dh, n, 3 + s, -1, 1);
        emu_fill(h, n, 4 + s, -1, 1);
        for (i = 0; i < n; i++) {
            if (i % 7 == 0)
                h[i] = 0.0f; /* exactly at the kink: the gradient stops there */
            ref[i] = h[i] > 0 ? dh[i] : 0.0;
        }
        rc = emu_relu_backward(&r, blocks[s], dh, h, n);
        CASE_CHECK(rc, emu_mismatches("dh", dh, ref, NULL, n, 0, 1), "relu_backward n=%zu %s", n,
                   emu_order_name(r.order));
        free(dh), free(h), free(ref);
    }
}

static void test_sgd(int o) {
    static const size_t sizes[] = {5, 1000, 4099};
    static const unsigned blocks[] = {0, 3, 1};
    size_t s, i;
    for (s = 0; s < 3; s++) {
        size_t n = sizes[s];
        float *w = emu_alloc(n * sizeof(float)), *g = emu_alloc(n * sizeof(float));
        double *ref = emu_alloc(n * sizeof(double));
        struct emu_run r = run_of(o);
        int rc;
        emu_fill(w, n, 5 + s, -1, 1);
        emu_fill(g, n, 6 + s, -1, 1);
        for (i = 0; i < n; i++)
            ref[i] = (double)w[i] - 0.1 * (double)g[i];
        rc = emu_sgd(&r, blocks[s], w, g, n, 0.1f);
        CASE_CHECK(rc, emu_mismatches("w", w, ref, NULL, n, 2e-7, 1), "sgd n=%zu %s", n,
                   emu_order_name(r.order));
        free(w), free(g), free(ref);
    }
}

/* --- reductions ---------------------------------------------------------------------------- */
static void test_colsum(int o) {
    /* rows, cols, blocks (0: the launcher's grid; else fewer, to stride over column groups) */
    static const int shapes[][3] = {{1, 1, 0}, {37, 45, 0}, {300, 70, 1}, {9, 100, 2}};
    size_t s;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int rows = shapes[s][0], cols = shapes[s][1], i, j;
        float *x = emu_alloc((size_t)rows * cols * sizeof(float));
        float *out = emu_alloc((size_t)cols * sizeof(float));
        double *ref = emu_alloc((size_t)cols * sizeof(double));
        double *scale = emu_alloc((size_t)cols * sizeof(double));
        struct emu_run r = run_of(o);
        int rc;
        emu_fill(x, (size_t)rows * cols, 7 + s, -1, 1);
        emu_poison(out, (size_t)cols);
        for (j = 0; j < cols; j++) {
            ref[j] = scale[j] = 0;
            for (i = 0; i < rows; i++) {
                ref[j] += 0.5 * x[(size_t)i * cols + j];
                scale[j] += 0.5 * fabs(x[(size_t)i * cols + j]);
            }
        }
        rc = emu_colsum(&r, (unsigned)shapes[s][2], x, out, rows, cols, 0.5f);
        CASE_CHECK(rc, emu_mismatches("out", out, ref, scale, (size_t)cols, 1e-6, 1),
                   "colsum %dx%d %s", rows, cols, emu_order_name(r.order));
        free(x), free(out), free(ref), free(scale);
    }
}

/* Softmax cross-entropy in double: rowloss and dlogits = (p − onehot)·scale. */
static void softmax_ref(const float *l, const float *b, const float *labels, int rows, int cols,
                        double scale, double *dl, double *loss) {
    int i, j;
    for (i = 0; i < rows; i++) {
        const float *li = l + (size_t)i * cols;
        double m = -HUGE_VAL, s = 0, yr = nearbyint((double)labels[i]);
        int y = !(yr > 0) ? 0 : yr >= cols ? cols - 1 : (int)yr;
        for (j = 0; j < cols; j++)
            m = fmax(m, (double)li[j] + b[j]);
        for (j = 0; j < cols; j++)
            s += exp((double)li[j] + b[j] - m);
        loss[i] = log(s) - ((double)li[y] + b[y] - m);
        for (j = 0; j < cols; j++)
            dl[(size_t)i * cols + j] = (exp((double)li[j] + b[j] - m) / s - (j == y)) * scale;
    }
}

static void test_softmax(int o) {
    /* rows, cols, in place, blocks (0: one per row) */
    static const int shapes[][4] = {{1, 2, 0, 0}, {5, 10, 1, 0}, {7, 300, 1, 3}, {9, 129, 0, 0}};
    size_t s;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int rows = shapes[s][0], cols = shapes[s][1], inplace = shapes[s][2], i;
        size_t n = (size_t)rows * cols;
        float *l = emu_alloc(n * sizeof(float)), *b = emu_alloc((size_t)cols * sizeof(float));
        float *lab = emu_alloc((size_t)rows * sizeof(float));
        float *dl = inplace ? l : emu_alloc(n * sizeof(float));
        float *loss = emu_alloc((size_t)rows * sizeof(float));
        double *rdl = emu_alloc(n * sizeof(double)), *rloss = emu_alloc(rows * sizeof(double));
        struct emu_run r = run_of(o);
        int rc;
        size_t bad;
        emu_fill(l, n, 8 + s, -30, 30); /* large logits: the max subtraction matters */
        emu_fill(b, (size_t)cols, 9 + s, -1, 1);
        emu_fill(lab, (size_t)rows, 10 + s, 0, (float)cols);
        for (i = 0; i < rows; i++)
            lab[i] = floorf(lab[i]);
        lab[0] = (float)(cols + 5); /* out of range: clamped, as mlp_label does */
        if (!inplace)
            emu_poison(dl, n);
        emu_poison(loss, (size_t)rows);
        softmax_ref(l, b, lab, rows, cols, 1.0 / rows, rdl, rloss);
        rc = emu_softmax_xent(&r, (unsigned)shapes[s][3], l, b, lab, dl, loss, rows, cols,
                              1.0f / (float)rows);
        bad = emu_mismatches("dlogits", dl, rdl, NULL, n, 1e-6, 1) +
              emu_mismatches("rowloss", loss, rloss, NULL, (size_t)rows, 1e-5, 1);
        CASE_CHECK(rc, bad, "softmax_xent %dx%d%s %s", rows, cols, inplace ? " in place" : "",
                   emu_order_name(r.order));
        free(l), free(b), free(lab), free(loss), free(rdl), free(rloss);
        if (!inplace)
            free(dl);
    }
}

/* --- the whole step ------------------------------------------------------------------------ */
/* C = op(A) op(B), row-major, accumulated in double and rounded once. */
static int op_sgemm(void *c, int ta, int tb, int M, int N, int K, const float *A, int lda,
                    const float *B, int ldb, float *C, int ldc) {
    int i, j, k;
    (void)c;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            double s = 0;
            for (k = 0; k < K; k++)
                s += (double)(ta ? A[(size_t)k * lda + i] : A[(size_t)i * lda + k]) *
                     (tb ? B[(size_t)j * ldb + k] : B[(size_t)k * ldb + j]);
            C[(size_t)i * ldc + j] = (float)s;
        }
    return 0;
}
static int op_bias_relu(void *c, float *z, const float *bias, int rows, int cols) {
    return emu_bias_relu(c, 0, z, bias, rows, cols) ? 1 : 0;
}
static int op_relu_backward(void *c, float *dh, const float *h, size_t n) {
    return emu_relu_backward(c, 0, dh, h, n) ? 1 : 0;
}
static int op_softmax_xent(void *c, const float *l, const float *b, const float *labels, float *dl,
                           float *rowloss, int rows, int cols, float scale) {
    return emu_softmax_xent(c, 0, l, b, labels, dl, rowloss, rows, cols, scale) ? 1 : 0;
}
static int op_colsum(void *c, const float *x, float *out, int rows, int cols, float scale) {
    return emu_colsum(c, 0, x, out, rows, cols, scale) ? 1 : 0;
}
static int op_sgd(void *c, float *w, const float *g, size_t n, float lr) {
    return emu_sgd(c, 0, w, g, n, lr) ? 1 : 0;
}
static const struct gb_mlp_ops emu_ops = {op_sgemm,        op_bias_relu, op_relu_backward,
                                          op_softmax_xent, op_colsum,    op_sgd};

/* A step's shape and learning rate. */
struct step_case {
    int batch, in, hidden, out;
    float lr;
};

/* One step on the emulation, checked as bench/mlp_train.c verifies the `cuda` row's step. */
static void test_step(int o, const struct step_case *d) {
    const struct mlp_dims md = {d->batch, d->in, d->hidden, d->out};
    const int B = d->batch, I = d->in, H = d->hidden, O = d->out;
    const size_t sizes[4] = {(size_t)H * I, (size_t)H, (size_t)O * H, (size_t)O};
    float *x = emu_alloc((size_t)B * I * sizeof(float)), *lab = emu_alloc(B * sizeof(float));
    float *scratch = emu_alloc(gb_mlp_scratch_floats(&md) * sizeof(float)), loss = NAN;
    float *p[4], *init[4];
    struct emu_run r = run_of(o);
    long bad;
    size_t i;
    int k, rc;
    emu_fill(x, (size_t)B * I, 21, -1, 1);
    emu_fill(lab, (size_t)B, 22, 0, (float)O);
    for (i = 0; i < (size_t)B; i++)
        lab[i] = floorf(lab[i]);
    for (k = 0; k < 4; k++) {
        p[k] = emu_alloc(sizes[k] * sizeof(float));
        init[k] = emu_alloc(sizes[k] * sizeof(float));
        emu_fill(p[k], sizes[k], 23 + (uint64_t)k, -0.5f, 0.5f);
    }
    EMU_CHECK(mlp_ref_clear_kinks(&md, x, p[0], p[1]) >= 0, "out of memory");
    for (k = 0; k < 4; k++)
        memcpy(init[k], p[k], sizes[k] * sizeof(float));
    emu_poison(scratch, gb_mlp_scratch_floats(&md));
    {
        void *const buf[GB_MLP_NBUF] = {x, lab, p[0], p[1], p[2], p[3], &loss, scratch};
        rc = gb_mlp_step(&emu_ops, &r, &md, d->lr, buf);
    }
    bad = ref_mlp_check(&md, d->lr, x, lab, init, p, loss);
    EMU_CHECK(rc == 0 && bad == 0,
              "mlp step batch=%d in=%d hidden=%d out=%d %s: %ld wrong", B, I, H, O,
              emu_order_name(r.order), bad);
    for (k = 0; k < 4; k++)
        free(p[k]), free(init[k]);
    free(x), free(lab), free(scratch);
}

/* --- the f64 tier -------------------------------------------------------------------------- */
/* Each f64 kernel against the same arithmetic in double on the host: the element-wise ones
 * exactly (one double rounding each, as here), the reductions to a few double roundings of
 * their magnitude. A kernel that went through float32 anywhere is off by ~1e-8 (the inputs
 * carry 53 random bits). */
static void test_elementwise64(int o) {
    static const int shapes[][3] = {{17, 33, 1}, {40, 257, 0}, {1, 1000, 2}};
    size_t s, i;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int rows = shapes[s][0], cols = shapes[s][1];
        unsigned blocks = (unsigned)shapes[s][2];
        size_t n = (size_t)rows * cols;
        double *z = emu_alloc(n * sizeof(double)), *b = emu_alloc(cols * sizeof(double));
        double *g = emu_alloc(n * sizeof(double)), *ref = emu_alloc(n * sizeof(double));
        double *ref2 = emu_alloc(n * sizeof(double)), *w = emu_alloc(n * sizeof(double));
        struct emu_run r = run_of(o);
        int rc;
        size_t bad;
        emu_fill64(z, n, 31 + s, -1, 1);
        emu_fill64(b, (size_t)cols, 32 + s, -0.5, 0.5);
        emu_fill64(g, n, 33 + s, -1, 1);
        for (i = 0; i < n; i++) {
            double v = z[i] + b[i % (size_t)cols];
            ref[i] = v > 0 ? v : 0;
            w[i] = z[i];
            ref2[i] = w[i] - 0.1 * g[i];
        }
        rc = emu_bias_relu64(&r, blocks, z, b, rows, cols);
        bad = emu_mismatches64("z", z, ref, NULL, n, 0);
        for (i = 0; i < n; i++)
            ref[i] = z[i] > 0 ? g[i] : 0; /* z is now a ReLU output, zero at every kink */
        rc |= emu_relu_backward64(&r, blocks, g, z, n);
        bad += emu_mismatches64("dh", g, ref, NULL, n, 0);
        emu_fill64(g, n, 33 + s, -1, 1);
        rc |= emu_sgd64(&r, blocks, w, g, n, 0.1);
        bad += emu_mismatches64("w", w, ref2, NULL, n, 0x1p-52);
        CASE_CHECK(rc, bad, "f64 bias_relu, relu_backward, sgd %dx%d %s", rows, cols,
                   emu_order_name(r.order));
        free(z), free(b), free(g), free(ref), free(ref2), free(w);
    }
}

static void test_colsum64(int o) {
    static const int shapes[][3] = {{1, 1, 0}, {37, 45, 0}, {300, 70, 1}, {9, 100, 2}};
    size_t s;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int rows = shapes[s][0], cols = shapes[s][1], i, j;
        double *x = emu_alloc((size_t)rows * cols * sizeof(double));
        double *out = emu_alloc((size_t)cols * sizeof(double));
        double *ref = emu_alloc((size_t)cols * sizeof(double));
        double *scale = emu_alloc((size_t)cols * sizeof(double));
        struct emu_run r = run_of(o);
        int rc;
        emu_fill64(x, (size_t)rows * cols, 41 + s, -1, 1);
        for (j = 0; j < cols; j++) {
            out[j] = NAN;
            ref[j] = scale[j] = 0;
            for (i = 0; i < rows; i++) {
                ref[j] += 0.5 * x[(size_t)i * cols + j];
                scale[j] += 0.5 * fabs(x[(size_t)i * cols + j]);
            }
        }
        rc = emu_colsum64(&r, (unsigned)shapes[s][2], x, out, rows, cols, 0.5);
        CASE_CHECK(rc, emu_mismatches64("out", out, ref, scale, (size_t)cols, 1e-14),
                   "f64 colsum %dx%d %s", rows, cols, emu_order_name(r.order));
        free(x), free(out), free(ref), free(scale);
    }
}

static void test_softmax64(int o) {
    /* rows, cols, in place, blocks (0: one per row) */
    static const int shapes[][4] = {{1, 2, 0, 0}, {5, 10, 1, 0}, {7, 300, 1, 3}, {9, 129, 0, 0}};
    size_t s;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int rows = shapes[s][0], cols = shapes[s][1], inplace = shapes[s][2], i, j;
        size_t n = (size_t)rows * cols;
        double *l = emu_alloc(n * sizeof(double)), *b = emu_alloc(cols * sizeof(double));
        double *dl = inplace ? l : emu_alloc(n * sizeof(double));
        double *loss = emu_alloc(rows * sizeof(double)), *rdl = emu_alloc(n * sizeof(double));
        double *rloss = emu_alloc(rows * sizeof(double));
        float *lab = emu_alloc(rows * sizeof(float));
        struct emu_run r = run_of(o);
        int rc;
        size_t bad;
        emu_fill64(l, n, 51 + s, -30, 30);
        emu_fill64(b, (size_t)cols, 52 + s, -1, 1);
        emu_fill(lab, (size_t)rows, 53 + s, 0, (float)cols);
        for (i = 0; i < rows; i++)
            lab[i] = floorf(lab[i]), loss[i] = NAN;
        lab[0] = (float)(cols + 5); /* out of range: clamped */
        for (i = 0; i < rows; i++) { /* the reference, in long double */
            const double *li = l + (size_t)i * cols;
            int y = i == 0 ? cols - 1 : (int)lab[i];
            long double m = -HUGE_VALL, sum = 0;
            for (j = 0; j < cols; j++)
                m = fmaxl(m, (long double)li[j] + b[j]);
            for (j = 0; j < cols; j++)
                sum += expl((long double)li[j] + b[j] - m);
            rloss[i] = (double)(logl(sum) - ((long double)li[y] + b[y] - m));
            for (j = 0; j < cols; j++)
                rdl[(size_t)i * cols + j] =
                    (double)((expl((long double)li[j] + b[j] - m) / sum - (j == y)) / rows);
        }
        if (!inplace)
            for (i = 0; i < (int)n; i++)
                dl[i] = NAN;
        rc = emu_softmax_xent64(&r, (unsigned)shapes[s][3], l, b, lab, dl, loss, rows, cols,
                                1.0 / rows);
        bad = emu_mismatches64("dlogits", dl, rdl, NULL, n, 1e-14) +
              emu_mismatches64("rowloss", loss, rloss, NULL, (size_t)rows, 1e-13);
        CASE_CHECK(rc, bad, "f64 softmax_xent %dx%d%s %s", rows, cols, inplace ? " in place" : "",
                   emu_order_name(r.order));
        free(l), free(b), free(loss), free(rdl), free(rloss), free(lab);
        if (!inplace)
            free(dl);
    }
}

/* The transpose of the own DGEMM's operands: odd shapes, a leading dimension beyond the row,
 * the launcher's grid and grids that make every block stride over several tiles. */
static void test_transpose64(int o) {
    /* rows, cols, ld, grid x, grid y (0: the launcher's) */
    static const int shapes[][5] = {
        {1, 1, 1, 0, 0}, {33, 70, 75, 0, 0}, {70, 33, 33, 1, 2}, {100, 5, 9, 1, 1}};
    size_t s;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int rows = shapes[s][0], cols = shapes[s][1], ld = shapes[s][2];
        double *in = emu_alloc((size_t)rows * ld * sizeof(double));
        double *out = emu_alloc((size_t)rows * cols * sizeof(double));
        double *ref = emu_alloc((size_t)rows * cols * sizeof(double));
        struct emu_run r = run_of(o);
        int rc, i, j;
        emu_fill64(in, (size_t)rows * ld, 61 + s, -1, 1);
        for (i = 0; i < rows; i++)
            for (j = 0; j < cols; j++)
                ref[(size_t)j * rows + i] = in[(size_t)i * ld + j], out[(size_t)j * rows + i] = NAN;
        rc = emu_transpose64(&r, (unsigned)shapes[s][3], (unsigned)shapes[s][4], in, rows, cols,
                             ld, out);
        CASE_CHECK(rc, emu_mismatches64("out", out, ref, NULL, (size_t)rows * cols, 0),
                   "transpose64 %dx%d ld %d %s", rows, cols, ld, emu_order_name(r.order));
        free(in), free(out), free(ref);
    }
}

/* The f64 step's ops as mlp_train/cuda runs them: a transposed operand goes through the
 * transpose kernel into `tr` first, then an untransposed product (here a host loop: the DGEMM
 * kernel has its own emulation test in its workload's folder). `r` first: the other ops take
 * the context as the emu_run. */
struct step64_ctx {
    struct emu_run r;
    double *tr;
};

static int op_dgemm(void *c, int ta, int tb, int M, int N, int K, const double *A, int lda,
                    const double *B, int ldb, double *C, int ldc) {
    struct step64_ctx *x = c;
    int i, j, k;
    if (ta && tb)
        return 1;
    if (ta && emu_transpose64(&x->r, 0, 0, A, K, M, lda, x->tr))
        return 1;
    if (tb && emu_transpose64(&x->r, 0, 0, B, N, K, ldb, x->tr))
        return 1;
    if (ta)
        A = x->tr, lda = K;
    if (tb)
        B = x->tr, ldb = N;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            double s = 0;
            for (k = 0; k < K; k++)
                s += A[(size_t)i * lda + k] * B[(size_t)k * ldb + j];
            C[(size_t)i * ldc + j] = s;
        }
    return 0;
}
static int op_bias_relu64(void *c, double *z, const double *bias, int rows, int cols) {
    return emu_bias_relu64(c, 0, z, bias, rows, cols) ? 1 : 0;
}
static int op_relu_backward64(void *c, double *dh, const double *h, size_t n) {
    return emu_relu_backward64(c, 0, dh, h, n) ? 1 : 0;
}
static int op_softmax_xent64(void *c, const double *l, const double *b, const float *labels,
                             double *dl, double *rowloss, int rows, int cols, double scale) {
    return emu_softmax_xent64(c, 0, l, b, labels, dl, rowloss, rows, cols, scale) ? 1 : 0;
}
static int op_colsum64(void *c, const double *x, double *out, int rows, int cols, double scale) {
    return emu_colsum64(c, 0, x, out, rows, cols, scale) ? 1 : 0;
}
static int op_sgd64(void *c, double *w, const double *g, size_t n, double lr) {
    return emu_sgd64(c, 0, w, g, n, lr) ? 1 : 0;
}
static const struct gb_mlp_ops64 emu_ops64 = {op_dgemm,          op_bias_relu64,
                                              op_relu_backward64, op_softmax_xent64,
                                              op_colsum64,       op_sgd64};

/* Each parameter's change against the reference's, with the f64 row's tolerances
 * (bench/mlp_train.c, mlp_make64): 2^-50 of the parameters' size plus 1e-10 of the largest
 * change, then 1e-9 of each change; the loss to 1e-12. */
static long check_step64(const struct mlp_dims *d, double lr, const float *x, const float *lab,
                         float *const init[4], double *const now[4], double loss) {
    const size_t sizes[4] = {(size_t)(d->hidden * d->in), (size_t)d->hidden,
                             (size_t)(d->out * d->hidden), (size_t)d->out};
    double *np[4], rloss;
    long bad = 0;
    size_t i;
    int k;
    for (k = 0; k < 4; k++)
        np[k] = emu_alloc(sizes[k] * sizeof(double));
    if (mlp_ref_step(d, x, lab, init[0], init[1], init[2], init[3], lr, np[0], np[1], np[2],
                     np[3], &rloss) != 0)
        bad = -1;
    for (k = 0; k < 4 && bad >= 0; k++) {
        double m = 0, pm = 0;
        for (i = 0; i < sizes[k]; i++) {
            m = fmax(m, fabs(np[k][i] - init[k][i]));
            pm = fmax(pm, fabs((double)init[k][i]));
        }
        for (i = 0; i < sizes[k]; i++) {
            double want = np[k][i] - init[k][i], got = now[k][i] - init[k][i];
            if (!(fabs(got - want) <= 0x1p-50 * (pm + m) + 1e-10 * m + 1e-9 * fabs(want))) {
                if (bad < 3)
                    fprintf(stderr, "  param %d [%zu] step %.17g, want %.17g\n", k, i, got, want);
                bad++;
            }
        }
    }
    if (bad >= 0 && !(fabs(loss - rloss) <= 1e-12 + 1e-12 * fabs(rloss))) {
        fprintf(stderr, "  loss = %.17g, want %.17g\n", loss, rloss);
        bad++;
    }
    for (k = 0; k < 4; k++)
        free(np[k]);
    return bad;
}

/* One f64 step on the emulation from float32 inputs widened, as the workload makes its f64
 * problems, checked as bench/mlp_train.c verifies an f64 row. */
static void test_step64(int o, const struct step_case *d) {
    const struct mlp_dims md = {d->batch, d->in, d->hidden, d->out};
    const int B = d->batch, I = d->in, H = d->hidden, O = d->out;
    const size_t sizes[4] = {(size_t)H * I, (size_t)H, (size_t)O * H, (size_t)O};
    float *x = emu_alloc((size_t)B * I * sizeof(float)), *lab = emu_alloc(B * sizeof(float));
    double *x64 = emu_alloc((size_t)B * I * sizeof(double)), loss = NAN;
    double *scratch = emu_alloc(gb_mlp_scratch_floats(&md) * sizeof(double)), *p[4];
    float *init[4];
    struct step64_ctx c = {run_of(o), NULL};
    size_t i, ntr = (size_t)(H * I > H * B ? H * I : H * B) + (size_t)O * (H > B ? H : B);
    int k, rc;
    emu_fill(x, (size_t)B * I, 21, -1, 1);
    emu_fill(lab, (size_t)B, 22, 0, (float)O);
    for (i = 0; i < (size_t)B; i++)
        lab[i] = floorf(lab[i]);
    for (k = 0; k < 4; k++) {
        init[k] = emu_alloc(sizes[k] * sizeof(float));
        p[k] = emu_alloc(sizes[k] * sizeof(double));
        emu_fill(init[k], sizes[k], 23 + (uint64_t)k, -0.5f, 0.5f);
    }
    EMU_CHECK(mlp_ref_clear_kinks(&md, x, init[0], init[1]) >= 0, "out of memory");
    for (k = 0; k < 4; k++)
        for (i = 0; i < sizes[k]; i++)
            p[k][i] = init[k][i];
    for (i = 0; i < (size_t)B * I; i++)
        x64[i] = x[i];
    for (i = 0; i < gb_mlp_scratch_floats(&md); i++)
        scratch[i] = NAN;
    c.tr = emu_alloc(ntr * sizeof(double));
    {
        void *const buf[GB_MLP_NBUF] = {x64, lab, p[0], p[1], p[2], p[3], &loss, scratch};
        rc = gb_mlp_step64(&emu_ops64, &c, &md, d->lr, buf);
    }
    long bad = check_step64(&md, (double)d->lr, x, lab, init, p, loss);
    EMU_CHECK(rc == 0 && bad == 0, "f64 mlp step batch=%d in=%d hidden=%d out=%d %s: %ld wrong",
              B, I, H, O, emu_order_name(c.r.order), bad);
    free(c.tr);
    for (k = 0; k < 4; k++)
        free(p[k]), free(init[k]);
    free(x), free(lab), free(x64), free(scratch);
}

/* --- the f16 tier (mixed precision) ---------------------------------------------------------- */
struct f16_args {
    const float *in, *bias;
    float *f;
    unsigned short *h;
    const unsigned short *ch;
    int rows, cols, *bad;
    size_t n;
    float lr, inv;
};
static void f16_cast_body(void *p) {
    const struct f16_args *a = p;
    gb_f16_cast_kernel(a->in, a->h, a->n);
}
static void f16_bias_relu_body(void *p) {
    const struct f16_args *a = p;
    gb_bias_relu_f16_kernel(a->in, a->bias, a->h, a->rows, a->cols);
}
static void f16_relu_backward_body(void *p) {
    const struct f16_args *a = p;
    gb_relu_backward_f16_kernel(a->f, a->ch, a->h, a->n);
}
static void f16_nonfinite_body(void *p) {
    const struct f16_args *a = p;
    gb_nonfinite_kernel(a->in, a->n, a->bad);
}
static void f16_sgd_body(void *p) {
    const struct f16_args *a = p;
    gb_amp_sgd_kernel(a->f, a->in, a->n, a->lr, a->inv, a->bad);
}
static int f16_run(const struct emu_run *r, size_t n, unsigned blocks, void (*body)(void *),
                   struct f16_args *a) {
    return emu_launch(emu_ew_grid(n, blocks), emu_dim3(GB_EW_THREADS, 1, 1), 0, r->order, r->seed,
                      body, a);
}
static int f16_launch(int o, size_t n, unsigned blocks, void (*body)(void *), struct f16_args *a) {
    struct emu_run r = run_of(o);
    return f16_run(&r, n, blocks, body, a);
}

/* Count elements whose FP16 bits differ from the host's conversion of want[i]. */
static size_t f16_mismatches(const char *what, const unsigned short *got, const float *want,
                             size_t n) {
    size_t i, bad = 0;
    for (i = 0; i < n; i++)
        if (got[i] != dtype_f32_to_f16(want[i]) && bad++ < 3)
            fprintf(stderr, "  %s[%zu] = 0x%04x, want 0x%04x (%.9g)\n", what, i, got[i],
                    dtype_f32_to_f16(want[i]), (double)want[i]);
    return bad;
}

/* The kernels' FP16 rounding against the host's (harness/core/dtype.c) bit for bit: every
 * boundary case (signed zeros, the smallest subnormal and half of it, the subnormal/normal
 * edge, ties to even, 65504, 65519.99 and 65520, Inf, NaN) and 2^16 values spread over the
 * whole exponent range of both signs. */
static void test_f16_cast(int o) {
    static const float edge[] = {0.0f, -0.0f, 5.96046448e-8f, 2.98023224e-8f, 2.98023260e-8f,
                                 6.09755516e-5f, 6.10351562e-5f, 6.10351599e-5f, 1.0f,
                                 1.00048828f, 1.00146484f, 2047.5f, 2048.5f, 65504.0f,
                                 65519.99f, 65520.0f, -65520.0f, 1e30f, -1e-30f, INFINITY,
                                 -INFINITY, NAN};
    const size_t ne = sizeof edge / sizeof edge[0], n = ne + 65536;
    float *in = emu_alloc(n * sizeof(float));
    unsigned short *out = emu_alloc(n * sizeof(unsigned short));
    struct f16_args a = {0};
    size_t i;
    int rc;
    memcpy(in, edge, sizeof edge);
    emu_fill(in + ne, 65536, 71, -1, 1);
    for (i = ne; i < n; i++)
        in[i] = ldexpf(in[i], (int)(i % 48) - 30); /* 2^-30 … 2^17: subnormal to overflow */
    a.in = in, a.h = out, a.n = n;
    rc = f16_launch(o, n, 3, f16_cast_body, &a);
    CASE_CHECK(rc, f16_mismatches("f16", out, in, n), "f16_cast %zu values %s", n,
               emu_order_name(run_of(o).order));
    free(in), free(out);
}

/* bias + ReLU to FP16, and the backward ReLU against those FP16 activations. */
static void test_relu_f16(int o) {
    static const int shapes[][3] = {{3, 5, 0}, {40, 257, 3}};
    size_t s, i;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int rows = shapes[s][0], cols = shapes[s][1];
        const size_t n = (size_t)rows * cols;
        float *z = emu_alloc(n * sizeof(float)), *b = emu_alloc(cols * sizeof(float));
        float *dh = emu_alloc(n * sizeof(float)), *want = emu_alloc(n * sizeof(float));
        float *wdh = emu_alloc(n * sizeof(float));
        unsigned short *a16 = emu_alloc(n * 2), *dh16 = emu_alloc(n * 2);
        struct f16_args a = {0};
        size_t bad;
        int rc;
        emu_fill(z, n, 72 + s, -2, 2);
        emu_fill(b, (size_t)cols, 73 + s, -0.5f, 0.5f);
        emu_fill(dh, n, 74 + s, -1e-3f, 1e-3f);
        for (i = 0; i < n; i++) {
            float v = z[i] + b[i % (size_t)cols];
            want[i] = v > 0 ? v : 0;
            wdh[i] = dtype_f32_to_f16(want[i]) != 0 ? dh[i] : 0.0f;
        }
        a.in = z, a.bias = b, a.h = a16, a.rows = rows, a.cols = cols;
        rc = f16_launch(o, n, (unsigned)shapes[s][2], f16_bias_relu_body, &a);
        bad = f16_mismatches("a", a16, want, n);
        a.f = dh, a.ch = a16, a.h = dh16, a.n = n;
        rc |= f16_launch(o, n, (unsigned)shapes[s][2], f16_relu_backward_body, &a);
        bad += f16_mismatches("dh16", dh16, wdh, n);
        for (i = 0; i < n; i++)
            bad += dh[i] != wdh[i];
        CASE_CHECK(rc, bad, "f16 bias_relu, relu_backward %dx%d %s", rows, cols,
                   emu_order_name(run_of(o).order));
        free(z), free(b), free(dh), free(want), free(wdh), free(a16), free(dh16);
    }
}

/* The overflow check and the unscaled update: finite gradients update every weight; one Inf or
 * NaN anywhere (first, last, middle) leaves every weight as it was. */
static void test_amp_sgd(int o) {
    const size_t n = 4099;
    static const long poison[] = {-1, 0, 4098, 2000};
    float *w = emu_alloc(n * sizeof(float)), *g = emu_alloc(n * sizeof(float));
    float *w0 = emu_alloc(n * sizeof(float));
    size_t c, i;
    for (c = 0; c < sizeof poison / sizeof poison[0]; c++) {
        struct f16_args a = {0};
        int flag = 0, rc;
        size_t bad = 0;
        emu_fill(w, n, 75, -1, 1);
        emu_fill(g, n, 76, -1024, 1024);
        memcpy(w0, w, n * sizeof(float));
        if (poison[c] >= 0)
            g[poison[c]] = c == 3 ? NAN : INFINITY;
        a.in = g, a.f = w, a.n = n, a.bad = &flag, a.lr = 0.1f, a.inv = 1.0f / 1024;
        rc = f16_launch(o, n, (unsigned)c, f16_nonfinite_body, &a);
        rc |= f16_launch(o, n, (unsigned)c, f16_sgd_body, &a);
        for (i = 0; i < n; i++)
            bad += w[i] != (poison[c] >= 0 ? w0[i] : w0[i] - 0.1f * (g[i] * (1.0f / 1024)));
        bad += flag != (poison[c] >= 0);
        CASE_CHECK(rc, bad, "amp_sgd poison at %ld %s", poison[c], emu_order_name(run_of(o).order));
    }
    free(w), free(g), free(w0);
}

/* --- the f16 step on the WMMA twins (mlp_train/cuda_tc) --------------------------------------- */
#if GB_WMMA_BODY && GB_HAVE_WMMA
struct wmma_args {
    int ta, tb, M, N, K, lda, ldb, ldc;
    const __half *A, *B;
    float *C;
};
static void wmma_body(void *p) {
    const struct wmma_args *a = p;
    if (a->ta)
        gb_hgemm_wmma_64x64_tn(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    else if (a->tb)
        gb_hgemm_wmma_64x64_nt(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    else
        gb_hgemm_wmma_64x64(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
}
/* cuda_tc.c's hook: the kernel gb_hgemm_wmma_op picks (FP16 bits are __half's) */
static int op_wmma(void *c, int ta, int tb, int M, int N, int K, const unsigned short *A, int lda,
                   const unsigned short *B, int ldb, float *C, int ldc) {
    const struct emu_run *r = c;
    struct wmma_args a = {ta, tb, M, N, K, lda, ldb, ldc, (const __half *)A, (const __half *)B, C};
    dim3 grid = emu_dim3(1, 1, 1);
    if (ta && tb)
        return 1;
    if (M == 0 || N == 0)
        return 0;
    return gb_wm_grid(M, N, &grid.x, &grid.y) != 0 ||
           emu_launch(grid, emu_dim3(GB_WM_THREADS, 1, 1), 0, r->order, r->seed, wmma_body, &a);
}
static int op_f16_cast(void *c, const float *in, unsigned short *out, size_t n) {
    struct f16_args a = {0};
    a.in = in, a.h = out, a.n = n;
    return n ? f16_run(c, n, 0, f16_cast_body, &a) != 0 : 0;
}
static int op_bias_relu_f16(void *c, const float *z, const float *bias, unsigned short *h,
                            int rows, int cols) {
    struct f16_args a = {0};
    a.in = z, a.bias = bias, a.h = h, a.rows = rows, a.cols = cols;
    return f16_run(c, (size_t)rows * cols, 0, f16_bias_relu_body, &a) != 0;
}
static int op_relu_backward_f16(void *c, float *dh, const unsigned short *h, unsigned short *dh16,
                                size_t n) {
    struct f16_args a = {0};
    a.f = dh, a.ch = h, a.h = dh16, a.n = n;
    return f16_run(c, n, 0, f16_relu_backward_body, &a) != 0;
}
static int op_clear_flag(void *c, int *bad) {
    (void)c;
    *bad = 0;
    return 0;
}
static int op_nonfinite(void *c, const float *g, size_t n, int *bad) {
    struct f16_args a = {0};
    a.in = g, a.n = n, a.bad = bad;
    return f16_run(c, n, 0, f16_nonfinite_body, &a) != 0;
}
static int op_amp_sgd(void *c, float *w, const float *g, size_t n, float lr, float inv_scale,
                      const int *bad) {
    struct f16_args a = {0};
    a.f = w, a.in = g, a.n = n, a.lr = lr, a.inv = inv_scale, a.bad = (int *)bad;
    return f16_run(c, n, 0, f16_sgd_body, &a) != 0;
}
static const struct gb_mlp_amp_ops emu_amp_ops = {
    op_wmma,      &emu_ops,     op_f16_cast, op_bias_relu_f16, op_relu_backward_f16,
    op_clear_flag, op_nonfinite, op_amp_sgd};

/* One f16 step of the problem `shape` (dtype f16, as the runner makes it) on the emulation, its
 * outputs verified by the workload: every parameter's change and the loss must pass. */
static void test_amp_step(int o, const char *shape) {
    const struct workload *w = &mlp_train_workload;
    struct problem p;
    struct verify_report vr;
    struct emu_run r = run_of(o);
    struct gb_mlp_amp_bufs s;
    struct mlp_dims d;
    char err[256];
    size_t n32, n16, i, params = 0;
    float *p32, loss = NAN, *prm[4];
    unsigned short *p16, *x16;
    int k, rc;
    memset(&p, 0, sizeof p);
    p.seed = 17, p.dtype = DT_F16;
    if (shape_parse(w, shape, &p.shape, err, sizeof err) != 0 ||
        w->make_problem(&p, err, sizeof err) != 0) {
        EMU_CHECK(0, "mlp_train f16 %s: %s", shape, err);
        return;
    }
    d = mlp_dims_of(&p.shape);
    n32 = gb_mlp_amp_carve(&d, NULL, NULL, &s, &n16);
    p32 = emu_alloc(n32 * sizeof(float));
    p16 = emu_alloc((n16 + 1) * sizeof(unsigned short));
    x16 = emu_alloc(p.in[MLP_IN_X].n * sizeof(unsigned short));
    emu_poison(p32, n32);
    memset(p16, 0xff, (n16 + 1) * sizeof(unsigned short)); /* NaN bits */
    (void)gb_mlp_amp_carve(&d, p32, p16, &s, &n16);
    for (i = 0; i < p.in[MLP_IN_X].n; i++) /* the runner's FP16 copy of X (its values are FP16) */
        x16[i] = dtype_f32_to_f16(p.in[MLP_IN_X].data[i]);
    for (k = 0; k < 4; k++) { /* the parameters, updated in place in the outputs */
        prm[k] = p.out[MLP_OUT_W1 + k].data;
        memcpy(prm[k], p.in[MLP_IN_W1 + k].data, p.in[MLP_IN_W1 + k].n * sizeof(float));
        params += p.in[MLP_IN_W1 + k].n;
    }
    {
        void *const buf[GB_MLP_NBUF] = {x16,    p.in[MLP_IN_LABELS].data, prm[0], prm[1], prm[2],
                                        prm[3], &loss,                    NULL};
        rc = gb_mlp_amp_step(&emu_amp_ops, &r, &d, MLP_LR, buf, &s);
    }
    p.out[MLP_OUT_LOSS].data[0] = loss;
    verify_begin(&vr);
    EMU_CHECK(rc == 0 && w->verify(&p, &vr) == ST_OK && vr.checked == params + 1,
              "mlp_train f16 step on the WMMA twins, %s %s: rc %d, %zu of %zu checked, %s", shape,
              emu_order_name(r.order), rc, vr.checked, params + 1, vr.first_bad);
    free(p32), free(p16), free(x16);
    w->free_problem(&p);
}
#endif

int main(void) {
    static const struct step_case steps[] = {
        {5, 7, 9, 3, 0.1f}, {33, 20, 70, 10, 0.1f}, {64, 36, 40, 12, 0.5f}};
#if GB_WMMA_BODY && GB_HAVE_WMMA
    /* hidden, batch and in not multiples of 16, batch 1, several 64×64 tiles and 32-deep slices
     * (dW1's K is the batch: 70 spans three) */
    static const char *const amp_shapes[] = {"batch=1,in=7,hidden=9,out=3",
                                             "batch=33,in=20,hidden=70,out=10",
                                             "batch=70,in=37,hidden=66,out=5"};
#endif
    clock_t t0 = clock();
    int o;
    size_t s;
    for (o = 0; o < EMU_ORDERS; o++) {
        test_bias_relu(o);
        test_relu_backward(o);
        test_sgd(o);
        test_colsum(o);
        test_softmax(o);
        test_elementwise64(o);
        test_colsum64(o);
        test_softmax64(o);
        test_transpose64(o);
        test_f16_cast(o);
        test_relu_f16(o);
        test_amp_sgd(o);
        for (s = 0; s < sizeof steps / sizeof steps[0]; s++) {
            test_step(o, &steps[s]);
            test_step64(o, &steps[s]);
        }
#if GB_WMMA_BODY && GB_HAVE_WMMA
        for (s = 0; s < sizeof amp_shapes / sizeof amp_shapes[0]; s++)
            test_amp_step(o, amp_shapes[s]);
#endif
    }
    printf("MLP kernels and step (f32, f64, f16) emulated as for sm_%d in 3 orders: %.0f ms, %d failures\n",
           GB_EMU_ARCH / 10, 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC, emu_failures);
    return emu_failures ? 1 : 0;
}
