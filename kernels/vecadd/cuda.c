/* cuda.c — vecadd/cuda: c = a + b with our grid-stride kernel (kernels.cuh), on the run's
 * stream.
 *
 * Problem layout (bench/vecadd.h): in a, b, out c, n elements each: floats, doubles for
 * f64, and for f16 float32 values of the tier that prepare turns into halves (host copies, so
 * that upload and download move 2 bytes an element, as a program holding halves would; finish
 * turns the downloaded halves back for the verifier). upload copies a and b, run launches the
 * kernel, download copies c back. Every run computes the same c, so every run could be verified.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/core/dtype.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/vecadd/cuda.h"
#include "bench/vecadd.h"

enum { IN_A = VECADD_IN_A, IN_B = VECADD_IN_B, OUT_C = VECADD_OUT_C };

struct vecadd_cuda_state {
    void *a, *b, *c; /* device */
    const void *host_a, *host_b;
    void *host_c;
    uint16_t *half_a, *half_b, *half_c; /* f16 host copies */
    size_t n, size; /* elements, bytes per element */
    enum dtype t;
};

/* Where upload reads and download writes: the problem's buffers, or (f16) half copies. */
static enum status host_side(struct impl_ctx *ctx, struct vecadd_cuda_state *s) {
    struct problem *p = ctx->p;
    if (s->t == DT_F64) {
        s->host_a = p->in[IN_A].data64, s->host_b = p->in[IN_B].data64;
        s->host_c = p->out[OUT_C].data64;
    } else if (s->t == DT_F16) {
        s->half_a = dtype_halves_new(p->in[IN_A].data, s->n, DT_F16);
        s->half_b = dtype_halves_new(p->in[IN_B].data, s->n, DT_F16);
        s->half_c = malloc(s->n * sizeof *s->half_c + 1);
        if (!s->half_a || !s->half_b || !s->half_c) {
            snprintf(ctx->note, sizeof ctx->note, "out of host memory for the FP16 copies");
            return ST_OOM;
        }
        s->host_a = s->half_a, s->host_b = s->half_b, s->host_c = s->half_c;
        snprintf(ctx->note, sizeof ctx->note, "FP16 storage, half2 pairs, __hadd2");
    } else {
        s->host_a = p->in[IN_A].data, s->host_b = p->in[IN_B].data;
        s->host_c = p->out[OUT_C].data;
    }
    return ST_OK;
}

static enum status vecadd_cuda_prepare(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s;
    size_t bytes;
    enum status st;
    if ((st = gb_check_kernels(ctx, gb_vecadd_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    s->n = ctx->p->out[OUT_C].n;
    s->t = ctx->p->dtype;
    s->size = (size_t)dtype_bytes(s->t);
    if ((st = host_side(ctx, s)) != ST_OK)
        return st;
    bytes = s->n * s->size;
    if ((st = gb_row_footprint(ctx, 3 * bytes, "a, b, c")) != ST_OK ||
        (st = gb_malloc(ctx, &s->a, bytes, "a")) != ST_OK ||
        (st = gb_malloc(ctx, &s->b, bytes, "b")) != ST_OK ||
        (st = gb_malloc(ctx, &s->c, bytes, "c")) != ST_OK)
        return st;
    return ST_OK;
}

static enum status vecadd_cuda_upload(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s = ctx->state;
    size_t bytes = s->n * s->size;
    CU_TRY(cudaMemcpyAsync(s->a, s->host_a, bytes, cudaMemcpyHostToDevice, gb_stream()), ctx);
    CU_TRY(cudaMemcpyAsync(s->b, s->host_b, bytes, cudaMemcpyHostToDevice, gb_stream()), ctx);
    return ST_OK;
}

static enum status vecadd_cuda_run(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s = ctx->state;
    if (s->t == DT_F64)
        CU_TRY(gb_vecadd64(gb_stream(), s->a, s->b, s->c, s->n), ctx);
    else if (s->t == DT_F16)
        CU_TRY(gb_vecadd16(gb_stream(), s->a, s->b, s->c, s->n), ctx);
    else
        CU_TRY(gb_vecadd(gb_stream(), s->a, s->b, s->c, s->n), ctx);
    return ST_OK;
}

static enum status vecadd_cuda_download(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s = ctx->state;
    CU_TRY(cudaMemcpyAsync(s->host_c, s->c, s->n * s->size, cudaMemcpyDeviceToHost, gb_stream()),
           ctx);
    return ST_OK;
}

/* After the verified run's download (synchronized): the f16 halves into p->out. */
static enum status vecadd_cuda_finish(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s = ctx->state;
    if (s->t == DT_F16)
        dtype_halves_to_f32(s->half_c, ctx->p->out[OUT_C].data, s->n, DT_F16);
    return ST_OK;
}

static void vecadd_cuda_release(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s = ctx->state;
    if (!s)
        return;
    CU_WARN(cudaStreamSynchronize(gb_stream())); /* nothing of ours may still be queued */
    void *bufs[] = {s->a, s->b, s->c};
    gb_free_device(bufs, sizeof bufs / sizeof bufs[0]);
    free(s->half_a), free(s->half_b), free(s->half_c);
    free(s);
    ctx->state = NULL;
}

const struct impl vecadd_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own grid-stride kernel c = a + b (float4 when aligned; doubles for f64; half2 "
               "pairs for f16)",
    .prepare = vecadd_cuda_prepare,
    .upload = vecadd_cuda_upload,
    .run = vecadd_cuda_run,
    .download = vecadd_cuda_download,
    .finish = vecadd_cuda_finish,
    .release = vecadd_cuda_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
};
