/* cudnn.c — mlp_train/cudnn: one SGD step with cuBLAS GEMMs (pedantic FP32 where cuBLAS has it)
 * and cuDNN for the bias, ReLU and softmax; float32. Row-major (B batch, I in, H hidden, O out):
 *   h = x·w1ᵀ (GEMM), h += b1 (cudnnAddTensor), h = ReLU(h) (cudnnActivationForward),
 *   z = h·w2ᵀ, z += b2, lp = log softmax(z) (cudnnSoftmaxForward LOG),
 *   loss = −(1/B)·⟨lp, onehot⟩ (a 1×(B·O) GEMV), dz = softmax(z)/B − onehot/B (softmax
 *   ACCURATE, then cudnnAddTensor), b2 −= lr·Σ_rows dz (GEMV with a ones vector),
 *   dh = dz·w2 (old w2), w2 −= lr·dzᵀ·h (GEMM with beta = 1), dh ⊙= [h > 0]
 *   (cudnnActivationBackward), b1 −= lr·Σ_rows dh, w1 −= lr·dhᵀ·x (GEMM with beta = 1).
 * The labels are uploaded as their one-hot matrix, made on the host in prepare, with the ones.
 * The card is first checked against cuDNN's support matrix (gpu_cudnn_check), as conv2d/cudnn's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness/core/device.h"
#include "harness/gpuinfo/gpu_policy.h"
#include "bench/mlp_train.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/mlp_train/gpu.h"

#ifdef GPUBENCH_HAVE_CUBLAS
enum { DNN_ONES = MLP_DEV_N, DNN_SCRATCH }; /* after gpu.h's buffers; labels: the one-hot */

struct mlp_dnn {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    cublasHandle_t blas;
    cudnnHandle_t dnn;
    int have_blas, have_dnn, B, I, H, O;
    cudnnTensorDescriptor_t desc[4]; /* h, b1, z, b2 */
    cudnnActivationDescriptor_t relu;
    struct buf onehot, ones; /* host: B × O and B floats */
};

/* gb_dev_release's teardown: descriptors and handles once the stream is idle, host arrays. */
static void dnn_teardown(struct impl_ctx *ctx) {
    struct mlp_dnn *s = ctx->state;
    if (s->relu)
        CUDNN_WARN(cudnnDestroyActivationDescriptor(s->relu));
    for (int i = 0; i < 4; i++)
        if (s->desc[i])
            CUDNN_WARN(cudnnDestroyTensorDescriptor(s->desc[i]));
    if (s->have_dnn)
        CUDNN_WARN(cudnnDestroy(s->dnn));
    if (s->have_blas)
        CUBLAS_WARN(cublasDestroy(s->blas));
    free(s->onehot.data);
    free(s->ones.data);
}

/* The handle on the row's stream and the descriptors: rows as N, features as C, H = W = 1, so
 * that a bias (1×C×1×1) broadcasts over rows and softmax's INSTANCE mode normalizes each row. */
static enum status dnn_descriptors(struct impl_ctx *ctx, struct mlp_dnn *s) {
    const int rows[4] = {s->B, 1, s->B, 1}, cols[4] = {s->H, s->H, s->O, s->O};
    CUDNN_TRY(cudnnCreate(&s->dnn), ctx);
    s->have_dnn = 1;
    CUDNN_TRY(cudnnSetStream(s->dnn, gb_stream()), ctx);
    for (int i = 0; i < 4; i++) {
        CUDNN_TRY(cudnnCreateTensorDescriptor(&s->desc[i]), ctx);
        CUDNN_TRY(cudnnSetTensor4dDescriptor(s->desc[i], CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
                                             rows[i], cols[i], 1, 1),
                  ctx);
    }
    CUDNN_TRY(cudnnCreateActivationDescriptor(&s->relu), ctx);
    /* NaNs propagate: a NaN bug must reach the verification, not be clamped away. */
    CUDNN_TRY(
        cudnnSetActivationDescriptor(s->relu, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0),
        ctx);
    return ST_OK;
}

