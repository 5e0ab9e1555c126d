/* cuda_tc.c — conv2d/cuda_tc: forward convolution with our tensor-core kernels
 * (kernels/conv2d/tc.cuh and tc_mma.cuh, launched by kernels/conv2d/cuda.cu), the best own code
 * per card beside conv2d/cuda's SIMT kernels, as gemm/cuda_tc is beside gemm/cuda:
 *   f16   FP16 x and filters, FP32 accumulation, FP16 y, as an implicit GEMM. The tier of
 *         conv2d/cudnn's and conv2d/cudnn_gemm's f16 rows (half tensors, FP32 compute), so the
 *         rows verify against the same reference and compare like with like.
 *         - sm_80 code (CUDA 11.0+): PTX mma.sync m16n8k16, ldmatrix, 3-stage cp.async, block
 *           tiles of 128×128 (filters × pixels) or 64×256 (tc_mma.cuh; the smaller modelled mma
 *           work below 128 filters, so 64×256 on the default layer's k = 64, where 128×128
 *           computes 64 zero filter rows; GPUBENCH_CONV_KERNEL=128x128 or 64x256 forces one; the
 *           row's note names the tile and why), y stored in pairs of halves where p·q is even,
 *           reading x as NHWC and the filters as KRSC, channels padded with
 *           zeros to a multiple of 8 so that a gather is one 16-byte copy. The host places them
 *           so when it converts them to half in prepare (kernels/common/dev_bufs.h's place,
 *           gb_conv2d_mma_x_place), never timed — left out of the timing as conv2d/cudnn's f16
 *           row's NHWC placement is, so that the two rows compare the convolutions alone; the
 *           row's note says so. y stays NCHW.
 *         - sm_70/75 code (CUDA 9+): nvcuda::wmma 16×16×16 fragments, 64×64 tiles (tc.cuh), on
 *           the problem's NCHW tensors.
 * Problem layout (bench/conv2d.h): x (n×c×h×w), filters (k×c×r×s), y (n×k×p×q); the halves are
 * kernels/common/dev_bufs.h's (converted on the host in prepare, y back to float in finish after
 * the verified run: never timed). FP32 and FP64 are not declared, so the runner reports them
 * `unsupported` ("conv2d/cuda_tc has no FP32 version"). A card below 7.0, or one that runs this
 * build's code for an older architecture (where the kernel is a trap), is refused before anything
 * is allocated or launched (gb_tc_body, kernels/common/cuda_impl.h); so is a shape beyond the
 * kernels' int indexing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    int mma;  /* 1: the sm_80+ mma.sync kernel on padded NHWC/KRSC; 0: WMMA on NCHW */
    int tile; /* mma: its block tile (GB_CONV2D_MMA_128X128, _64X256: conv2d_tc_tile) */
};

/* The mma.sync kernel's block tile for the row on a card of smem_sm bytes of shared memory an
 * SM, its why into why[n]: gb_conv2d_mma_pick's (the modelled mma work and the blocks an SM,
 * tc_mma.cuh's gb_cmm_pick) or GPUBENCH_CONV_KERNEL=128x128 or 64x256 (the edge-shape runs of
 * scripts/lib/conv2d_tc_edges.py force each; the note then still gives the rule's figures and
 * pick); another value: -1, and the note says so. */
static int conv2d_tc_tile(struct impl_ctx *ctx, const struct conv2d_dims *d, int smem_sm,
                          char *why, size_t n) {
    const char *force = getenv("GPUBENCH_CONV_KERNEL");
    const int fit = gb_conv2d_mma_blocks_an_sm(GB_CONV2D_MMA_64X256, smem_sm);
    const int pick = gb_conv2d_mma_pick(d, smem_sm);
    int t = -1;
    if (force && *force) {
        for (t = GB_CONV2D_MMA_TILES - 1; t >= 0; t--)
            if (strcmp(force, gb_conv2d_mma_tile_name(t)) == 0)
                break;
        if (t < 0) {
            snprintf(ctx->note, sizeof ctx->note,
                     "GPUBENCH_CONV_KERNEL='%.40s' is neither 128x128 nor 64x256", force);
            return -1;
        }
    }
    /* the rule's view, forced or not: a forced pair's times test it (scripts/lib/first_card.py's
     * choice step reads it from the note) */
    const int at = snprintf(why, n, "%s", t >= 0 ? "forced by GPUBENCH_CONV_KERNEL; " : "");
    if (d->k >= 128)
        snprintf(why + at, n - (size_t)at, "k=%d, 128 filters or more", d->k);
    else
        snprintf(why + at, n - (size_t)at,
                 "k=%d: modelled mma work of 64x256 %.2f of 128x128's (filters, pixels padded to "
                 "the tile; below k=128 the smaller, ties to 128x128)%s",
                 d->k,
                 (double)gb_conv2d_mma_work(GB_CONV2D_MMA_64X256, d) /
                     (double)gb_conv2d_mma_work(GB_CONV2D_MMA_128X128, d),
                 fit >= 2 ? "" : "; but an SM here holds 1 block of 64x256, 2 of 128x128");
    if (t < 0)
        return pick;
    const size_t len = strlen(why);
    snprintf(why + len, n - len, "; the rule picks %s", gb_conv2d_mma_tile_name(pick));
    return t;
}

