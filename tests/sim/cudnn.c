/* cudnn.c — the cuDNN functions gpubench calls, for the simulated devices, built into the library
 * that stands in for the toolkit's libcudnn (same SONAME and symbol version). Test-only code.
 *
 * Semantics follow the cuDNN API reference (cudnn_ops / cudnn_cnn, legacy API): descriptors are
 * checked when set (CUDNN_STATUS_BAD_PARAM for negative or zero sizes, bad enumerants, strides or
 * dilations below 1), shapes when used (mismatched channels, an output descriptor that is not
 * what cudnnGetConvolution2dForwardOutputDim says), and what this stand-in does not compute is
 * CUDNN_STATUS_NOT_SUPPORTED (algorithms that do not apply to a shape: DIRECT never; FFT,
 * FFT_TILING and the Winograd algorithms only for unit strides and dilations and, for Winograd,
 * 3×3 (and 5×5 non-fused) filters). Convolutions come in cuDNN's data-type configurations:
 * FLOAT (float tensors, float compute), DOUBLE (double tensors and compute: the GEMM algorithms
 * only), PSEUDO_HALF and TRUE_HALF (half tensors, float or half compute; the FFT and Winograd ones
 * need NCHW), each tensor NCHW or NHWC (the filter's NHWC is k×r×s×c); other configurations are
 * NOT_SUPPORTED, and so are the other operations on anything but float NCHW. Float convolutions
 * run on OpenBLAS's SGEMM as before; double and half ones are computed in double (the half
 * operands' values), the result rounded to the output's type as the hardware does (a half output
 * through FP32, the accumulator's precision). Half with CUDNN_TENSOR_OP_MATH (or
 * ALLOW_CONVERSION) on compute capability 7.0 and later: IMPLICIT_PRECOMP_GEMM and
 * WINOGRAD_NONFUSED report CUDNN_TENSOR_OP_MATH in their results, as tensor-core kernels. Each
 * forward algorithm needs a workspace of a plausible size (below); cudnnConvolutionForward with a
 * smaller one fails with CUDNN_STATUS_BAD_PARAM. Find really runs every algorithm that fits and
 * reports measured times (scaled per algorithm for a stable ranking, see find_factor); Get_v7 is
 * a fixed ranking. Work runs on the handle's stream.
 *
 * Architectures: cuDNN refuses a device below its minimum in cudnnCreate with its architecture
 * status (CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH in cuDNN 9, CUDNN_STATUS_ARCH_MISMATCH before).
 * The minimum follows the cuDNN support matrices as harness/gpuinfo/cuda_facts.c cites them:
 * 7.5 for cuDNN 9 built for CUDA 13, 5.0 for cuDNN 9 built for CUDA 12 and for 8.8–8.9, 3.5 for
 * 8.0–8.7 built for CUDA 11 (3.0 for 8.0–8.5 with CUDA 10.2), 3.0 for cuDNN 7. Built-for-card
 * does not change it: the cuDNN of the binary is this one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudnn.h>

#include "harness/core/blas.h"
#include "tests/sim/sim.h"

/* The oldest architecture each cuDNN has code for (harness/gpuinfo/cuda_facts.c: 8.0-8.7 for
 * CUDA 11 carry sm_35 code, 8.8 and 8.9 start at sm_50; the CUDA 10.2 builds of 8.6-8.7 are not
 * verified below sm_50). */
#if CUDNN_MAJOR >= 9 && CUDART_VERSION >= 13000
#define CUDNN_MIN_SM 75
#elif CUDNN_MAJOR >= 9 || (CUDNN_MAJOR == 8 && CUDNN_MINOR >= 8)
#define CUDNN_MIN_SM 50
#elif CUDNN_MAJOR == 8 && CUDART_VERSION >= 11000
#define CUDNN_MIN_SM 35
#elif CUDNN_MAJOR == 8 && CUDNN_MINOR >= 6
#define CUDNN_MIN_SM 50
#else
#define CUDNN_MIN_SM 30
#endif

#if CUDNN_MAJOR >= 9
#define ST_ARCH CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH
#define ST_EXEC CUDNN_STATUS_EXECUTION_FAILED_CUDART
#define ST_DEV_ALLOC CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED
#define ST_HOST_ALLOC CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED
#else
#define ST_ARCH CUDNN_STATUS_ARCH_MISMATCH
#define ST_EXEC CUDNN_STATUS_EXECUTION_FAILED
#define ST_DEV_ALLOC CUDNN_STATUS_ALLOC_FAILED
#define ST_HOST_ALLOC CUDNN_STATUS_ALLOC_FAILED
#endif

enum { M_HANDLE = 0xd11, M_TENSOR, M_FILTER, M_CONV, M_ACT };

struct cudnnContext {
    int magic;
    struct gbsim_device *dev;
    cudaStream_t stream;
};

struct cudnnTensorStruct {
    int magic, set;
    cudnnTensorFormat_t format;
    cudnnDataType_t type;
    int n, c, h, w;
};

struct cudnnFilterStruct {
    int magic, set;
    cudnnTensorFormat_t format;
    cudnnDataType_t type;
    int k, c, h, w;
};

struct cudnnConvolutionStruct {
    int magic, set;
    int pad_h, pad_w, u, v, dil_h, dil_w;
    cudnnConvolutionMode_t mode;
    cudnnDataType_t compute;
    cudnnMathType_t math;
};

struct cudnnActivationStruct {
    int magic, set;
    cudnnActivationMode_t mode;
    cudnnNanPropagation_t nan;
    double coef;
};

/* A fault: a cuDNN status as it is; a cudaError as the failure of the CUDA work cuDNN did. */
static cudnnStatus_t injected(int code, enum gbsim_lib lib, struct gbsim_device *d) {
    if (lib == GBSIM_CUDNN)
        return (cudnnStatus_t)code;
    if (gbsim_is_sticky((cudaError_t)code)) {
        if (d)
            gbsim_break(d, (cudaError_t)code);
        return ST_EXEC;
    }
    return code == cudaErrorMemoryAllocation ? ST_DEV_ALLOC : ST_EXEC;
}

#define COUNT(d)                                                                                   \
    do {                                                                                           \
        int code_;                                                                                 \
        enum gbsim_lib lib_;                                                                       \
        struct gbsim_device *d_ = (d);                                                             \
        if (gbsim_enter(__func__, GBSIM_CUDNN, d_ ? d_->ordinal : -1, &code_, &lib_))              \
            return injected(code_, lib_, d_);                                                      \
    } while (0)

static int hvalid(cudnnHandle_t h) {
    return h && h->magic == M_HANDLE;
}

static struct gbsim_device *dev_of(cudnnHandle_t h) {
    return hvalid(h) ? h->dev : gbsim_current();
}

#define TVALID(t) ((t) && (t)->magic == M_TENSOR && (t)->set)

/* --- versions, handles ------------------------------------------------------------------------ */
size_t cudnnGetVersion(void) {
    return CUDNN_VERSION;
}

size_t cudnnGetCudartVersion(void) {
    return CUDART_VERSION;
}

const char *cudnnGetErrorString(cudnnStatus_t status) {
    const char *n = gbsim_cudnn_status_name((int)status);
    return n[0] ? n : "CUDNN_STATUS_UNKNOWN";
}

