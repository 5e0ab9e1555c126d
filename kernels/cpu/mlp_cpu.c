/* mlp_cpu.c — one SGD step of Linear → ReLU → Linear → softmax cross-entropy: the float32 path
 * (two big SGEMMs through OpenBLAS, the rest as two fused passes on the CPU pool) and the
 * double-precision reference.
 *
 * Why fused passes and not more SGEMMs: with out = 10 the small products (A·W2ᵀ, dZᵀ·A, dZ·W2)
 * are a few MFLOP each, where a threaded OpenBLAS call costs more in start-up than in arithmetic;
 * done while each row or column block of A is in L1 they cost one read and one write of A.
 */
#include "kernels/cpu/mlp_cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "kernels/cpu/cpu_pool.h"

enum { MLP_JBLOCK = 256 }; /* columns of A per block in the backward pass (1 KiB) */

long mlp_label(const struct mlp_dims *d, const float *labels, long b) {
    long y = lrintf(labels[b]);
    return y < 0 ? 0 : y >= d->out ? d->out - 1 : y;
}

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

/* --- double precision reference ------------------------------------------------------------ */

/* Σ a[i]·b[i] in double with four partial sums (a serial chain would make the reference slow). */
static double mlp_ref_dot(const float *a, const float *b, long n) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += (double)a[i] * b[i];
        s1 += (double)a[i + 1] * b[i + 1];
        s2 += (double)a[i + 2] * b[i + 2];
        s3 += (double)a[i + 3] * b[i + 3];
    }
    for (; i < n; i++)
        s0 += (double)a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

size_t mlp_ref_scratch_bytes(const struct mlp_dims *d) {
    return sizeof(double) * ((size_t)d->batch * d->hidden * 2 + (size_t)d->batch * d->out);
}

int mlp_ref_step(const struct mlp_dims *d, const float *x, const float *labels, const float *w1,
                 const float *b1, const float *w2, const float *b2, double lr, double *w1n,
                 double *b1n, double *w2n, double *b2n, double *loss) {
    const long nb = d->batch, ni = d->in, nh = d->hidden, no = d->out;
    double *h = malloc(sizeof(double) * nb * nh); /* pre-activations, then dH */
    double *act = malloc(sizeof(double) * nb * nh);
    double *z = malloc(sizeof(double) * nb * no); /* logits, then dZ */
    if (!h || !act || !z) {
        free(h), free(act), free(z);
        return -1;
    }
    /* forward */
    for (long b = 0; b < nb; b++)
        for (long j = 0; j < nh; j++) {
            h[b * nh + j] = b1[j] + mlp_ref_dot(x + b * ni, w1 + j * ni, ni);
            act[b * nh + j] = h[b * nh + j] > 0 ? h[b * nh + j] : 0;
        }
    for (long b = 0; b < nb; b++)
        for (long o = 0; o < no; o++) {
            double s = b2[o];
            for (long j = 0; j < nh; j++)
                s += act[b * nh + j] * w2[o * nh + j];
            z[b * no + o] = s;
        }
    /* loss and dZ = (softmax − onehot) / batch */
    double total = 0;
    for (long b = 0; b < nb; b++) {
        double *row = z + b * no, m = row[0], sum = 0;
        long y = mlp_label(d, labels, b);
        for (long o = 1; o < no; o++)
            m = fmax(m, row[o]);
        for (long o = 0; o < no; o++)
            sum += exp(row[o] - m);
        double lse = m + log(sum);
        total += lse - row[y];
        for (long o = 0; o < no; o++)
            row[o] = (exp(row[o] - lse) - (o == y)) / (double)nb;
    }
    *loss = total / (double)nb;
    /* layer 2: dW2 = dZᵀ·A, db2 = Σ dZ; dH = (dZ·W2) ⊙ [H > 0] with the old W2 */
    for (long o = 0; o < no; o++) {
        double gb = 0;
        for (long b = 0; b < nb; b++)
            gb += z[b * no + o];
        b2n[o] = b2[o] - lr * gb;
        for (long j = 0; j < nh; j++) {
            double g = 0;
            for (long b = 0; b < nb; b++)
                g += z[b * no + o] * act[b * nh + j];
            w2n[o * nh + j] = w2[o * nh + j] - lr * g;
        }
    }
    for (long b = 0; b < nb; b++)
        for (long j = 0; j < nh; j++) {
            double g = 0;
            for (long o = 0; o < no; o++)
                g += z[b * no + o] * w2[o * nh + j];
            h[b * nh + j] = h[b * nh + j] > 0 ? g : 0;
        }
    /* layer 1: dW1 = dHᵀ·X (accumulated in w1n's row), db1 = Σ dH */
    for (long j = 0; j < nh; j++) {
        double *row = w1n + j * ni, gb = 0;
        for (long i = 0; i < ni; i++)
            row[i] = 0;
        for (long b = 0; b < nb; b++) {
            double g = h[b * nh + j];
            gb += g;
            if (g != 0)
                for (long i = 0; i < ni; i++)
                    row[i] += g * x[b * ni + i];
        }
        for (long i = 0; i < ni; i++)
            row[i] = w1[j * ni + i] - lr * row[i];
        b1n[j] = b1[j] - lr * gb;
    }
    free(h), free(act), free(z);
    return 0;
}

long mlp_ref_clear_kinks(const struct mlp_dims *d, const float *x, const float *w1, float *b1) {
    const long nb = d->batch, ni = d->in;
    double *dot = malloc(sizeof(double) * nb), *margin = malloc(sizeof(double) * nb);
    if (!dot || !margin) {
        free(dot), free(margin);
        return -1;
    }
    long changed = 0;
    for (long j = 0; j < d->hidden; j++) {
        const float *w = w1 + j * ni;
        double mmax = 0;
        for (long b = 0; b < nb; b++) {
            const float *xb = x + b * ni;
            /* Two partial sums of each kind, so the adds are not one serial chain. */
            double s[2] = {0, 0}, sabs[2] = {fabs((double)b1[j]), 0};
            long i = 0;
            for (; i + 2 <= ni; i += 2)
                for (int u = 0; u < 2; u++) {
                    double t = (double)xb[i + u] * w[i + u];
                    s[u] += t;
                    sabs[u] += fabs(t);
                }
            for (; i < ni; i++) {
                double t = (double)xb[i] * w[i];
                s[0] += t;
                sabs[0] += fabs(t);
            }
            dot[b] = s[0] + s[1];
            margin[b] = MLP_KINK_MARGIN * (sabs[0] + sabs[1]);
            mmax = fmax(mmax, margin[b]);
        }
        /* Steps of 3·mmax: each exclusion band (width ≤ 2·mmax) holds at most one candidate, so
         * at most batch + 1 tries (a step below float resolution moves by one ulp instead). */
        const float orig = b1[j];
        float bias = orig;
        for (;;) {
            long b = 0;
            while (b < nb && fabs(dot[b] + bias) >= margin[b])
                b++;
            if (b == nb)
                break;
            float next = (float)((double)bias + 3.0 * mmax);
            bias = next > bias ? next : nextafterf(bias, INFINITY);
        }
        changed += bias != orig;
        b1[j] = bias;
    }
    free(dot), free(margin);
    return changed;
}
