/* cublas.c — the cuBLAS functions gpubench calls, for the simulated devices, built into the
 * library that stands in for the toolkit's libcublas (same SONAME and symbol version). Test-only
 * code.
 *
 * Semantics are cuBLAS's (cuBLAS Library documentation, "cuBLAS Level-1/2/3 Function
 * Reference"): column-major operands, CUBLAS_OP_N/T/C (C = T for real types), the argument checks
 * and their CUBLAS_STATUS_INVALID_VALUE, quick returns, scalars read through the handle's pointer
 * mode, work queued on the handle's stream (the call returns before it runs, and a fault of the
 * work breaks the device as a kernel's would). The arithmetic is OpenBLAS's (cblas, column-major).
 *
 * Architectures: cuBLAS of CUDA 13 ships code for sm_75 and newer only (CUDA 13 compiles for
 * nothing older), cuBLAS 12 for sm_50 and newer, 11 for sm_35, 10 for sm_30; on an older card
 * (not built-for-card, which pretends an old toolkit's cuBLAS) every computing call returns
 * CUBLAS_STATUS_ARCH_MISMATCH, the status cuBLAS documents for "a feature absent from the device
 * architecture".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <cublas_api.h>

#include "tests/sim/sim.h"

#if CUBLAS_VER_MAJOR >= 13
#define CUBLAS_MIN_SM 75
#elif CUBLAS_VER_MAJOR >= 12
#define CUBLAS_MIN_SM 50
#elif CUBLAS_VER_MAJOR >= 11
#define CUBLAS_MIN_SM 35
#else
#define CUBLAS_MIN_SM 30
#endif

enum { HANDLE_MAGIC = 0xb1a5 };

struct cublasContext {
    int magic;
    struct gbsim_device *dev;
    cudaStream_t stream;
    cublasMath_t math;
    cublasPointerMode_t pmode;
    size_t workspace; /* charged to the device */
};

/* A fault: a cuBLAS status as it is; a cudaError as the failure of the CUDA work cuBLAS did. */
static cublasStatus_t injected(int code, enum gbsim_lib lib, struct gbsim_device *d) {
    if (lib == GBSIM_CUBLAS)
        return (cublasStatus_t)code;
    if (gbsim_is_sticky((cudaError_t)code)) {
        if (d)
            gbsim_break(d, (cudaError_t)code);
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return code == cudaErrorMemoryAllocation ? CUBLAS_STATUS_ALLOC_FAILED
                                             : CUBLAS_STATUS_EXECUTION_FAILED;
}

#define COUNT(d)                                                                                   \
    do {                                                                                           \
        int code_;                                                                                 \
        enum gbsim_lib lib_;                                                                       \
        struct gbsim_device *d_ = (d);                                                             \
        if (gbsim_enter(__func__, GBSIM_CUBLAS, d_ ? d_->ordinal : -1, &code_, &lib_))             \
            return injected(code_, lib_, d_);                                                      \
    } while (0)

static int valid(cublasHandle_t h) {
    return h && h->magic == HANDLE_MAGIC;
}

static struct gbsim_device *dev_of(cublasHandle_t h) {
    return valid(h) ? h->dev : gbsim_current();
}

/* cuBLAS keeps a workspace per handle (cuBLAS documentation, cublasSetWorkspace: 4 MiB by
 * default, 32 MiB on Hopper and newer). */
static size_t default_workspace(const struct gbsim_device *d) {
    return (size_t)(d->sm >= 90 ? 32 : 4) << 20;
}

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
    struct gbsim_device *d = gbsim_current();
    cublasHandle_t h;
    COUNT(d);
    if (!handle)
        return CUBLAS_STATUS_INVALID_VALUE;
    *handle = NULL;
    if (gbsim_init_error() != cudaSuccess || !d)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    gbsim_lock();
    cudaError_t sticky = d->sticky;
    gbsim_unlock();
    if (sticky != cudaSuccess)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!(h = calloc(1, sizeof *h)))
        return CUBLAS_STATUS_ALLOC_FAILED;
    h->workspace = default_workspace(d);
    if (!gbsim_charge(d, h->workspace)) {
        free(h);
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    if (!gbsim_keep(h)) {
        gbsim_release(d, h->workspace);
        free(h);
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    h->magic = HANDLE_MAGIC;
    h->dev = d;
    h->math = CUBLAS_DEFAULT_MATH;
    h->pmode = CUBLAS_POINTER_MODE_HOST;
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

/* cublasDestroy waits for the handle's work (it synchronizes) and releases the workspace. */
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    gbsim_device_drain(handle->dev);
    gbsim_release(handle->dev, handle->workspace);
    handle->magic = 0;
    gbsim_drop(handle);
    free(handle);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version) {
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!version)
        return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value) {
    COUNT(NULL);
    if (!value)
        return CUBLAS_STATUS_INVALID_VALUE;
    switch (type) {
    case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; break;
    case MINOR_VERSION: *value = CUBLAS_VER_MINOR; break;
    case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; break;
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
    return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusName(cublasStatus_t status) {
    const char *n = gbsim_cublas_status_name((int)status);
    return n[0] ? n : "CUBLAS_STATUS_UNKNOWN";
}

const char *cublasGetStatusString(cublasStatus_t status) {
    return cublasGetStatusName(status);
}

/* cuBLAS does not check the stream: a bad one fails when work is launched on it. */
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId) {
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId) {
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!streamId)
        return CUBLAS_STATUS_INVALID_VALUE;
    *streamId = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->pmode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode) {
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->pmode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
    unsigned base = (unsigned)mode & ~(unsigned)CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (base != CUBLAS_DEFAULT_MATH && base != CUBLAS_TENSOR_OP_MATH &&
        base != CUBLAS_PEDANTIC_MATH && base != CUBLAS_TF32_TENSOR_OP_MATH)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->math = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode) {
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->math;
    return CUBLAS_STATUS_SUCCESS;
}

