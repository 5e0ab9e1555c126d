/* cuda.c — mlp_train/cuda: one SGD step on our own kernels — the five GEMMs on our
 * SGEMM, bias + ReLU, softmax cross-entropy, bias-gradient reductions and the update on the
 * kernels of kernels.cuh — in the order kernels/mlp_train/step.c fixes, on the run's stream.
 *
 * Problem layout (bench/mlp_train.h): in X, labels, W1, b1, W2, b2 (the initial
 * parameters, read-only); out W1, b1, W2, b2 (updated) and the loss before the update.
 * upload copies the inputs, which resets the device parameters to their initial values; each
 * run trains them one more step in place; download copies parameters and loss back.
 *
 * The f64 tier: the same step in doubles (gb_mlp_step64) on the own DGEMM (kernels/gemm, which
 * takes untransposed operands only: a transposed one is copied transposed first, by an own
 * kernel) and the f64 twins of the elementwise kernels.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/mlp_train.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/gemm/cuda.h"
#include "kernels/mlp_train/cuda.h"
#include "kernels/mlp_train/step.h"

enum { NPARAMS = 4 }; /* W1, b1, W2, b2: in[MLP_IN_W1 + i] and out[MLP_OUT_W1 + i] */

struct mlp_cuda_state {
    struct gb_arch arch;
    struct gb_mlp_dims d;
    struct gb_mlp_bufs b;
    float *x, *labels, *param[NPARAMS], *loss, *scratch;
    /* the f64 tier: gb_mlp_step64 on the own DGEMM (labels: `labels`); tr holds a transposed
     * operand (gb_dgemm takes none) */
    struct gb_mlp_bufs64 b64;
    double *x64, *param64[NPARAMS], *loss64, *scratch64, *tr;
};