static enum status conv2d_tc_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct gb_kernel_ref *refs;
    struct conv2d_tc_state *s;
    enum status st;
    char why[320] = "";
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
    /* sm_80 code with mma.sync in the build: its kernel, where its int indexing reaches the
     * padded layouts (else WMMA, which reaches the problem's own, and says why) */
    s->mma = gb_conv2d_mma_kernels(&refs) > 0 && gb_conv2d_mma_runs(&s->arch) &&
             gb_conv2d_mma_fits(&s->d);
    if (s->mma && (st = gb_check_kernels(ctx, gb_conv2d_mma_kernels)) != ST_OK)
        return st;
    if (s->mma) {
        int dev, smem_sm;
        CU_TRY(cudaGetDevice(&dev), ctx);
        CU_TRY(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev),
               ctx);
        if ((s->tile = conv2d_tc_tile(ctx, &s->d, smem_sm, why, sizeof why)) < 0)
            return ST_ERROR;
        CU_TRY(gb_conv2d_mma_setup(s->tile), ctx);
    }
    const struct gb_dev_spec spec[] = {
        [DEV_X] = {.name = "x", .in = &p->in[IN_X]},
        [DEV_WT] = {.name = "filters", .in = &p->in[IN_WT]},
        [DEV_Y] = {.name = "y", .out = &p->out[OUT_Y]},
    };
    const struct gb_dev_spec spec_mma[] = {
        [DEV_X] = {.name = "x (NHWC, channels padded to 8)",
                   .in = &p->in[IN_X],
                   .n = gb_conv2d_mma_x_elems(&s->d),
                   .place = gb_conv2d_mma_x_place,
                   .place_arg = &s->d},
        [DEV_WT] = {.name = "filters (KRSC, channels padded to 8)",
                    .in = &p->in[IN_WT],
                    .n = gb_conv2d_mma_w_elems(&s->d),
                    .place = gb_conv2d_mma_w_place,
                    .place_arg = &s->d},
        [DEV_Y] = {.name = "y", .out = &p->out[OUT_Y]},
    };
    if ((st = gb_dev_prepare(ctx, s->mma ? spec_mma : spec, (int)(sizeof spec / sizeof *spec), 0,
                             "x, filters, y")) != ST_OK)
        return st;
    if (s->mma)
        snprintf(ctx->note, sizeof ctx->note,
                 "own mma.sync f16 implicit GEMM, %s tiles of %s warps (m16n8k16, ldmatrix, "
                 "cp.async): %s; FP32 accumulation; y %s; x NHWC and filters KRSC, channels "
                 "padded to 8, placed on the host untimed as cudnn's NHWC",
                 gb_conv2d_mma_tile_name(s->tile),
                 s->tile == GB_CONV2D_MMA_64X256 ? "32x64" : "64x32", why,
                 gb_conv2d_mma_pairs(&s->d, s->dev.ptr[DEV_Y])
                     ? "in pairs of halves (32-bit stores)"
                     : "a half at a time (p*q odd)");
    else
        snprintf(ctx->note, sizeof ctx->note,
                 "own WMMA f16 implicit GEMM, 64x64 tiles (16x16x16 fragments), FP32 "
                 "accumulation, NCHW%s",
                 gb_conv2d_mma_runs(&s->arch) ? " (the mma.sync kernel's padded layouts exceed "
                                                "its int indexing)"
                                              : "");
    return ST_OK;
}

static enum status conv2d_tc_run(struct impl_ctx *ctx) {
    struct conv2d_tc_state *s = ctx->state;
    if (s->mma)
        CU_TRY(gb_conv2d_mma(gb_stream(), &s->arch, &s->d, s->tile, s->dev.ptr[DEV_X],
                             s->dev.ptr[DEV_WT], s->dev.ptr[DEV_Y]),
               ctx);
    else
        CU_TRY(gb_conv2d_wmma(gb_stream(), &s->arch, &s->d, s->dev.ptr[DEV_X],
                              s->dev.ptr[DEV_WT], s->dev.ptr[DEV_Y]),
               ctx);
    return ST_OK;
}

const struct impl conv2d_cuda_tc_impl = {
    .name = "cuda_tc",
    .kind = DEV_CUDA,
    .summary = "own tensor-core implicit GEMM: FP16 x and filters, FP32 accumulation; mma.sync "
               "m16n8k16 128x128 or 64x256 tiles on sm_80+ code, WMMA 16x16x16 64x64 tiles on "
               "cc 7.0/7.5",
    .prepare = conv2d_tc_prepare,
    .upload = gb_dev_upload,
    .run = conv2d_tc_run,
    .download = gb_dev_download,
    .finish = gb_dev_finish,
    .release = gb_dev_release,
    .dtypes = DT_BIT(DT_F16),
};
