/* cublas.c — vecadd/cublas: c = a + b as cublasSaxpy (f32), cublasDaxpy (f64) or cublasAxpyEx
 * on halves with FP32 execution (f16, CUDA 8+), y = 1·x + y, on the run's stream.
 *
 * Problem layout (bench/vecadd.h): in a, b, out c, n elements each (doubles for f64). x
 * holds a, y starts as b (upload) and ends as c (download). Timed runs keep adding a to y, which
 * moves the same bytes (read x, read y, write y: 12 bytes per element); only the run right after an
 * upload is verified. f16 rows move halves: prepare makes half copies of a and b, download fetches
 * y's halves, finish turns them into c for the verifier (never timed).
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness/core/dtype.h"

#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "bench/vecadd.h"

enum { IN_A = VECADD_IN_A, IN_B = VECADD_IN_B, OUT_C = VECADD_OUT_C };

struct saxpy_state {
    cublasHandle_t h;
    int have_handle;
    void *x, *y;
    size_t n, size; /* elements, bytes per element */
    enum dtype t;
    const void *host_a, *host_b; /* what upload copies: the problem's, or half copies */
    void *host_c;                /* where download copies y */
    uint16_t *half_a, *half_b, *half_c;
};

/* cublasAxpyEx with 16F vectors exists from CUDA 8. */
#if CUDART_VERSION >= 8000
#define VECADD_AXPY_EX 1
#else
#define VECADD_AXPY_EX 0
#endif

/* The host side of x, y and c: the problem's buffers, or (f16) half copies of them. */
static enum status saxpy_host_side(struct impl_ctx *ctx, struct saxpy_state *s) {
    struct problem *p = ctx->p;
    if (s->t == DT_F64) {
        s->host_a = p->in[IN_A].data64, s->host_b = p->in[IN_B].data64;
        s->host_c = p->out[OUT_C].data64;
        return ST_OK;
    }
    if (s->t != DT_F16) {
        s->host_a = p->in[IN_A].data, s->host_b = p->in[IN_B].data;
        s->host_c = p->out[OUT_C].data;
        return ST_OK;
    }
    if (!VECADD_AXPY_EX) {
        snprintf(ctx->note, sizeof ctx->note,
                 "FP16 axpy (cublasAxpyEx) needs CUDA 8.0 or newer; this gpubench was built "
                 "with an older one");
        return ST_UNSUPPORTED;
    }
    s->half_a = dtype_halves_new(p->in[IN_A].data, s->n, DT_F16);
    s->half_b = dtype_halves_new(p->in[IN_B].data, s->n, DT_F16);
    s->half_c = malloc(s->n * sizeof *s->half_c + 1);
    if (!s->half_a || !s->half_b || !s->half_c) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory for the FP16 copies");
        return ST_OOM;
    }
    s->host_a = s->half_a, s->host_b = s->half_b, s->host_c = s->half_c;
    snprintf(ctx->note, sizeof ctx->note, "cublasAxpyEx: FP16 x and y, FP32 execution");
    return ST_OK;
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
    struct saxpy_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory");
        return ST_OOM;
    }
    ctx->state = s;
    s->n = n;
    s->t = p->dtype;
    s->size = (size_t)dtype_bytes(s->t);
    enum status st;
    if ((st = saxpy_host_side(ctx, s)) != ST_OK)
        return st;
    if ((st = gb_row_footprint(ctx, 2 * n * s->size, "x, y; cuBLAS's workspace comes on top")) !=
            ST_OK ||
        (st = gb_malloc(ctx, &s->x, n * s->size, "x (a)")) != ST_OK ||
        (st = gb_malloc(ctx, &s->y, n * s->size, "y (b, then c)")) != ST_OK)
        return st;
    CUBLAS_TRY(cublasCreate(&s->h), ctx);
    s->have_handle = 1;
    CUBLAS_TRY(cublasSetStream(s->h, gb_stream()), ctx);
    return ST_OK;
}

static enum status saxpy_upload(struct impl_ctx *ctx) {
    struct saxpy_state *s = ctx->state;
    cudaStream_t st = gb_stream();
    size_t bytes = s->n * s->size;
    CU_TRY(cudaMemcpyAsync(s->x, s->host_a, bytes, cudaMemcpyHostToDevice, st), ctx);
    CU_TRY(cudaMemcpyAsync(s->y, s->host_b, bytes, cudaMemcpyHostToDevice, st), ctx);
    return ST_OK;
}

static enum status saxpy_run(struct impl_ctx *ctx) {
    struct saxpy_state *s = ctx->state;
#if VECADD_AXPY_EX
    if (s->t == DT_F16) {
        const float one = 1.0f;
        CUBLAS_TRY(cublasAxpyEx(s->h, (int)s->n, &one, CUDA_R_32F, s->x, CUDA_R_16F, 1, s->y,
                                CUDA_R_16F, 1, CUDA_R_32F),
                   ctx);
        return ST_OK;
    }
#endif
    if (s->t == DT_F64) {
        const double one = 1.0;
        CUBLAS_TRY(cublasDaxpy(s->h, (int)s->n, &one, s->x, 1, s->y, 1), ctx);
        return ST_OK;
    }
    const float one = 1.0f;
    CUBLAS_TRY(cublasSaxpy(s->h, (int)s->n, &one, s->x, 1, s->y, 1), ctx);
    return ST_OK;
}

static enum status saxpy_download(struct impl_ctx *ctx) {
    struct saxpy_state *s = ctx->state;
    CU_TRY(cudaMemcpyAsync(s->host_c, s->y, s->n * s->size, cudaMemcpyDeviceToHost, gb_stream()),
           ctx);
    return ST_OK;
}

/* After the verified run's download (synchronized): the f16 halves of y into c. */
static enum status saxpy_finish(struct impl_ctx *ctx) {
    struct saxpy_state *s = ctx->state;
    if (s->t == DT_F16)
        dtype_halves_to_f32(s->half_c, ctx->p->out[OUT_C].data, s->n, DT_F16);
    return ST_OK;
}

static void saxpy_release(struct impl_ctx *ctx) {
    struct saxpy_state *s = ctx->state;
    if (!s)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream()));
    if (s->have_handle)
        CUBLAS_WARN(cublasDestroy(s->h));
    void *bufs[] = {s->x, s->y};
    gb_free_device(bufs, sizeof bufs / sizeof bufs[0]);
    free(s->half_a), free(s->half_b), free(s->half_c);
    free(s);
    ctx->state = NULL;
}

const struct impl vecadd_cublas_impl = {
    .name = "cublas",
    .kind = DEV_CUDA,
    .summary = "cublasSaxpy / cublasDaxpy / cublasAxpyEx (f16) y = x + y (y starts as b)",
    .prepare = saxpy_prepare,
    .upload = saxpy_upload,
    .run = saxpy_run,
    .download = saxpy_download,
    .finish = saxpy_finish,
    .release = saxpy_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
    /* y = x + y: x and y, 2 of the 3 arrays vecadd counts (kernels/vecadd/openblas.c) */
    .touched_per_byte = 2.0 / 3,
    .traffic_note = "in place (y = x + y): 2 of the 3 arrays counted, its stores need no "
                    "read-for-ownership",
};
