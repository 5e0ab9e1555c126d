/* openblas.c — gemm/openblas: C = A·B in float32 with cblas_sgemm, row-major (OpenBLAS's own
 * threads; the harness sets their count once per run). */
#include <cblas.h>

#include "harness/core/workload.h"
#include "kernels/gemm/layout.h"

void gemm_cpu_sgemm(int m, int n, int k, const float *a, const float *b, float *c) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}

static enum status openblas_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    /* bench/gemm.c keeps every size within cblas's int */
    gemm_cpu_sgemm((int)p->shape.v[GEMM_KEY_M], (int)p->shape.v[GEMM_KEY_N],
                   (int)p->shape.v[GEMM_KEY_K], p->in[GEMM_IN_A].data, p->in[GEMM_IN_B].data,
                   p->out[GEMM_OUT_C].data);
    return ST_OK;
}

const struct impl gemm_openblas_impl = {.name = "openblas",
                                        .kind = DEV_CPU,
                                        .summary = "cblas_sgemm, row-major (OpenBLAS threads)",
                                        .run = openblas_run};
