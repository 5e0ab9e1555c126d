/* cuda_tc.c — gemm/cuda_tc: C = A·B with our tensor-core kernels (kernels/gemm/cuda.cu's
 * launchers), the best own code per card beside gemm/cuda's SIMT kernels, which are the same code
 * on every card:
 *   f16   FP16 operands, FP32 C and accumulation, on the FP16 tensor cores: nvcuda::wmma
 *         16×16×16 fragments (wmma.cuh), compute capability 7.0, CUDA 9;
 *   bf16  BF16 operands, FP32 C and accumulation: the same WMMA kernel source with 16×16×16
 *         __nv_bfloat16 fragments, compute capability 8.0, CUDA 11.0;
 *   tf32  FP32 operands rounded to TF32 on the device (__float_to_tf32), FP32 C and accumulation:
 *         the same source with 16×16×8 wmma::precision::tf32 fragments, 8.0, CUDA 11.0;
 *   f64   on the FP64 tensor cores (DMMA): nvcuda::wmma 8×8×4 double fragments, cp.async double
 *         buffering (dmma.cuh), compute capability 8.0, CUDA 11.0.
 * All 64×64 block tiles of 4 warps. Problem layout as gemm/cuda's (bench/gemm.h; f16 and bf16
 * operands copied to FP16 and BF16 by kernels/common/dev_bufs.h, C FP32). FP32 is not declared,
 * so the runner reports it `unsupported` ("gemm/cuda_tc has no FP32 version"). A card below the
 * kernel's compute capability, or one that runs this build's code for an older architecture
 * (where the kernel is a trap), is refused here before anything is allocated or launched (a card
 * below 8.0 or a CUDA 10 build is refused bf16 and tf32 earlier, by the tier gate,
 * harness/gpuinfo/gpu_tier.c).
 */
#include <stdio.h>

#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"
#include "kernels/gemm/cuda.h"

enum { DEV_A, DEV_B, DEV_C }; /* the device buffers, in gemm_dev_prepare's order */

/* One tier's tensor-core kernel: what it is, where it runs, how it is checked. */
struct tc_kernel {
    const char *what;    /* for the notes */
    const char *note;    /* the row note of an ok row */
    int min_sm;          /* compute capability, 10·major + minor */
    const char *toolkit; /* the least CUDA that has it */
    gb_kernel_family family;
    int (*runs)(const struct gb_arch *arch);
};

static const struct tc_kernel tc_f16 = {
    "the FP16 tensor cores (WMMA)",
    "own WMMA f16 64x64 tiles (16x16x16 fragments), FP32 accumulation",
    70,
    "CUDA 9",
    gb_hgemm_wmma_kernels,
    gb_hgemm_wmma_runs,
};
static const struct tc_kernel tc_bf16 = {
    "the BF16 tensor cores (WMMA)",
    "own WMMA bf16 64x64 tiles (16x16x16 fragments), FP32 accumulation",
    80,
    "CUDA 11.0",
    gb_bgemm_wmma_kernels,
    gb_wmma80_runs,
};
static const struct tc_kernel tc_tf32 = {
    "the TF32 tensor cores (WMMA)",
    "own WMMA tf32 64x64 tiles (16x16x8 fragments), FP32 accumulation",
    80,
    "CUDA 11.0",
    gb_tgemm_wmma_kernels,
    gb_wmma80_runs,
};
static const struct tc_kernel tc_f64 = {
    "the FP64 tensor cores (DMMA)",
    "own DMMA f64 64x64 tiles (8x8x4 fragments), cp.async double buffering",
    80,
    "CUDA 11.0",
    gb_dgemm_dmma_kernels,
    gb_dgemm_dmma_runs,
};

struct gemm_tc_state {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    struct gb_arch arch;
    int m, n, k;
    enum dtype dtype;
};

static enum status gemm_tc_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct tc_kernel *tc = p->dtype == DT_F64    ? &tc_f64
                                 : p->dtype == DT_BF16 ? &tc_bf16
                                 : p->dtype == DT_TF32 ? &tc_tf32
                                                       : &tc_f16;
    const struct gb_kernel_ref *refs;
    struct gemm_tc_state *s;
    enum status st;
    if (tc->family(&refs) == 0) {
        snprintf(ctx->note, sizeof ctx->note,
                 "gemm/cuda_tc's kernel for %s needs %s or newer; this gpubench was built with an "
                 "older CUDA",
                 tc->what, tc->toolkit);
        return ST_UNSUPPORTED;
    }
    if ((st = gb_check_kernels(ctx, tc->family)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    s->dtype = p->dtype;
    if ((st = gb_impl_arch(ctx, &s->arch)) != ST_OK ||
        (st = gb_tc_body(ctx, "gemm/cuda_tc", tc->what, tc->min_sm, tc->runs(&s->arch),
                         &s->arch)) != ST_OK)
        return st;
    if ((st = gemm_dev_prepare(ctx, &s->m, &s->n, &s->k)) != ST_OK)
        return st;
    snprintf(ctx->note, sizeof ctx->note, "%s", tc->note);
    return ST_OK;
}

static enum status gemm_tc_run(struct impl_ctx *ctx) {
    struct gemm_tc_state *s = ctx->state;
    void *a = s->dev.ptr[DEV_A], *b = s->dev.ptr[DEV_B], *c = s->dev.ptr[DEV_C];
    switch (s->dtype) {
    case DT_F64:
        CU_TRY(gb_dgemm_dmma(gb_stream(), &s->arch, s->m, s->n, s->k, (const double *)a, s->k,
                             (const double *)b, s->n, (double *)c, s->n),
               ctx);
        break;
    case DT_BF16:
        CU_TRY(gb_bgemm_wmma(gb_stream(), &s->arch, s->m, s->n, s->k, a, s->k, b, s->n, (float *)c,
                             s->n),
               ctx);
        break;
    case DT_TF32:
        CU_TRY(gb_tgemm_wmma(gb_stream(), &s->arch, s->m, s->n, s->k, (const float *)a, s->k,
                             (const float *)b, s->n, (float *)c, s->n),
               ctx);
        break;
    default:
        CU_TRY(gb_hgemm_wmma(gb_stream(), &s->arch, s->m, s->n, s->k, a, s->k, b, s->n, (float *)c,
                             s->n),
               ctx);
    }
    return ST_OK;
}

const struct impl gemm_cuda_tc_impl = {
    .name = "cuda_tc",
    .kind = DEV_CUDA,
    .summary = "own tensor-core GEMM: FP16 (cc 7.0+), BF16 and TF32 (cc 8.0+) on WMMA fragments "
               "with FP32 accumulation / FP64 on DMMA 8x8x4 fragments (cc 8.0+), 64x64 tiles",
    .prepare = gemm_tc_prepare,
    .upload = gb_dev_upload,
    .run = gemm_tc_run,
    .download = gb_dev_download,
    .finish = gb_dev_finish,
    .release = gb_dev_release,
    .dtypes = DT_BIT(DT_F64) | DT_BIT(DT_F16) | DT_BIT(DT_BF16) | DT_BIT(DT_TF32),
};
