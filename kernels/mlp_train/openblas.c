/* openblas.c — mlp_train/openblas: one SGD step of Linear → ReLU → Linear → softmax
 * cross-entropy in float32: two big SGEMMs through OpenBLAS, the rest as two fused passes on the
 * CPU pool.
 *
 * Why fused passes and not more SGEMMs: with out = 10 the small products (A·W2ᵀ, dZᵀ·A, dZ·W2)
 * are a few MFLOP each, where a threaded OpenBLAS call costs more in start-up than in arithmetic;
 * done while each row or column block of A is in L1 they cost one read and one write of A.
 */
#include "kernels/mlp_train/openblas.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "harness/core/workload.h"
#include "kernels/common/cpu_pool.h"
#include "bench/mlp_train.h"

enum { MLP_JBLOCK = 256 }; /* columns of A per block in the backward pass (1 KiB) */

size_t mlp_cpu_scratch_floats(const struct mlp_dims *d) {
    return (size_t)d->batch * d->hidden + (size_t)d->batch * d->out + (size_t)d->out * d->hidden +
           (size_t)d->hidden;
}

/* Dot product with eight independent partial sums, which the compiler turns into vector
 * registers (a single running sum would be a serial chain it may not reorder). */
static float mlp_dot(const float *restrict a, const float *restrict b, long n) {
    float acc[8] = {0};
    long i = 0;
    for (; i + 8 <= n; i += 8)
        for (int u = 0; u < 8; u++)
            acc[u] += a[i + u] * b[i + u];
    float sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (; i < n; i++)
        sum += a[i] * b[i];
    return sum;
}

struct mlp_job {
    const struct mlp_dims *d;
    const float *x, *b1, *w2, *b2, *dz;
    float *a, *z, *w2_mut, *b1_mut, *dw2, *db1;
    float lr;
};

/* Rows [lo, hi) of the batch: a = ReLU(a + b1), then z = a·w2ᵀ + b2 while the row is in L1. */
static void mlp_forward_rows(void *arg, int tid, int nthreads) {
    const struct mlp_job *j = arg;
    const struct mlp_dims *d = j->d;
    size_t lo, hi;
    pool_range((size_t)d->batch, nthreads, tid, 1, &lo, &hi);
    for (size_t b = lo; b < hi; b++) {
        float *restrict row = j->a + b * d->hidden;
        const float *restrict bias = j->b1;
        for (long c = 0; c < d->hidden; c++) {
            float v = row[c] + bias[c];
            row[c] = v > 0.0f ? v : 0.0f;
        }
        for (long o = 0; o < d->out; o++)
            j->z[b * d->out + o] = j->b2[o] + mlp_dot(row, j->w2 + o * d->hidden, d->hidden);
    }
}

void mlp_cpu_forward(const struct mlp_dims *d, const float *x, const float *w1, const float *b1,
                     const float *w2, const float *b2, float *a, float *z) {
    /* a (batch × hidden) = x (batch × in) · w1ᵀ (in × hidden) */
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)d->batch, (int)d->hidden, (int)d->in,
                1.0f, x, (int)d->in, w1, (int)d->in, 0.0f, a, (int)d->hidden);
    struct mlp_job job = {.d = d, .b1 = b1, .w2 = w2, .b2 = b2, .a = a, .z = z};
    pool_run(mlp_forward_rows, &job);
}

float mlp_cpu_softmax_xent(const struct mlp_dims *d, const float *labels, float *z) {
    double loss = 0.0;
    const float inv_batch = 1.0f / (float)d->batch;
    for (long b = 0; b < d->batch; b++) {
        float *row = z + b * d->out;
        long y = mlp_label(d, labels, b);
        float m = row[0];
        for (long o = 1; o < d->out; o++)
            m = row[o] > m ? row[o] : m;
        float zy = row[y] - m; /* kept before the row is overwritten: exp may underflow */
        float sum = 0.0f;
        for (long o = 0; o < d->out; o++) {
            row[o] = expf(row[o] - m);
            sum += row[o];
        }
        /* −log softmax_y = log Σ exp(z − m) − (z_y − m). */
        loss += logf(sum) - zy;
        float inv = 1.0f / sum;
        for (long o = 0; o < d->out; o++)
            row[o] = (row[o] * inv - (o == y ? 1.0f : 0.0f)) * inv_batch;
    }
    return (float)(loss / (double)d->batch);
}

/* Columns [lo, hi) of A: accumulate dW2 = dZᵀ·A, turn A into dH = (dZ·W2) ⊙ [A > 0] and sum
 * db1 = Σ_rows dH, then update this range of w2 and b1. Every thread owns its columns of w2, b1,
 * dw2, db1 and A, so nothing is shared. */
