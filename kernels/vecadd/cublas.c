/* cublas.c — vecadd/cublas: c = a + b as cublasSaxpy (f32) or cublasDaxpy (f64), y = 1·x + y,
 * on the run's stream.
 *
 * Problem layout (kernels/vecadd/layout.h): in a, b, out c, n elements each (doubles for f64). x
 * holds a, y starts as b (upload) and ends as c (download). Timed runs keep adding a to y, which
 * moves the same bytes (read x, read y, write y: 12 bytes per element); only the run right after an
 * upload is verified.
 */
#include <limits.h>
#include <stdlib.h>

#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/vecadd/layout.h"

enum { IN_A = VECADD_IN_A, IN_B = VECADD_IN_B, OUT_C = VECADD_OUT_C };

struct saxpy_state {
    cublasHandle_t h;
    int have_handle;
    void *x, *y;
    size_t n, size; /* elements, bytes per element */
    int f64;
};

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
    s->f64 = p->dtype == DT_F64;
    s->size = s->f64 ? sizeof(double) : sizeof(float);
    enum status st;
    if ((st = gb_malloc(ctx, &s->x, n * s->size, "x (a)")) != ST_OK ||
        (st = gb_malloc(ctx, &s->y, n * s->size, "y (b, then c)")) != ST_OK)
        return st;
    CUBLAS_TRY(cublasCreate(&s->h), ctx);
    s->have_handle = 1;
    CUBLAS_TRY(cublasSetStream(s->h, gb_stream()), ctx);
    return ST_OK;
}

static enum status saxpy_upload(struct impl_ctx *ctx) {
    struct saxpy_state *s = ctx->state;
    struct problem *p = ctx->p;
    cudaStream_t st = gb_stream();
    size_t bytes = s->n * s->size;
    const void *a = s->f64 ? (const void *)p->in[IN_A].data64 : (const void *)p->in[IN_A].data;
    const void *b = s->f64 ? (const void *)p->in[IN_B].data64 : (const void *)p->in[IN_B].data;
    CU_TRY(cudaMemcpyAsync(s->x, a, bytes, cudaMemcpyHostToDevice, st), ctx);
    CU_TRY(cudaMemcpyAsync(s->y, b, bytes, cudaMemcpyHostToDevice, st), ctx);
    return ST_OK;
}

static enum status saxpy_run(struct impl_ctx *ctx) {
    struct saxpy_state *s = ctx->state;
    if (s->f64) {
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
    struct buf *c = &ctx->p->out[OUT_C];
    void *host = s->f64 ? (void *)c->data64 : (void *)c->data;
    CU_TRY(cudaMemcpyAsync(host, s->y, s->n * s->size, cudaMemcpyDeviceToHost, gb_stream()), ctx);
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
    free(s);
    ctx->state = NULL;
}

const struct impl vecadd_cublas_impl = {
    .name = "cublas",
    .kind = DEV_CUDA,
    .summary = "cublasSaxpy / cublasDaxpy y = x + y (y starts as b)",
    .prepare = saxpy_prepare,
    .upload = saxpy_upload,
    .run = saxpy_run,
    .download = saxpy_download,
    .release = saxpy_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64),
};