/* --- the launchers as gb_mlp_ops (ctx: the row's state) ------------------------------------ */
static int op_sgemm(void *c, int ta, int tb, int M, int N, int K, const float *A, int lda,
                    const float *B, int ldb, float *C, int ldc) {
    const struct mlp_cuda_state *s = c;
    return (int)gb_sgemm(gb_stream(), &s->arch, ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
}
static int op_bias_relu(void *c, float *z, const float *bias, int rows, int cols) {
    (void)c;
    return (int)gb_bias_relu(gb_stream(), z, bias, rows, cols);
}
static int op_relu_backward(void *c, float *dh, const float *h, size_t n) {
    (void)c;
    return (int)gb_relu_backward(gb_stream(), dh, h, n);
}
static int op_softmax_xent(void *c, const float *l, const float *b, const float *labels, float *dl,
                           float *rowloss, int rows, int cols, float scale) {
    (void)c;
    return (int)gb_softmax_xent(gb_stream(), l, b, labels, dl, rowloss, rows, cols, scale);
}
static int op_colsum(void *c, const float *x, float *out, int rows, int cols, float scale) {
    (void)c;
    return (int)gb_colsum(gb_stream(), x, out, rows, cols, scale);
}
static int op_sgd(void *c, float *w, const float *g, size_t n, float lr) {
    (void)c;
    return (int)gb_sgd(gb_stream(), w, g, n, lr);
}
/* --- the f64 tier: gb_mlp_step64's ops on the own DGEMM and the f64 launchers ------------- */

/* C = op(A)·op(B) on gb_dgemm, which multiplies untransposed row-major operands: a transposed
 * operand is first written transposed into s->tr (the step never transposes both, and each
 * product has consumed s->tr before the next one's transpose is enqueued on the stream). The
 * copy costs one read and one write of the operand, small next to a product of it. */
static int op_dgemm(void *c, int ta, int tb, int M, int N, int K, const double *A, int lda,
                    const double *B, int ldb, double *C, int ldc) {
    const struct mlp_cuda_state *s = c;
    cudaError_t e = cudaSuccess;
    if (ta && tb)
        return (int)cudaErrorInvalidValue;
    if (ta) { /* A is stored K × M */
        e = gb_transpose64(gb_stream(), A, K, M, lda, s->tr);
        A = s->tr, lda = K;
    } else if (tb) { /* B is stored N × K */
        e = gb_transpose64(gb_stream(), B, N, K, ldb, s->tr);
        B = s->tr, ldb = N;
    }
    if (e != cudaSuccess)
        return (int)e;
    return (int)gb_dgemm(gb_stream(), &s->arch, M, N, K, A, lda, B, ldb, C, ldc);
}
static int op_bias_relu64(void *c, double *z, const double *bias, int rows, int cols) {
    (void)c;
    return (int)gb_bias_relu64(gb_stream(), z, bias, rows, cols);
}
static int op_relu_backward64(void *c, double *dh, const double *h, size_t n) {
    (void)c;
    return (int)gb_relu_backward64(gb_stream(), dh, h, n);
}
static int op_softmax_xent64(void *c, const double *l, const double *b, const float *labels,
                             double *dl, double *rowloss, int rows, int cols, double scale) {
    (void)c;
    return (int)gb_softmax_xent64(gb_stream(), l, b, labels, dl, rowloss, rows, cols, scale);
}
static int op_colsum64(void *c, const double *x, double *out, int rows, int cols, double scale) {
    (void)c;
    return (int)gb_colsum64(gb_stream(), x, out, rows, cols, scale);
}
static int op_sgd64(void *c, double *w, const double *g, size_t n, double lr) {
    (void)c;
    return (int)gb_sgd64(gb_stream(), w, g, n, lr);
}
static const struct gb_mlp_ops64 mlp_cuda_ops64 = {op_dgemm,          op_bias_relu64,
                                                   op_relu_backward64, op_softmax_xent64,
                                                   op_colsum64,       op_sgd64};

static const struct gb_mlp_ops mlp_cuda_ops = {op_sgemm,        op_bias_relu, op_relu_backward,
                                               op_softmax_xent, op_colsum,    op_sgd};

static const char *const names[NPARAMS] = {"W1", "b1", "W2", "b2"};

/* The f64 tier's buffers (the labels are allocated): X, the parameters, the loss and the step's
 * scratch in doubles, and room for the largest operand the step transposes (W1, W2, dZ or dH). */
static enum status prepare64(struct impl_ctx *ctx, struct mlp_cuda_state *s) {
    const struct problem *p = ctx->p;
    const size_t B = (size_t)s->d.batch, I = (size_t)s->d.in, H = (size_t)s->d.hidden,
                 O = (size_t)s->d.out;
    size_t tr = H * I > H * B ? H * I : H * B;
    enum status st;
    int k;
    tr = tr > O * H ? tr : O * H;
    tr = tr > O * B ? tr : O * B;
    if ((st = gb_check_kernels(ctx, gb_dgemm_kernels)) != ST_OK ||
        (st = gb_check_kernels(ctx, gb_mlp_kernels64)) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->x64, B * I * sizeof(double), "X")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->loss64, sizeof(double), "loss")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->tr, tr * sizeof(double), "transposed operand")) !=
            ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->scratch64, gb_mlp_scratch_floats(&s->d) * sizeof(double),
                        "activations and gradients")) != ST_OK)
        return st;
    for (k = 0; k < NPARAMS; k++)
        if ((st = gb_malloc(ctx, (void **)&s->param64[k],
                            p->in[MLP_IN_W1 + k].n * sizeof(double), names[k])) != ST_OK)
            return st;
    gb_mlp_carve64(&s->d, s->scratch64, &s->b64);
    s->b64.x = s->x64, s->b64.labels = s->labels, s->b64.loss = s->loss64;
    s->b64.w1 = s->param64[0], s->b64.b1 = s->param64[1];
    s->b64.w2 = s->param64[2], s->b64.b2 = s->param64[3];
    snprintf(ctx->note, sizeof ctx->note,
             "own DGEMM %dx%d tiles, transposed operands copied by an own kernel first",
             gb_dgemm_tile_for(&s->arch), gb_dgemm_tile_for(&s->arch));
    return ST_OK;
}

