/* cudnn.c — conv2d/cudnn: forward convolution with cudnnConvolutionForward, in three tiers:
 *   f32   float tensors, NCHW, FP32 math (no tensor cores, no TF32)
 *   f64   double tensors and compute (CUDNN_DATA_DOUBLE), NCHW
 *   f16   half tensors, FP32 compute ("pseudo-half": the f16 tier's FP32 accumulation), tensor-op
 *         math (CUDNN_TENSOR_OP_MATH); NHWC from compute capability 7.0, where cuDNN's tensor-core
 *         kernels want it, NCHW before. The inputs are converted to half (and to NHWC: filters
 *         k×r×s×c) on the host in prepare, never timed; download copies the half output back as
 *         it is (2 bytes an element), and finish, after the verified run only, converts it to
 *         the problem's float NCHW y for the verifier: no timed run pays a conversion. The
 *         buffers, copies and conversions are kernels/common/dev_bufs.h's; to_nhwc places.
 *
 * Problem layout (bench/conv2d.h): in x (n×c×h×w) and the filters (k×c×r×s), out y
 * (n×k×p×q); cross-correlation (CUDNN_CROSS_CORRELATION), as the CPU reference computes it.
 *
 * Once per shape, in prepare (never timed): the card is checked against cuDNN's support matrix
 * (gpu_cudnn_check: Fermi never, Kepler up to 8.5, …); the algorithm is chosen by measuring
 * every algorithm with cudnnFindConvolutionForwardAlgorithmEx on our own buffers and a workspace
 * bounded by free memory (gpu_workspace_limit), falling back to cuDNN's heuristic ranking
 * (cudnnGetConvolutionForwardAlgorithm_v7) when Find fails; gpu_pick_algo decides. Both calls
 * exist in cuDNN 7, 8 and 9. The workspace is then cut to what the chosen algorithm needs.
 *
 * f32 and f64: CUDNN_FMA_MATH from cuDNN 8 (cuDNN's default math allows TF32 on Ampere and
 * newer); in cuDNN 7 the default math is FP32 (tensor cores only with CUDNN_TENSOR_OP_MATH) and
 * FMA_MATH does not exist. Results that report a tensor-op math type are never chosen for them.
 * f16 takes any result (tensor-op or not), runs with the math type it was measured with, and
 * the note says the layout, whether tensor ops were used and the algorithm.
 *
 * Two rows: conv2d/cudnn takes the fastest algorithm cuDNN has, which at the default shape is
 * often an FFT or Winograd one doing fewer operations than the direct convolution both rows are
 * credited with (on an H200: WINOGRAD_NONFUSED, FFT_TILING); conv2d/cudnn_gemm takes the fastest
 * of cuDNN's implicit-GEMM algorithms (IMPLICIT_GEMM, IMPLICIT_PRECOMP_GEMM), the same method as
 * our own kernel (kernels/conv2d/kernels.cuh), so that own ÷ cudnn_gemm compares like with like.
 */
#include <stdlib.h>

#include "bench/conv2d.h"
#include "harness/core/device.h"
#include "harness/gpuinfo/gpu_policy.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"

enum { IN_X = CONV2D_IN_X, IN_W = CONV2D_IN_W, OUT_Y = CONV2D_OUT_Y };

enum { DEV_X, DEV_W, DEV_Y }; /* the device buffers, in gb_dev_prepare's order */

/* An NCHW tensor's NHWC placement: c channels of hw pixels each. */
struct nhwc {
    size_t c, hw;
};

/* gb_dev_place_fn: where element i of an NCHW tensor (arg: struct nhwc) sits in the NHWC one. */
static size_t to_nhwc(size_t i, const void *arg) {
    const struct nhwc *l = arg;
    size_t pix = i % l->hw, ch = i / l->hw % l->c, img = i / l->hw / l->c;
    return (img * l->hw + pix) * l->c + ch;
}

struct conv_state {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    cudnnHandle_t h;
    int have_handle;
    cudnnTensorDescriptor_t xd, yd;
    cudnnFilterDescriptor_t wd;
    cudnnConvolutionDescriptor_t cd;
    struct conv2d_dims d;
    enum dtype t;
    cudnnDataType_t data, compute;   /* the tensors' type and the convolution's compute type */
    cudnnTensorFormat_t fmt;         /* of x, the filters and y */
    struct nhwc lay_x, lay_w, lay_y; /* NHWC: where the f16 host copies place each element */
    void *ws;
    size_t ws_size;
    cudnnConvolutionFwdAlgo_t algo;
    int tensor_ops; /* the chosen result's math is a tensor-op one (f16 only) */
    int gemm_only;  /* conv2d/cudnn_gemm: only the implicit-GEMM algorithms */
};

