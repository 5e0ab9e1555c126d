/* cpu16.c — the f16 tier of vecadd/cpu: a, b and c stored as IEEE half precision (2 bytes an
 * element, 6 bytes moved per sum instead of 12), each sum computed in float32 and rounded once to
 * half. That is the correctly rounded half sum, the one a GPU's __hadd gives: two halves differ
 * by at most 13 binades where their float sum is exact, and beyond that the smaller one is below
 * a quarter ulp of the larger, so rounding twice cannot land on a tie.
 *
 * The conversions are F16C's 8-wide ones where the CPU has them (every x86-64 since Ivy Bridge
 * and Piledriver), the portable ones of harness/core/dtype.c elsewhere. The halves live in
 * private buffers: prepare converts the inputs, finish converts c into p->out for the verifier,
 * so the timed runs move halves only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/core/dtype.h"
#include "kernels/common/cpu_features.h"
#include "kernels/common/cpu_pool.h"
#include "kernels/vecadd/cpu16.h"
#include "bench/vecadd.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define VECADD16_X86 1
#endif

struct vecadd16_state {
    uint16_t *a, *b, *c;
    size_t n;
    int f16c; /* the CPU converts 8 halves per instruction */
};

static void add16_scalar(const uint16_t *a, const uint16_t *b, uint16_t *c, size_t lo,
                         size_t hi) {
    for (size_t i = lo; i < hi; i++)
        c[i] = dtype_f32_to_f16(dtype_f16_to_f32(a[i]) + dtype_f16_to_f32(b[i]));
}

#if VECADD16_X86
__attribute__((target("avx,f16c"))) static void add16_f16c(const uint16_t *a, const uint16_t *b,
                                                            uint16_t *c, size_t lo, size_t hi) {
    size_t i = lo;
    for (; i + 8 <= hi; i += 8) {
        __m256 x = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(a + i)));
        __m256 y = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(b + i)));
        __m128i z = _mm256_cvtps_ph(_mm256_add_ps(x, y), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128((__m128i *)(c + i), z);
    }
    add16_scalar(a, b, c, i, hi);
}
#endif

static void add16_part(void *arg, int tid, int nthreads) {
    const struct vecadd16_state *s = arg;
    size_t lo, hi;
    pool_range(s->n, nthreads, tid, 32 /* halves per 64-byte line */, &lo, &hi);
#if VECADD16_X86
    if (s->f16c) {
        add16_f16c(s->a, s->b, s->c, lo, hi);
        return;
    }
#endif
    add16_scalar(s->a, s->b, s->c, lo, hi);
}

enum status vecadd16_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    struct vecadd16_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory");
        return ST_OOM;
    }
    ctx->state = s;
    s->n = p->out[VECADD_OUT_C].n;
    s->f16c = gb_cpu_has_f16c();
    s->a = dtype_halves_new(p->in[VECADD_IN_A].data, s->n, DT_F16);
    s->b = dtype_halves_new(p->in[VECADD_IN_B].data, s->n, DT_F16);
    s->c = malloc(s->n * sizeof *s->c + 1);
    if (!s->a || !s->b || !s->c) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory for the FP16 copies (%zu MiB)",
                 3 * s->n * sizeof *s->c >> 20);
        return ST_OOM;
    }
    snprintf(ctx->note, sizeof ctx->note, "FP16 storage; %s", s->f16c
             ? "F16C conversions, FP32 add, one rounding to FP16"
             : "this CPU has no F16C: scalar conversions, FP32 add, one rounding to FP16");
    return ST_OK;
}

enum status vecadd16_run(struct impl_ctx *ctx, size_t min_parallel) {
    struct vecadd16_state *s = ctx->state;
    if (s->n < min_parallel)
        add16_part(s, 0, 1);
    else
        pool_run(add16_part, s);
    return ST_OK;
}

enum status vecadd16_finish(struct impl_ctx *ctx) {
    struct vecadd16_state *s = ctx->state;
    dtype_halves_to_f32(s->c, ctx->p->out[VECADD_OUT_C].data, s->n, DT_F16);
    return ST_OK;
}

void vecadd16_release(struct impl_ctx *ctx) {
    struct vecadd16_state *s = ctx->state;
    if (!s)
        return;
    free(s->a), free(s->b), free(s->c), free(s);
    ctx->state = NULL;
}
