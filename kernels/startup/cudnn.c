/* cudnn.c — in a fresh process per repetition, after the context:
 *   cudnn_create  cudnnCreate (cuDNN loads its sub-libraries then)
 *   cudnn_find    cudnnFindConvolutionForwardAlgorithmEx for the default conv2d shape, with the
 *                 handle and the buffers made and untimed: the search an application pays on
 *                 its first convolution (cuDNN runs every algorithm)
 * Our kernel then shows the device works. */
#include <stdio.h>

#include "harness/core/shape.h"
#include "kernels/common/child.h"
#include "bench/conv2d.h"
#include "kernels/common/cuda_check.h"
#include "kernels/startup/gpu_steps.h"
#include "bench/startup.h"

static enum status create_child(struct impl_ctx *ctx, double *ms) {
    enum status st = startup_context(ctx);
    if (st != ST_OK)
        return st;
    cudnnHandle_t h = NULL;
    double t0 = startup_now_ms();
    CUDNN_TRY(cudnnCreate(&h), ctx);
    *ms = startup_now_ms() - t0;
    st = startup_device_dot(ctx, NULL);
    CUDNN_WARN(cudnnDestroy(h));
    return st;
}

static enum status create_run(struct impl_ctx *ctx) {
    return gb_child_run(ctx, "startup", "cudnn_create", NULL);
}

const struct impl startup_cudnn_create_impl = {
    .name = "cudnn_create", .kind = DEV_CUDA,
    .summary = "cudnnCreate after the context, in a fresh process",
    .prepare = startup_check, .run = create_run, .child = create_child};

/* --- the algorithm search for the default conv2d shape */

struct conv_desc {
    cudnnTensorDescriptor_t x, y;
    cudnnFilterDescriptor_t w;
    cudnnConvolutionDescriptor_t c;
    size_t nx, nw, ny; /* elements of x, w and y */
};

