/* cuda_tc.c — conv2d/cuda_tc: NCHW forward convolution with our tensor-core kernel
 * (kernels/conv2d/tc.cuh, launched by kernels/conv2d/cuda.cu), the best own code per card beside
 * conv2d/cuda's SIMT kernels, as gemm/cuda_tc is beside gemm/cuda:
 *   f16   FP16 x and filters, FP32 accumulation, FP16 y: an implicit GEMM on nvcuda::wmma
 *         16×16×16 fragments, 64×64 tiles, compute capability 7.0, CUDA 9. The tier of
 *         conv2d/cudnn's and conv2d/cudnn_gemm's f16 rows (half tensors, FP32 compute), so the
 *         rows verify against the same reference and compare like with like; the layout stays
 *         the problem's NCHW (cuDNN takes NHWC from 7.0).
 * Problem layout (bench/conv2d.h): x (n×c×h×w), filters (k×c×r×s), y (n×k×p×q); the halves are
 * kernels/common/dev_bufs.h's (converted on the host in prepare, y back to float in finish after
 * the verified run: never timed). FP32 and FP64 are not declared, so the runner reports them
 * `unsupported` ("conv2d/cuda_tc has no FP32 version"). A card below 7.0, or one that runs this
 * build's code for an older architecture (where the kernel is a trap), is refused before anything
 * is allocated or launched (gb_tc_body, kernels/common/cuda_impl.h); so is a shape beyond the
 * kernel's int indexing.
 */
#include <stdio.h>

#include "bench/conv2d.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"
#include "kernels/conv2d/cuda.h"

enum { IN_X = CONV2D_IN_X, IN_WT = CONV2D_IN_W, OUT_Y = CONV2D_OUT_Y };

enum { DEV_X, DEV_WT, DEV_Y }; /* the device buffers, in gb_dev_prepare's order */

#define CONV2D_TC_WHAT "the FP16 tensor cores (WMMA)"

struct conv2d_tc_state {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    struct gb_arch arch;
    struct conv2d_dims d;
};

static enum status conv2d_tc_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct gb_kernel_ref *refs;
    struct conv2d_tc_state *s;
    enum status st;
    if (gb_conv2d_wmma_kernels(&refs) == 0) {
        snprintf(ctx->note, sizeof ctx->note,
                 "conv2d/cuda_tc's kernel for " CONV2D_TC_WHAT " needs CUDA 9 or newer; this "
                 "gpubench was built with an older CUDA");
        return ST_UNSUPPORTED;
    }
    if ((st = gb_check_kernels(ctx, gb_conv2d_wmma_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *s)) != ST_OK)
        return st;
    s = ctx->state;
    conv2d_dims_of(&p->shape, &s->d);
    if (!gb_conv2d_wmma_fits(&s->d)) {
        snprintf(ctx->note, sizeof ctx->note,
                 "a tensor of this shape has 2^31 elements or more, beyond the own kernel's int "
                 "indexing; use the cudnn implementation");
        return ST_UNSUPPORTED;
    }
    if ((st = gb_impl_arch(ctx, &s->arch)) != ST_OK ||
        (st = gb_tc_body(ctx, "conv2d/cuda_tc", CONV2D_TC_WHAT, 70, gb_conv2d_wmma_runs(&s->arch),
                         &s->arch)) != ST_OK)
        return st;
    const struct gb_dev_spec spec[] = {
        [DEV_X] = {.name = "x", .in = &p->in[IN_X]},
        [DEV_WT] = {.name = "filters", .in = &p->in[IN_WT]},
        [DEV_Y] = {.name = "y", .out = &p->out[OUT_Y]},
    };
    if ((st = gb_dev_prepare(ctx, spec, (int)(sizeof spec / sizeof *spec), 0, "x, filters, y")) !=
        ST_OK)
        return st;
    snprintf(ctx->note, sizeof ctx->note,
             "own WMMA f16 implicit GEMM, 64x64 tiles (16x16x16 fragments), FP32 accumulation, "
             "NCHW");
    return ST_OK;
}

static enum status conv2d_tc_run(struct impl_ctx *ctx) {
    struct conv2d_tc_state *s = ctx->state;
    CU_TRY(gb_conv2d_wmma(gb_stream(), &s->arch, &s->d, s->dev.ptr[DEV_X], s->dev.ptr[DEV_WT],
                          s->dev.ptr[DEV_Y]),
           ctx);
    return ST_OK;
}

const struct impl conv2d_cuda_tc_impl = {
    .name = "cuda_tc",
    .kind = DEV_CUDA,
    .summary = "own tensor-core implicit GEMM: FP16 x and filters on WMMA 16x16x16 fragments with "
               "FP32 accumulation (cc 7.0+), 64x64 tiles",
    .prepare = conv2d_tc_prepare,
    .upload = gb_dev_upload,
    .run = conv2d_tc_run,
    .download = gb_dev_download,
    .finish = gb_dev_finish,
    .release = gb_dev_release,
    .dtypes = DT_BIT(DT_F16),
};
