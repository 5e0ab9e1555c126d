/* cublas.c — mlp_train/cublas: one SGD step with cuBLAS GEMMs (pedantic FP32 where
 * cuBLAS has it) and cuDNN for the bias, ReLU and softmax where this build has cuDNN and cuDNN
 * supports the card; otherwise our own elementwise kernels (kernels/mlp_train/cuda.h) in the
 * launch order of kernels/mlp_train/step.h. The row note says which.
 *
 * Problem layout and model: bench/mlp_train.h (in[] = X, labels, initial W1 b1 W2 b2;
 * out[] = W1 b1 W2 b2 after the step, loss before it; weights stored out_features × in_features).
 * `upload` copies the inputs and the initial parameters, so every end-to-end repetition (and the
 * verified one) starts from the same parameters; timed runs keep training from where they are.
 *
 * The cuDNN path, row-major (B batch, I in, H hidden, O out; g(M) is "M as cuBLAS sees it"):
 *   h = x·w1ᵀ (GEMM), h += b1 (cudnnAddTensor), h = ReLU(h) (cudnnActivationForward),
 *   z = h·w2ᵀ, z += b2, lp = log softmax(z) (cudnnSoftmaxForward LOG),
 *   loss = −(1/B)·⟨lp, onehot⟩ (a 1×(B·O) GEMV), dz = softmax(z)/B − onehot/B (softmax
 *   ACCURATE, then cudnnAddTensor), b2 −= lr·Σ_rows dz (GEMV with a ones vector),
 *   dh = dz·w2 (old w2), w2 −= lr·dzᵀ·h (GEMM with beta = 1), dh ⊙= [h > 0]
 *   (cudnnActivationBackward), b1 −= lr·Σ_rows dh, w1 −= lr·dhᵀ·x (GEMM with beta = 1).
 * The one-hot matrix of the labels is built on the host in prepare and uploaded as an input.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/core/device.h"
#include "harness/gpuinfo/gpu_policy.h"
#include "bench/mlp_train.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/mlp_train/amp.h"
#include "kernels/mlp_train/cuda.h"
#include "kernels/mlp_train/step.h"

enum { NPARAMS = 4 };

struct mlp_state {
    cublasHandle_t h;
    int have_handle;
    struct gb_mlp_dims d;
    int use_cudnn;     /* 1: the cuDNN path; 0: own kernels through gb_mlp_step */
    float *x, *labels; /* device inputs */
    float *param[NPARAMS], *loss;
    float *onehot, *ones, *lp; /* cuDNN path: one-hot labels, a ones vector, log-probabilities */
    float *scratch;            /* own-kernel path: gb_mlp_carve's pieces; cuDNN path: h, z, dh */
    float *host_onehot;        /* built once from the labels */
    struct gb_mlp_bufs bufs;   /* own-kernel path */
    cublasStatus_t last_blas;  /* own-kernel path: status of the last GEMM */
    /* the f64 tier: cublasDgemm and the f64 kernels through gb_mlp_step64 (labels: `labels`) */
    double *x64, *param64[NPARAMS], *loss64, *scratch64;
    struct gb_mlp_bufs64 bufs64;
#ifdef GPUBENCH_HAVE_CUDNN
    cudnnHandle_t dnn;
    int have_dnn;
    cudnnTensorDescriptor_t hd, b1d, zd, b2d;
    cudnnActivationDescriptor_t relu;
#endif
};

/* C (M×N, ldc) = alpha·op(A)·op(B) + beta·C, all row-major, with cuBLAS (column-major): the
 * column-major view of a row-major matrix is its transpose, so Cᵀ = op(B)ᵀ·op(A)ᵀ is computed,
 * which swaps the operands and keeps each one's transpose flag. */
static cublasStatus_t rm_gemm(cublasHandle_t h, int ta, int tb, int M, int N, int K, float alpha,
                              const float *A, int lda, const float *B, int ldb, float beta,
                              float *C, int ldc) {
    return cublasSgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K,
                       &alpha, B, ldb, A, lda, &beta, C, ldc);
}

/* --- the own-kernel path: gb_mlp_step's ops on cuBLAS + our launchers -------------------- */