static enum status mlp_dnn_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const long *v = p->shape.v;
    struct gb_dev_spec spec[DNN_SCRATCH + 1];
    int maj = 0, min = 0;
    struct mlp_dnn *s;
    const char *math;
    enum status st;
    if (sscanf(ctx->dev->cc, "%d.%d", &maj, &min) == 2 &&
        (st = gpu_cudnn_check(maj, min, ctx->dev->name, (long)cudnnGetVersion(),
                              (int)cudnnGetCudartVersion(), ctx->note, sizeof ctx->note)) != ST_OK)
        return st;
    if ((st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    s->dev.teardown = dnn_teardown;
    s->B = (int)v[MLP_KEY_BATCH], s->I = (int)v[MLP_KEY_IN];
    s->H = (int)v[MLP_KEY_HIDDEN], s->O = (int)v[MLP_KEY_OUT];
    const size_t B = (size_t)s->B, H = (size_t)s->H, O = (size_t)s->O;
    const struct mlp_dims md = mlp_dims_of(&p->shape);
    s->onehot = (struct buf){"one-hot labels", calloc(B * O, sizeof(float)), B * O, NULL};
    s->ones = (struct buf){"ones", malloc(B * sizeof(float)), B, NULL};
    if (!s->onehot.data || !s->ones.data) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory");
        return ST_OOM;
    }
    for (size_t b = 0; b < B; b++) {
        s->onehot.data[b * O + (size_t)mlp_label(&md, p->in[MLP_IN_LABELS].data, (long)b)] = 1;
        s->ones.data[b] = 1;
    }
    mlp_dev_specs(p, spec);
    spec[MLP_DEV_LABELS].in = &s->onehot, spec[MLP_DEV_LABELS].name = s->onehot.name;
    spec[DNN_ONES] = (struct gb_dev_spec){.name = "ones", .in = &s->ones};
    spec[DNN_SCRATCH] = (struct gb_dev_spec){.name = "h, z, dh, log-probabilities",
                                             .n = 2 * B * H + 2 * B * O};
    if ((st = gb_dev_prepare(ctx, spec, DNN_SCRATCH + 1, 0,
                             "X, one-hot labels, parameters, loss, ones, h, z, dh, "
                             "log-probabilities; cuBLAS's and cuDNN's workspaces come on top")) !=
            ST_OK ||
        (st = mlp_blas_handle(ctx, &s->blas, &s->have_blas, 0, &math)) != ST_OK ||
        (st = dnn_descriptors(ctx, s)) != ST_OK)
        return st;
    snprintf(ctx->note, sizeof ctx->note, "cuBLAS GEMMs (%s) + cuDNN bias/ReLU/softmax", math);
    return ST_OK;
}

