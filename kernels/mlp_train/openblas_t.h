/* openblas_t.h — mlp_train/openblas's step in one tier's type (tier.h), static: included by
 * openblas.c per tier, by test_cpu.c for float32. Two big GEMMs through OpenBLAS, the rest in two
 * fused passes on the CPU pool: the small products (A·W2ᵀ, dZᵀ·A, dZ·W2, out = 10) are a few
 * MFLOP, less than a threaded BLAS call's start-up, and cost one read and write of A in L1. */
#ifndef GPUBENCH_MLP_OPENBLAS_T_H /* what the tiers share, once */
#define GPUBENCH_MLP_OPENBLAS_T_H
#include <math.h>
#include <string.h>

#include "harness/core/blas.h"
#include "bench/mlp_train.h"
#include "kernels/common/cpu_pool.h"

enum { MLP_JBLOCK = 256 }; /* columns of A per block in the backward pass */

/* Elements of scratch mlp_cpu_step needs: a, z, dw2 and db1. */
static inline size_t mlp_cpu_scratch_floats(const struct mlp_dims *d) {
    return (size_t)d->batch * d->hidden + (size_t)d->batch * d->out + (size_t)d->out * d->hidden +
           (size_t)d->hidden;
}
#endif

#include "kernels/mlp_train/tier.h"
#define T GB_MLP_T
#if GB_MLP_F64
#define GB_MLP_GEMM cblas_dgemm
#else
#define GB_MLP_GEMM cblas_sgemm
#endif

/* Dot product with eight independent partial sums, which the compiler turns into vector
 * registers (a single running sum would be a serial chain it may not reorder). */
static T GB_MLP_N(mlp_dot)(const T *restrict a, const T *restrict b, long n) {
    T acc[8] = {0};
    long i = 0;
    for (; i + 8 <= n; i += 8)
        for (int u = 0; u < 8; u++)
            acc[u] += a[i + u] * b[i + u];
    T sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (; i < n; i++)
        sum += a[i] * b[i];
    return sum;
}

struct GB_MLP_N(mlp_job) {
    const struct mlp_dims *d;
    const T *x, *b1, *w2, *b2, *dz;
    T *a, *z, *w2_mut, *b1_mut, *dw2, *db1;
    T lr;
};

/* Rows [lo, hi) of the batch: a = ReLU(a + b1), then z = a·w2ᵀ + b2 while the row is in L1. */
static void GB_MLP_N(mlp_forward_rows)(void *arg, int tid, int nthreads) {
    const struct GB_MLP_N(mlp_job) *j = arg;
    const struct mlp_dims *d = j->d;
    size_t lo, hi;
    pool_range((size_t)d->batch, nthreads, tid, 1, &lo, &hi);
    for (size_t b = lo; b < hi; b++) {
        T *restrict row = j->a + b * d->hidden;
        const T *restrict bias = j->b1;
        for (long c = 0; c < d->hidden; c++) {
            T v = row[c] + bias[c];
            row[c] = v > 0 ? v : 0;
        }
        for (long o = 0; o < d->out; o++)
            j->z[b * d->out + o] =
                j->b2[o] + GB_MLP_N(mlp_dot)(row, j->w2 + o * d->hidden, d->hidden);
    }
}

/* a = ReLU(x·w1ᵀ + b1) (batch × hidden), z = a·w2ᵀ + b2 (batch × out). */
static void GB_MLP_N(mlp_cpu_forward)(const struct mlp_dims *d, const T *x, const T *w1,
                                      const T *b1, const T *w2, const T *b2, T *a, T *z) {
    /* a (batch × hidden) = x (batch × in) · w1ᵀ (in × hidden) */
    GB_MLP_GEMM(CblasRowMajor, CblasNoTrans, CblasTrans, (int)d->batch, (int)d->hidden, (int)d->in,
                1, x, (int)d->in, w1, (int)d->in, 0, a, (int)d->hidden);
    struct GB_MLP_N(mlp_job) job = {.d = d, .b1 = b1, .w2 = w2, .b2 = b2, .a = a, .z = z};
    pool_run(GB_MLP_N(mlp_forward_rows), &job);
}

/* Returns the batch-mean loss (max-subtracted: no overflow) and turns z, the logits, into
 * dZ = (softmax(z) − onehot) / batch. */