/* 1 when a Find/Get result ran on tensor cores (TF32 or FP16 conversion), which an FP32
 * comparison must not use. */
static int uses_tensor_ops(const cudnnConvolutionFwdAlgoPerf_t *r) {
#if CUDNN_MAJOR > 7 || (CUDNN_MAJOR == 7 && CUDNN_MINOR >= 2)
    if (r->mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)
        return 1;
#endif
    return r->mathType == CUDNN_TENSOR_OP_MATH;
}

/* 1 for cuDNN's implicit-GEMM algorithms: the method of our own kernel. */
static int implicit_gemm(cudnnConvolutionFwdAlgo_t a) {
    return a == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM ||
           a == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
}

/* cudnn results as plain data for gpu_pick_algo; heuristic ones carry no time. Tensor-op
 * results only where the tier allows them (f16); only implicit-GEMM ones for gemm_only. */
static void to_plain(const cudnnConvolutionFwdAlgoPerf_t *r, int n, int measured, int tensor_ok,
                     int gemm_only, struct gpu_algo_result *out) {
    for (int i = 0; i < n; i++) {
        out[i].algo = (int)r[i].algo;
        out[i].ok = r[i].status == CUDNN_STATUS_SUCCESS && (tensor_ok || !uses_tensor_ops(&r[i])) &&
                    (!gemm_only || implicit_gemm(r[i].algo));
        out[i].ms = measured ? r[i].time : -1.0f;
        out[i].memory = r[i].memory;
    }
}

/* The math type a tier asks for. cudnnSetConvolutionMathType and CUDNN_TENSOR_OP_MATH exist
 * from cuDNN 7 (the oldest this file builds with, CUDA 8 and 10 included); FMA_MATH from 8. */
static cudnnMathType_t conv_math(enum dtype t) {
    if (t == DT_F16)
        return CUDNN_TENSOR_OP_MATH;
#if CUDNN_MAJOR >= 8
    return CUDNN_FMA_MATH;
#else
    return CUDNN_DEFAULT_MATH;
#endif
}

static enum status make_descriptors(struct impl_ctx *ctx, struct conv_state *s) {
    const struct conv2d_dims *d = &s->d;
    CUDNN_TRY(cudnnCreateTensorDescriptor(&s->xd), ctx);
    CUDNN_TRY(cudnnCreateTensorDescriptor(&s->yd), ctx);
    CUDNN_TRY(cudnnCreateFilterDescriptor(&s->wd), ctx);
    CUDNN_TRY(cudnnCreateConvolutionDescriptor(&s->cd), ctx);
    CUDNN_TRY(cudnnSetTensor4dDescriptor(s->xd, s->fmt, s->data, d->n, d->c, d->h, d->w), ctx);
    CUDNN_TRY(cudnnSetFilter4dDescriptor(s->wd, s->data, s->fmt, d->k, d->c, d->r, d->s), ctx);
    CUDNN_TRY(cudnnSetConvolution2dDescriptor(s->cd, d->pad_h, d->pad_w, d->stride_h, d->stride_w,
                                              1, 1, CUDNN_CROSS_CORRELATION, s->compute),
              ctx);
    CUDNN_TRY(cudnnSetConvolutionMathType(s->cd, conv_math(s->t)), ctx);
    int on, oc, op, oq;
    CUDNN_TRY(cudnnGetConvolution2dForwardOutputDim(s->cd, s->xd, s->wd, &on, &oc, &op, &oq), ctx);
    if (on != d->n || oc != d->k || op != d->p || oq != d->q) {
        snprintf(ctx->note, sizeof ctx->note,
                 "cuDNN's output shape %dx%dx%dx%d differs from the workload's %dx%dx%dx%d", on, oc,
                 op, oq, d->n, d->k, d->p, d->q);
        return ST_ERROR;
    }
    CUDNN_TRY(cudnnSetTensor4dDescriptor(s->yd, s->fmt, s->data, d->n, d->k, d->p, d->q), ctx);
    return ST_OK;
}

/* The workspace Find measures in: Find measures only what fits the workspace it is given, so
 * give it the largest any algorithm needs, within the limit free memory sets. *max is the number
 * of algorithms cuDNN has (at least 1). */
