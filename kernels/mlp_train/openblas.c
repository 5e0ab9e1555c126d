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
    int f64 = p->dtype == DT_F64;
    size_t bytes = (mlp_cpu_scratch_floats(&d) * (f64 ? sizeof(double) : sizeof(float)) + 63) /
                   64 * 64;
    if (!(ctx->state = aligned_alloc(64, bytes))) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory for %zu MiB of activations",
                 bytes >> 20);
        return ST_OOM;
    }
    for (int k = 0; k < 4; k++) {
        const struct buf *in = &p->in[MLP_IN_W1 + k];
        struct buf *out = &p->out[MLP_OUT_W1 + k];
        if (f64)
            memcpy(out->data64, in->data64, in->n * sizeof(double));
        else
            memcpy(out->data, in->data, in->n * sizeof(float));
    }
    return ST_OK;
}

static enum status openblas_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct mlp_dims d = mlp_dims_of(&p->shape);
    if (p->dtype == DT_F64) {
        p->out[MLP_OUT_LOSS].data64[0] = mlp_cpu_step64(
            &d, p->in[MLP_IN_X].data64, p->in[MLP_IN_LABELS].data, p->out[MLP_OUT_W1].data64,
            p->out[MLP_OUT_B1].data64, p->out[MLP_OUT_W2].data64, p->out[MLP_OUT_B2].data64, MLP_LR,
            ctx->state);
        return ST_OK;
    }
    p->out[MLP_OUT_LOSS].data[0] =
        mlp_cpu_step(&d, p->in[MLP_IN_X].data, p->in[MLP_IN_LABELS].data, p->out[MLP_OUT_W1].data,
                     p->out[MLP_OUT_B1].data, p->out[MLP_OUT_W2].data, p->out[MLP_OUT_B2].data,
                     MLP_LR, ctx->state);
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
