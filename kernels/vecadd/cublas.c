/* cublas.c — vecadd/cublas: c = a + b as cublasSaxpy (f32), cublasDaxpy (f64) or cublasAxpyEx
 * on halves with FP32 execution (f16, CUDA 8+), y = 1·x + y, on the run's stream.
 *
 * Problem layout (bench/vecadd.h): in a, b, out c, n elements each (doubles for f64). x
 * holds a, y starts as b (upload) and ends as c (download). Timed runs keep adding a to y, which
 * moves the same bytes (read x, read y, write y: 12 bytes per element); only the run right after an
 * upload is verified. f16 rows move halves (kernels/common/dev_bufs.h: the half copies of a and b,
 * y's halves downloaded and turned into c for the verifier, never timed).
 */
#include <limits.h>
#include <stdio.h>

#include "bench/vecadd.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"

enum { IN_A = VECADD_IN_A, IN_B = VECADD_IN_B, OUT_C = VECADD_OUT_C };
enum { DEV_X, DEV_Y }; /* the device buffers, in gb_dev_prepare's order */

struct saxpy_state {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    cublasHandle_t h;
    int have_handle;
    size_t n;
    enum dtype t;
};

/* cublasAxpyEx with 16F vectors exists from CUDA 8. */
#if CUDART_VERSION >= 8000
#define VECADD_AXPY_EX 1
#else
#define VECADD_AXPY_EX 0
#endif

/* gb_dev_release's teardown: the handle, once the stream is idle. */
static void saxpy_teardown(struct impl_ctx *ctx) {
    struct saxpy_state *s = ctx->state;
    if (s->have_handle)
        CUBLAS_WARN(cublasDestroy(s->h));
}

static enum status saxpy_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    size_t n = p->out[OUT_C].n;
    if (n > (size_t)INT_MAX) {
        snprintf(ctx->note, sizeof ctx->note,
                 "n=%zu is above cublasSaxpy's int limit (%d); use the cuda implementation", n,
                 INT_MAX);
        return ST_UNSUPPORTED;
    }
    if (p->dtype == DT_F16 && !VECADD_AXPY_EX) {
        snprintf(ctx->note, sizeof ctx->note,
                 "FP16 axpy (cublasAxpyEx) needs CUDA 8.0 or newer; this gpubench was built "
                 "with an older one");
        return ST_UNSUPPORTED;
    }
    enum status st;
    if ((st = gb_impl_state(ctx, sizeof(struct saxpy_state))) != ST_OK)
        return st;
    struct saxpy_state *s = ctx->state;
    s->dev.teardown = saxpy_teardown;
    s->n = n;
    s->t = p->dtype;
    const struct gb_dev_spec spec[] = {
        [DEV_X] = {.name = "x (a)", .in = &p->in[IN_A]},
        [DEV_Y] = {.name = "y (b, then c)", .in = &p->in[IN_B], .out = &p->out[OUT_C]},
    };
    if ((st = gb_dev_prepare(ctx, spec, (int)(sizeof spec / sizeof *spec), 0,
                             "x, y; cuBLAS's workspace comes on top")) != ST_OK)
        return st;
    CUBLAS_TRY(cublasCreate(&s->h), ctx);
    s->have_handle = 1;
    CUBLAS_TRY(cublasSetStream(s->h, gb_stream()), ctx);
    if (s->t == DT_F16)
        snprintf(ctx->note, sizeof ctx->note, "cublasAxpyEx: FP16 x and y, FP32 execution");
    return ST_OK;
}

static enum status saxpy_run(struct impl_ctx *ctx) {
    struct saxpy_state *s = ctx->state;
    void *x = s->dev.ptr[DEV_X], *y = s->dev.ptr[DEV_Y];
#if VECADD_AXPY_EX
    if (s->t == DT_F16) {
        const float one = 1.0f;
        CUBLAS_TRY(cublasAxpyEx(s->h, (int)s->n, &one, CUDA_R_32F, x, CUDA_R_16F, 1, y, CUDA_R_16F,
                                1, CUDA_R_32F),
                   ctx);
        return ST_OK;
    }
#endif
    if (s->t == DT_F64) {
        const double one = 1.0;
        CUBLAS_TRY(cublasDaxpy(s->h, (int)s->n, &one, x, 1, y, 1), ctx);
        return ST_OK;
    }
    const float one = 1.0f;
    CUBLAS_TRY(cublasSaxpy(s->h, (int)s->n, &one, x, 1, y, 1), ctx);
    return ST_OK;
}

const struct impl vecadd_cublas_impl = {
    .name = "cublas",
    .kind = DEV_CUDA,
    .summary = "cublasSaxpy / cublasDaxpy / cublasAxpyEx (f16) y = x + y (y starts as b)",
    .prepare = saxpy_prepare,
    .upload = gb_dev_upload,
    .run = saxpy_run,
    .download = gb_dev_download,
    .finish = gb_dev_finish,
    .release = gb_dev_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
    /* y = x + y: x and y, 2 of the 3 arrays vecadd counts (kernels/vecadd/openblas.c) */
    .touched_per_byte = 2.0 / 3,
    .traffic_note = "in place (y = x + y): 2 of the 3 arrays counted, its stores need no "
                    "read-for-ownership",
};