static T GB_MLP_N(mlp_cpu_softmax_xent)(const struct mlp_dims *d, const float *labels, T *z) {
    double loss = 0.0;
    const T inv_batch = 1 / (T)d->batch;
    for (long b = 0; b < d->batch; b++) {
        T *row = z + b * d->out;
        long y = mlp_label(d, labels, b);
        T m = row[0];
        for (long o = 1; o < d->out; o++)
            m = row[o] > m ? row[o] : m;
        T zy = row[y] - m, sum = 0; /* zy kept before the row is overwritten: exp may underflow */
        for (long o = 0; o < d->out; o++) {
            row[o] = GB_MLP_M(exp)(row[o] - m);
            sum += row[o];
        }
        /* −log softmax_y = log Σ exp(z − m) − (z_y − m). */
        loss += GB_MLP_M(log)(sum) - zy;
        T inv = 1 / sum;
        for (long o = 0; o < d->out; o++)
            row[o] = (row[o] * inv - (o == y)) * inv_batch;
    }
    return (T)(loss / (double)d->batch);
}

/* Columns [lo, hi) of A: accumulate dW2 = dZᵀ·A, turn A into dH = (dZ·W2) ⊙ [A > 0] and sum
 * db1 = Σ_rows dH, then update this range of w2 and b1. Every thread owns its columns of w2, b1,
 * dw2, db1 and A, so nothing is shared. */
static void GB_MLP_N(mlp_backward_cols)(void *arg, int tid, int nthreads) {
    const struct GB_MLP_N(mlp_job) *j = arg;
    const struct mlp_dims *d = j->d;
    const long hid = d->hidden, out = d->out;
    size_t lo, hi;
    pool_range((size_t)hid, nthreads, tid, 16, &lo, &hi);
    for (long o = 0; o < out; o++)
        memset(j->dw2 + o * hid + lo, 0, (hi - lo) * sizeof(T));
    memset(j->db1 + lo, 0, (hi - lo) * sizeof(T));
    for (long b = 0; b < d->batch; b++) {
        const T *dzb = j->dz + b * out;
        for (size_t c0 = lo; c0 < hi; c0 += MLP_JBLOCK) {
            const long n = (long)(hi - c0 < MLP_JBLOCK ? hi - c0 : MLP_JBLOCK);
            T *restrict arow = j->a + b * hid + c0;
            T tmp[MLP_JBLOCK] = {0};
            for (long o = 0; o < out; o++) {
                const T g = dzb[o];
                T *restrict dw = j->dw2 + o * hid + c0;
                const T *restrict w = j->w2_mut + o * hid + c0;
                for (long c = 0; c < n; c++) {
                    dw[c] += g * arow[c];
                    tmp[c] += g * w[c];
                }
            }
            T *restrict db = j->db1 + c0;
            for (long c = 0; c < n; c++) {
                T v = arow[c] > 0 ? tmp[c] : 0;
                arow[c] = v;
                db[c] += v;
            }
        }
    }
    for (long o = 0; o < out; o++)
        for (size_t c = lo; c < hi; c++)
            j->w2_mut[o * hid + c] -= j->lr * j->dw2[o * hid + c];
    for (size_t c = lo; c < hi; c++)
        j->b1_mut[c] -= j->lr * j->db1[c];
}

/* The whole step on mlp_cpu_scratch_floats elements of scratch; returns the loss before it. The
 * backward pass and update run in place from dZ (in z) and a (the activations, then dH =
 * (dZ·w2) ⊙ [a > 0] with the old w2); w1's update is one GEMM with beta = 1 (no dW1). */
static T GB_MLP_N(mlp_cpu_step)(const struct mlp_dims *d, const T *x, const float *labels, T *w1,
                                T *b1, T *w2, T *b2, T lr, T *scratch) {
    T *a = scratch, *z = a + d->batch * d->hidden, *dw2 = z + d->batch * d->out;
    T *db1 = dw2 + d->out * d->hidden;
    GB_MLP_N(mlp_cpu_forward)(d, x, w1, b1, w2, b2, a, z);
    T loss = GB_MLP_N(mlp_cpu_softmax_xent)(d, labels, z);
    for (long o = 0; o < d->out; o++) {
        T g = 0;
        for (long b = 0; b < d->batch; b++)
            g += z[b * d->out + o];
        b2[o] -= lr * g;
    }
    struct GB_MLP_N(mlp_job) job = {
        .d = d, .dz = z, .a = a, .w2_mut = w2, .b1_mut = b1, .dw2 = dw2, .db1 = db1, .lr = lr};
    pool_run(GB_MLP_N(mlp_backward_cols), &job);
    /* w1 (hidden × in) += −lr · dHᵀ (hidden × batch) · x (batch × in) */
    GB_MLP_GEMM(CblasRowMajor, CblasTrans, CblasNoTrans, (int)d->hidden, (int)d->in, (int)d->batch,
                -lr, a, (int)d->hidden, x, (int)d->in, 1, w1, (int)d->in);
    return loss;
}

#undef GB_MLP_GEMM
#undef T
#undef GB_MLP_F64
