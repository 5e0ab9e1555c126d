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

#include <cublas_v2.h> /* cublas_api.h alone stops CUDA 11 (CUBLASAPI undefined) */

#include "harness/core/blas.h"
#include "harness/core/dtype.h"
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

/* --- the math a GEMM runs in ---------------------------------------------------------------- */
/* What arithmetic cuBLAS would use for an FP32 or FP64 GEMM on handle h, as the events file
 * records it (once per function and mode, per process): the math mode's name, and
 * "+fp64-emulation" / "+bf16x9-emulation" where default math would emulate because the
 * environment turns emulation on (cuBLAS documentation §1.5, Floating Point Emulation:
 * CUBLAS_EMULATE_DOUBLE_PRECISION=1 from cuBLAS 13.1 on compute capability 8.x, 9.0, 10.0,
 * 11.0 and 12.x; CUBLAS_EMULATE_SINGLE_PRECISION=1 from 12.9 on 10.0 and 10.3). Pedantic math
 * never emulates (§2.2.10: "standardized arithmetic for all phases"). */
static int env_is_1(const char *name) {
    const char *v = getenv(name);
    return v && strcmp(v, "1") == 0;
}

static void record_math(cublasHandle_t h, const char *func, int f64) {
    static char seen[16][96];
    static int nseen;
    unsigned base = (unsigned)h->math & ~(unsigned)CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    int sm = h->dev ? h->dev->sm : 0;
    const char *mode = base == CUBLAS_DEFAULT_MATH    ? "default"
                       : base == CUBLAS_PEDANTIC_MATH ? "pedantic"
                       : base == CUBLAS_TENSOR_OP_MATH
                           ? "tensor-op"
                           : base == CUBLAS_TF32_TENSOR_OP_MATH ? "tf32" : "other";
    const char *emu = "";
    if (base == CUBLAS_DEFAULT_MATH && f64 && CUBLAS_VERSION >= 130100 &&
        env_is_1("CUBLAS_EMULATE_DOUBLE_PRECISION") &&
        (sm / 10 == 8 || sm == 90 || sm == 100 || sm == 110 || sm / 10 == 12))
        emu = "+fp64-emulation";
    if (base == CUBLAS_DEFAULT_MATH && !f64 && CUBLAS_VERSION >= 120900 &&
        env_is_1("CUBLAS_EMULATE_SINGLE_PRECISION") && (sm == 100 || sm == 103))
        emu = "+bf16x9-emulation";
    char key[96];
    snprintf(key, sizeof key, "%s math=%s%s", func, mode, emu);
    gbsim_lock();
    int fresh = 1;
    for (int i = 0; i < nseen && fresh; i++)
        fresh = strcmp(seen[i], key) != 0;
    if (fresh && nseen < 16)
        snprintf(seen[nseen++], sizeof seen[0], "%s", key);
    gbsim_unlock();
    if (fresh)
        gbsim_event("cublas %s", key);
}