static int op_sgemm(void *c, int ta, int tb, int M, int N, int K, const float *A, int lda,
                    const float *B, int ldb, float *C, int ldc) {
    struct mlp_state *s = c;
    s->last_blas = rm_gemm(s->h, ta, tb, M, N, K, 1.0f, A, lda, B, ldb, 0.0f, C, ldc);
    return (int)s->last_blas;
}
static int op_bias_relu(void *c, float *z, const float *bias, int rows, int cols) {
    (void)c;
    return (int)gb_bias_relu(gb_stream(), z, bias, rows, cols);
}
static int op_relu_backward(void *c, float *dh, const float *h, size_t n) {
    (void)c;
    return (int)gb_relu_backward(gb_stream(), dh, h, n);
}
static int op_softmax_xent(void *c, const float *logits, const float *bias, const float *labels,
                           float *dlogits, float *rowloss, int rows, int cols, float scale) {
    (void)c;
    return (int)gb_softmax_xent(gb_stream(), logits, bias, labels, dlogits, rowloss, rows, cols,
                                scale);
}
static int op_colsum(void *c, const float *x, float *out, int rows, int cols, float scale) {
    (void)c;
    return (int)gb_colsum(gb_stream(), x, out, rows, cols, scale);
}
static int op_sgd(void *c, float *w, const float *g, size_t n, float lr) {
    (void)c;
    return (int)gb_sgd(gb_stream(), w, g, n, lr);
}

static const struct gb_mlp_ops own_ops = {
    .sgemm = op_sgemm,
    .bias_relu = op_bias_relu,
    .relu_backward = op_relu_backward,
    .softmax_xent = op_softmax_xent,
    .colsum = op_colsum,
    .sgd = op_sgd,
};

/* --- the f64 tier: gb_mlp_step64's ops on cublasDgemm + our f64 launchers ---------------- */

/* rm_gemm in doubles. */
static cublasStatus_t rm_dgemm(cublasHandle_t h, int ta, int tb, int M, int N, int K,
                               const double *A, int lda, const double *B, int ldb, double *C,
                               int ldc) {
    const double one = 1.0, zero = 0.0;
    return cublasDgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K,
                       &one, B, ldb, A, lda, &zero, C, ldc);
}