static enum status mlp_dnn_run(struct impl_ctx *ctx) {
    struct mlp_dnn *s = ctx->state;
    void *const *d = s->dev.ptr;
    const int B = s->B, I = s->I, H = s->H, O = s->O;
    const float inv_b = 1.0f / (float)B, neg_inv_b = -inv_b, neg_lr = -MLP_LR, one = 1, zero = 0;
    float *w1 = d[MLP_DEV_W1], *b1 = d[MLP_DEV_B1], *w2 = d[MLP_DEV_W2], *b2 = d[MLP_DEV_B2];
    float *x = d[MLP_DEV_X], *onehot = d[MLP_DEV_LABELS], *ones = d[DNN_ONES];
    float *h = d[DNN_SCRATCH], *z = h + (size_t)B * H, *dh = z + (size_t)B * O;
    float *lp = dh + (size_t)B * H, *dz = lp; /* log-probabilities, then dz */
    cublasHandle_t hb = s->blas;
    cudnnHandle_t hd = s->dnn;
    cudnnTensorDescriptor_t hdesc = s->desc[0], b1d = s->desc[1], zd = s->desc[2], b2d = s->desc[3];
    /* forward */
    CUBLAS_TRY(mlp_rm_sgemm(hb, 0, 1, B, H, I, 1.0f, x, I, w1, I, 0.0f, h, H), ctx);
    CUDNN_TRY(cudnnAddTensor(hd, &one, b1d, b1, &one, hdesc, h), ctx);
    CUDNN_TRY(cudnnActivationForward(hd, s->relu, &one, hdesc, h, &zero, hdesc, h), ctx);
    CUBLAS_TRY(mlp_rm_sgemm(hb, 0, 1, B, O, H, 1.0f, h, H, w2, H, 0.0f, z, O), ctx);
    CUDNN_TRY(cudnnAddTensor(hd, &one, b2d, b2, &one, zd, z), ctx);
    /* loss = −(1/B)·Σ onehot ⊙ log softmax(z): a 1×(B·O) matrix times a vector */
    CUDNN_TRY(cudnnSoftmaxForward(hd, CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_INSTANCE, &one, zd, z,
                                  &zero, zd, lp),
              ctx);
    CUBLAS_TRY(cublasSgemv(hb, CUBLAS_OP_N, 1, B * O, &neg_inv_b, lp, 1, onehot, 1, &zero,
                           (float *)d[MLP_DEV_LOSS], 1),
               ctx);
    /* dz = softmax(z)/B − onehot/B, into lp (the stream has consumed it for the loss) */
    CUDNN_TRY(cudnnSoftmaxForward(hd, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one, zd,
                                  z, &zero, zd, dz),
              ctx);
    CUDNN_TRY(cudnnAddTensor(hd, &neg_inv_b, zd, onehot, &inv_b, zd, dz), ctx);
    /* backward and update; dh uses the old w2, so it comes before w2's update */
    CUBLAS_TRY(cublasSgemv(hb, CUBLAS_OP_N, O, B, &neg_lr, dz, O, ones, 1, &one, b2, 1), ctx);
    CUBLAS_TRY(mlp_rm_sgemm(hb, 0, 0, B, H, O, 1.0f, dz, O, w2, H, 0.0f, dh, H), ctx);
    CUBLAS_TRY(mlp_rm_sgemm(hb, 1, 0, O, H, B, neg_lr, dz, O, h, H, 1.0f, w2, H), ctx);
    CUDNN_TRY(cudnnActivationBackward(hd, s->relu, &one, hdesc, h, hdesc, dh, hdesc, h, &zero,
                                      hdesc, dh),
              ctx);
    CUBLAS_TRY(cublasSgemv(hb, CUBLAS_OP_N, H, B, &neg_lr, dh, H, ones, 1, &one, b1, 1), ctx);
    CUBLAS_TRY(mlp_rm_sgemm(hb, 1, 0, H, I, B, neg_lr, dh, H, x, I, 1.0f, w1, I), ctx);
    return ST_OK;
}

/* The one-hot labels and the ones, on the host. */
static double mlp_dnn_host_bytes(const struct shape *sh) {
    return 4.0 * (double)sh->v[MLP_KEY_BATCH] * ((double)sh->v[MLP_KEY_OUT] + 1.0);
}
#else
/* A build with cuDNN but without cuBLAS: the row stays, and says why it cannot run. */
static enum status mlp_dnn_prepare(struct impl_ctx *ctx) {
    snprintf(ctx->note, sizeof ctx->note,
             "mlp_train/cudnn needs cuBLAS for its GEMMs; this gpubench was built without it");
    return ST_UNSUPPORTED;
}
#define mlp_dnn_run mlp_dnn_prepare
#define mlp_dnn_host_bytes NULL
#endif

const struct impl mlp_train_cudnn_impl = {
    .name = "cudnn",
    .kind = DEV_CUDA,
    .summary = "cuBLAS GEMMs (pedantic FP32) + cuDNN bias/ReLU/softmax (cudnnAddTensor, "
               "cudnnActivationForward/Backward, cudnnSoftmaxForward)",
    .prepare = mlp_dnn_prepare,
    .upload = gb_dev_upload,
    .run = mlp_dnn_run,
    .download = gb_dev_download,
    .release = gb_dev_release,
    .host_bytes = mlp_dnn_host_bytes,
};
