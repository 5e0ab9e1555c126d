/* cuda.c — mlp_train/cuda: one SGD step on our own kernels — the five GEMMs on our
 * SGEMM, bias + ReLU, softmax cross-entropy, bias-gradient reductions and the update on the
 * kernels of kernels.cuh — in the order kernels/mlp_train/step.c fixes, on the run's stream.
 *
 * Problem layout (kernels/mlp_train/layout.h): in X, labels, W1, b1, W2, b2 (the initial
 * parameters, read-only); out W1, b1, W2, b2 (updated) and the loss before the update.
 * upload copies the inputs, which resets the device parameters to their initial values; each
 * run trains them one more step in place; download copies parameters and loss back.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kernels/mlp_train/layout.h"
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
static const struct gb_mlp_ops mlp_cuda_ops = {op_sgemm,        op_bias_relu, op_relu_backward,
                                               op_softmax_xent, op_colsum,    op_sgd};

static enum status mlp_cuda_prepare(struct impl_ctx *ctx) {
    static const char *const names[NPARAMS] = {"W1", "b1", "W2", "b2"};
    const struct problem *p = ctx->p;
    struct mlp_cuda_state *s;
    enum status st;
    int k;
    if ((st = gb_check_kernels(ctx, gb_sgemm_kernels)) != ST_OK ||
        (st = gb_check_kernels(ctx, gb_mlp_kernels)) != ST_OK ||
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
    if ((st = gb_malloc(ctx, (void **)&s->x, p->in[MLP_IN_X].n * sizeof(float), "X")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->labels, p->in[MLP_IN_LABELS].n * sizeof(float),
                        "labels")) != ST_OK ||
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

static enum status mlp_cuda_upload(struct impl_ctx *ctx) {
    struct mlp_cuda_state *s = ctx->state;
    const struct problem *p = ctx->p;
    int k;
    CU_TRY(cudaMemcpyAsync(s->x, p->in[MLP_IN_X].data, p->in[MLP_IN_X].n * sizeof(float),
                           cudaMemcpyHostToDevice, gb_stream()),
           ctx);
    CU_TRY(cudaMemcpyAsync(s->labels, p->in[MLP_IN_LABELS].data,
                           p->in[MLP_IN_LABELS].n * sizeof(float), cudaMemcpyHostToDevice,
                           gb_stream()),
           ctx);
    for (k = 0; k < NPARAMS; k++)
        CU_TRY(cudaMemcpyAsync(s->param[k], p->in[MLP_IN_W1 + k].data,
                               p->in[MLP_IN_W1 + k].n * sizeof(float), cudaMemcpyHostToDevice,
                               gb_stream()),
               ctx);
    return ST_OK;
}

static enum status mlp_cuda_run(struct impl_ctx *ctx) {
    struct mlp_cuda_state *s = ctx->state;
    CU_TRY((cudaError_t)gb_mlp_step(&mlp_cuda_ops, s, &s->d, &s->b), ctx);
    return ST_OK;
}

static enum status mlp_cuda_download(struct impl_ctx *ctx) {
    struct mlp_cuda_state *s = ctx->state;
    struct problem *p = ctx->p;
    int k;
    for (k = 0; k < NPARAMS; k++)
        CU_TRY(cudaMemcpyAsync(p->out[MLP_OUT_W1 + k].data, s->param[k],
                               p->out[MLP_OUT_W1 + k].n * sizeof(float), cudaMemcpyDeviceToHost,
                               gb_stream()),
               ctx);
    CU_TRY(cudaMemcpyAsync(p->out[MLP_OUT_LOSS].data, s->loss, sizeof(float),
                           cudaMemcpyDeviceToHost, gb_stream()),
           ctx);
    return ST_OK;
}

static void mlp_cuda_release(struct impl_ctx *ctx) {
    struct mlp_cuda_state *s = ctx->state;
    void *bufs[4 + NPARAMS];
    int k;
    if (!s)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream()));
    bufs[0] = s->x, bufs[1] = s->labels, bufs[2] = s->loss, bufs[3] = s->scratch;
    for (k = 0; k < NPARAMS; k++)
        bufs[4 + k] = s->param[k];
    gb_free_device(bufs, 4 + NPARAMS);
    free(s);
    ctx->state = NULL;
}

const struct impl mlp_train_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own SGEMM for the 5 GEMMs + own bias/ReLU, softmax-xent, reduction, SGD kernels",
    .prepare = mlp_cuda_prepare,
    .upload = mlp_cuda_upload,
    .run = mlp_cuda_run,
    .download = mlp_cuda_download,
    .release = mlp_cuda_release,
};