static enum status find_workspace(struct impl_ctx *ctx, struct conv_state *s, int *max) {
    size_t free_b = 0, total_b = 0;
    CU_TRY(cudaMemGetInfo(&free_b, &total_b), ctx);
    size_t limit = gpu_workspace_limit(free_b);
    CUDNN_TRY(cudnnGetConvolutionForwardAlgorithmMaxCount(s->h, max), ctx);
    if (*max < 1)
        *max = 1;
    size_t want = 0;
    for (int a = 0; a < *max; a++) {
        size_t sz = 0;
        if (cudnnGetConvolutionForwardWorkspaceSize(s->h, s->xd, s->wd, s->cd, s->yd,
                                                    (cudnnConvolutionFwdAlgo_t)a,
                                                    &sz) == CUDNN_STATUS_SUCCESS &&
            sz <= limit && sz > want)
            want = sz;
    }
    enum status st;
    if (want > 0 && (st = gb_malloc(ctx, &s->ws, want, "cuDNN workspace")) != ST_OK)
        return st;
    s->ws_size = want;
    return ST_OK;
}

/* The algorithms into perf[0, *got): measured by Find on our buffers (*measured = 1), else
 * cuDNN's heuristic ranking, best first (*measured = 0). */
static enum status rank_algos(struct impl_ctx *ctx, struct conv_state *s, int max,
                              cudnnConvolutionFwdAlgoPerf_t *perf, int *got, int *measured) {
    *got = 0;
    *measured = 1;
    void *x = s->dev.ptr[DEV_X], *w = s->dev.ptr[DEV_W], *y = s->dev.ptr[DEV_Y];
    cudnnStatus_t fs = cudnnFindConvolutionForwardAlgorithmEx(
        s->h, s->xd, x, s->wd, w, s->cd, s->yd, y, max, got, perf, s->ws, s->ws_size);
    if (fs == CUDNN_STATUS_SUCCESS)
        return ST_OK;
    /* Find can fail where a plain run would not (its own allocations on a small card): fall
     * back to cuDNN's ranking. */
    *measured = 0;
    *got = 0;
    cudnnStatus_t gs =
        cudnnGetConvolutionForwardAlgorithm_v7(s->h, s->xd, s->wd, s->cd, s->yd, max, got, perf);
    if (gs != CUDNN_STATUS_SUCCESS) {
        snprintf(ctx->note, sizeof ctx->note,
                 "cudnnFindConvolutionForwardAlgorithmEx: %s; "
                 "cudnnGetConvolutionForwardAlgorithm_v7: %s",
                 cudnnGetErrorString(fs), cudnnGetErrorString(gs));
        return gpu_error_status(cudnnGetErrorString(gs));
    }
    return ST_OK;
}

/* s->algo from perf[0, got) (gpu_pick_algo decides; plain has room for got), its workspace size
 * into *need, and the note that names it. */
static enum status pick_algo(struct impl_ctx *ctx, struct conv_state *s,
                             const cudnnConvolutionFwdAlgoPerf_t *perf,
                             struct gpu_algo_result *plain, int got, int measured, size_t *need) {
    to_plain(perf, got, measured, s->t == DT_F16, s->gemm_only, plain);
    int pick = gpu_pick_algo(plain, got, s->ws_size);
    if (pick < 0) {
        snprintf(ctx->note, sizeof ctx->note,
                 "cuDNN offers no %s%s forward algorithm for this shape within %.1f MiB of "
                 "workspace (%d candidates)",
                 s->t == DT_F16 ? "FP16 (FP32 compute)" : dtype_label(s->t),
                 s->gemm_only ? " implicit-GEMM" : "",
                 (double)s->ws_size / (1 << 20), got);
        return ST_UNSUPPORTED;
    }
    s->algo = perf[pick].algo;
    *need = perf[pick].memory;
    const char *how = measured ? "fastest measured by cudnnFind" : "cuDNN heuristic";
    if (s->t == DT_F16) {
        /* run with the math type the result was measured (or ranked) with */
        CUDNN_TRY(cudnnSetConvolutionMathType(s->cd, perf[pick].mathType), ctx);
        s->tensor_ops = uses_tensor_ops(&perf[pick]);
        snprintf(ctx->note, sizeof ctx->note,
                 "%s, %s, algo %s (%s of %d), FP32 compute, ws=%.1fMiB",
                 s->fmt == CUDNN_TENSOR_NHWC ? "NHWC" : "NCHW",
                 s->tensor_ops ? "tensor ops" : "no tensor ops",
                 gpu_cudnn_fwd_algo_name((int)s->algo), how, got, (double)*need / (1 << 20));
        return ST_OK;
    }
    snprintf(ctx->note, sizeof ctx->note, "algo=%s (%s of %d) ws=%.1fMiB math=%s",
             gpu_cudnn_fwd_algo_name((int)s->algo), how, got, (double)*need / (1 << 20),
             CUDNN_MAJOR >= 8 ? "FMA" : "default (FP32)");
    return ST_OK;
}