cudnnStatus_t cudnnCreate(cudnnHandle_t *handle) {
    struct gbsim_device *d = gbsim_current();
    cudnnHandle_t h;
    cudaError_t sticky;
    COUNT(d);
    if (!handle)
        return CUDNN_STATUS_BAD_PARAM;
    *handle = NULL;
    if (gbsim_init_error() != cudaSuccess || !d)
        return CUDNN_STATUS_NOT_INITIALIZED;
    if (d->sm < CUDNN_MIN_SM)
        return ST_ARCH;
    gbsim_lock();
    sticky = d->sticky;
    gbsim_unlock();
    if (sticky != cudaSuccess)
        return CUDNN_STATUS_NOT_INITIALIZED;
    if (!(h = calloc(1, sizeof *h)))
        return ST_HOST_ALLOC;
    if (!gbsim_keep(h)) {
        free(h);
        return ST_HOST_ALLOC;
    }
    h->magic = M_HANDLE;
    h->dev = d;
    *handle = h;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroy(cudnnHandle_t handle) {
    COUNT(dev_of(handle));
    if (!hvalid(handle))
        return CUDNN_STATUS_BAD_PARAM;
    gbsim_device_drain(handle->dev);
    handle->magic = 0;
    gbsim_drop(handle);
    free(handle);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetStream(cudnnHandle_t handle, cudaStream_t streamId) {
    cudaError_t err;
    COUNT(dev_of(handle));
    if (!hvalid(handle))
        return CUDNN_STATUS_BAD_PARAM;
    if (!gbsim_stream_of(streamId, handle->dev, &err))
        return CUDNN_STATUS_BAD_PARAM;
    handle->stream = streamId;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetStream(cudnnHandle_t handle, cudaStream_t *streamId) {
    COUNT(dev_of(handle));
    if (!hvalid(handle) || !streamId)
        return CUDNN_STATUS_BAD_PARAM;
    *streamId = handle->stream;
    return CUDNN_STATUS_SUCCESS;
}

/* --- descriptors ------------------------------------------------------------------------------ */
#define CREATE_DESTROY(Name, type, M)                                                              \
    cudnnStatus_t cudnnCreate##Name##Descriptor(type *desc) {                                      \
        COUNT(gbsim_current());                                                                    \
        if (!desc)                                                                                 \
            return CUDNN_STATUS_BAD_PARAM;                                                         \
        if (!(*desc = calloc(1, sizeof **desc)))                                                   \
            return ST_HOST_ALLOC;                                                                  \
        if (!gbsim_keep(*desc)) {                                                                  \
            free(*desc);                                                                           \
            *desc = NULL;                                                                          \
            return ST_HOST_ALLOC;                                                                  \
        }                                                                                          \
        (*desc)->magic = M;                                                                        \
        return CUDNN_STATUS_SUCCESS;                                                               \
    }                                                                                              \
    cudnnStatus_t cudnnDestroy##Name##Descriptor(type desc) {                                      \
        COUNT(gbsim_current());                                                                    \
        if (desc && desc->magic != M)                                                              \
            return CUDNN_STATUS_BAD_PARAM;                                                         \
        if (desc) {                                                                                \
            desc->magic = 0;                                                                       \
            gbsim_drop(desc);                                                                      \
        }                                                                                          \
        free(desc);                                                                                \
        return CUDNN_STATUS_SUCCESS;                                                               \
    }
CREATE_DESTROY(Tensor, cudnnTensorDescriptor_t, M_TENSOR)
CREATE_DESTROY(Filter, cudnnFilterDescriptor_t, M_FILTER)
CREATE_DESTROY(Convolution, cudnnConvolutionDescriptor_t, M_CONV)
CREATE_DESTROY(Activation, cudnnActivationDescriptor_t, M_ACT)

static int type_ok(cudnnDataType_t t) {
    return t >= CUDNN_DATA_FLOAT && t <= CUDNN_DATA_FAST_FLOAT_FOR_FP8;
}

static int format_ok(cudnnTensorFormat_t f, cudnnDataType_t t) {
    if (f == CUDNN_TENSOR_NCHW_VECT_C)
        return t == CUDNN_DATA_INT8x4 || t == CUDNN_DATA_UINT8x4 || t == CUDNN_DATA_INT8x32;
    return f == CUDNN_TENSOR_NCHW || f == CUDNN_TENSOR_NHWC;
}

/* cudnnSetTensor4dDescriptor / cudnnSetFilter4dDescriptor: sizes below 1 or bad enumerants →
 * BAD_PARAM; 2^31 elements or more → NOT_SUPPORTED ("the total size … exceeds the maximum limit
 * of 2 Giga-elements"). */
static cudnnStatus_t check4(cudnnTensorFormat_t f, cudnnDataType_t t, int a, int b, int c, int d) {
    if (!type_ok(t) || !format_ok(f, t) || a < 1 || b < 1 || c < 1 || d < 1)
        return CUDNN_STATUS_BAD_PARAM;
    if ((long long)a * b * c * d > 2147483647LL)
        return CUDNN_STATUS_NOT_SUPPORTED;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t tensorDesc,
                                         cudnnTensorFormat_t format, cudnnDataType_t dataType,
                                         int n, int c, int h, int w) {
    cudnnStatus_t s;
    COUNT(gbsim_current());
    if (!tensorDesc || tensorDesc->magic != M_TENSOR)
        return CUDNN_STATUS_BAD_PARAM;
    if ((s = check4(format, dataType, n, c, h, w)) != CUDNN_STATUS_SUCCESS)
        return s;
    *tensorDesc = (struct cudnnTensorStruct){M_TENSOR, 1, format, dataType, n, c, h, w};
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetFilter4dDescriptor(cudnnFilterDescriptor_t filterDesc,
                                         cudnnDataType_t dataType, cudnnTensorFormat_t format,
                                         int k, int c, int h, int w) {
    cudnnStatus_t s;
    COUNT(gbsim_current());
    if (!filterDesc || filterDesc->magic != M_FILTER)
        return CUDNN_STATUS_BAD_PARAM;
    if ((s = check4(format, dataType, k, c, h, w)) != CUDNN_STATUS_SUCCESS)
        return s;
    *filterDesc = (struct cudnnFilterStruct){M_FILTER, 1, format, dataType, k, c, h, w};
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t convDesc, int pad_h,
                                              int pad_w, int u, int v, int dilation_h,
                                              int dilation_w, cudnnConvolutionMode_t mode,
                                              cudnnDataType_t computeType) {
    COUNT(gbsim_current());
    if (!convDesc || convDesc->magic != M_CONV || pad_h < 0 || pad_w < 0 || u < 1 || v < 1 ||
        dilation_h < 1 || dilation_w < 1 ||
        (mode != CUDNN_CONVOLUTION && mode != CUDNN_CROSS_CORRELATION) || !type_ok(computeType))
        return CUDNN_STATUS_BAD_PARAM;
    *convDesc = (struct cudnnConvolutionStruct){.magic = M_CONV,
                                                .set = 1,
                                                .pad_h = pad_h,
                                                .pad_w = pad_w,
                                                .u = u,
                                                .v = v,
                                                .dil_h = dilation_h,
                                                .dil_w = dilation_w,
                                                .mode = mode,
                                                .compute = computeType,
                                                .math = CUDNN_DEFAULT_MATH};
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetConvolutionMathType(cudnnConvolutionDescriptor_t convDesc,
                                          cudnnMathType_t mathType) {
    COUNT(gbsim_current());
    if (!convDesc || convDesc->magic != M_CONV ||
        (mathType != CUDNN_DEFAULT_MATH && mathType != CUDNN_TENSOR_OP_MATH &&
         mathType != CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION && mathType != CUDNN_FMA_MATH))
        return CUDNN_STATUS_BAD_PARAM;
    convDesc->math = mathType;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetActivationDescriptor(cudnnActivationDescriptor_t activationDesc,
                                           cudnnActivationMode_t mode,
                                           cudnnNanPropagation_t reluNanOpt, double coef) {
    COUNT(gbsim_current());
    if (!activationDesc || activationDesc->magic != M_ACT || mode < CUDNN_ACTIVATION_SIGMOID ||
        mode > CUDNN_ACTIVATION_SWISH ||
        (reluNanOpt != CUDNN_NOT_PROPAGATE_NAN && reluNanOpt != CUDNN_PROPAGATE_NAN))
        return CUDNN_STATUS_BAD_PARAM;
    *activationDesc = (struct cudnnActivationStruct){M_ACT, 1, mode, reluNanOpt, coef};
    return CUDNN_STATUS_SUCCESS;
}

/* --- convolution shapes, algorithms, workspaces ---------------------------------------------- */
struct conv_shape {
    int n, c, h, w, k, r, s, p, q;
    int pad_h, pad_w, u, v, dil_h, dil_w, flip;
    cudnnDataType_t type;       /* of x, w and y (one type: cuDNN's configurations) */
    int x_nhwc, w_nhwc, y_nhwc; /* each tensor's layout: 1 NHWC (filters k×r×s×c), 0 NCHW */
};

/* The output dimensions (cudnnGetConvolution2dForwardOutputDim: p = 1 + (h + 2·pad − ((r − 1)·dil
 * + 1)) / stride). BAD_PARAM when the channels differ or the dilated filter is larger than the
 * padded input. */
static cudnnStatus_t shape_of(const struct cudnnConvolutionStruct *cd,
                              const struct cudnnTensorStruct *x, const struct cudnnFilterStruct *w,
                              struct conv_shape *s) {
    long long eh, ew;
    if (!cd || cd->magic != M_CONV || !cd->set || !TVALID(x) || !w || w->magic != M_FILTER ||
        !w->set || x->c != w->c)
        return CUDNN_STATUS_BAD_PARAM;
    eh = (long long)(w->h - 1) * cd->dil_h + 1;
    ew = (long long)(w->w - 1) * cd->dil_w + 1;
    if (eh > x->h + 2LL * cd->pad_h || ew > x->w + 2LL * cd->pad_w)
        return CUDNN_STATUS_BAD_PARAM;
    *s = (struct conv_shape){.n = x->n,
                             .c = x->c,
                             .h = x->h,
                             .w = x->w,
                             .k = w->k,
                             .r = w->h,
                             .s = w->w,
                             .pad_h = cd->pad_h,
                             .pad_w = cd->pad_w,
                             .u = cd->u,
                             .v = cd->v,
                             .dil_h = cd->dil_h,
                             .dil_w = cd->dil_w,
                             .flip = cd->mode == CUDNN_CONVOLUTION};
    s->p = (int)((x->h + 2LL * cd->pad_h - eh) / cd->u + 1);
    s->q = (int)((x->w + 2LL * cd->pad_w - ew) / cd->v + 1);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetConvolution2dForwardOutputDim(const cudnnConvolutionDescriptor_t convDesc,
                                                    const cudnnTensorDescriptor_t inputTensorDesc,
                                                    const cudnnFilterDescriptor_t filterDesc,
                                                    int *n, int *c, int *h, int *w) {
    struct conv_shape s;
    cudnnStatus_t st;
    COUNT(gbsim_current());
    if (!n || !c || !h || !w)
        return CUDNN_STATUS_BAD_PARAM;
    if ((st = shape_of(convDesc, inputTensorDesc, filterDesc, &s)) != CUDNN_STATUS_SUCCESS)
        return st;
    *n = s.n, *c = s.k, *h = s.p, *w = s.q;
    return CUDNN_STATUS_SUCCESS;
}

/* cuDNN's data-type configurations of a forward convolution: FLOAT, DOUBLE, PSEUDO_HALF
 * (half data, float compute) and TRUE_HALF. */
static int config_ok(cudnnDataType_t data, cudnnDataType_t compute) {
    if (data == CUDNN_DATA_HALF)
        return compute == CUDNN_DATA_FLOAT || compute == CUDNN_DATA_HALF;
    return (data == CUDNN_DATA_FLOAT || data == CUDNN_DATA_DOUBLE) && compute == data;
}

/* Everything a forward convolution call passes: BAD_PARAM for what the reference lists under
 * it, NOT_SUPPORTED for types and layouts this stand-in does not compute and for an output
 * descriptor of the wrong spatial size. */
static cudnnStatus_t check_conv(const struct cudnnTensorStruct *x,
                                const struct cudnnFilterStruct *w,
                                const struct cudnnConvolutionStruct *cd,
                                const struct cudnnTensorStruct *y, struct conv_shape *s) {
    cudnnStatus_t st;
    if ((st = shape_of(cd, x, w, s)) != CUDNN_STATUS_SUCCESS || !TVALID(y))
        return CUDNN_STATUS_BAD_PARAM;
    if (x->type != w->type || x->type != y->type)
        return CUDNN_STATUS_BAD_PARAM;
    if (!config_ok(x->type, cd->compute) || x->format == CUDNN_TENSOR_NCHW_VECT_C ||
        w->format == CUDNN_TENSOR_NCHW_VECT_C || y->format == CUDNN_TENSOR_NCHW_VECT_C)
        return CUDNN_STATUS_NOT_SUPPORTED;
    s->type = x->type;
    s->x_nhwc = x->format == CUDNN_TENSOR_NHWC;
    s->w_nhwc = w->format == CUDNN_TENSOR_NHWC;
    s->y_nhwc = y->format == CUDNN_TENSOR_NHWC;
    if (y->n != s->n || y->c != s->k)
        return CUDNN_STATUS_BAD_PARAM;
    if (y->h != s->p || y->w != s->q)
        return CUDNN_STATUS_NOT_SUPPORTED;
    return CUDNN_STATUS_SUCCESS;
}

/* Bytes of one element of a convolution's type. */
static size_t elem_size(cudnnDataType_t t) {
    return t == CUDNN_DATA_DOUBLE ? 8 : t == CUDNN_DATA_HALF ? 2 : 4;
}

/* The algorithms that compute a GEMM (and so every configuration and layout). */
static int gemm_family(int a) {
    return a == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM ||
           a == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM ||
           a == CUDNN_CONVOLUTION_FWD_ALGO_GEMM;
}

static size_t pow2_at_least(long long v) {
    size_t p = 1;
    while ((long long)p < v)
        p <<= 1;
    return p;
}

/* The workspace algorithm `a` needs for shape s, or NOT_SUPPORTED. Plausible sizes, in the
 * spirit of what each algorithm keeps: IMPLICIT_GEMM nothing; IMPLICIT_PRECOMP_GEMM an offset
 * table (c·r·s ints); GEMM the im2col matrix of the batch (c·r·s × n·p·q floats); FFT the
 * transforms of input, filters and output on the padded size rounded up to a power of two
 * (complex); FFT_TILING the same on 32×32 tiles; WINOGRAD nothing (fused); WINOGRAD_NONFUSED the
 * transformed tiles (6×6 per 4×4 output tile for 3×3, 8×8 for 5×5). */
static cudnnStatus_t workspace(int a, const struct conv_shape *s, size_t *bytes) {
    const int unit = s->u == 1 && s->v == 1 && s->dil_h == 1 && s->dil_w == 1;
    const size_t esize = elem_size(s->type);
    const size_t crs = (size_t)s->c * s->r * s->s, npq = (size_t)s->n * s->p * s->q;
    const size_t nc = (size_t)s->n * s->c, kc = (size_t)s->k * s->c, nk = (size_t)s->n * s->k;
    *bytes = 0;
    if (!gemm_family(a) && (s->type == CUDNN_DATA_DOUBLE || s->x_nhwc || s->y_nhwc))
        return CUDNN_STATUS_NOT_SUPPORTED; /* FFT and Winograd: float or half, NCHW */
    switch (a) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return CUDNN_STATUS_SUCCESS;
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM:
        *bytes = crs * sizeof(int);
        return CUDNN_STATUS_SUCCESS;
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM:
        *bytes = crs * npq * esize;
        return CUDNN_STATUS_SUCCESS;
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT: {
        size_t fh = pow2_at_least(s->h + 2LL * s->pad_h), fw = pow2_at_least(s->w + 2LL * s->pad_w);
        if (!unit || s->h + 2 * s->pad_h > 256 || s->w + 2 * s->pad_w > 256 || s->r <= s->pad_h ||
            s->s <= s->pad_w)
            return CUDNN_STATUS_NOT_SUPPORTED;
        *bytes = (nc + kc + nk) * fh * (fw / 2 + 1) * 8;
        return CUDNN_STATUS_SUCCESS;
    }
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: {
        size_t tiles = (size_t)((s->p + 31) / 32) * (size_t)((s->q + 31) / 32);
        if (!unit || s->r > 32 || s->s > 32)
            return CUDNN_STATUS_NOT_SUPPORTED;
        *bytes = (nc * tiles + kc + nk * tiles) * 32 * 17 * 8;
        return CUDNN_STATUS_SUCCESS;
    }
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD:
        if (!unit || s->r != 3 || s->s != 3)
            return CUDNN_STATUS_NOT_SUPPORTED;
        return CUDNN_STATUS_SUCCESS;
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: {
        size_t t = s->r == 3 ? 36 : 64, tiles = (size_t)((s->p + 3) / 4) * ((s->q + 3) / 4);
        if (!unit || s->r != s->s || (s->r != 3 && s->r != 5))
            return CUDNN_STATUS_NOT_SUPPORTED;
        *bytes = (nc * tiles + kc + nk * tiles) * t * esize;
        return CUDNN_STATUS_SUCCESS;
    }
    default: return CUDNN_STATUS_NOT_SUPPORTED; /* DIRECT: not implemented by cuDNN for forward */
    }
}

cudnnStatus_t cudnnGetConvolutionForwardAlgorithmMaxCount(cudnnHandle_t handle, int *count) {
    COUNT(dev_of(handle));
    if (!hvalid(handle) || !count)
        return CUDNN_STATUS_BAD_PARAM;
    *count = CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetConvolutionForwardWorkspaceSize(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc, const cudnnFilterDescriptor_t wDesc,
    const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t yDesc,
    cudnnConvolutionFwdAlgo_t algo, size_t *sizeInBytes) {
    struct conv_shape s;
    cudnnStatus_t st;
    COUNT(dev_of(handle));
    if (!hvalid(handle) || !sizeInBytes || (int)algo < 0 ||
        (int)algo >= CUDNN_CONVOLUTION_FWD_ALGO_COUNT)
        return CUDNN_STATUS_BAD_PARAM;
    if ((st = check_conv(xDesc, wDesc, convDesc, yDesc, &s)) != CUDNN_STATUS_SUCCESS)
        return st;
    return workspace((int)algo, &s, sizeInBytes);
}

/* The heuristic ranking of Get_v7: best first, the unsupported ones last. */
static const int ranking[CUDNN_CONVOLUTION_FWD_ALGO_COUNT] = {
    CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
    CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD,
    CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
    CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED,
    CUDNN_CONVOLUTION_FWD_ALGO_GEMM,
    CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING,
    CUDNN_CONVOLUTION_FWD_ALGO_FFT,
    CUDNN_CONVOLUTION_FWD_ALGO_DIRECT,
};

/* 1 when algorithm a runs on tensor cores for this call: half data, a tensor-op math type, a
 * card of compute capability 7.0 or later, and an algorithm with tensor-core kernels. */
static int tensor_op(int a, const struct conv_shape *s, cudnnMathType_t math, int sm) {
    return s->type == CUDNN_DATA_HALF && sm >= 70 &&
           (math == CUDNN_TENSOR_OP_MATH || math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION) &&
           (a == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM ||
            a == CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED);
}

static void perf_entry(cudnnConvolutionFwdAlgoPerf_t *r, int algo, cudnnStatus_t st, float ms,
                       size_t mem, cudnnMathType_t math, int tensor) {
    memset(r, 0, sizeof *r);
    r->algo = (cudnnConvolutionFwdAlgo_t)algo;
    r->status = st;
    r->time = ms;
    r->memory = mem;
    r->determinism = CUDNN_DETERMINISTIC;
    r->mathType = tensor                       ? CUDNN_TENSOR_OP_MATH
                  : math == CUDNN_DEFAULT_MATH ? CUDNN_DEFAULT_MATH
                                               : CUDNN_FMA_MATH;
}

cudnnStatus_t cudnnGetConvolutionForwardAlgorithm_v7(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t srcDesc,
    const cudnnFilterDescriptor_t filterDesc, const cudnnConvolutionDescriptor_t convDesc,
    const cudnnTensorDescriptor_t destDesc, const int requestedAlgoCount, int *returnedAlgoCount,
    cudnnConvolutionFwdAlgoPerf_t *perfResults) {
    struct conv_shape s;
    cudnnStatus_t st;
    int n = 0;
    COUNT(dev_of(handle));
    if (!hvalid(handle) || !returnedAlgoCount || !perfResults || requestedAlgoCount < 1)
        return CUDNN_STATUS_BAD_PARAM;
    if ((st = check_conv(srcDesc, filterDesc, convDesc, destDesc, &s)) != CUDNN_STATUS_SUCCESS)
        return st;
    for (int pass = 0; pass < 2; pass++) /* the supported ones, then the others */
        for (int i = 0; i < CUDNN_CONVOLUTION_FWD_ALGO_COUNT && n < requestedAlgoCount; i++) {
            size_t mem;
            cudnnStatus_t ws = workspace(ranking[i], &s, &mem);
            if ((ws == CUDNN_STATUS_SUCCESS) == (pass == 0))
                perf_entry(&perfResults[n++], ranking[i], ws, -1.0f, mem, convDesc->math,
                           ws == CUDNN_STATUS_SUCCESS &&
                               tensor_op(ranking[i], &s, convDesc->math, handle->dev->sm));
        }
    *returnedAlgoCount = n;
    return CUDNN_STATUS_SUCCESS;
}

/* --- computing ------------------------------------------------------------------------------- */
/* y = alpha·conv(x, w) + beta·y, NCHW float: per image, the im2col matrix (c·r·s × p·q) times the
 * filters (k × c·r·s) with OpenBLAS. beta 0: y is not read. 0 or -1 (out of host memory). */
static int conv_compute(const struct conv_shape *s, float alpha, const float *x, const float *w,
                        float beta, float *y) {
    const size_t crs = (size_t)s->c * s->r * s->s, pq = (size_t)s->p * s->q;
    float *col = malloc(crs * pq * sizeof(float));
    if (!col)
        return -1;
    for (int img = 0; img < s->n; img++) {
        const float *xi = x + (size_t)img * s->c * s->h * s->w;
        float *yi = y + (size_t)img * s->k * pq;
        for (size_t row = 0; row < crs; row++) {
            int ci = (int)(row / (size_t)(s->r * s->s)), rr = (int)(row / s->s % s->r),
                ss = (int)(row % s->s);
            int fr = s->flip ? s->r - 1 - rr : rr, fs = s->flip ? s->s - 1 - ss : ss;
            for (int op = 0; op < s->p; op++)
                for (int oq = 0; oq < s->q; oq++) {
                    int ih = op * s->u - s->pad_h + fr * s->dil_h;
                    int iw = oq * s->v - s->pad_w + fs * s->dil_w;
                    col[row * pq + (size_t)op * s->q + oq] =
                        ih >= 0 && ih < s->h && iw >= 0 && iw < s->w
                            ? xi[((size_t)ci * s->h + ih) * s->w + iw]
                            : 0.0f;
                }
        }
        if (beta == 0.0f)
            memset(yi, 0, (size_t)s->k * pq * sizeof(float));
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s->k, (int)pq, (int)crs, alpha, w,
                    (int)crs, col, (int)pq, beta, yi, (int)pq);
    }
    free(col);
    return 0;
}

/* IEEE half → float, subnormals and specials included. */
static float half_to_float(unsigned short h) {
    unsigned sign = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0    ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY)
                        : ldexpf((float)(m | 1024), (int)e - 25);
    return sign ? -v : v;
}

/* float → IEEE half, rounded to nearest even (the hardware's conversion), subnormals included. */
static unsigned short float_to_half(float x) {
    unsigned short sign = signbit(x) ? 0x8000 : 0;
    float a = fabsf(x), m;
    int e;
    if (isnan(x))
        return 0x7e00;
    if (a >= 65520.0f) /* 65504 + half an ulp and up: infinity */
        return sign | 0x7c00;
    if (a < 0x1p-14f) /* subnormal: a multiple of 2^-24 (rounding up to 2^-14 gives 0x0400) */
        return sign | (unsigned short)rintf(a * 0x1p24f);
    frexpf(a, &e);                /* a in [2^(e-1), 2^e) */
    m = rintf(ldexpf(a, 11 - e)); /* 11 significant bits, in [1024, 2048] */
    if (m == 2048.0f)
        m = 1024.0f, e++;
    return sign | (unsigned short)((unsigned)(e - 1 + 15) << 10) | ((unsigned short)m & 1023);
}

/* Element i of a tensor of type t as a double; and storing v there, rounded as the hardware
 * does (a half result through FP32, where its accumulator is). */
static double load_as_double(const void *p, cudnnDataType_t t, size_t i) {
    if (t == CUDNN_DATA_DOUBLE)
        return ((const double *)p)[i];
    if (t == CUDNN_DATA_HALF)
        return half_to_float(((const unsigned short *)p)[i]);
    return ((const float *)p)[i];
}

static void store_rounded(void *p, cudnnDataType_t t, size_t i, double v) {
    if (t == CUDNN_DATA_DOUBLE)
        ((double *)p)[i] = v;
    else if (t == CUDNN_DATA_HALF)
        ((unsigned short *)p)[i] = float_to_half((float)v);
    else
        ((float *)p)[i] = (float)v;
}

/* Flat index of (n, c, h, w) in a C × H × W tensor, NCHW or NHWC. */
static size_t at4(int nhwc, int C, int H, int W, int n, int c, int h, int w) {
    return nhwc ? (((size_t)n * H + h) * W + w) * C + c : (((size_t)n * C + c) * H + h) * W + w;
}

/* The operands as NCHW doubles: *xd (n×c×h×w) and *wd (k×c×r×s). 0 or -1 (out of memory). */
static int widen(const struct conv_shape *s, const void *x, const void *w, double **xd,
                 double **wd) {
    *xd = malloc((size_t)s->n * s->c * s->h * s->w * sizeof **xd);
    *wd = malloc((size_t)s->k * s->c * s->r * s->s * sizeof **wd);
    if (!*xd || !*wd)
        return -1;
    for (int n = 0; n < s->n; n++)
        for (int c = 0; c < s->c; c++)
            for (int h = 0; h < s->h; h++)
                for (int v = 0; v < s->w; v++)
                    (*xd)[at4(0, s->c, s->h, s->w, n, c, h, v)] =
                        load_as_double(x, s->type, at4(s->x_nhwc, s->c, s->h, s->w, n, c, h, v));
    for (int k = 0; k < s->k; k++)
        for (int c = 0; c < s->c; c++)
            for (int r = 0; r < s->r; r++)
                for (int v = 0; v < s->s; v++)
                    (*wd)[at4(0, s->c, s->r, s->s, k, c, r, v)] =
                        load_as_double(w, s->type, at4(s->w_nhwc, s->c, s->r, s->s, k, c, r, v));
    return 0;
}

/* The im2col matrix (c·r·s × p·q) of image xi (NCHW doubles). */
static void im2col_d(const struct conv_shape *s, const double *xi, double *col) {
    const size_t pq = (size_t)s->p * s->q;
    for (size_t row = 0; row < (size_t)s->c * s->r * s->s; row++) {
        int ci = (int)(row / (size_t)(s->r * s->s)), rr = (int)(row / s->s % s->r),
            ss = (int)(row % s->s);
        int fr = s->flip ? s->r - 1 - rr : rr, fs = s->flip ? s->s - 1 - ss : ss;
        for (int op = 0; op < s->p; op++)
            for (int oq = 0; oq < s->q; oq++) {
                int ih = op * s->u - s->pad_h + fr * s->dil_h;
                int iw = oq * s->v - s->pad_w + fs * s->dil_w;
                col[row * pq + (size_t)op * s->q + oq] =
                    ih >= 0 && ih < s->h && iw >= 0 && iw < s->w
                        ? xi[((size_t)ci * s->h + ih) * s->w + iw]
                        : 0.0;
            }
    }
}

/* y = alpha·conv(x, w) + beta·y for any configuration and layout (see the file comment): in
 * double, per image an im2col matrix times the filters (cblas_dgemm), each result stored rounded
 * to y's type. beta 0: y is not read. 0 or -1 (out of host memory). */
static int conv_wide(const struct conv_shape *s, double alpha, const void *x, const void *w,
                     double beta, void *y) {
    const size_t crs = (size_t)s->c * s->r * s->s, pq = (size_t)s->p * s->q;
    double *xd = NULL, *wd = NULL, *col = malloc(crs * pq * sizeof *col),
           *yi = malloc((size_t)s->k * pq * sizeof *yi);
    int rc = -1;
    if (col && yi && widen(s, x, w, &xd, &wd) == 0) {
        for (int img = 0; img < s->n; img++) {
            im2col_d(s, xd + (size_t)img * s->c * s->h * s->w, col);
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s->k, (int)pq, (int)crs, 1.0, wd,
                        (int)crs, col, (int)pq, 0.0, yi, (int)pq);
            for (int k = 0; k < s->k; k++)
                for (size_t e = 0; e < pq; e++) {
                    size_t o =
                        at4(s->y_nhwc, s->k, s->p, s->q, img, k, (int)(e / s->q), (int)(e % s->q));
                    double v = alpha * yi[(size_t)k * pq + e];
                    store_rounded(y, s->type, o,
                                  beta == 0.0 ? v : v + beta * load_as_double(y, s->type, o));
                }
        }
        rc = 0;
    }
    free(xd), free(wd), free(col), free(yi);
    return rc;
}

/* y = alpha·conv(x, w) + beta·y: float NCHW on OpenBLAS's SGEMM (conv_compute), the rest in
 * double (conv_wide). 0 or -1 (out of host memory). */
static int conv_any(const struct conv_shape *s, double alpha, const void *x, const void *w,
                    double beta, void *y) {
    if (s->type == CUDNN_DATA_FLOAT && !s->x_nhwc && !s->w_nhwc && !s->y_nhwc)
        return conv_compute(s, (float)alpha, x, w, (float)beta, y);
    return conv_wide(s, alpha, x, w, beta, y);
}

/* A queued cuDNN call: fn(op) runs on the stream's worker. */
struct dnn_op {
    struct gbsim_op op;
    cudaError_t (*fn)(struct dnn_op *o);
    struct conv_shape s;
    float alpha, beta;
    const float *x, *w, *dy;
    float *y;
    size_t xn, wn, yn;        /* elements of x, w, y (device range checks) */
    int an, ac, ah, aw;       /* AddTensor: A's dims (broadcast) */
    int cn, cc, ch, cw;       /* and C's */
    int mode, algo, nan_prop; /* activation / softmax */
    double coef;
    cudnnConvolutionFwdAlgoPerf_t *perf; /* Find: results, filled on the worker */
    int nperf;
    size_t ws_bytes;
    cudnnMathType_t math;
    int sm;                 /* the card's compute capability, 10·major + minor */
    double alpha64, beta64; /* convolutions: the scalars (double for DOUBLE data) */
    size_t esize;           /* bytes of an element of x, w, y, dy; 0 means float */
};

static int dev_ok(const void *p, size_t n, size_t esize) {
    return n == 0 || gbsim_device_range(p, n * (esize ? esize : sizeof(float)), -1);
}

static cudaError_t run_dnn(struct gbsim_op *op, int broken) {
    struct dnn_op *o = (struct dnn_op *)op;
    if (broken)
        return cudaSuccess;
    if (!dev_ok(o->x, o->xn, o->esize) || !dev_ok(o->w, o->wn, o->esize) ||
        !dev_ok(o->y, o->yn, o->esize) || (o->dy && !dev_ok(o->dy, o->yn, o->esize)))
        return cudaErrorIllegalAddress;
    return o->fn(o);
}

static cudnnStatus_t submit(cudnnHandle_t h, struct dnn_op *o, int wait) {
    struct gbsim_stream *st;
    cudaError_t err, sticky;
    gbsim_lock();
    sticky = h->dev->sticky;
    gbsim_unlock();
    if (sticky != cudaSuccess) {
        free(o);
        return ST_EXEC;
    }
    st = gbsim_stream_of(h->stream, h->dev, &err);
    if (!st) {
        free(o);
        return ST_EXEC;
    }
    o->op.run = run_dnn;
    o->op.name = gbsim_calling(); /* cudnnConvolutionForward…: GPUBENCH_SIM_HANG / _TRAP */
    o->op.pace_key = gbsim_pace_key((const void *)o->fn,
                                    (const long long[]){(long long)o->xn, (long long)o->wn,
                                                        (long long)o->yn, o->algo, o->mode,
                                                        (long long)o->esize, o->math},
                                    7);
    gbsim_enqueue(st, &o->op, wait);
    return CUDNN_STATUS_SUCCESS;
}

static struct dnn_op *new_op(cudaError_t (*fn)(struct dnn_op *)) {
    struct dnn_op *o = calloc(1, sizeof *o);
    if (o)
        o->fn = fn;
    return o;
}

static size_t elems(const struct cudnnTensorStruct *t) {
    return (size_t)t->n * t->c * t->h * t->w;
}

static cudaError_t do_conv(struct dnn_op *o) {
    return conv_any(&o->s, o->alpha64, o->x, o->w, o->beta64, o->y) ? cudaErrorLaunchFailure
                                                                    : cudaSuccess;
}

/* Every algorithm runs the same code here, so raw timings would rank them by noise (and make
 * the calls gpubench makes after Find vary from run to run). Find reports each algorithm's run
 * time as the first one measured times this factor: a stable ranking in which, for 3×3 unit
 * strides, WINOGRAD_NONFUSED wins (a workspace smaller than the largest, so gpubench's "keep
 * only what the algorithm needs" path runs) and IMPLICIT_PRECOMP_GEMM otherwise. */
static const float find_factor[CUDNN_CONVOLUTION_FWD_ALGO_COUNT] = {
    [CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM] = 1.4f,
    [CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM] = 1.0f,
    [CUDNN_CONVOLUTION_FWD_ALGO_GEMM] = 1.2f,
    [CUDNN_CONVOLUTION_FWD_ALGO_DIRECT] = 2.0f,
    [CUDNN_CONVOLUTION_FWD_ALGO_FFT] = 1.9f,
    [CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING] = 1.6f,
    [CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD] = 0.8f,
    [CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED] = 0.7f,
};

/* Find: run every algorithm that applies and fits the workspace (their times: see above);
 * successes first, fastest first. */
static cudaError_t do_find(struct dnn_op *o) {
    cudnnConvolutionFwdAlgoPerf_t all[CUDNN_CONVOLUTION_FWD_ALGO_COUNT], t;
    double base = -1.0;
    int n = 0;
    for (int a = 0; a < CUDNN_CONVOLUTION_FWD_ALGO_COUNT; a++) {
        size_t mem;
        cudnnStatus_t ws = workspace(a, &o->s, &mem);
        if (ws != CUDNN_STATUS_SUCCESS) {
            perf_entry(&all[n++], a, ws, -1.0f, 0, o->math, 0);
        } else if (mem > o->ws_bytes) {
            perf_entry(&all[n++], a, CUDNN_STATUS_NOT_SUPPORTED, -1.0f, mem, o->math, 0);
        } else {
            double t0 = gbsim_now_ms();
            if (conv_any(&o->s, 1.0, o->x, o->w, 0.0, o->y))
                return cudaErrorLaunchFailure;
            if (base < 0)
                base = gbsim_now_ms() - t0;
            perf_entry(&all[n++], a, CUDNN_STATUS_SUCCESS, (float)(base * find_factor[a]), mem,
                       o->math, tensor_op(a, &o->s, o->math, o->sm));
        }
    }
    for (int i = 1; i < n; i++) /* insertion sort: successes by time, then the rest */
        for (int j = i; j > 0; j--) {
            cudnnConvolutionFwdAlgoPerf_t *a = &all[j - 1], *b = &all[j];
            int ok_a = a->status == CUDNN_STATUS_SUCCESS, ok_b = b->status == CUDNN_STATUS_SUCCESS;
            if (ok_a > ok_b || (ok_a == ok_b && (!ok_a || a->time <= b->time)))
                break;
            t = *a, *a = *b, *b = t;
        }
    memcpy(o->perf, all, (size_t)o->nperf * sizeof *o->perf);
    return cudaSuccess;
}

cudnnStatus_t cudnnFindConvolutionForwardAlgorithmEx(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc, const void *x,
    const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnConvolutionDescriptor_t convDesc,
    const cudnnTensorDescriptor_t yDesc, void *y, const int requestedAlgoCount,
    int *returnedAlgoCount, cudnnConvolutionFwdAlgoPerf_t *perfResults, void *workSpace,
    size_t workSpaceSizeInBytes) {
    struct conv_shape s;
    struct dnn_op *o;
    cudnnStatus_t st;
    COUNT(dev_of(handle));
    if (!hvalid(handle) || !x || !w || !y || !returnedAlgoCount || !perfResults ||
        requestedAlgoCount < 1 || (!workSpace && workSpaceSizeInBytes))
        return CUDNN_STATUS_BAD_PARAM;
    if ((st = check_conv(xDesc, wDesc, convDesc, yDesc, &s)) != CUDNN_STATUS_SUCCESS)
        return st;
    if (!(o = new_op(do_find)))
        return ST_HOST_ALLOC;
    o->s = s;
    o->x = x, o->xn = elems(xDesc);
    o->w = w, o->wn = (size_t)s.k * s.c * s.r * s.s;
    o->y = y, o->yn = elems(yDesc);
    o->nperf = requestedAlgoCount < CUDNN_CONVOLUTION_FWD_ALGO_COUNT
                   ? requestedAlgoCount
                   : CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
    o->perf = perfResults;
    o->ws_bytes = workSpaceSizeInBytes;
    o->math = convDesc->math;
    o->sm = handle->dev->sm;
    o->esize = elem_size(s.type);
    /* Find is blocking: it returns with the results */
    if ((st = submit(handle, o, 1)) != CUDNN_STATUS_SUCCESS)
        return st;
    gbsim_lock();
    cudaError_t after = handle->dev->sticky;
    gbsim_unlock();
    if (after != cudaSuccess)
        return ST_EXEC;
    *returnedAlgoCount = requestedAlgoCount < CUDNN_CONVOLUTION_FWD_ALGO_COUNT
                             ? requestedAlgoCount
                             : CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnConvolutionForward(cudnnHandle_t handle, const void *alpha,
                                      const cudnnTensorDescriptor_t xDesc, const void *x,
                                      const cudnnFilterDescriptor_t wDesc, const void *w,
                                      const cudnnConvolutionDescriptor_t convDesc,
                                      cudnnConvolutionFwdAlgo_t algo, void *workSpace,
                                      size_t workSpaceSizeInBytes, const void *beta,
                                      const cudnnTensorDescriptor_t yDesc, void *y) {
    struct conv_shape s;
    struct dnn_op *o;
    cudnnStatus_t st;
    size_t need;
    COUNT(dev_of(handle));
    if (!hvalid(handle) || !alpha || !beta || !x || !w || !y || (int)algo < 0 ||
        (int)algo >= CUDNN_CONVOLUTION_FWD_ALGO_COUNT)
        return CUDNN_STATUS_BAD_PARAM;
    if ((st = check_conv(xDesc, wDesc, convDesc, yDesc, &s)) != CUDNN_STATUS_SUCCESS)
        return st;
    if ((st = workspace((int)algo, &s, &need)) != CUDNN_STATUS_SUCCESS)
        return st;
    if (workSpaceSizeInBytes < need || (need && !workSpace))
        return CUDNN_STATUS_BAD_PARAM;
    if (need && !gbsim_device_range(workSpace, need, handle->dev->ordinal))
        return CUDNN_STATUS_BAD_PARAM;
    if (!(o = new_op(do_conv)))
        return ST_HOST_ALLOC;
    o->s = s;
    /* "alpha and beta … must point to double for double data, float otherwise" */
    o->alpha64 = s.type == CUDNN_DATA_DOUBLE ? *(const double *)alpha : *(const float *)alpha;
    o->beta64 = s.type == CUDNN_DATA_DOUBLE ? *(const double *)beta : *(const float *)beta;
    o->esize = elem_size(s.type);
    o->x = x, o->xn = elems(xDesc);
    o->w = w, o->wn = (size_t)s.k * s.c * s.r * s.s;
    o->y = y, o->yn = elems(yDesc);
    return submit(handle, o, 0);
}

/* C = alpha·A + beta·C, A broadcast where its dimension is 1. */
static cudaError_t do_add(struct dnn_op *o) {
    for (int n = 0; n < o->cn; n++)
        for (int c = 0; c < o->cc; c++)
            for (int h = 0; h < o->ch; h++)
                for (int w = 0; w < o->cw; w++) {
                    size_t ci = (((size_t)n * o->cc + c) * o->ch + h) * o->cw + w;
                    size_t ai =
                        (((size_t)(o->an == 1 ? 0 : n) * o->ac + (o->ac == 1 ? 0 : c)) * o->ah +
                         (o->ah == 1 ? 0 : h)) *
                            o->aw +
                        (o->aw == 1 ? 0 : w);
                    float v = o->alpha * o->x[ai];
                    o->y[ci] = o->beta == 0.0f ? v : v + o->beta * o->y[ci];
                }
    return cudaSuccess;
}

static int same_dims(const struct cudnnTensorStruct *a, const struct cudnnTensorStruct *b) {
    return a->n == b->n && a->c == b->c && a->h == b->h && a->w == b->w;
}

static int float_nchw(const struct cudnnTensorStruct *t) {
    return t->type == CUDNN_DATA_FLOAT && t->format == CUDNN_TENSOR_NCHW;
}

cudnnStatus_t cudnnAddTensor(cudnnHandle_t handle, const void *alpha,
                             const cudnnTensorDescriptor_t aDesc, const void *A, const void *beta,
                             const cudnnTensorDescriptor_t cDesc, void *C) {
    struct dnn_op *o;
    COUNT(dev_of(handle));
    if (!hvalid(handle) || !alpha || !beta || !A || !C || !TVALID(aDesc) || !TVALID(cDesc))
        return CUDNN_STATUS_BAD_PARAM;
    /* "each dimension of A must match the corresponding dimension of C or be equal to 1" */
    if ((aDesc->n != cDesc->n && aDesc->n != 1) || (aDesc->c != cDesc->c && aDesc->c != 1) ||
        (aDesc->h != cDesc->h && aDesc->h != 1) || (aDesc->w != cDesc->w && aDesc->w != 1) ||
        aDesc->type != cDesc->type)
        return CUDNN_STATUS_BAD_PARAM;
    if (!float_nchw(aDesc) || !float_nchw(cDesc))
        return CUDNN_STATUS_NOT_SUPPORTED;
    if (!(o = new_op(do_add)))
        return ST_HOST_ALLOC;
    o->alpha = *(const float *)alpha;
    o->beta = *(const float *)beta;
    o->x = A, o->xn = elems(aDesc);
    o->y = C, o->yn = elems(cDesc);
    o->an = aDesc->n, o->ac = aDesc->c, o->ah = aDesc->h, o->aw = aDesc->w;
    o->cn = cDesc->n, o->cc = cDesc->c, o->ch = cDesc->h, o->cw = cDesc->w;
    return submit(handle, o, 0);
}

static float act(int mode, int nan_prop, double coef, float x) {
    switch (mode) {
    case CUDNN_ACTIVATION_SIGMOID: return 1.0f / (1.0f + expf(-x));
    case CUDNN_ACTIVATION_TANH: return tanhf(x);
    case CUDNN_ACTIVATION_CLIPPED_RELU:
        if (isnan(x))
            return nan_prop ? x : 0.0f;
        return x < 0.0f ? 0.0f : x > (float)coef ? (float)coef : x;
    case CUDNN_ACTIVATION_ELU: return x >= 0.0f ? x : (float)coef * expm1f(x);
    case CUDNN_ACTIVATION_IDENTITY: return x;
    case CUDNN_ACTIVATION_SWISH: return x / (1.0f + expf(-(float)coef * x));
    default: /* RELU */
        if (isnan(x))
            return nan_prop ? x : 0.0f;
        return x > 0.0f ? x : 0.0f;
    }
}

/* The derivative at input x (output y), times dy. */
static float dact(int mode, double coef, float x, float y, float dy) {
    switch (mode) {
    case CUDNN_ACTIVATION_SIGMOID: return dy * y * (1.0f - y);
    case CUDNN_ACTIVATION_TANH: return dy * (1.0f - y * y);
    case CUDNN_ACTIVATION_CLIPPED_RELU: return x > 0.0f && x < (float)coef ? dy : 0.0f;
    case CUDNN_ACTIVATION_ELU: return x >= 0.0f ? dy : dy * (y + (float)coef);
    case CUDNN_ACTIVATION_IDENTITY: return dy;
    default: return x > 0.0f ? dy : 0.0f; /* RELU */
    }
}

static cudaError_t do_act_fwd(struct dnn_op *o) {
    for (size_t i = 0; i < o->yn; i++) {
        float v = o->alpha * act(o->mode, o->nan_prop, o->coef, o->x[i]);
        o->y[i] = o->beta == 0.0f ? v : v + o->beta * o->y[i];
    }
    return cudaSuccess;
}

cudnnStatus_t cudnnActivationForward(cudnnHandle_t handle,
                                     cudnnActivationDescriptor_t activationDesc, const void *alpha,
                                     const cudnnTensorDescriptor_t xDesc, const void *x,
                                     const void *beta, const cudnnTensorDescriptor_t yDesc,
                                     void *y) {
    struct dnn_op *o;
    COUNT(dev_of(handle));
    if (!hvalid(handle) || !activationDesc || activationDesc->magic != M_ACT ||
        !activationDesc->set || !alpha || !beta || !x || !y || !TVALID(xDesc) || !TVALID(yDesc) ||
        !same_dims(xDesc, yDesc) || xDesc->type != yDesc->type)
        return CUDNN_STATUS_BAD_PARAM;
    if (!float_nchw(xDesc) || !float_nchw(yDesc))
        return CUDNN_STATUS_NOT_SUPPORTED;
    if (!(o = new_op(do_act_fwd)))
        return ST_HOST_ALLOC;
    o->alpha = *(const float *)alpha;
    o->beta = *(const float *)beta;
    o->x = x, o->xn = elems(xDesc);
    o->y = y, o->yn = elems(yDesc);
    o->mode = activationDesc->mode;
    o->nan_prop = activationDesc->nan == CUDNN_PROPAGATE_NAN;
    o->coef = activationDesc->coef;
    return submit(handle, o, 0);
}

/* dx = alpha·f'(x)·dy + beta·dx; here w holds y (the forward output), y is dx. */
static cudaError_t do_act_bwd(struct dnn_op *o) {
    const float *yv = o->w, *xv = o->x;
    for (size_t i = 0; i < o->yn; i++) {
        float v = o->alpha * dact(o->mode, o->coef, xv[i], yv[i], o->dy[i]);
        o->y[i] = o->beta == 0.0f ? v : v + o->beta * o->y[i];
    }
    return cudaSuccess;
}

cudnnStatus_t cudnnActivationBackward(cudnnHandle_t handle,
                                      cudnnActivationDescriptor_t activationDesc, const void *alpha,
                                      const cudnnTensorDescriptor_t yDesc, const void *y,
                                      const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                      const cudnnTensorDescriptor_t xDesc, const void *x,
                                      const void *beta, const cudnnTensorDescriptor_t dxDesc,
                                      void *dx) {
    struct dnn_op *o;
    COUNT(dev_of(handle));
    if (!hvalid(handle) || !activationDesc || activationDesc->magic != M_ACT ||
        !activationDesc->set || !alpha || !beta || !y || !dy || !x || !dx || !TVALID(yDesc) ||
        !TVALID(dyDesc) || !TVALID(xDesc) || !TVALID(dxDesc) || !same_dims(yDesc, dyDesc) ||
        !same_dims(yDesc, xDesc) || !same_dims(yDesc, dxDesc))
        return CUDNN_STATUS_BAD_PARAM;
    if (!float_nchw(yDesc) || !float_nchw(dyDesc) || !float_nchw(xDesc) || !float_nchw(dxDesc))
        return CUDNN_STATUS_NOT_SUPPORTED;
    if (!(o = new_op(do_act_bwd)))
        return ST_HOST_ALLOC;
    o->alpha = *(const float *)alpha;
    o->beta = *(const float *)beta;
    o->x = x, o->xn = elems(xDesc);
    o->w = y, o->wn = elems(yDesc);
    o->dy = dy;
    o->y = dx, o->yn = elems(dxDesc);
    o->mode = activationDesc->mode;
    o->coef = activationDesc->coef;
    return submit(handle, o, 0);
}

/* Softmax over C·H·W per image (INSTANCE) or over C per (image, h, w) (CHANNEL). FAST: exp(x) /
 * Σ exp(x); ACCURATE: the same with the maximum subtracted; LOG: log of the accurate one. */
static cudaError_t do_softmax(struct dnn_op *o) {
    const int n = o->cn, c = o->cc, hw = o->ch * o->cw,
              inst = o->mode == CUDNN_SOFTMAX_MODE_INSTANCE;
    const int groups = inst ? n : n * hw, len = inst ? c * hw : c;
    for (int g = 0; g < groups; g++) {
        /* element j of group g */
        size_t base = inst ? (size_t)g * c * hw : (size_t)(g / hw) * c * hw + (size_t)(g % hw);
        size_t step = inst ? 1 : (size_t)hw;
        double m = -INFINITY, sum = 0.0;
        if (o->algo != CUDNN_SOFTMAX_FAST)
            for (int j = 0; j < len; j++)
                m = fmax(m, o->x[base + j * step]);
        else
            m = 0.0;
        for (int j = 0; j < len; j++)
            sum += exp((double)o->x[base + j * step] - m);
        for (int j = 0; j < len; j++) {
            double xv = o->x[base + j * step] - m;
            float v = (float)(o->algo == CUDNN_SOFTMAX_LOG ? xv - log(sum) : exp(xv) / sum);
            float *out = &o->y[base + j * step];
            *out = o->beta == 0.0f ? o->alpha * v : o->alpha * v + o->beta * *out;
        }
    }
    return cudaSuccess;
}

cudnnStatus_t cudnnSoftmaxForward(cudnnHandle_t handle, cudnnSoftmaxAlgorithm_t algo,
                                  cudnnSoftmaxMode_t mode, const void *alpha,
                                  const cudnnTensorDescriptor_t xDesc, const void *x,
                                  const void *beta, const cudnnTensorDescriptor_t yDesc, void *y) {
    struct dnn_op *o;
    COUNT(dev_of(handle));
    if (!hvalid(handle) || !alpha || !beta || !x || !y || !TVALID(xDesc) || !TVALID(yDesc) ||
        !same_dims(xDesc, yDesc) || xDesc->type != yDesc->type ||
        (algo != CUDNN_SOFTMAX_FAST && algo != CUDNN_SOFTMAX_ACCURATE &&
         algo != CUDNN_SOFTMAX_LOG) ||
        (mode != CUDNN_SOFTMAX_MODE_INSTANCE && mode != CUDNN_SOFTMAX_MODE_CHANNEL))
        return CUDNN_STATUS_BAD_PARAM;
    if (!float_nchw(xDesc) || !float_nchw(yDesc))
        return CUDNN_STATUS_NOT_SUPPORTED;
    if (!(o = new_op(do_softmax)))
        return ST_HOST_ALLOC;
    o->alpha = *(const float *)alpha;
    o->beta = *(const float *)beta;
    o->x = x, o->xn = elems(xDesc);
    o->y = y, o->yn = elems(yDesc);
    o->cn = xDesc->n, o->cc = xDesc->c, o->ch = xDesc->h, o->cw = xDesc->w;
    o->algo = algo;
    o->mode = mode;
    return submit(handle, o, 0);
}