/* The device bytes prepare and prepare64 allocate: the float32 labels, then X, the loss, the
 * step's scratch and the parameters in the tier's type, and for f64 the transposed operand. */
static size_t mlp_cuda_footprint(const struct problem *p, const struct gb_mlp_dims *d) {
    const size_t B = (size_t)d->batch, I = (size_t)d->in, H = (size_t)d->hidden,
                 O = (size_t)d->out;
    size_t el = p->dtype == DT_F64 ? sizeof(double) : sizeof(float), tr = 0, n;
    n = p->in[MLP_IN_X].n + 1 + gb_mlp_scratch_floats(d);
    for (int k = 0; k < NPARAMS; k++)
        n += p->in[MLP_IN_W1 + k].n;
    if (p->dtype == DT_F64) {
        tr = H * I > H * B ? H * I : H * B;
        tr = tr > O * H ? tr : O * H;
        tr = tr > O * B ? tr : O * B;
    }
    return p->in[MLP_IN_LABELS].n * sizeof(float) + (n + tr) * el;
}

static enum status mlp_cuda_prepare(struct impl_ctx *ctx) {
    const struct problem *p = ctx->p;
    struct mlp_cuda_state *s;
    enum status st;
    int k;
    if ((p->dtype != DT_F64 && ((st = gb_check_kernels(ctx, gb_sgemm_kernels)) != ST_OK ||
                                (st = gb_check_kernels(ctx, gb_mlp_kernels)) != ST_OK)) ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    if ((st = gb_impl_arch(ctx, &s->arch)) != ST_OK)
        return st;
    /* bench/mlp_train.c's complete() keeps every size within int */
    s->d.batch = (int)p->shape.v[MLP_KEY_BATCH];
    s->d.in = (int)p->shape.v[MLP_KEY_IN];
    s->d.hidden = (int)p->shape.v[MLP_KEY_HIDDEN];
    s->d.out = (int)p->shape.v[MLP_KEY_OUT];
    s->d.lr = MLP_LR;
    if ((double)s->d.batch * s->d.hidden > 2147483647.0) {
        snprintf(ctx->note, sizeof ctx->note,
                 "batch·hidden is 2^31 or more, beyond the own bias+ReLU kernel's indexing");
        return ST_UNSUPPORTED;
    }
    if ((st = gb_row_footprint(ctx, mlp_cuda_footprint(p, &s->d),
                               "labels, X, loss, parameters, activations and gradients")) !=
            ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->labels, p->in[MLP_IN_LABELS].n * sizeof(float),
                        "labels")) != ST_OK)
        return st;
    if (p->dtype == DT_F64)
        return prepare64(ctx, s);
    if ((st = gb_malloc(ctx, (void **)&s->x, p->in[MLP_IN_X].n * sizeof(float), "X")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->loss, sizeof(float), "loss")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->scratch, gb_mlp_scratch_floats(&s->d) * sizeof(float),
                        "activations and gradients")) != ST_OK)
        return st;
    for (k = 0; k < NPARAMS; k++)
        if ((st = gb_malloc(ctx, (void **)&s->param[k], p->in[MLP_IN_W1 + k].n * sizeof(float),
                            names[k])) != ST_OK)
            return st;
    gb_mlp_carve(&s->d, s->scratch, &s->b);
    s->b.x = s->x, s->b.labels = s->labels, s->b.loss = s->loss;
    s->b.w1 = s->param[0], s->b.b1 = s->param[1], s->b.w2 = s->param[2], s->b.b2 = s->param[3];
    {
        int t = gb_sgemm_tile_for(&s->arch, s->d.batch, s->d.hidden);
        snprintf(ctx->note, sizeof ctx->note, "own SGEMM %dx%d tiles for X*W1^T", t, t);
    }
    return ST_OK;
}