/* --- the computing calls ------------------------------------------------------------------- */
/* One queued BLAS call. Scalars: by value in host pointer mode, read when it runs otherwise. */
struct blas_op {
    struct gbsim_op op;
    int kind; /* 0 matrix product (cublasSgemm, ...), 1 gemv, 2 axpy */
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

/* After the argument checks: the architecture, the device's state; the stream to queue on. */
static cublasStatus_t queue_of(cublasHandle_t h, struct gbsim_stream **st) {
    cudaError_t err, sticky;
    if (gbsim_device_below(h->dev, CUBLAS_MIN_SM))
        return CUBLAS_STATUS_ARCH_MISMATCH;
    gbsim_lock();
    sticky = h->dev->sticky;
    gbsim_unlock();
    if (sticky != cudaSuccess)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    *st = gbsim_stream_of(h->stream, h->dev, &err);
    if (!*st || gbsim_stream_device(*st) != h->dev)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t submit(cublasHandle_t h, struct blas_op *o, const float *alpha,
                             const float *beta) {
    struct gbsim_stream *st;
    struct blas_op *q;
    cublasStatus_t cs = queue_of(h, &st);
    if (cs != CUBLAS_STATUS_SUCCESS)
        return cs;
    if (!(q = malloc(sizeof *q)))
        return CUBLAS_STATUS_ALLOC_FAILED;
    *q = *o;
    q->op.run = run_blas;
    q->op.free = NULL;
    q->op.name = gbsim_calling(); /* cublasGemmEx…: GPUBENCH_SIM_HANG / _TRAP match it */
    q->op.pace_key = gbsim_pace_key(run_blas, (const long long[]){q->kind, q->ta, q->tb, q->m,
                                                                   q->n, q->k, q->incx, q->incy},
                                    8);
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
    /* cublasSgemm and its kin: "m, n, k < 0, transa/transb not N, C or T, lda < max(1, m) for N and
     * max(1, k) otherwise, ldb < max(1, k) for N and max(1, n) otherwise, ldc < max(1, m), alpha
     * or beta NULL" → CUBLAS_STATUS_INVALID_VALUE */
    if (m < 0 || n < 0 || k < 0 || !op_ok(transa) || !op_ok(transb) ||
        lda < imax1(transa == CUBLAS_OP_N ? m : k) || ldb < imax1(transb == CUBLAS_OP_N ? k : n) ||
        ldc < imax1(m) || !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    record_math(handle, "cublasSgemm_v2", 0);
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

/* --- f64 and mixed precision: cublasDgemm, cublasDaxpy, cublasGemmEx ----------------------- */
/* One queued call whose operands are not all float: computed in double from the operands'
 * values (after TF32 rounding when the compute type asks for it) and stored in C's type. Scalars
 * in host pointer mode only (gpubench's); device pointer mode answers NOT_SUPPORTED here. */
struct blas_x_op {
    struct gbsim_op op;
    int gemm; /* 1 C = alpha·op(A)·op(B) + beta·C; 0 y += alpha·x */
    int ta, tb, m, n, k, lda, ldb, ldc, incx, incy;
    cudaDataType_t ab, c; /* element types of A/B (x) and C (y) */
    int tf32;             /* CUBLAS_COMPUTE_32F_FAST_TF32: A and B rounded to 10 mantissa bits */
    double alpha, beta;
    const void *a, *b;
    void *cp;
};

static size_t esize(cudaDataType_t t) {
    return t == CUDA_R_64F ? 8 : t == CUDA_R_32F ? 4 : 2;
}

static float f32_of_bits(unsigned u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* IEEE half → float, subnormals and specials included. */
static float half_value(unsigned short h) {
    unsigned sign = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                      : ldexpf((float)(m | 1024), (int)e - 25);
    return sign ? -v : v;
}

/* Round a float to TF32 (nearest, ties away: what the tensor cores' conversion does). */
static float tf32_round(float x) {
    unsigned u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u = (u + 0x1000u) & ~0x1fffu;
    return f32_of_bits(u);
}

static double elem(const void *p, size_t i, cudaDataType_t t, int tf32) {
    if (t == CUDA_R_64F)
        return ((const double *)p)[i];
    if (t == CUDA_R_16F)
        return half_value(((const unsigned short *)p)[i]);
    if (t == CUDA_R_16BF)
        return f32_of_bits((unsigned)((const unsigned short *)p)[i] << 16);
    return tf32 ? tf32_round(((const float *)p)[i]) : ((const float *)p)[i];
}

static int x_in_device(const void *p, size_t elems, cudaDataType_t t) {
    return elems == 0 || gbsim_device_range(p, elems * esize(t), -1);
}

/* op(X)[r][c] of a column-major operand with leading dimension ld. */
static double at(const void *p, int trans, int r, int c, int ld, cudaDataType_t t, int tf32) {
    size_t i = trans == CUBLAS_OP_N ? (size_t)c * (size_t)ld + (size_t)r
                                    : (size_t)r * (size_t)ld + (size_t)c;
    return elem(p, i, t, tf32);
}

/* op(A)·op(B) (m×n, column-major) in double through OpenBLAS's dgemm, from dense double copies
 * of the operands' values (TF32-rounded when asked): a default-shape DGEMM or GemmEx then takes
 * a second, not minutes of elem() calls. NULL when out of memory (the caller loops instead) or
 * when alpha is 0 (the product is not computed at all). */
static double *x_products(const struct blas_x_op *o) {
    size_t m = (size_t)o->m, n = (size_t)o->n, k = (size_t)o->k;
    if (o->alpha == 0.0)
        return NULL;
    double *a = malloc(m * k * sizeof *a + 1), *b = malloc(k * n * sizeof *b + 1);
    double *c = calloc(m * n + 1, sizeof *c);
    if (!a || !b || !c) {
        free(a), free(b), free(c);
        return NULL;
    }
    for (size_t l = 0; l < k; l++) {
        for (size_t i = 0; i < m; i++)
            a[l * m + i] = at(o->a, o->ta, (int)i, (int)l, o->lda, o->ab, o->tf32);
        for (size_t j = 0; j < n; j++)
            b[j * k + l] = at(o->b, o->tb, (int)l, (int)j, o->ldb, o->ab, o->tf32);
    }
    if (k > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, o->m, o->n, o->k, 1.0, a, o->m, b,
                    o->k, 0.0, c, o->m);
    free(a), free(b);
    return c;
}

static cudaError_t run_blas_x(struct gbsim_op *op, int broken) {
    struct blas_x_op *o = (struct blas_x_op *)op;
    if (broken)
        return cudaSuccess;
    if (!o->gemm) {
        if (!x_in_device(o->b, vspan(o->n, o->incx), o->ab) ||
            !x_in_device(o->cp, vspan(o->n, o->incy), o->c))
            return cudaErrorIllegalAddress;
        if (o->c == CUDA_R_64F) {
            cblas_daxpy(o->n, o->alpha, o->b, o->incx, o->cp, o->incy);
            return cudaSuccess;
        }
        /* cublasAxpyEx on halves: FP32 execution, one rounding to half per element */
        unsigned short *y = o->cp;
        for (int i = 0; i < o->n; i++) {
            size_t xi = (size_t)i * (size_t)o->incx, yi = (size_t)i * (size_t)o->incy;
            float v = fmaf((float)o->alpha, (float)elem(o->b, xi, o->ab, 0),
                           (float)elem(o->cp, yi, o->c, 0));
            y[yi] = dtype_f32_to_f16(v);
        }
        return cudaSuccess;
    }
    int ar = o->ta == CUBLAS_OP_N ? o->m : o->k, ac = o->ta == CUBLAS_OP_N ? o->k : o->m;
    int br = o->tb == CUBLAS_OP_N ? o->k : o->n, bc = o->tb == CUBLAS_OP_N ? o->n : o->k;
    if (!x_in_device(o->a, o->k ? span(ar, ac, o->lda) : 0, o->ab) ||
        !x_in_device(o->b, o->k ? span(br, bc, o->ldb) : 0, o->ab) ||
        !x_in_device(o->cp, span(o->m, o->n, o->ldc), o->c))
        return cudaErrorIllegalAddress;
    double *prod = x_products(o);
    for (int j = 0; j < o->n; j++)
        for (int i = 0; i < o->m; i++) {
            double s = 0;
            size_t ci = (size_t)j * (size_t)o->ldc + (size_t)i;
            if (prod)
                s = prod[(size_t)j * (size_t)o->m + (size_t)i];
            else
                for (int l = 0; l < o->k && o->alpha != 0.0; l++)
                    s += at(o->a, o->ta, i, l, o->lda, o->ab, o->tf32) *
                         at(o->b, o->tb, l, j, o->ldb, o->ab, o->tf32);
            /* C is not read when beta is 0 (NaN in it must not survive) */
            double old = o->beta == 0.0 ? 0.0 : elem(o->cp, ci, o->c, 0);
            double v = o->alpha * s + o->beta * old;
            if (o->c == CUDA_R_64F)
                ((double *)o->cp)[ci] = v;
            else
                ((float *)o->cp)[ci] = (float)v;
        }
    free(prod);
    return cudaSuccess;
}

static cublasStatus_t submit_x(cublasHandle_t h, const struct blas_x_op *o) {
    struct gbsim_stream *st;
    struct blas_x_op *q;
    cublasStatus_t cs;
    if (h->pmode != CUBLAS_POINTER_MODE_HOST)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if ((cs = queue_of(h, &st)) != CUBLAS_STATUS_SUCCESS)
        return cs;
    if (!(q = malloc(sizeof *q)))
        return CUBLAS_STATUS_ALLOC_FAILED;
    *q = *o;
    q->op.run = run_blas_x;
    q->op.free = NULL;
    q->op.name = gbsim_calling(); /* cublasGemmEx…: GPUBENCH_SIM_HANG / _TRAP match it */
    q->op.pace_key = gbsim_pace_key(run_blas_x, (const long long[]){q->gemm, q->ta, q->tb, q->m,
                                                                     q->n, q->k, q->ab, q->c,
                                                                     q->tf32},
                                    9);
    gbsim_enqueue(st, &q->op, 0);
    return CUBLAS_STATUS_SUCCESS;
}

/* The argument checks cublasSgemm makes (above), shared by Dgemm and GemmEx. */
static int gemm_args_ok(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, int lda,
                        int ldb, int ldc, const void *alpha, const void *beta) {
    return m >= 0 && n >= 0 && k >= 0 && op_ok(ta) && op_ok(tb) &&
           lda >= imax1(ta == CUBLAS_OP_N ? m : k) && ldb >= imax1(tb == CUBLAS_OP_N ? k : n) &&
           ldc >= imax1(m) && alpha && beta;
}

static cublasStatus_t gemm_x(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                             int n, int k, double alpha, const void *A, int lda, const void *B,
                             int ldb, double beta, void *C, int ldc, cudaDataType_t ab,
                             cudaDataType_t c, int tf32) {
    struct blas_x_op o;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    memset(&o, 0, sizeof o);
    o.gemm = 1, o.ta = ta, o.tb = tb, o.m = m, o.n = n, o.k = k;
    o.a = A, o.lda = lda, o.b = B, o.ldb = ldb, o.cp = C, o.ldc = ldc;
    o.ab = ab, o.c = c, o.tf32 = tf32, o.alpha = alpha, o.beta = beta;
    return submit_x(h, &o);
}

cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k, const double *alpha,
                              const double *A, int lda, const double *B, int ldb,
                              const double *beta, double *C, int ldc) {
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!gemm_args_ok(transa, transb, m, n, k, lda, ldb, ldc, alpha, beta))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0 || handle->pmode != CUBLAS_POINTER_MODE_HOST)
        return m == 0 || n == 0 ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
    record_math(handle, "cublasDgemm_v2", 1);
    return gemm_x(handle, transa, transb, m, n, k, *alpha, A, lda, B, ldb, *beta, C, ldc,
                  CUDA_R_64F, CUDA_R_64F, 0);
}

/* y += alpha·x on n elements of type t (64F, or 16F with FP32 execution), once the entry point
 * has checked its own arguments: Daxpy and AxpyEx alike. */
static cublasStatus_t axpy_x(cublasHandle_t h, int n, double alpha, const void *x, int incx,
                             void *y, int incy, cudaDataType_t t) {
    struct blas_x_op o;
    if (n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    if (h->pmode != CUBLAS_POINTER_MODE_HOST)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    memset(&o, 0, sizeof o);
    o.n = n, o.b = x, o.incx = incx, o.cp = y, o.incy = incy;
    o.ab = o.c = t, o.alpha = alpha;
    return submit_x(h, &o);
}

cublasStatus_t cublasDaxpy_v2(cublasHandle_t handle, int n, const double *alpha, const double *x,
                              int incx, double *y, int incy) {
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha)
        return CUBLAS_STATUS_INVALID_VALUE;
    return axpy_x(handle, n, *alpha, x, incx, y, incy, CUDA_R_64F);
}

/* The combination gpubench asks for (cuBLAS documents more): x and y 16F, alpha and execution
 * 32F (compute capability 5.3, as the half gate of GemmEx below); others NOT_SUPPORTED. */
cublasStatus_t cublasAxpyEx(cublasHandle_t handle, int n, const void *alpha,
                            cudaDataType alphaType, const void *x, cudaDataType xType, int incx,
                            void *y, cudaDataType yType, int incy, cudaDataType executiontype) {
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (alphaType != CUDA_R_32F || xType != CUDA_R_16F || yType != CUDA_R_16F ||
        executiontype != CUDA_R_32F)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (gbsim_device_below(handle->dev, 53))
        return CUBLAS_STATUS_ARCH_MISMATCH;
    return axpy_x(handle, n, *(const float *)alpha, x, incx, y, incy, CUDA_R_16F);
}

/* The combinations gpubench asks for (cuBLAS documents more): A and B of one type among 32F,
 * 16F, 16BF, C 32F, FP32 compute (or FAST_TF32 on 32F operands), scalars float; others answer
 * NOT_SUPPORTED, as cuBLAS does for a combination it lacks. Tensor-op math needs compute
 * capability 5.3 for 16F, 8.0 for 16BF and TF32 (ARCH_MISMATCH below). */
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void *alpha,
                            const void *A, cudaDataType_t Atype, int lda, const void *B,
                            cudaDataType_t Btype, int ldb, const void *beta, void *C,
                            cudaDataType_t Ctype, int ldc, cublasComputeType_t computeType,
                            cublasGemmAlgo_t algo) {
    (void)algo;
    COUNT(dev_of(handle));
    if (!valid(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!gemm_args_ok(transa, transb, m, n, k, lda, ldb, ldc, alpha, beta))
        return CUBLAS_STATUS_INVALID_VALUE;
    int tf32 = computeType == CUBLAS_COMPUTE_32F_FAST_TF32;
    if (Atype != Btype || Ctype != CUDA_R_32F ||
        (Atype != CUDA_R_32F && Atype != CUDA_R_16F && Atype != CUDA_R_16BF) ||
        (computeType != CUBLAS_COMPUTE_32F && !(tf32 && Atype == CUDA_R_32F)))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    int need = Atype == CUDA_R_16F ? 53 : Atype == CUDA_R_16BF || tf32 ? 80 : 0;
    if (need && gbsim_device_below(handle->dev, need))
        return CUBLAS_STATUS_ARCH_MISMATCH;
    if (m == 0 || n == 0 || handle->pmode != CUBLAS_POINTER_MODE_HOST)
        return m == 0 || n == 0 ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
    return gemm_x(handle, transa, transb, m, n, k, *(const float *)alpha, A, lda, B, ldb,
                  *(const float *)beta, C, ldc, Atype, Ctype, tf32);
}