/* The descriptors of conv2d's first default shape (bench/conv2d.c). */
static enum status conv_descriptors(struct impl_ctx *ctx, struct conv_desc *d) {
    struct shape sh;
    char err[160];
    if (shape_parse(&conv2d_workload, conv2d_workload.default_shapes[0], &sh, err,
                    sizeof err) != 0) {
        snprintf(ctx->note, sizeof ctx->note, "conv2d's default shape: %s", err);
        return ST_ERROR;
    }
    const long *v = sh.v;
    CUDNN_TRY(cudnnCreateTensorDescriptor(&d->x), ctx);
    CUDNN_TRY(cudnnCreateTensorDescriptor(&d->y), ctx);
    CUDNN_TRY(cudnnCreateFilterDescriptor(&d->w), ctx);
    CUDNN_TRY(cudnnCreateConvolutionDescriptor(&d->c), ctx);
    CUDNN_TRY(cudnnSetTensor4dDescriptor(d->x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
                                         (int)v[CONV2D_KEY_N], (int)v[CONV2D_KEY_C],
                                         (int)v[CONV2D_KEY_H], (int)v[CONV2D_KEY_W]),
              ctx);
    CUDNN_TRY(cudnnSetFilter4dDescriptor(d->w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW,
                                         (int)v[CONV2D_KEY_K], (int)v[CONV2D_KEY_C],
                                         (int)v[CONV2D_KEY_R], (int)v[CONV2D_KEY_S]),
              ctx);
    CUDNN_TRY(cudnnSetConvolution2dDescriptor(d->c, (int)v[CONV2D_KEY_PAD_H],
                                              (int)v[CONV2D_KEY_PAD_W],
                                              (int)v[CONV2D_KEY_STRIDE_H],
                                              (int)v[CONV2D_KEY_STRIDE_W], 1, 1,
                                              CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              ctx);
    int on, oc, op, oq;
    CUDNN_TRY(cudnnGetConvolution2dForwardOutputDim(d->c, d->x, d->w, &on, &oc, &op, &oq), ctx);
    CUDNN_TRY(cudnnSetTensor4dDescriptor(d->y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, on, oc, op, oq),
              ctx);
    d->nx = (size_t)(v[CONV2D_KEY_N] * v[CONV2D_KEY_C] * v[CONV2D_KEY_H] * v[CONV2D_KEY_W]);
    d->nw = (size_t)(v[CONV2D_KEY_K] * v[CONV2D_KEY_C] * v[CONV2D_KEY_R] * v[CONV2D_KEY_S]);
    d->ny = (size_t)on * (size_t)oc * (size_t)op * (size_t)oq;
    return ST_OK;
}

static void conv_destroy(struct conv_desc *d) {
    if (d->x)
        CUDNN_WARN(cudnnDestroyTensorDescriptor(d->x));
    if (d->y)
        CUDNN_WARN(cudnnDestroyTensorDescriptor(d->y));
    if (d->w)
        CUDNN_WARN(cudnnDestroyFilterDescriptor(d->w));
    if (d->c)
        CUDNN_WARN(cudnnDestroyConvolutionDescriptor(d->c));
}

/* Device buffers for x, w and y of the descriptors, filled with one ordinary float (every byte
 * 0x3c: about 0.0115) before the search: its algorithms run on these values, and memory nothing
 * wrote could hold NaNs or denormals that run slower than real data. */
static enum status conv_buffers(struct impl_ctx *ctx, const struct conv_desc *d, float **buf,
                                size_t off[3]) {
    size_t bytes = (d->nx + d->nw + d->ny) * sizeof(float);
    off[0] = 0;
    off[1] = d->nx;
    off[2] = d->nx + d->nw;
    CU_TRY(cudaMalloc((void **)buf, bytes), ctx);
    CU_TRY(cudaMemset(*buf, 0x3c, bytes), ctx);
    return ST_OK;
}

/* The timed search: every forward algorithm cuDNN has, run by cudnnFind…Ex on our buffers
 * (no workspace: what fits without one). */
static enum status timed_find(struct impl_ctx *ctx, cudnnHandle_t h, double *ms) {
    struct conv_desc d = {0};
    float *buf = NULL;
    size_t off[3];
    enum status st = conv_descriptors(ctx, &d);
    if (st == ST_OK)
        st = conv_buffers(ctx, &d, &buf, off);
    if (st == ST_OK) {
        enum { MAX_ALGOS = 16 };
        cudnnConvolutionFwdAlgoPerf_t perf[MAX_ALGOS];
        int got = 0;
        double t0 = startup_now_ms();
        cudnnStatus_t fs = cudnnFindConvolutionForwardAlgorithmEx(
            h, d.x, buf + off[0], d.w, buf + off[1], d.c, d.y, buf + off[2], MAX_ALGOS, &got, perf,
            NULL, 0);
        *ms = startup_now_ms() - t0;
        if (fs != CUDNN_STATUS_SUCCESS || got < 1) {
            snprintf(ctx->note, sizeof ctx->note,
                     "cudnnFindConvolutionForwardAlgorithm: %s (%d algorithms)",
                     cudnnGetErrorString(fs), got);
            st = fs != CUDNN_STATUS_SUCCESS ? gpu_error_status(cudnnGetErrorString(fs))
                                            : ST_ERROR;
        }
    }
    if (buf)
        CU_WARN(cudaFree(buf));
    conv_destroy(&d);
    return st;
}

static enum status find_child(struct impl_ctx *ctx, double *ms) {
    enum status st = startup_context(ctx);
    if (st != ST_OK)
        return st;
    cudnnHandle_t h = NULL;
    CUDNN_TRY(cudnnCreate(&h), ctx);
    st = timed_find(ctx, h, ms);
    if (st == ST_OK)
        st = startup_device_dot(ctx, NULL);
    CUDNN_WARN(cudnnDestroy(h));
    return st;
}

static enum status find_run(struct impl_ctx *ctx) {
    return gb_child_run(ctx, "startup", "cudnn_find", NULL);
}

const struct impl startup_cudnn_find_impl = {
    .name = "cudnn_find", .kind = DEV_CUDA,
    .summary = "cuDNN's algorithm search for conv2d's default shape, in a fresh process",
    .prepare = startup_check, .run = find_run, .child = find_child};