/* Host data of a problem's buffer (float32 or, for f64, data64) and its size in bytes. */
static const void *host_of(const struct buf *b, int f64, size_t *bytes) {
    *bytes = b->n * (f64 ? sizeof(double) : sizeof(float));
    return f64 ? (const void *)b->data64 : (const void *)b->data;
}

static enum status mlp_cuda_upload(struct impl_ctx *ctx) {
    struct mlp_cuda_state *s = ctx->state;
    const struct problem *p = ctx->p;
    const int f64 = p->dtype == DT_F64;
    size_t bytes;
    const void *h;
    int k;
    h = host_of(&p->in[MLP_IN_X], f64, &bytes);
    CU_TRY(cudaMemcpyAsync(f64 ? (void *)s->x64 : (void *)s->x, h, bytes, cudaMemcpyHostToDevice,
                           gb_stream()),
           ctx);
    CU_TRY(cudaMemcpyAsync(s->labels, p->in[MLP_IN_LABELS].data,
                           p->in[MLP_IN_LABELS].n * sizeof(float), cudaMemcpyHostToDevice,
                           gb_stream()),
           ctx);
    for (k = 0; k < NPARAMS; k++) {
        h = host_of(&p->in[MLP_IN_W1 + k], f64, &bytes);
        CU_TRY(cudaMemcpyAsync(f64 ? (void *)s->param64[k] : (void *)s->param[k], h, bytes,
                               cudaMemcpyHostToDevice, gb_stream()),
               ctx);
    }
    return ST_OK;
}

static enum status mlp_cuda_run(struct impl_ctx *ctx) {
    struct mlp_cuda_state *s = ctx->state;
    if (ctx->p->dtype == DT_F64)
        CU_TRY((cudaError_t)gb_mlp_step64(&mlp_cuda_ops64, s, &s->d, &s->b64), ctx);
    else
        CU_TRY((cudaError_t)gb_mlp_step(&mlp_cuda_ops, s, &s->d, &s->b), ctx);
    return ST_OK;
}

static enum status mlp_cuda_download(struct impl_ctx *ctx) {
    struct mlp_cuda_state *s = ctx->state;
    struct problem *p = ctx->p;
    const int f64 = p->dtype == DT_F64;
    size_t bytes;
    int k;
    for (k = 0; k < NPARAMS; k++) {
        void *h = (void *)host_of(&p->out[MLP_OUT_W1 + k], f64, &bytes);
        CU_TRY(cudaMemcpyAsync(h, f64 ? (void *)s->param64[k] : (void *)s->param[k], bytes,
                               cudaMemcpyDeviceToHost, gb_stream()),
               ctx);
    }
    void *h = (void *)host_of(&p->out[MLP_OUT_LOSS], f64, &bytes);
    CU_TRY(cudaMemcpyAsync(h, f64 ? (void *)s->loss64 : (void *)s->loss, bytes,
                           cudaMemcpyDeviceToHost, gb_stream()),
           ctx);
    return ST_OK;
}

static void mlp_cuda_release(struct impl_ctx *ctx) {
    struct mlp_cuda_state *s = ctx->state;
    void *bufs[8 + 2 * NPARAMS];
    int k;
    if (!s)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream()));
    bufs[0] = s->x, bufs[1] = s->labels, bufs[2] = s->loss, bufs[3] = s->scratch;
    bufs[4] = s->x64, bufs[5] = s->loss64, bufs[6] = s->scratch64, bufs[7] = s->tr;
    for (k = 0; k < NPARAMS; k++)
        bufs[8 + k] = s->param[k], bufs[8 + NPARAMS + k] = s->param64[k];
    gb_free_device(bufs, 8 + 2 * NPARAMS);
    free(s);
    ctx->state = NULL;
}

const struct impl mlp_train_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own SGEMM for the 5 GEMMs + own bias/ReLU, softmax-xent, reduction, SGD kernels; "
               "f64: own DGEMM",
    .prepare = mlp_cuda_prepare,
    .upload = mlp_cuda_upload,
    .run = mlp_cuda_run,
    .download = mlp_cuda_download,
    .release = mlp_cuda_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64),
};
