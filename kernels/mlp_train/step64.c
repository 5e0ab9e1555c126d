/* step64.c — the f64 tier of mlp_train/openblas: the same SGD step in doubles, written plainly:
 * five cblas_dgemm calls and single-threaded loops for bias, ReLU, softmax and the reductions.
 * The f32 path's fusions (kernels/mlp_train/openblas.c) pay off against OpenBLAS's start-up on
 * tiny products; an f64 row is about the FP64 GEMM rate, which the four big products carry.
 * Problem layout: bench/mlp_train.h (X and the parameters in data64, labels float32). */
#include <math.h>

#include <cblas.h>

#include "kernels/mlp_train/openblas.h"

size_t mlp_cpu_scratch_doubles(const struct mlp_dims *d) {
    return 2 * (size_t)d->batch * d->hidden + (size_t)d->batch * d->out;
}

/* z (batch × out) becomes dZ = (softmax(z) − onehot) / batch; returns the mean loss. */
static double mlp_softmax_xent64(const struct mlp_dims *d, const float *labels, double *z) {
    double total = 0;
    for (long b = 0; b < d->batch; b++) {
        double *row = z + b * d->out, m = row[0], sum = 0;
        long y = mlp_label(d, labels, b);
        for (long o = 1; o < d->out; o++)
            m = fmax(m, row[o]);
        for (long o = 0; o < d->out; o++)
            sum += exp(row[o] - m);
        double lse = m + log(sum);
        total += lse - row[y];
        for (long o = 0; o < d->out; o++)
            row[o] = (exp(row[o] - lse) - (o == y)) / (double)d->batch;
    }
    return total / (double)d->batch;
}

/* p[j] −= lr · Σ_b g[b·n + j], j in [0, n): a bias update from a batch of gradients. */
static void mlp_bias_step64(long batch, long n, const double *g, double *p, double lr) {
    for (long j = 0; j < n; j++) {
        double s = 0;
        for (long b = 0; b < batch; b++)
            s += g[b * n + j];
        p[j] -= lr * s;
    }
}

double mlp_cpu_step64(const struct mlp_dims *d, const double *x, const float *labels, double *w1,
                      double *b1, double *w2, double *b2, double lr, double *scratch) {
    const int nb = (int)d->batch, ni = (int)d->in, nh = (int)d->hidden, no = (int)d->out;
    double *h = scratch, *a = h + (size_t)nb * nh, *z = a + (size_t)nb * nh;
    /* forward: H = X·W1ᵀ + b1, A = ReLU(H), Z = A·W2ᵀ + b2 */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, nb, nh, ni, 1.0, x, ni, w1, ni, 0.0, h,
                nh);
    for (size_t i = 0; i < (size_t)nb * nh; i++) {
        double v = h[i] + b1[i % (size_t)nh];
        a[i] = v > 0 ? v : 0;
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, nb, no, nh, 1.0, a, nh, w2, nh, 0.0, z,
                no);
    for (size_t i = 0; i < (size_t)nb * no; i++)
        z[i] += b2[i % (size_t)no];
    double loss = mlp_softmax_xent64(d, labels, z);
    /* dH = (dZ·W2) ⊙ [H > 0] with the old W2, into h */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nb, nh, no, 1.0, z, no, w2, nh, 0.0, h,
                nh);
    for (size_t i = 0; i < (size_t)nb * nh; i++)
        h[i] = a[i] > 0 ? h[i] : 0;
    /* W2 −= lr·dZᵀ·A, b2 −= lr·Σ dZ, b1 −= lr·Σ dH, W1 −= lr·dHᵀ·X */
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, no, nh, nb, -lr, z, no, a, nh, 1.0, w2,
                nh);
    mlp_bias_step64(nb, no, z, b2, lr);
    mlp_bias_step64(nb, nh, h, b1, lr);
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, nh, ni, nb, -lr, h, nh, x, ni, 1.0, w1,
                ni);
    return loss;
}
