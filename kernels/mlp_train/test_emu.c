/* test_emu.c — the MLP step's kernels (kernels/mlp_train/kernels.cuh) on the CPU emulation,
 * each against a double-precision reference on three or more shapes in every thread order, then
 * the whole step as the `cuda` row sequences it (kernels/mlp_train/step.c) against the workload's
 * own reference step (mlp_ref_step), checked the way bench/mlp_train.c checks it. The step's
 * matrix products are a plain host loop here: the SGEMM kernels have their own emulation test in
 * their workload's folder, and the `cuda` row as shipped — step, SGEMM and these kernels
 * together — runs on the simulated device (tests/sim) on every card profile.
 *
 * Emulation builds: arch 750 200; sources step.c
 */
#include "tests/emu/emu.h"

#include "kernels/mlp_train/layout.h"
#include "kernels/mlp_train/kernels.cuh"
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

/* One step on the emulation, checked as bench/mlp_train.c verifies the `cuda` row's step. */
static void test_step(int o, const struct gb_mlp_dims *d) {
    const struct mlp_dims md = {d->batch, d->in, d->hidden, d->out};
    const int B = d->batch, I = d->in, H = d->hidden, O = d->out;
    const size_t sizes[4] = {(size_t)H * I, (size_t)H, (size_t)O * H, (size_t)O};
    float *x = emu_alloc((size_t)B * I * sizeof(float)), *lab = emu_alloc(B * sizeof(float));
    float *scratch = emu_alloc(gb_mlp_scratch_floats(d) * sizeof(float)), loss = NAN;
    float *p[4], *init[4];
    struct gb_mlp_bufs bufs;
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
    emu_poison(scratch, gb_mlp_scratch_floats(d));
    gb_mlp_carve(d, scratch, &bufs);
    bufs.x = x, bufs.labels = lab, bufs.loss = &loss;
    bufs.w1 = p[0], bufs.b1 = p[1], bufs.w2 = p[2], bufs.b2 = p[3];
    rc = gb_mlp_step(&emu_ops, &r, d, &bufs);
    bad = ref_mlp_check(&md, d->lr, x, lab, init, p, loss);
    EMU_CHECK(rc == 0 && bad == 0,
              "mlp step batch=%d in=%d hidden=%d out=%d %s: %ld wrong", B, I, H, O,
              emu_order_name(r.order), bad);
    for (k = 0; k < 4; k++)
        free(p[k]), free(init[k]);
    free(x), free(lab), free(scratch);
}

int main(void) {
    static const struct gb_mlp_dims steps[] = {
        {5, 7, 9, 3, 0.1f}, {33, 20, 70, 10, 0.1f}, {64, 36, 40, 12, 0.5f}};
    clock_t t0 = clock();
    int o;
    size_t s;
    for (o = 0; o < EMU_ORDERS; o++) {
        test_bias_relu(o);
        test_relu_backward(o);
        test_sgd(o);
        test_colsum(o);
        test_softmax(o);
        for (s = 0; s < sizeof steps / sizeof steps[0]; s++)
            test_step(o, &steps[s]);
    }
    printf("MLP kernels and step emulated as for sm_%d in 3 orders: %.0f ms, %d failures\n",
           GB_EMU_ARCH / 10, 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC, emu_failures);
    return emu_failures ? 1 : 0;
}
