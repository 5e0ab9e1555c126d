/* openblas.c — mlp_train/openblas: one SGD step on the CPU, OpenBLAS GEMMs and fused threaded
 * passes (openblas_t.h), in float32 and float64, on p->out's parameters, which prepare copies
 * from p->in's. */
#include <stdio.h>
#include <stdlib.h>

#define GB_MLP_F64 0
#include "kernels/mlp_train/openblas_t.h"
#define GB_MLP_F64 1
#include "kernels/mlp_train/openblas_t.h"

static enum status openblas_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct mlp_dims d = mlp_dims_of(&p->shape);
    const int f64 = p->dtype == DT_F64;
    const size_t bytes = (mlp_cpu_scratch_floats(&d) * (f64 ? 8 : 4) + 63) / 64 * 64;
    if (!(ctx->state = aligned_alloc(64, bytes))) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory for %zu MiB of activations",
                 bytes >> 20);
        return ST_OOM;
    }
    for (int k = 0; k < 4; k++) { /* W1, b1, W2, b2, which run updates in place */
        const struct buf *in = &p->in[MLP_IN_W1 + k];
        void *out = f64 ? (void *)p->out[MLP_OUT_W1 + k].data64 : p->out[MLP_OUT_W1 + k].data;
        memcpy(out, f64 ? (void *)in->data64 : in->data, in->n * (f64 ? 8 : 4));
    }
    return ST_OK;
}

static enum status openblas_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct mlp_dims d = mlp_dims_of(&p->shape);
    const struct buf *x = &p->in[MLP_IN_X], *w = &p->out[MLP_OUT_W1]; /* w[0..3]: W1, b1, W2, b2 */
    const float *labels = p->in[MLP_IN_LABELS].data;
    if (p->dtype == DT_F64)
        p->out[MLP_OUT_LOSS].data64[0] = mlp_cpu_step64(&d, x->data64, labels, w[0].data64,
                                                        w[1].data64, w[2].data64, w[3].data64,
                                                        MLP_LR, ctx->state);
    else
        p->out[MLP_OUT_LOSS].data[0] = mlp_cpu_step(&d, x->data, labels, w[0].data, w[1].data,
                                                    w[2].data, w[3].data, MLP_LR, ctx->state);
    return ST_OK;
}

/* prepare's scratch, for the plan's host-memory check: as floats (the plan doubles f64's). */
static double openblas_host_bytes(const struct shape *s) {
    const struct mlp_dims d = mlp_dims_of(s);
    return 4.0 * (double)mlp_cpu_scratch_floats(&d);
}

static void openblas_release(struct impl_ctx *ctx) {
    free(ctx->state);
    ctx->state = NULL;
}

const struct impl mlp_train_openblas_impl = {
    .name = "openblas", .kind = DEV_CPU, .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64),
    .summary = "OpenBLAS SGEMMs + fused threaded loops, W1 update fused into its SGEMM; f64: DGEMMs",
    .prepare = openblas_prepare, .run = openblas_run, .release = openblas_release,
    .host_bytes = openblas_host_bytes};