/* --- the computing calls ------------------------------------------------------------------- */
/* One queued BLAS call. Scalars: by value in host pointer mode, read when it runs otherwise. */
struct blas_op {
    struct gbsim_op op;
    int kind; /* 0 gemm, 1 gemv, 2 axpy */
    int ta, tb, m, n, k, lda, ldb, ldc, incx, incy;
    float alpha, beta;
    const float *alpha_p, *beta_p; /* device pointer mode */
    const float *a, *b;
    float *c;
};

/* Elements a column-major operand of `rows` × `cols` with leading dimension ld spans. */
static size_t span(int rows, int cols, int ld) {
    return rows <= 0 || cols <= 0 ? 0 : (size_t)(cols - 1) * (size_t)ld + (size_t)rows;
}

static size_t vspan(int n, int inc) {
    return n <= 0 ? 0 : (size_t)(n - 1) * (size_t)(inc < 0 ? -inc : inc) + 1;
}

static int in_device(const void *p, size_t elems) {
    return elems == 0 || gbsim_device_range(p, elems * sizeof(float), -1);
}

static enum CBLAS_TRANSPOSE ctrans(int t) {
    return t == CUBLAS_OP_N ? CblasNoTrans : CblasTrans; /* OP_C = OP_T for real types */
}

static cudaError_t run_blas(struct gbsim_op *op, int broken) {
    struct blas_op *o = (struct blas_op *)op;
    float alpha = o->alpha, beta = o->beta;
    if (broken)
        return cudaSuccess;
    if ((o->alpha_p && !in_device(o->alpha_p, 1)) || (o->beta_p && !in_device(o->beta_p, 1)))
        return cudaErrorIllegalAddress;
    if (o->alpha_p)
        alpha = *o->alpha_p;
    if (o->beta_p)
        beta = *o->beta_p;
    if (o->kind == 0) { /* C (m×n) = alpha·op(A)·op(B) + beta·C */
        int ar = o->ta == CUBLAS_OP_N ? o->m : o->k, ac = o->ta == CUBLAS_OP_N ? o->k : o->m;
        int br = o->tb == CUBLAS_OP_N ? o->k : o->n, bc = o->tb == CUBLAS_OP_N ? o->n : o->k;
        if (!in_device(o->a, o->k ? span(ar, ac, o->lda) : 0) ||
            !in_device(o->b, o->k ? span(br, bc, o->ldb) : 0) ||
            !in_device(o->c, span(o->m, o->n, o->ldc)))
            return cudaErrorIllegalAddress;
        if (beta == 0.0f) /* C is not read when beta is 0 (NaN in it must not survive) */
            for (int j = 0; j < o->n; j++)
                memset(o->c + (size_t)j * o->ldc, 0, (size_t)o->m * sizeof(float));
        if (o->k == 0 || alpha == 0.0f) {
            if (beta != 0.0f && beta != 1.0f)
                for (int j = 0; j < o->n; j++)
                    for (int i = 0; i < o->m; i++)
                        o->c[(size_t)j * o->ldc + i] *= beta;
            return cudaSuccess;
        }
        cblas_sgemm(CblasColMajor, ctrans(o->ta), ctrans(o->tb), o->m, o->n, o->k, alpha, o->a,
                    o->lda, o->b, o->ldb, beta, o->c, o->ldc);
    } else if (o->kind == 1) { /* y = alpha·op(A)·x + beta·y, A m×n */
        int xl = o->ta == CUBLAS_OP_N ? o->n : o->m, yl = o->ta == CUBLAS_OP_N ? o->m : o->n;
        if (!in_device(o->a, span(o->m, o->n, o->lda)) || !in_device(o->b, vspan(xl, o->incx)) ||
            !in_device(o->c, vspan(yl, o->incy)))
            return cudaErrorIllegalAddress;
        if (beta == 0.0f)
            for (int i = 0; i < yl; i++)
                o->c[(size_t)i * (size_t)abs(o->incy)] = 0.0f;
        cblas_sgemv(CblasColMajor, ctrans(o->ta), o->m, o->n, alpha, o->a, o->lda, o->b, o->incx,
                    beta, o->c, o->incy);
    } else { /* y += alpha·x */
        if (!in_device(o->b, vspan(o->n, o->incx)) || !in_device(o->c, vspan(o->n, o->incy)))
            return cudaErrorIllegalAddress;
        cblas_saxpy(o->n, alpha, o->b, o->incx, o->c, o->incy);
    }
    return cudaSuccess;
}

