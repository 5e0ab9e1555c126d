/* cuda.c — vecadd/cuda: c = a + b with our grid-stride kernel (kernels.cuh), on the run's
 * stream.
 *
 * Problem layout (bench/vecadd.h): in a, b, out c, n elements each: floats, doubles for
 * f64, halves for f16 (kernels/common/dev_bufs.h holds the buffers in the tier's storage, uploads
 * a and b, downloads c and converts halves outside the timed calls). run launches the kernel.
 * Every run computes the same c, so every run could be verified.
 */
#include <stdio.h>

#include "bench/vecadd.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"
#include "kernels/vecadd/cuda.h"

enum { IN_A = VECADD_IN_A, IN_B = VECADD_IN_B, OUT_C = VECADD_OUT_C };
enum { DEV_A, DEV_B, DEV_C }; /* the device buffers, in gb_dev_prepare's order */

struct vecadd_cuda_state {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    size_t n;
    enum dtype t;
};

static enum status vecadd_cuda_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    struct vecadd_cuda_state *s;
    enum status st;
    if ((st = gb_check_kernels(ctx, gb_vecadd_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    s->n = p->out[OUT_C].n;
    s->t = p->dtype;
    const struct gb_dev_spec spec[] = {
        [DEV_A] = {.name = "a", .in = &p->in[IN_A]},
        [DEV_B] = {.name = "b", .in = &p->in[IN_B]},
        [DEV_C] = {.name = "c", .out = &p->out[OUT_C]},
    };
    if ((st = gb_dev_prepare(ctx, spec, (int)(sizeof spec / sizeof *spec), 0, "a, b, c")) != ST_OK)
        return st;
    if (s->t == DT_F16)
        snprintf(ctx->note, sizeof ctx->note, "FP16 storage, 8 halves a 16-byte access, __hadd2");
    return ST_OK;
}

static enum status vecadd_cuda_run(struct impl_ctx *ctx) {
    struct vecadd_cuda_state *s = ctx->state;
    void *const *d = s->dev.ptr;
    if (s->t == DT_F64)
        CU_TRY(gb_vecadd64(gb_stream(), d[DEV_A], d[DEV_B], d[DEV_C], s->n), ctx);
    else if (s->t == DT_F16)
        CU_TRY(gb_vecadd16(gb_stream(), d[DEV_A], d[DEV_B], d[DEV_C], s->n), ctx);
    else
        CU_TRY(gb_vecadd(gb_stream(), d[DEV_A], d[DEV_B], d[DEV_C], s->n), ctx);
    return ST_OK;
}

const struct impl vecadd_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own grid-stride kernel c = a + b (float4 when aligned; doubles for f64; f16: "
               "8 halves a 16-byte access, __hadd2)",
    .prepare = vecadd_cuda_prepare,
    .upload = gb_dev_upload,
    .run = vecadd_cuda_run,
    .download = gb_dev_download,
    .finish = gb_dev_finish,
    .release = gb_dev_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
};