static int op_dgemm(void *c, int ta, int tb, int M, int N, int K, const double *A, int lda,
                    const double *B, int ldb, double *C, int ldc) {
    struct mlp_state *s = c;
    s->last_blas = rm_dgemm(s->h, ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
    return (int)s->last_blas;
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

static const struct gb_mlp_ops64 own_ops64 = {
    .dgemm = op_dgemm,
    .bias_relu = op_bias_relu64,
    .relu_backward = op_relu_backward64,
    .softmax_xent = op_softmax_xent64,
    .colsum = op_colsum64,
    .sgd = op_sgd64,
};

/* --- the cuDNN path ------------------------------------------------------------------------ */

#ifdef GPUBENCH_HAVE_CUDNN
static enum status dnn_prepare(struct impl_ctx *ctx, struct mlp_state *s) {
    const int B = s->d.batch, H = s->d.hidden, O = s->d.out;
    CUDNN_TRY(cudnnCreate(&s->dnn), ctx);
    s->have_dnn = 1;
    CUDNN_TRY(cudnnSetStream(s->dnn, gb_stream()), ctx);
    cudnnTensorDescriptor_t *descs[] = {&s->hd, &s->b1d, &s->zd, &s->b2d};
    for (size_t i = 0; i < sizeof descs / sizeof descs[0]; i++)
        CUDNN_TRY(cudnnCreateTensorDescriptor(descs[i]), ctx);
    /* Rows as N, features as C, H = W = 1: the bias (1×C×1×1) broadcasts over rows, and
     * softmax's INSTANCE mode normalizes each row. */
    CUDNN_TRY(cudnnSetTensor4dDescriptor(s->hd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, B, H, 1, 1),
              ctx);
    CUDNN_TRY(cudnnSetTensor4dDescriptor(s->b1d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, H, 1, 1),
              ctx);
    CUDNN_TRY(cudnnSetTensor4dDescriptor(s->zd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, B, O, 1, 1),
              ctx);
    CUDNN_TRY(cudnnSetTensor4dDescriptor(s->b2d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, O, 1, 1),
              ctx);
    CUDNN_TRY(cudnnCreateActivationDescriptor(&s->relu), ctx);
    /* NaNs propagate: a NaN bug must reach the verification, not be clamped away. */
    CUDNN_TRY(
        cudnnSetActivationDescriptor(s->relu, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0),
        ctx);
    return ST_OK;
}

static enum status dnn_run(struct impl_ctx *ctx, struct mlp_state *s) {
    const int B = s->d.batch, I = s->d.in, H = s->d.hidden, O = s->d.out;
    const float lr = s->d.lr, inv_b = 1.0f / (float)B, one = 1.0f, zero = 0.0f;
    float *w1 = s->param[0], *b1 = s->param[1], *w2 = s->param[2], *b2 = s->param[3];
    float *h = s->scratch, *z = h + (size_t)B * H, *dh = z + (size_t)B * O, *dz = s->lp;
    /* forward */
    CUBLAS_TRY(rm_gemm(s->h, 0, 1, B, H, I, 1.0f, s->x, I, w1, I, 0.0f, h, H), ctx);
    CUDNN_TRY(cudnnAddTensor(s->dnn, &one, s->b1d, b1, &one, s->hd, h), ctx);
    CUDNN_TRY(cudnnActivationForward(s->dnn, s->relu, &one, s->hd, h, &zero, s->hd, h), ctx);
    CUBLAS_TRY(rm_gemm(s->h, 0, 1, B, O, H, 1.0f, h, H, w2, H, 0.0f, z, O), ctx);
    CUDNN_TRY(cudnnAddTensor(s->dnn, &one, s->b2d, b2, &one, s->zd, z), ctx);
    /* loss = −(1/B)·Σ onehot ⊙ log softmax(z): a 1×(B·O) matrix times a vector */
    CUDNN_TRY(cudnnSoftmaxForward(s->dnn, CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_INSTANCE, &one,
                                  s->zd, z, &zero, s->zd, s->lp),
              ctx);
    const float neg_inv_b = -inv_b;
    CUBLAS_TRY(cublasSgemv(s->h, CUBLAS_OP_N, 1, B * O, &neg_inv_b, s->lp, 1, s->onehot, 1, &zero,
                           s->loss, 1),
               ctx);
    /* dz = softmax(z)/B − onehot/B, into lp (the stream has consumed it for the loss) */
    CUDNN_TRY(cudnnSoftmaxForward(s->dnn, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one,
                                  s->zd, z, &zero, s->zd, dz),
              ctx);
    CUDNN_TRY(cudnnAddTensor(s->dnn, &neg_inv_b, s->zd, s->onehot, &inv_b, s->zd, dz), ctx);
    /* backward and update; dh uses the old w2, so it comes before w2's update */
    const float neg_lr = -lr;
    CUBLAS_TRY(cublasSgemv(s->h, CUBLAS_OP_N, O, B, &neg_lr, dz, O, s->ones, 1, &one, b2, 1), ctx);
    CUBLAS_TRY(rm_gemm(s->h, 0, 0, B, H, O, 1.0f, dz, O, w2, H, 0.0f, dh, H), ctx);
    CUBLAS_TRY(rm_gemm(s->h, 1, 0, O, H, B, neg_lr, dz, O, h, H, 1.0f, w2, H), ctx);
    CUDNN_TRY(cudnnActivationBackward(s->dnn, s->relu, &one, s->hd, h, s->hd, dh, s->hd, h, &zero,
                                      s->hd, dh),
              ctx);
    CUBLAS_TRY(cublasSgemv(s->h, CUBLAS_OP_N, H, B, &neg_lr, dh, H, s->ones, 1, &one, b1, 1), ctx);
    CUBLAS_TRY(rm_gemm(s->h, 1, 0, H, I, B, neg_lr, dh, H, s->x, I, 1.0f, w1, I), ctx);
    return ST_OK;
}
#endif /* GPUBENCH_HAVE_CUDNN */

/* --- the implementation ------------------------------------------------------------------- */

/* Decide the path: cuDNN when built in and the card is known to be in its support matrix; our
 * own kernels when cuDNN does not support it or nobody knows (a row must not fail for a path it
 * could have avoided). */
static int want_cudnn(struct impl_ctx *ctx, char *why, size_t whylen) {
#ifdef GPUBENCH_HAVE_CUDNN
    int maj = 0, min = 0;
    if (sscanf(ctx->dev->cc, "%d.%d", &maj, &min) != 2) {
        snprintf(why, whylen, "compute capability '%s' unreadable", ctx->dev->cc);
        return 0;
    }
    return gpu_cudnn_support(maj, min, ctx->dev->name, (long)cudnnGetVersion(),
                             (int)cudnnGetCudartVersion(), why, whylen) == 1;
#else
    (void)ctx;
    snprintf(why, whylen, "this build has no cuDNN");
    return 0;
#endif
}

static enum status alloc(struct impl_ctx *ctx, float **p, size_t n, const char *what) {
    return gb_malloc(ctx, (void **)p, n * sizeof(float), what);
}

/* Our kernels run instead of cuDNN's: the device needs code for every one of them. */
static enum status check_own_kernels(struct impl_ctx *ctx) {
    const struct gb_kernel_ref *refs;
    int n = gb_mlp_kernels(&refs);
    for (int i = 0; i < n; i++) {
        enum status st = gb_check_kernel_image(ctx, refs[i].fn, refs[i].name);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

/* The device buffers both paths use: the parameters, X, the labels and the loss. */
static enum status alloc_common(struct impl_ctx *ctx, struct mlp_state *s) {
    const struct problem *p = ctx->p;
    const size_t B = (size_t)s->d.batch, I = (size_t)s->d.in;
    const char *names[NPARAMS] = {"W1", "b1", "W2", "b2"};
    enum status st;
    for (int k = 0; k < NPARAMS; k++)
        if ((st = alloc(ctx, &s->param[k], p->in[MLP_IN_W1 + k].n, names[k])) != ST_OK)
            return st;
    if ((st = alloc(ctx, &s->x, B * I, "X")) != ST_OK ||
        (st = alloc(ctx, &s->labels, B, "labels")) != ST_OK ||
        (st = alloc(ctx, &s->loss, 1, "loss")) != ST_OK)
        return st;
    return ST_OK;
}

/* The cuDNN path's buffers: h, z, dh, the one-hot labels (built here on the host, uploaded by
 * upload), the log-probabilities and a ones vector (uploaded here: it never changes). */
static enum status dnn_buffers(struct impl_ctx *ctx, struct mlp_state *s) {
    const struct problem *p = ctx->p;
    const size_t B = (size_t)s->d.batch, I = (size_t)s->d.in, H = (size_t)s->d.hidden,
                 O = (size_t)s->d.out;
    enum status st;
    if ((st = alloc(ctx, &s->scratch, B * H * 2 + B * O, "h, z, dh")) != ST_OK ||
        (st = alloc(ctx, &s->onehot, B * O, "one-hot labels")) != ST_OK ||
        (st = alloc(ctx, &s->lp, B * O, "log-probabilities")) != ST_OK ||
        (st = alloc(ctx, &s->ones, B, "ones")) != ST_OK)
        return st;
    float *host = malloc(B * sizeof(float)); /* the ones vector */
    s->host_onehot = calloc(B * O, sizeof(float));
    if (!host || !s->host_onehot) {
        free(host);
        snprintf(ctx->note, sizeof ctx->note, "out of host memory");
        return ST_OOM;
    }
    struct mlp_dims md = {(long)B, (long)I, (long)H, (long)O};
    for (size_t b = 0; b < B; b++) {
        s->host_onehot[b * O + (size_t)mlp_label(&md, p->in[MLP_IN_LABELS].data, (long)b)] = 1;
        host[b] = 1.0f;
    }
    cudaError_t e =
        cudaMemcpyAsync(s->ones, host, B * sizeof(float), cudaMemcpyHostToDevice, gb_stream());
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(gb_stream()); /* before host is freed */
    free(host);
    CU_TRY(e, ctx);
    return ST_OK;
}

/* The own-kernel path's buffers: one scratch allocation carved into gb_mlp_step's pieces. */
static enum status own_buffers(struct impl_ctx *ctx, struct mlp_state *s) {
    enum status st;
    if ((st = alloc(ctx, &s->scratch, gb_mlp_scratch_floats(&s->d), "activations")) != ST_OK)
        return st;
    gb_mlp_carve(&s->d, s->scratch, &s->bufs);
    s->bufs.x = s->x;
    s->bufs.labels = s->labels;
    s->bufs.w1 = s->param[0], s->bufs.b1 = s->param[1];
    s->bufs.w2 = s->param[2], s->bufs.b2 = s->param[3];
    s->bufs.loss = s->loss;
    return ST_OK;
}

/* The cuBLAS handle on our stream, pedantic FP32 where cuBLAS has the mode; *math names it. */
static enum status blas_handle(struct impl_ctx *ctx, struct mlp_state *s, const char **math) {
    CUBLAS_TRY(cublasCreate(&s->h), ctx);
    s->have_handle = 1;
    CUBLAS_TRY(cublasSetStream(s->h, gb_stream()), ctx);
#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
    CUBLAS_TRY(cublasSetMathMode(s->h, CUBLAS_PEDANTIC_MATH), ctx);
    *math = "pedantic FP32";
#else
    *math = "default math, FP32";
#endif
    return ST_OK;
}

/* The f64 tier: cublasDgemm and our f64 kernels (cuDNN is not asked: the float32 rows are the
 * ones that compare cuDNN's elementwise work with ours). Buffers as alloc_common and
 * own_buffers, in doubles; the labels stay float32 class numbers. */
static enum status prepare64(struct impl_ctx *ctx, struct mlp_state *s) {
    const struct problem *p = ctx->p;
    const char *names[NPARAMS] = {"W1", "b1", "W2", "b2"}, *math;
    enum status st;
    if ((st = gb_check_kernels(ctx, gb_mlp_kernels64)) != ST_OK)
        return st;
    for (int k = 0; k < NPARAMS; k++)
        if ((st = gb_malloc(ctx, (void **)&s->param64[k],
                            p->in[MLP_IN_W1 + k].n * sizeof(double), names[k])) != ST_OK)
            return st;
    if ((st = gb_malloc(ctx, (void **)&s->x64, p->in[MLP_IN_X].n * sizeof(double), "X")) !=
            ST_OK ||
        (st = alloc(ctx, &s->labels, p->in[MLP_IN_LABELS].n, "labels")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->loss64, sizeof(double), "loss")) != ST_OK ||
        (st = gb_malloc(ctx, (void **)&s->scratch64, gb_mlp_scratch_floats(&s->d) * sizeof(double),
                        "activations")) != ST_OK)
        return st;
    gb_mlp_carve64(&s->d, s->scratch64, &s->bufs64);
    s->bufs64.x = s->x64, s->bufs64.labels = s->labels, s->bufs64.loss = s->loss64;
    s->bufs64.w1 = s->param64[0], s->bufs64.b1 = s->param64[1];
    s->bufs64.w2 = s->param64[2], s->bufs64.b2 = s->param64[3];
    if ((st = blas_handle(ctx, s, &math)) != ST_OK)
        return st;
    snprintf(ctx->note, sizeof ctx->note, "cublasDgemm + own f64 elementwise kernels");
    return ST_OK;
}

static enum status mlp_prepare(struct impl_ctx *ctx) {
    if (ctx->p->dtype == DT_F16)
        return mlp_amp_prepare(ctx);
    const long *v = ctx->p->shape.v;
    struct mlp_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory");
        return ST_OOM;
    }
    ctx->state = s;
    s->d = (struct gb_mlp_dims){(int)v[MLP_KEY_BATCH], (int)v[MLP_KEY_IN], (int)v[MLP_KEY_HIDDEN],
                                (int)v[MLP_KEY_OUT], MLP_LR};
    if (ctx->p->dtype == DT_F64)
        return prepare64(ctx, s);
    char why[300] = "";
    const char *math;
    enum status st;
    s->use_cudnn = want_cudnn(ctx, why, sizeof why);
    if (!s->use_cudnn && (st = check_own_kernels(ctx)) != ST_OK)
        return st;
    if ((st = alloc_common(ctx, s)) != ST_OK)
        return st;
    if ((st = s->use_cudnn ? dnn_buffers(ctx, s) : own_buffers(ctx, s)) != ST_OK)
        return st;
    if ((st = blas_handle(ctx, s, &math)) != ST_OK)
        return st;
#ifdef GPUBENCH_HAVE_CUDNN
    if (s->use_cudnn && (st = dnn_prepare(ctx, s)) != ST_OK)
        return st;
#endif
    if (s->use_cudnn)
        snprintf(ctx->note, sizeof ctx->note, "cuBLAS GEMMs (%s) + cuDNN bias/ReLU/softmax", math);
    else
        snprintf(ctx->note, sizeof ctx->note, "cuBLAS GEMMs (%s) + own elementwise kernels: %.300s",
                 math, why);
    return ST_OK;
}

static enum status upload64(struct impl_ctx *ctx, struct mlp_state *s) {
    struct problem *p = ctx->p;
    cudaStream_t st = gb_stream();
    for (int k = 0; k < NPARAMS; k++)
        CU_TRY(cudaMemcpyAsync(s->param64[k], p->in[MLP_IN_W1 + k].data64,
                               p->in[MLP_IN_W1 + k].n * sizeof(double), cudaMemcpyHostToDevice,
                               st),
               ctx);
    CU_TRY(cudaMemcpyAsync(s->x64, p->in[MLP_IN_X].data64, p->in[MLP_IN_X].n * sizeof(double),
                           cudaMemcpyHostToDevice, st),
           ctx);
    CU_TRY(cudaMemcpyAsync(s->labels, p->in[MLP_IN_LABELS].data,
                           p->in[MLP_IN_LABELS].n * sizeof(float), cudaMemcpyHostToDevice, st),
           ctx);
    return ST_OK;
}

static enum status mlp_upload(struct impl_ctx *ctx) {
    if (ctx->p->dtype == DT_F16)
        return mlp_amp_upload(ctx);
    struct mlp_state *s = ctx->state;
    struct problem *p = ctx->p;
    cudaStream_t st = gb_stream();
    if (p->dtype == DT_F64)
        return upload64(ctx, s);
    for (int k = 0; k < NPARAMS; k++)
        CU_TRY(cudaMemcpyAsync(s->param[k], p->in[MLP_IN_W1 + k].data,
                               p->in[MLP_IN_W1 + k].n * sizeof(float), cudaMemcpyHostToDevice, st),
               ctx);
    CU_TRY(cudaMemcpyAsync(s->x, p->in[MLP_IN_X].data, p->in[MLP_IN_X].n * sizeof(float),
                           cudaMemcpyHostToDevice, st),
           ctx);
    if (s->use_cudnn)
        CU_TRY(cudaMemcpyAsync(s->onehot, s->host_onehot,
                               (size_t)s->d.batch * s->d.out * sizeof(float),
                               cudaMemcpyHostToDevice, st),
               ctx);
    else
        CU_TRY(cudaMemcpyAsync(s->labels, p->in[MLP_IN_LABELS].data,
                               p->in[MLP_IN_LABELS].n * sizeof(float), cudaMemcpyHostToDevice, st),
               ctx);
    return ST_OK;
}

static enum status mlp_run(struct impl_ctx *ctx) {
    if (ctx->p->dtype == DT_F16)
        return mlp_amp_run(ctx);
    struct mlp_state *s = ctx->state;
#ifdef GPUBENCH_HAVE_CUDNN
    if (s->use_cudnn)
        return dnn_run(ctx, s);
#endif
    s->last_blas = CUBLAS_STATUS_SUCCESS;
    int rc = ctx->p->dtype == DT_F64 ? gb_mlp_step64(&own_ops64, s, &s->d, &s->bufs64)
                                     : gb_mlp_step(&own_ops, s, &s->d, &s->bufs);
    if (rc != 0) {
        /* GEMMs return cuBLAS statuses (kept in last_blas), launches a cudaError_t, which the
         * launcher has already taken out of the runtime with cudaGetLastError. */
        const char *name = s->last_blas != CUBLAS_STATUS_SUCCESS
                               ? gb_cublas_status_name(s->last_blas)
                               : cudaGetErrorName((cudaError_t)rc);
        snprintf(ctx->note, sizeof ctx->note, "gb_mlp_step: %s", name);
        return gpu_error_status(name);
    }
    return ST_OK;
}

static enum status download64(struct impl_ctx *ctx, struct mlp_state *s) {
    struct problem *p = ctx->p;
    cudaStream_t st = gb_stream();
    for (int k = 0; k < NPARAMS; k++)
        CU_TRY(cudaMemcpyAsync(p->out[MLP_OUT_W1 + k].data64, s->param64[k],
                               p->out[MLP_OUT_W1 + k].n * sizeof(double), cudaMemcpyDeviceToHost,
                               st),
               ctx);
    CU_TRY(cudaMemcpyAsync(p->out[MLP_OUT_LOSS].data64, s->loss64, sizeof(double),
                           cudaMemcpyDeviceToHost, st),
           ctx);
    return ST_OK;
}

static enum status mlp_download(struct impl_ctx *ctx) {
    if (ctx->p->dtype == DT_F16)
        return mlp_amp_download(ctx);
    struct mlp_state *s = ctx->state;
    struct problem *p = ctx->p;
    cudaStream_t st = gb_stream();
    if (p->dtype == DT_F64)
        return download64(ctx, s);
    for (int k = 0; k < NPARAMS; k++)
        CU_TRY(cudaMemcpyAsync(p->out[MLP_OUT_W1 + k].data, s->param[k],
                               p->out[MLP_OUT_W1 + k].n * sizeof(float), cudaMemcpyDeviceToHost,
                               st),
               ctx);
    CU_TRY(cudaMemcpyAsync(p->out[MLP_OUT_LOSS].data, s->loss, sizeof(float),
                           cudaMemcpyDeviceToHost, st),
           ctx);
    return ST_OK;
}

static void mlp_release(struct impl_ctx *ctx) {
    if (ctx->p->dtype == DT_F16) {
        mlp_amp_release(ctx);
        return;
    }
    struct mlp_state *s = ctx->state;
    if (!s)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream()));
#ifdef GPUBENCH_HAVE_CUDNN
    if (s->relu)
        CUDNN_WARN(cudnnDestroyActivationDescriptor(s->relu));
    cudnnTensorDescriptor_t descs[] = {s->hd, s->b1d, s->zd, s->b2d};
    for (size_t i = 0; i < sizeof descs / sizeof descs[0]; i++)
        if (descs[i])
            CUDNN_WARN(cudnnDestroyTensorDescriptor(descs[i]));
    if (s->have_dnn)
        CUDNN_WARN(cudnnDestroy(s->dnn));
#endif
    if (s->have_handle)
        CUBLAS_WARN(cublasDestroy(s->h));
    void *bufs[] = {s->x,         s->labels,     s->param[0],   s->param[1],   s->param[2],
                    s->param[3],  s->loss,       s->onehot,     s->ones,       s->lp,
                    s->scratch,   s->x64,        s->param64[0], s->param64[1], s->param64[2],
                    s->param64[3], s->loss64,    s->scratch64};
    gb_free_device(bufs, sizeof bufs / sizeof bufs[0]);
    free(s->host_onehot);
    free(s);
    ctx->state = NULL;
}

const struct impl mlp_train_cublas_impl = {
    .name = "cublas",
    .kind = DEV_CUDA,
    .summary = "cuBLAS GEMMs (pedantic FP32) + cuDNN bias/ReLU/softmax (own kernels without); "
               "f64: cublasDgemm + own kernels; f16: mixed precision (cc 7.0+)",
    .prepare = mlp_prepare,
    .upload = mlp_upload,
    .run = mlp_run,
    .download = mlp_download,
    .release = mlp_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
};