/* After the argument checks: the architecture, the device's state, the stream; then queue. */
static cublasStatus_t submit(cublasHandle_t h, struct blas_op *o, const float *alpha,
                             const float *beta) {
    struct gbsim_stream *st;
    struct blas_op *q;
    cudaError_t err, sticky;
    if (gbsim_device_below(h->dev, CUBLAS_MIN_SM))
        return CUBLAS_STATUS_ARCH_MISMATCH;
    gbsim_lock();
    sticky = h->dev->sticky;
    gbsim_unlock();
    if (sticky != cudaSuccess)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    st = gbsim_stream_of(h->stream, h->dev, &err);
    if (!st || gbsim_stream_device(st) != h->dev)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    if (!(q = malloc(sizeof *q)))
        return CUBLAS_STATUS_ALLOC_FAILED;
    *q = *o;
    q->op.run = run_blas;
    q->op.free = NULL;
    if (h->pmode == CUBLAS_POINTER_MODE_HOST) {
        q->alpha = *alpha;
        q->beta = beta ? *beta : 0.0f;
        q->alpha_p = q->beta_p = NULL;
    } else {
        q->alpha_p = alpha;
        q->beta_p = beta;
    }
    gbsim_enqueue(st, &q->op, 0);
    return CUBLAS_STATUS_SUCCESS;
}

static int op_ok(cublasOperation_t t) {
    return t == CUBLAS_OP_N || t == CUBLAS_OP_T || t == CUBLAS_OP_C;
}

static int imax1(int a) {
    return a > 1 ? a : 1;
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k, const float *alpha,
                              const float *A, int lda, const float *B, int ldb, const float *beta,
                              float *C, int ldc) {
    struct blas_op o;
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    /* cublas<t>gemm: "m, n, k < 0, transa/transb not N, C or T, lda < max(1, m) for N and
     * max(1, k) otherwise, ldb < max(1, k) for N and max(1, n) otherwise, ldc < max(1, m), alpha
     * or beta NULL" → CUBLAS_STATUS_INVALID_VALUE */
    if (m < 0 || n < 0 || k < 0 || !op_ok(transa) || !op_ok(transb) ||
        lda < imax1(transa == CUBLAS_OP_N ? m : k) || ldb < imax1(transb == CUBLAS_OP_N ? k : n) ||
        ldc < imax1(m) || !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    memset(&o, 0, sizeof o);
    o.kind = 0;
    o.ta = transa, o.tb = transb, o.m = m, o.n = n, o.k = k;
    o.a = A, o.lda = lda, o.b = B, o.ldb = ldb, o.c = C, o.ldc = ldc;
    return submit(handle, &o, alpha, beta);
}

cublasStatus_t cublasSgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                              const float *alpha, const float *A, int lda, const float *x, int incx,
                              const float *beta, float *y, int incy) {
    struct blas_op o;
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    /* cublas<t>gemv: "m, n < 0, incx or incy 0, lda < max(1, m), trans invalid, alpha or beta
     * NULL" → CUBLAS_STATUS_INVALID_VALUE */
    if (m < 0 || n < 0 || incx == 0 || incy == 0 || lda < imax1(m) || !op_ok(trans) || !alpha ||
        !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    memset(&o, 0, sizeof o);
    o.kind = 1;
    o.ta = trans, o.m = m, o.n = n;
    o.a = A, o.lda = lda, o.b = x, o.incx = incx, o.c = y, o.incy = incy;
    return submit(handle, &o, alpha, beta);
}

cublasStatus_t cublasSaxpy_v2(cublasHandle_t handle, int n, const float *alpha, const float *x,
                              int incx, float *y, int incy) {
    struct blas_op o;
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    memset(&o, 0, sizeof o);
    o.kind = 2;
    o.n = n;
    o.b = x, o.incx = incx, o.c = y, o.incy = incy;
    return submit(handle, &o, alpha, NULL);
}