/* Keep only the `need` bytes of workspace the chosen algorithm uses (less than s->ws_size):
 * memory use is part of the comparison. The note of pick_algo survives. */
static enum status fit_workspace(struct impl_ctx *ctx, struct conv_state *s, size_t need) {
    enum status st;
    cudaError_t freed = cudaFree(s->ws);
    s->ws = NULL; /* never freed twice, whatever cudaFree said */
    s->ws_size = 0;
    CU_TRY(freed, ctx);
    char keep[NOTE_LEN];
    snprintf(keep, sizeof keep, "%s", ctx->note);
    if (need > 0 && (st = gb_malloc(ctx, &s->ws, need, "cuDNN workspace")) != ST_OK)
        return st;
    s->ws_size = need;
    snprintf(ctx->note, sizeof ctx->note, "%s", keep);
    return ST_OK;
}

/* Choose the algorithm (see the file comment) and leave a workspace of exactly its size. */
static enum status choose_algo(struct impl_ctx *ctx, struct conv_state *s) {
    int max = 0, got = 0, measured = 1;
    size_t need = 0;
    enum status st;
    if ((st = find_workspace(ctx, s, &max)) != ST_OK)
        return st;
    cudnnConvolutionFwdAlgoPerf_t *perf = calloc((size_t)max, sizeof *perf);
    struct gpu_algo_result *plain = calloc((size_t)max, sizeof *plain);
    if (!perf || !plain) {
        free(perf);
        free(plain);
        snprintf(ctx->note, sizeof ctx->note, "out of host memory");
        return ST_OOM;
    }
    st = rank_algos(ctx, s, max, perf, &got, &measured);
    if (st == ST_OK)
        st = pick_algo(ctx, s, perf, plain, got, measured, &need);
    free(perf);
    free(plain);
    if (st != ST_OK)
        return st;
    return need < s->ws_size ? fit_workspace(ctx, s, need) : ST_OK;
}

/* The tier's types and layout: f16 is half tensors, FP32 compute (PSEUDO_HALF_CONFIG), NHWC
 * where the tensor cores are (compute capability 7.0+: x n×h×w×c, filters k×r×s×c, y n×p×q×k).
 * The problem's values are already of the tier (fill_uniform_dt), so the f16 copies are exact. */
static void choose_types(struct conv_state *s, enum dtype t, int cc_major) {
    const struct conv2d_dims *d = &s->d;
    s->t = t;
    s->fmt = CUDNN_TENSOR_NCHW;
    s->data = s->compute = t == DT_F64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    if (t != DT_F16)
        return;
    s->data = CUDNN_DATA_HALF;
    if (cc_major >= 7)
        s->fmt = CUDNN_TENSOR_NHWC;
    s->lay_x = (struct nhwc){(size_t)d->c, (size_t)d->h * d->w};
    s->lay_w = (struct nhwc){(size_t)d->c, (size_t)d->r * d->s};
    s->lay_y = (struct nhwc){(size_t)d->k, (size_t)d->p * d->q};
}

/* gb_dev_release's teardown, once the stream is idle: the descriptors, the handle and the
 * workspace, whichever prepare made. */
static void conv_teardown(struct impl_ctx *ctx) {
    struct conv_state *s = ctx->state;
    if (s->cd)
        CUDNN_WARN(cudnnDestroyConvolutionDescriptor(s->cd));
    if (s->wd)
        CUDNN_WARN(cudnnDestroyFilterDescriptor(s->wd));
    if (s->yd)
        CUDNN_WARN(cudnnDestroyTensorDescriptor(s->yd));
    if (s->xd)
        CUDNN_WARN(cudnnDestroyTensorDescriptor(s->xd));
    if (s->have_handle)
        CUDNN_WARN(cudnnDestroy(s->h));
    gb_free_device(&s->ws, 1);
    s->ws = NULL;
}