static void mlp_backward_cols(void *arg, int tid, int nthreads) {
    const struct mlp_job *j = arg;
    const struct mlp_dims *d = j->d;
    const long hid = d->hidden, out = d->out;
    size_t lo, hi;
    pool_range((size_t)hid, nthreads, tid, 16, &lo, &hi);
    for (long o = 0; o < out; o++)
        memset(j->dw2 + o * hid + lo, 0, (hi - lo) * sizeof(float));
    memset(j->db1 + lo, 0, (hi - lo) * sizeof(float));
    for (long b = 0; b < d->batch; b++) {
        const float *dzb = j->dz + b * out;
        for (size_t c0 = lo; c0 < hi; c0 += MLP_JBLOCK) {
            const long n = (long)(hi - c0 < MLP_JBLOCK ? hi - c0 : MLP_JBLOCK);
            float *restrict arow = j->a + b * hid + c0;
            float tmp[MLP_JBLOCK] = {0};
            for (long o = 0; o < out; o++) {
                const float g = dzb[o];
                float *restrict dw = j->dw2 + o * hid + c0;
                const float *restrict w = j->w2_mut + o * hid + c0;
                for (long c = 0; c < n; c++) {
                    dw[c] += g * arow[c];
                    tmp[c] += g * w[c];
                }
            }
            float *restrict db = j->db1 + c0;
            for (long c = 0; c < n; c++) {
                float v = arow[c] > 0.0f ? tmp[c] : 0.0f;
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

void mlp_cpu_backward_update(const struct mlp_dims *d, const float *x, float *a, const float *dz,
                             float *w1, float *b1, float *w2, float *b2, float *dw2, float *db1,
                             float lr) {
    for (long o = 0; o < d->out; o++) {
        float g = 0.0f;
        for (long b = 0; b < d->batch; b++)
            g += dz[b * d->out + o];
        b2[o] -= lr * g;
    }
    struct mlp_job job = {
        .d = d, .dz = dz, .a = a, .w2_mut = w2, .b1_mut = b1, .dw2 = dw2, .db1 = db1, .lr = lr};
    pool_run(mlp_backward_cols, &job);
    /* w1 (hidden × in) += −lr · dHᵀ (hidden × batch) · x (batch × in) */
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)d->hidden, (int)d->in, (int)d->batch,
                -lr, a, (int)d->hidden, x, (int)d->in, 1.0f, w1, (int)d->in);
}

float mlp_cpu_step(const struct mlp_dims *d, const float *x, const float *labels, float *w1,
                   float *b1, float *w2, float *b2, float lr, float *scratch) {
    float *a = scratch, *z = a + d->batch * d->hidden, *dw2 = z + d->batch * d->out;
    float *db1 = dw2 + d->out * d->hidden;
    mlp_cpu_forward(d, x, w1, b1, w2, b2, a, z);
    float loss = mlp_cpu_softmax_xent(d, labels, z);
    mlp_cpu_backward_update(d, x, a, z, w1, b1, w2, b2, dw2, db1, lr);
    return loss;
}

/* --- the row ------------------------------------------------------------------------------ */
enum { NPARAMS = 4 }; /* W1, b1, W2, b2: in[MLP_IN_W1 + i] and out[MLP_OUT_W1 + i] */

static enum status openblas_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct mlp_dims d = mlp_dims_of(&p->shape);
    int f64 = p->dtype == DT_F64;
    size_t bytes = f64 ? (mlp_cpu_scratch_doubles(&d) * sizeof(double) + 63) / 64 * 64
                       : (mlp_cpu_scratch_floats(&d) * sizeof(float) + 63) / 64 * 64;
    if (!(ctx->state = aligned_alloc(64, bytes))) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory for %zu MiB of activations",
                 bytes >> 20);
        return ST_OOM;
    }
    for (int k = 0; k < NPARAMS; k++) {
        const struct buf *in = &p->in[MLP_IN_W1 + k];
        struct buf *out = &p->out[MLP_OUT_W1 + k];
        if (f64)
            memcpy(out->data64, in->data64, in->n * sizeof(double));
        else
            memcpy(out->data, in->data, in->n * sizeof(float));
    }
    return ST_OK;
}

static enum status openblas_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct mlp_dims d = mlp_dims_of(&p->shape);
    if (p->dtype == DT_F64) {
        p->out[MLP_OUT_LOSS].data64[0] = mlp_cpu_step64(
            &d, p->in[MLP_IN_X].data64, p->in[MLP_IN_LABELS].data, p->out[MLP_OUT_W1].data64,
            p->out[MLP_OUT_B1].data64, p->out[MLP_OUT_W2].data64, p->out[MLP_OUT_B2].data64, MLP_LR,
            ctx->state);
        return ST_OK;
    }
    p->out[MLP_OUT_LOSS].data[0] =
        mlp_cpu_step(&d, p->in[MLP_IN_X].data, p->in[MLP_IN_LABELS].data, p->out[MLP_OUT_W1].data,
                     p->out[MLP_OUT_B1].data, p->out[MLP_OUT_W2].data, p->out[MLP_OUT_B2].data,
                     MLP_LR, ctx->state);
    return ST_OK;
}

/* The activations prepare allocates, for the plan's host-memory check, counted as floats (the
 * plan doubles it for an f64 problem). */
static double openblas_host_bytes(const struct shape *s) {
    const struct mlp_dims d = mlp_dims_of(s);
    size_t f32 = mlp_cpu_scratch_floats(&d), f64 = mlp_cpu_scratch_doubles(&d);
    return 4.0 * (double)(f32 > f64 ? f32 : f64);
}

static void openblas_release(struct impl_ctx *ctx) {
    free(ctx->state);
    ctx->state = NULL;
}

const struct impl mlp_train_openblas_impl = {
    .name = "openblas",
    .kind = DEV_CPU,
    .summary =
        "OpenBLAS SGEMMs + fused threaded loops, W1 update fused into its SGEMM; f64: DGEMMs",
    .prepare = openblas_prepare,
    .run = openblas_run,
    .release = openblas_release,
    .host_bytes = openblas_host_bytes,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64)};
