/* cuda.c — gemm/cuda: C = A·B with our tiled, register-blocked SIMT kernels, the same code on
 * every card: SGEMM (f32), DGEMM (f64) or FP16 GEMM (f16: half2 loads and FP32 FMAs, from compute
 * capability 5.3) (kernels.cuh), on the run's stream. The tensor-core kernels are gemm/cuda_tc's
 * (cuda_tc.c).
 *
 * Problem layout (bench/gemm.h): in A (m×k), B (k×n), out C (m×n), all
 * row-major and dense (doubles for f64; for f16 the problem's float32 operands are values of the
 * tier, copied to FP16 by kernels/common/dev_bufs.h, and C is FP32). The tile configuration follows
 * the device: SGEMM and FP16 GEMM 128×128 on sm_35 and newer when the product has enough tiles,
 * 64×64 otherwise; DGEMM likewise 128×128 or 64×64 from sm_35, 32×32 before; the row note says which kernel and tile
 * ran. The f16 tier needs compute capability 5.3 and CUDA 7.5, which the runner checks before
 * (harness/gpuinfo/gpu_tier.c).
 */
#include <stdio.h>

#include "bench/gemm.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"
#include "kernels/gemm/cuda.h"

enum { M = GEMM_KEY_M, N = GEMM_KEY_N, K = GEMM_KEY_K };
enum { IN_A = GEMM_IN_A, IN_B = GEMM_IN_B, OUT_C = GEMM_OUT_C };

enum { DEV_A, DEV_B, DEV_C }; /* the device buffers, in gb_dev_prepare's order */

struct gemm_cuda_state {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    struct gb_arch arch;
    int m, n, k;
    int f64, f16;
};

/* The row note: the kernel family of the problem's tier and its tile. */
static void gemm_cuda_note(struct impl_ctx *ctx, const struct gemm_cuda_state *s) {
    const char *kind = s->f64 ? "DGEMM" : s->f16 ? "half2 GEMM" : "SGEMM";
    int t = s->f64   ? gb_dgemm_tile_for(&s->arch, s->m, s->n)
            : s->f16 ? gb_hgemm_tile_for(&s->arch, s->m, s->n)
                     : gb_sgemm_tile_for(&s->arch, s->m, s->n);
    snprintf(ctx->note, sizeof ctx->note, "own %s %dx%d tiles%s", kind, t, t,
             s->f16 ? ", FP32 accumulation" : "");
}

/* f16: the code this device runs (s->arch, the code level) must have the FP16 kernels' real
 * body; below sm_53 it is a trap (a sticky error for every later row), so the row is refused
 * before anything is allocated or launched. */
static enum status hgemm_body(struct impl_ctx *ctx, struct gemm_cuda_state *s) {
    struct gb_arch dev;
    if (gb_hgemm_has_body(&s->arch))
        return ST_OK;
    CU_TRY(gb_arch_query(&dev), ctx);
    snprintf(ctx->note, sizeof ctx->note,
             "this sm_%d device runs this build's code for sm_%d, where the FP16 GEMM kernels "
             "have no body (it starts at sm_53; below, a trap): rebuild with "
             "-DCMAKE_CUDA_ARCHITECTURES=%d",
             dev.sm, s->arch.sm, dev.sm);
    return ST_UNSUPPORTED;
}

enum status gemm_dev_prepare(struct impl_ctx *ctx, int *m, int *n, int *k) {
    struct problem *p = ctx->p;
    /* bench/gemm.c's complete() keeps every size within int */
    *m = (int)p->shape.v[M];
    *n = (int)p->shape.v[N];
    *k = (int)p->shape.v[K];
    const struct gb_dev_spec spec[] = {
        [DEV_A] = {.name = "A", .in = &p->in[IN_A]},
        [DEV_B] = {.name = "B", .in = &p->in[IN_B]},
        [DEV_C] = {.name = "C", .out = &p->out[OUT_C], .store = GB_DEV_WIDE}, /* FP32 but in f64 */
    };
    return gb_dev_prepare(ctx, spec, (int)(sizeof spec / sizeof *spec), 0, "A, B, C");
}

static enum status gemm_cuda_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    struct gemm_cuda_state *s;
    const struct gb_kernel_ref *refs;
    enum status st;
    int f64 = p->dtype == DT_F64, f16 = p->dtype == DT_F16;
    if (f16 && gb_hgemm_kernels(&refs) == 0) {
        snprintf(ctx->note, sizeof ctx->note, "FP16 needs CUDA 7.5 or newer");
        return ST_UNSUPPORTED;
    }
    if ((st = gb_check_kernels(ctx, f64   ? gb_dgemm_kernels
                                    : f16 ? gb_hgemm_kernels
                                          : gb_sgemm_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    s->f64 = f64;
    s->f16 = f16;
    if ((st = gb_impl_arch(ctx, &s->arch)) != ST_OK || (f16 && (st = hgemm_body(ctx, s)) != ST_OK))
        return st;
    if ((st = gemm_dev_prepare(ctx, &s->m, &s->n, &s->k)) != ST_OK)
        return st;
    gemm_cuda_note(ctx, s);
    return ST_OK;
}

static enum status gemm_cuda_run(struct impl_ctx *ctx) {
    struct gemm_cuda_state *s = ctx->state;
    void *a = s->dev.ptr[DEV_A], *b = s->dev.ptr[DEV_B], *c = s->dev.ptr[DEV_C];
    if (s->f64)
        CU_TRY(gb_dgemm(gb_stream(), &s->arch, s->m, s->n, s->k, (const double *)a, s->k,
                        (const double *)b, s->n, (double *)c, s->n),
               ctx);
    else if (s->f16)
        CU_TRY(
            gb_hgemm(gb_stream(), &s->arch, s->m, s->n, s->k, a, s->k, b, s->n, (float *)c, s->n),
            ctx);
    else
        CU_TRY(gb_sgemm(gb_stream(), &s->arch, 0, 0, s->m, s->n, s->k, (const float *)a, s->k,
                        (const float *)b, s->n, (float *)c, s->n),
               ctx);
    return ST_OK;
}

const struct impl gemm_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own SIMT SGEMM (8x8 or 4x4 outputs per thread) / DGEMM (8x8, 4x4 or 2x2) / FP16 "
               "GEMM (half2 loads, FP32 accumulation), smem tiles; the same code on every card",
    .prepare = gemm_cuda_prepare,
    .upload = gb_dev_upload,
    .run = gemm_cuda_run,
    .download = gb_dev_download,
    .finish = gb_dev_finish,
    .release = gb_dev_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
};
