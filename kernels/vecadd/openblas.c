/* openblas.c — vecadd/openblas: cblas_saxpy (f32) or cblas_daxpy (f64), y = 1·x + y, with y
 * starting as b in the output buffer (OpenBLAS's own threads). */
#include <string.h>

#include "harness/core/blas.h"

#include "harness/core/workload.h"
#include "bench/vecadd.h"

static enum status saxpy_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    /* The output doubles as y; it starts as b. Only the first run after prepare is verified:
     * later runs keep adding a, which times the same memory traffic. */
    if (p->dtype == DT_F64)
        memcpy(p->out[VECADD_OUT_C].data64, p->in[VECADD_IN_B].data64,
               p->out[VECADD_OUT_C].n * sizeof(double));
    else
        memcpy(p->out[VECADD_OUT_C].data, p->in[VECADD_IN_B].data,
               p->out[VECADD_OUT_C].n * sizeof(float));
    return ST_OK;
}

static enum status saxpy_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    /* bench/vecadd.c keeps n within cblas's int */
    if (p->dtype == DT_F64) {
        cblas_daxpy((blasint)p->out[VECADD_OUT_C].n, 1.0, p->in[VECADD_IN_A].data64, 1,
                    p->out[VECADD_OUT_C].data64, 1);
        return ST_OK;
    }
    cblas_saxpy((blasint)p->out[VECADD_OUT_C].n, 1.0f, p->in[VECADD_IN_A].data, 1,
                p->out[VECADD_OUT_C].data, 1);
    return ST_OK;
}

const struct impl vecadd_openblas_impl = {
    .name = "openblas",
    .kind = DEV_CPU,
    .summary = "cblas_saxpy / cblas_daxpy y = x + y (OpenBLAS threads)",
    .prepare = saxpy_prepare,
    .run = saxpy_run,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64),
    /* y = x + y: x and y, 2 of the 3 arrays vecadd counts; each element read twice and
     * written once, as counted, but y's stores land on lines just read */
    .touched_per_byte = 2.0 / 3,
    .traffic_note = "in place (y = x + y): 2 of the 3 arrays counted, its stores need no "
                    "read-for-ownership"};