static enum status conv_prepare_algos(struct impl_ctx *ctx, int gemm_only) {
    struct problem *p = ctx->p;
    int cc_major = 0, cc_minor = 0;
    if (sscanf(ctx->dev->cc, "%d.%d", &cc_major, &cc_minor) == 2) {
        enum status sup =
            gpu_cudnn_check(cc_major, cc_minor, ctx->dev->name, (long)cudnnGetVersion(),
                            (int)cudnnGetCudartVersion(), ctx->note, sizeof ctx->note);
        if (sup != ST_OK)
            return sup;
    }
    enum status st;
    if ((st = gb_impl_state(ctx, sizeof(struct conv_state))) != ST_OK)
        return st;
    struct conv_state *s = ctx->state;
    s->dev.teardown = conv_teardown;
    s->gemm_only = gemm_only;
    conv2d_dims_of(&p->shape, &s->d);
    if (!conv2d_dims_int_indexed(&s->d)) {
        snprintf(ctx->note, sizeof ctx->note,
                 "shape outside cuDNN's int sizes (a tensor of 2^31 elements or more)");
        return ST_UNSUPPORTED;
    }
    choose_types(s, p->dtype, cc_major);
    gb_dev_place_fn place = s->fmt == CUDNN_TENSOR_NHWC ? to_nhwc : NULL;
    const struct gb_dev_spec spec[] = {
        [DEV_X] = {.name = "x", .in = &p->in[IN_X], .place = place, .place_arg = &s->lay_x},
        [DEV_W] = {.name = "filters", .in = &p->in[IN_W], .place = place, .place_arg = &s->lay_w},
        [DEV_Y] = {.name = "y", .out = &p->out[OUT_Y], .place = place, .place_arg = &s->lay_y},
    };
    if ((st = gb_dev_prepare(ctx, spec, (int)(sizeof spec / sizeof *spec), 0,
                             "x, filters, y; the cuDNN workspace comes on top")) != ST_OK)
        return st;
    CUDNN_TRY(cudnnCreate(&s->h), ctx);
    s->have_handle = 1;
    CUDNN_TRY(cudnnSetStream(s->h, gb_stream()), ctx);
    if ((st = make_descriptors(ctx, s)) != ST_OK)
        return st;
    /* cudnnFind runs every algorithm on these buffers: give it the real inputs, not whatever
     * the allocation held (NaNs or denormals there could skew its timings). On the run's stream
     * (non-blocking: the legacy stream would not order them), then wait. */
    if ((st = gb_dev_upload(ctx)) != ST_OK)
        return st;
    CU_TRY(cudaStreamSynchronize(gb_stream()), ctx);
    return choose_algo(ctx, s);
}

static enum status conv_prepare(struct impl_ctx *ctx) {
    return conv_prepare_algos(ctx, 0);
}

static enum status conv_prepare_gemm(struct impl_ctx *ctx) {
    return conv_prepare_algos(ctx, 1);
}

static enum status conv_run(struct impl_ctx *ctx) {
    struct conv_state *s = ctx->state;
    /* the scaling factors are doubles for double data, floats otherwise (half included) */
    const float one = 1.0f, zero = 0.0f;
    const double one64 = 1.0, zero64 = 0.0;
    const int f64 = s->data == CUDNN_DATA_DOUBLE;
    void *x = s->dev.ptr[DEV_X], *w = s->dev.ptr[DEV_W], *y = s->dev.ptr[DEV_Y];
    CUDNN_TRY(cudnnConvolutionForward(s->h, f64 ? (const void *)&one64 : (const void *)&one, s->xd,
                                      x, s->wd, w, s->cd, s->algo, s->ws, s->ws_size,
                                      f64 ? (const void *)&zero64 : (const void *)&zero, s->yd, y),
              ctx);
    return ST_OK;
}

const struct impl conv2d_cudnn_impl = {
    .name = "cudnn",
    .kind = DEV_CUDA,
    .summary = "cudnnConvolutionForward, fastest algorithm found once per shape (FP16: tensor ops)",
    .prepare = conv_prepare,
    .upload = gb_dev_upload,
    .run = conv_run,
    .download = gb_dev_download,
    .release = gb_dev_release,
    .finish = gb_dev_finish,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
};

const struct impl conv2d_cudnn_gemm_impl = {
    .name = "cudnn_gemm",
    .kind = DEV_CUDA,
    .summary = "cudnnConvolutionForward, fastest of cuDNN's implicit-GEMM algorithms (our own "
               "kernel's method)",
    .prepare = conv_prepare_gemm,
    .upload = gb_dev_upload,
    .run = conv_run,
    .download = gb_dev_download,
    .release = gb_dev_release,
    .finish = gb_dev_finish,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
};
