/* openblas.c — gemm/openblas: C = A·B with OpenBLAS, row-major (OpenBLAS's own threads; the
 * harness sets their count once per run): cblas_sgemm (f32), cblas_dgemm (f64) and, where
 * OpenBLAS has it (built with BUILD_BFLOAT16), cblas_sbgemm (bf16 operands, FP32 accumulation
 * and output), fast where the CPU has AVX512_BF16. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/core/blas.h"
#include "harness/core/workload.h"
#include "kernels/common/cpu_features.h"
#include "bench/gemm.h"

void gemm_cpu_sgemm(int m, int n, int k, const float *a, const float *b, float *c) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}

void gemm_cpu_dgemm(int m, int n, int k, const double *a, const double *b, double *c) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, k, b, n, 0.0, c, n);
}

#ifdef GPUBENCH_HAVE_SBGEMM
/* bf16: A and B as bfloat16 (their float32 values are bf16 values already, bench/gemm.c). */
struct sb_state {
    uint16_t *a, *b;
};

static uint16_t *to_bf16(const struct buf *x) {
    uint16_t *h = malloc(x->n * sizeof *h);
    if (h)
        for (size_t i = 0; i < x->n; i++)
            h[i] = dtype_f32_to_bf16(x->data[i]);
    return h;
}
#endif

/* Only bf16 rows need anything prepared: the operands converted, outside the timed run. */
static enum status openblas_prepare(struct impl_ctx *ctx) {
    if (ctx->p->dtype != DT_BF16)
        return ST_OK;
#ifndef GPUBENCH_HAVE_SBGEMM
    snprintf(ctx->note, sizeof ctx->note,
             "this OpenBLAS has no cblas_sbgemm (0.3.10 or newer "
             "built with BUILD_BFLOAT16=1 has it)");
    return ST_UNSUPPORTED;
#else
    /* Without AVX512_BF16 OpenBLAS still computes it, on generic kernels that widen each bf16
     * to FP32: the row runs and verifies, and says why it is slow. */
    if (!gb_cpu_has_avx512bf16())
        snprintf(ctx->note, sizeof ctx->note,
                 "this CPU has no AVX512_BF16: OpenBLAS's generic cblas_sbgemm kernels, not a "
                 "bf16 GEMM at the CPU's speed");
    struct sb_state *s = calloc(1, sizeof *s);
    ctx->state = s;
    if (!s || !(s->a = to_bf16(&ctx->p->in[GEMM_IN_A])) ||
        !(s->b = to_bf16(&ctx->p->in[GEMM_IN_B]))) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory for the bf16 operands");
        return ST_OOM;
    }
    return ST_OK;
#endif
}

static enum status openblas_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    /* bench/gemm.c keeps every size within cblas's int */
    int m = (int)p->shape.v[GEMM_KEY_M], n = (int)p->shape.v[GEMM_KEY_N];
    int k = (int)p->shape.v[GEMM_KEY_K];
    if (p->dtype == DT_F64) {
        gemm_cpu_dgemm(m, n, k, p->in[GEMM_IN_A].data64, p->in[GEMM_IN_B].data64,
                       p->out[GEMM_OUT_C].data64);
        return ST_OK;
    }
#ifdef GPUBENCH_HAVE_SBGEMM
    if (p->dtype == DT_BF16) {
        const struct sb_state *s = ctx->state;
        cblas_sbgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                     (const bfloat16 *)s->a, k, (const bfloat16 *)s->b, n, 0.0f,
                     p->out[GEMM_OUT_C].data, n);
        return ST_OK;
    }
#endif
    gemm_cpu_sgemm(m, n, k, p->in[GEMM_IN_A].data, p->in[GEMM_IN_B].data, p->out[GEMM_OUT_C].data);
    return ST_OK;
}

static void openblas_release(struct impl_ctx *ctx) {
#ifdef GPUBENCH_HAVE_SBGEMM
    struct sb_state *s = ctx->state;
    if (s) {
        free(s->a);
        free(s->b);
        free(s);
    }
#endif
    ctx->state = NULL;
}

/* The tiers this build can run: bf16 only where the OpenBLAS it was built against has
 * cblas_sbgemm, so that `gpubench list` offers no tier the run then refuses. */
#ifdef GPUBENCH_HAVE_SBGEMM
#define OPENBLAS_BF16 DT_BIT(DT_BF16)
#define OPENBLAS_SUMMARY "cblas_sgemm / cblas_dgemm / cblas_sbgemm (AVX512_BF16), row-major"
#else
#define OPENBLAS_BF16 0u
#define OPENBLAS_SUMMARY                                                                          \
    "cblas_sgemm / cblas_dgemm, row-major (no bf16: this OpenBLAS has no cblas_sbgemm)"
#define OPENBLAS_NO_TIER                                                                          \
    "this OpenBLAS has no cblas_sbgemm (0.3.10 or newer built with BUILD_BFLOAT16=1 has it)"
#endif
#ifndef OPENBLAS_NO_TIER
#define OPENBLAS_NO_TIER NULL
#endif
#define OPENBLAS_NO_TIERS (DT_BIT(DT_BF16) & ~OPENBLAS_BF16)

const struct impl gemm_openblas_impl = {
    .name = "openblas",
    .kind = DEV_CPU,
    .summary = OPENBLAS_SUMMARY,
    .prepare = openblas_prepare,
    .run = openblas_run,
    .release = openblas_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | OPENBLAS_BF16,
    .no_tiers = OPENBLAS_NO_TIERS,
    .no_tier_why = OPENBLAS_NO_TIER,
};
