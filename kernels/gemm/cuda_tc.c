/* cuda_tc.c — gemm/cuda_tc: C = A·B with our tensor-core kernels (kernels/gemm/cuda.cu's
 * launchers), the best own code per card beside gemm/cuda's SIMT kernels, which are the same code
 * on every card:
 *   f16   FP16 operands, FP32 C and accumulation, on the FP16 tensor cores: from sm_80 code,
 *         mma.sync m16n8k16 on 128×128 tiles with ldmatrix and a 3-stage cp.async pipeline
 *         (mma.cuh, CUDA 11.0), 64×64 warp tiles from two tiles of C an SM, else 64×32
 *         (tc_mma_pick); on sm_70/75 code, nvcuda::wmma 16×16×16 fragments on 64×64
 *         tiles (wmma.cuh), compute capability 7.0, CUDA 9;
 *   bf16  BF16 operands, FP32 C and accumulation: the same two kernel sources with bf16
 *         (mma.sync m16n8k16 .bf16; WMMA 16×16×16 __nv_bfloat16), compute capability 8.0, CUDA
 *         11.0;
 *   tf32  FP32 operands rounded to TF32 on the device (cvt.rna.tf32.f32 / __float_to_tf32: to
 *         nearest, ties away), FP32 C and accumulation: mma.sync m16n8k8 .tf32, or WMMA 16×16×8
 *         wmma::precision::tf32 fragments, 8.0, CUDA 11.0;
 *   f64   on the FP64 tensor cores (DMMA): nvcuda::wmma 8×8×4 double fragments, cp.async double
 *         buffering on 64×64 tiles (dmma.cuh), compute capability 8.0, CUDA 11.0; where the card
 *         runs this build's sm_90 code (H100, H200), mma.sync m16n8k16 .f64 (DMMA.16x8x16) on
 *         128×128 tiles with a 4-stage cp.async pipeline instead (dmma16.cuh; tc_dmma16_pick).
 *   f16, bf16 on a compute capability 9.0 card (H100, H200) that runs this build's sm_90a code
 *         (CMAKE_CUDA_ARCHITECTURES with 90a, the CUDA 12.0+ default): wgmma m64n128k16 fed by
 *         TMA through an mbarrier pipeline, 128×128 tiles, one producer and two consumer
 *         warpgroups (wgmma.cuh; tc_hopper below); from one 128×256 tile of C a multiprocessor,
 *         the persistent 128×256 kernel with 2-CTA clusters and TMA multicast instead
 *         (wgmma_persist.cuh; tc_wgmma_pick). Where the card runs plain sm_90 code, or TMA
 *         cannot read A and B (lda, ldb not multiples of 8), the sm_80 path below runs and the
 *         note says why not wgmma and how to get it.
 *   tf32  on the same cards and code: wgmma m64n128k8 on 128×128 tiles, or m64n256k8 in the
 *         persistent 128×256 kernel by the same rule as f16 and bf16 (wgmma_tf32.cuh), of A
 *         read in place where TMA can (lda a multiple of 4 floats; else a rounded copy) and a
 *         K-major TF32 copy of Bᵀ that a pass timed with the row makes (tf32 wgmma takes
 *         K-major operands only; tc_hopper_tf32); elsewhere the mma.sync kernel above.
 * The mma.sync kernels copy 16 bytes at a time: they run where the rows of A (k) and B (n) are
 * multiples of 16 bytes and the buffers 16-byte aligned (gb_mma_fits_ptrs); otherwise, and on
 * code below sm_80, the WMMA kernel of the tier runs, which takes any alignment, and the row
 * note says which kernel ran and why (tc_mma_pick). Problem layout as gemm/cuda's
 * (bench/gemm.h; f16 and bf16 operands copied to FP16 and BF16 by kernels/common/dev_bufs.h, C
 * FP32). FP32 is not declared,
 * so the runner reports it `unsupported` ("gemm/cuda_tc has no FP32 version"). A card below the
 * kernel's compute capability, or one that runs this build's code for an older architecture
 * (where the kernel is a trap), is refused here before anything is allocated or launched (a card
 * below 8.0 or a CUDA 10 build is refused bf16 and tf32 earlier, by the tier gate,
 * harness/gpuinfo/gpu_tier.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"
#include "kernels/gemm/cuda.h"

/* the device buffers, in gemm_dev_prepare's order; then tf32 wgmma's copies (tc_hopper_tf32) */
enum { DEV_A, DEV_B, DEV_C, DEV_COPIES };

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

/* The sm_80+ mma.sync kernel of a 16-bit or tf32 tier (mma.cuh): run instead of the tier's
 * WMMA kernel where the device runs its body (sm_80 code) and the operands suit its 16-byte
 * cp.async (gb_mma_fits_ptrs); elsewhere the WMMA kernel runs and the note says why. */
struct tc_mma {
    const char *note; /* the row note of an ok row */
    const char *what; /* the tier, for the fallback's note */
    int esize;        /* bytes an element of A and B */
    gb_kernel_family family;
    int two; /* has the 64×64-warp kernel besides the 64×32 one */
};

/* f16 and bf16 have two kernels (64×32 and 64×64 warps, tc_mma_pick's choice): their note is
 * "<note> 64xNN warps <how>: <why>; FP32 accumulation"; tf32's is the note alone. */
static const struct tc_mma mma_f16 = {
    "own mma.sync f16 128x128 tiles,", "f16", 2, gb_hgemm_mma_kernels, 1,
};
static const struct tc_mma mma_bf16 = {
    "own mma.sync bf16 128x128 tiles,", "bf16", 2, gb_bgemm_mma_kernels, 1,
};
static const struct tc_mma mma_tf32 = {
    "own mma.sync tf32 128x128 tiles (m16n8k8, cvt.rna, ldmatrix, 3-stage cp.async), FP32 "
    "accumulation",
    "tf32",
    4,
    gb_tgemm_mma_kernels,
    0,
};

struct gemm_tc_state {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it */
    struct gb_arch arch;
    int m, n, k;
    enum dtype dtype;
    int mma;    /* run an mma.sync kernel (tc_mma_pick) rather than the WMMA one: 1 the 64×32-warp
                   one, 2 the 64×64-warp one (f16, bf16) */
    int dmma16; /* f64 on the m16n8k16 kernel (tc_dmma16_pick) rather than the 8x8x4 one */
    int wgmma;  /* on a Hopper kernel (tc_hopper; tf32: tc_hopper_tf32): 1 the 128×128 one, 2 the
                   persistent 128×256 one */
    struct gb_wgmma_maps maps; /* its tensor maps of A and B (tf32: of A or its copy, of Bᵀ) */
    int ldk;                   /* tf32: the copies' leading dimension */
    float *a_copy, *bt;        /* tf32: A's copy (NULL: A read in place) and Bᵀ's, in DEV_COPIES */
};

/* f16/bf16: which mma kernel (1: 64×32 warps, 2: 64×64 warps) for the row's C, into ctx->note
 * with why: gb_mma_pick (64×64 warps from two 128×128 tiles an SM, mma.cuh says why), or
 * GPUBENCH_MMA_KERNEL=64x32 or 64x64 (the edge-shape runs of scripts/gpu-check and
 * scripts/kernel-lease try both); another value: -1, the note says so. */
static int tc_mma_warps(struct impl_ctx *ctx, const struct tc_mma *mm,
                        const struct gemm_tc_state *s) {
    static const char *const how = "(m16n8k16, ldmatrix, 3-stage cp.async)";
    const char *force = getenv("GPUBENCH_MMA_KERNEL");
    const long tiles = (((long)s->m + 127) / 128) * (((long)s->n + 127) / 128);
    int w64;
    char why[96];
    if (force && *force) {
        if (strcmp(force, "64x32") != 0 && strcmp(force, "64x64") != 0) {
            snprintf(ctx->note, sizeof ctx->note,
                     "GPUBENCH_MMA_KERNEL='%.40s' is neither 64x32 nor 64x64", force);
            return -1;
        }
        w64 = strcmp(force, "64x64") == 0;
        snprintf(why, sizeof why, "forced by GPUBENCH_MMA_KERNEL");
    } else {
        w64 = gb_mma_pick(s->m, s->n, s->arch.sms);
        snprintf(why, sizeof why, "%ld tiles %s 2 x %d SMs%s", tiles, w64 ? ">=" : "<", s->arch.sms,
                 w64 ? "" : "; the 64x64-warp kernel from 2 tiles an SM");
    }
    snprintf(ctx->note, sizeof ctx->note, "%s %s warps %s: %s; FP32 accumulation", mm->note,
             w64 ? "64x64" : "64x32", how, why);
    return 1 + w64;
}

/* After gemm_dev_prepare: does the row run one of mm's kernels (1, 2: tc_mma_warps) or tc's
 * WMMA one (0), or is GPUBENCH_MMA_KERNEL wrong (-1)? ctx->note becomes the row note, with why
 * the WMMA kernel runs on a card that has the mma one. */
static int tc_mma_pick(struct impl_ctx *ctx, const struct tc_kernel *tc, const struct tc_mma *mm,
                       const struct gemm_tc_state *s) {
    const struct gb_kernel_ref *refs;
    struct gb_arch dev;
    snprintf(ctx->note, sizeof ctx->note, "%s", tc->note);
    if (!mm || mm->family(&refs) == 0)
        return 0; /* f64, or a toolkit before CUDA 11.0 */
    if (!gb_mma_runs(&s->arch)) {
        if (gb_arch_query(&dev) == cudaSuccess && dev.sm >= 80)
            snprintf(ctx->note, sizeof ctx->note,
                     "%s; not the mma.sync kernel: this sm_%d device runs this build's code for "
                     "sm_%d (the mma.sync kernel needs sm_80 code: rebuild with "
                     "-DCMAKE_CUDA_ARCHITECTURES=%d)",
                     tc->note, dev.sm, s->arch.sm, dev.sm);
        return 0;
    }
    if (!gb_mma_fits_ptrs(mm->esize, s->dev.ptr[DEV_A], s->k, s->dev.ptr[DEV_B], s->n)) {
        snprintf(ctx->note, sizeof ctx->note,
                 "%s; not the mma.sync %s kernel: its 16-byte cp.async needs rows of A and B in "
                 "multiples of 16 bytes (k=%d, n=%d: %d and %d bytes)",
                 tc->note, mm->what, s->k, s->n, s->k * mm->esize, s->n * mm->esize);
        return 0;
    }
    if (mm->two)
        return tc_mma_warps(ctx, mm, s);
    snprintf(ctx->note, sizeof ctx->note, "%s", mm->note);
    return 1;
}

/* f64: the m16n8k16 .f64 kernel (1) or the 64×64 DMMA.8x8x4 one (0), or -1 (a bad
 * GPUBENCH_DMMA_KERNEL); ctx->note becomes the row note, saying which ran and why. The rule: the
 * m16n8k16 kernel wherever it has its body, sm_90 code (gb_dgemm_dmma16_runs: its 128×128 tiles
 * halve the 64×64 kernel's L2 traffic an FMA, and DMMA.16x8x16 is Hopper's own shape); the
 * 8x8x4 kernel on sm_80 to sm_89 code, on sm_100 and newer code (no DMMA.16x8x16 there: ptxas
 * splits m16n8k16 .f64 into eight DMMA.8x8x4), and on a 9.0 card running older code.
 * GPUBENCH_DMMA_KERNEL=8x8x4 or 16x8x16 forces one where both run (scripts/lib/dmma_edges.py, for
 * scripts/gpu-check and scripts/kernel-lease, runs each); elsewhere the 8x8x4 kernel runs and the
 * note says why. */
static int tc_dmma16_pick(struct impl_ctx *ctx, const struct gemm_tc_state *s) {
    const char *force = getenv("GPUBENCH_DMMA_KERNEL");
    struct gb_arch dev;
    size_t len;
    if (force && *force && strcmp(force, "8x8x4") != 0 && strcmp(force, "16x8x16") != 0) {
        snprintf(ctx->note, sizeof ctx->note,
                 "GPUBENCH_DMMA_KERNEL='%.40s' is neither 8x8x4 nor 16x8x16", force);
        return -1;
    }
    len = strlen(ctx->note);
    if (!gb_dgemm_dmma16_runs(&s->arch)) {
        if (s->arch.sm >= 100)
            snprintf(ctx->note + len, sizeof ctx->note - len,
                     "; not the m16n8k16 kernel: sm_%d code has no DMMA.16x8x16 (ptxas splits "
                     "m16n8k16 .f64 into eight DMMA.8x8x4)",
                     s->arch.sm);
        else if (gb_arch_query(&dev) == cudaSuccess && dev.sm == 90)
            snprintf(ctx->note + len, sizeof ctx->note - len,
                     "; not the m16n8k16 kernel: this sm_90 device runs this build's code for "
                     "sm_%d (DMMA.16x8x16 needs sm_90 code: rebuild with "
                     "-DCMAKE_CUDA_ARCHITECTURES=90)",
                     s->arch.sm);
        return 0;
    }
    if (force && strcmp(force, "8x8x4") == 0) {
        snprintf(ctx->note + len, sizeof ctx->note - len,
                 "; not the m16n8k16 kernel: forced by GPUBENCH_DMMA_KERNEL");
        return 0;
    }
    snprintf(ctx->note, sizeof ctx->note,
             "own DMMA f64 128x128 tiles (mma.sync m16n8k16, DMMA.16x8x16, 4-stage cp.async): "
             "%s",
             force && *force ? "forced by GPUBENCH_DMMA_KERNEL"
                             : "this sm_90 code has Hopper's m16n8k16 .f64 shape");
    return 1;
}

/* Which wgmma kernel of the tier (s->wgmma 1: 128×128, 2: the persistent 128×256 one) and why,
 * into why (the note's words): the one of the smaller modelled time (gb_wgmma_persist_pick: the
 * rounds of each schedule on this card's SMs times a tile's time, a 128×256 tile 1.8 times a
 * 128×128 one), the note giving both; GPUBENCH_WGMMA_KERNEL=128x128 or 128x256 forces one (the
 * edge-shape runs of scripts/gpu-check and scripts/kernel-lease try both), the note still giving
 * the model's figures; another value is ST_ERROR, the note saying so. The persistent kernel only
 * where it starts with the registers its setmaxnreg moves assume (gb_wgmma_persist_regs,
 * wgmma_persist.cuh), else the 128×128 one, why saying so after the pick's reason. The same rule
 * for f16, bf16 and tf32. */
static enum status tc_wgmma_pick(struct impl_ctx *ctx, struct gemm_tc_state *s,
                                 enum gb_wgmma_tier tier, char *why, size_t len) {
    const char *force = getenv("GPUBENCH_WGMMA_KERNEL");
    long r128, r256;
    int cost, persist, regs, need, ok;
    size_t n;
    if (force && *force) {
        if (strcmp(force, "128x128") != 0 && strcmp(force, "128x256") != 0) {
            snprintf(ctx->note, sizeof ctx->note,
                     "GPUBENCH_WGMMA_KERNEL='%.40s' is neither 128x128 nor 128x256", force);
            return ST_ERROR;
        }
        s->wgmma = strcmp(force, "128x256") == 0 ? 2 : 1;
    }
    /* the model's view, forced or not: a forced pair's times set its tile cost
     * (scripts/lib/first_card.py's choice step reads the rounds from the note) */
    persist = gb_wgmma_persist_pick(s->m, s->n, s->arch.sms, &r128, &r256, &cost);
    snprintf(why, len,
             "%smodelled on %d SMs: %ld rounds of 128x256 tiles x %d.%d = %ld.%d %s %ld of "
             "128x128 tiles (%d.%d estimated until a card run)",
             force && *force ? "forced by GPUBENCH_WGMMA_KERNEL; " : "", s->arch.sms, r256,
             cost / 10, cost % 10, r256 * cost / 10, (int)(r256 * cost % 10),
             persist ? "<" : ">=", r128, cost / 10, cost % 10);
    if (!(force && *force))
        s->wgmma = persist ? 2 : 1;
    if (s->wgmma != 2)
        return ST_OK;
    /* its setmaxnreg moves hold only at the registers they assume (wgmma_persist.cuh) */
    CU_TRY(gb_wgmma_persist_regs(tier, &regs, &need, &ok), ctx);
    if (!ok) { /* the pick's reason stays, and this follows it */
        n = strlen(why);
        snprintf(why + n, len - n,
                 "; not the persistent 128x256 kernel: it starts with %d registers a thread "
                 "(numRegs), and its setmaxnreg moves (40/232) need %d or never complete",
                 regs, need);
        s->wgmma = 1;
    }
    return ST_OK;
}

/* The note of a row on a wgmma kernel (s->wgmma, tc_wgmma_pick's): the tier, the kernel, `on`
 * (tf32: which operands it reads, and how), the pick's why; "..." at its end where it had to be
 * cut (none of today's notes is: the longest, tf32's register fallback, is about 470 bytes). */
static void tc_wgmma_note(struct impl_ctx *ctx, const struct gemm_tc_state *s, const char *tier,
                          const char *on, const char *why) {
    const int k = s->dtype == DT_TF32 ? 8 : 16;
    int n;
    if (s->wgmma == 2)
        n = snprintf(ctx->note, sizeof ctx->note,
                     "own wgmma %s persistent 128x256 tiles (m64n256k%d, 2-CTA clusters with TMA "
                     "multicast of B, setmaxnreg 40/232, sm_90a)%s: %s; FP32 accumulation",
                     tier, k, on, why);
    else
        n = snprintf(ctx->note, sizeof ctx->note,
                     "own wgmma %s 128x128 tiles (m64n128k%d from TMA through an mbarrier "
                     "pipeline, sm_90a)%s: %s; FP32 accumulation",
                     tier, k, on, why);
    if (n >= (int)sizeof ctx->note)
        memcpy(ctx->note + sizeof ctx->note - 4, "...", 4);
}

/* tf32 on Hopper (kernels/gemm/wgmma_tf32.cuh, after tc_hopper's checks): wgmma reads tf32
 * operands K-major only, so a pass makes a TF32 copy of Bᵀ (K-major) into a buffer of the row's
 * (DEV_COPIES), and of A too where TMA cannot read A in place (gb_tgemm_wgmma_a_in_place: lda a
 * multiple of 4 floats, a 16-byte aligned base); the kernel reads A (truncated to TF32 by wgmma)
 * or its rounded copy, and Bᵀ's: no alignment rule on A and B. The pass runs in every timed run
 * (gemm_tc_run): it is part of the product here. Where the copies would not fit on the card
 * beside A, B and C, the mma.sync path runs and the note says so. The note says whether A was
 * read in place, and why not. */
static enum status tc_hopper_tf32(struct impl_ctx *ctx, struct gemm_tc_state *s) {
    const float *A = s->dev.ptr[DEV_A];
    const int in_place = gb_tgemm_wgmma_a_in_place(A, s->k);
    const size_t n = gb_tgemm_wgmma_copies(s->m, s->n, s->k, in_place, &s->ldk);
    const size_t abc =
        ((size_t)s->m * s->k + (size_t)s->k * s->n + (size_t)s->m * s->n) * sizeof(float);
    const struct gb_dev_spec spec = {.name = "the TF32 copies of A and B (wgmma)", .n = n};
    const char *what = in_place ? "copy of B" : "copies of A and B";
    char why[352], note[sizeof ctx->note], a_how[192];
    const float *a;
    enum status st;
    memcpy(note, ctx->note, sizeof note);
    snprintf(why, sizeof why, "A, B, C and the TF32 %s", what);
    st = gb_row_footprint(ctx, abc + n * sizeof(float), why);
    if (st == ST_UNSUPPORTED) {
        snprintf(ctx->note, sizeof ctx->note,
                 "%s; not the wgmma kernel: the K-major TF32 %s it reads (%.1f MiB) would not "
                 "fit on this card beside A, B and C",
                 note, what, (double)(n * sizeof(float)) / (1024.0 * 1024.0));
        return ST_OK;
    }
    if (st != ST_OK)
        return st;
    memcpy(ctx->note, note, sizeof note);
    if ((st = gb_check_kernels(ctx, gb_tgemm_wgmma_kernels)) != ST_OK ||
        (st = gb_dev_prepare(ctx, &spec, 1, 0, NULL)) != ST_OK)
        return st;
    s->a_copy = in_place ? NULL : (float *)s->dev.ptr[DEV_COPIES];
    s->bt = (float *)s->dev.ptr[DEV_COPIES] + (in_place ? 0 : (size_t)s->m * s->ldk);
    a = in_place ? A : s->a_copy;
    CU_TRY(gb_tgemm_wgmma_setup(), ctx);
    if ((st = tc_wgmma_pick(ctx, s, GB_WGMMA_TF32, why, sizeof why)) != ST_OK)
        return st;
    if (gb_tgemm_wgmma_encode(s->wgmma == 2, s->m, s->n, s->k, a, in_place ? s->k : s->ldk, s->bt,
                              s->ldk, &s->maps, a_how, sizeof a_how) != 0) {
        snprintf(ctx->note, sizeof ctx->note, "gemm/cuda_tc's tf32 wgmma kernel: %s", a_how);
        return ST_ERROR;
    }
    if (in_place)
        snprintf(a_how, sizeof a_how,
                 " on A in place (lda %d, a multiple of 4 floats: wgmma truncates it to TF32) and "
                 "a K-major Bt a timed pass rounds",
                 s->k);
    else
        snprintf(a_how, sizeof a_how,
                 " on K-major copies of A and Bt a timed pass rounds (A not in place: lda %d%s)",
                 s->k, s->k % 4 ? " not a multiple of 4 floats" : ", base not 16-byte aligned");
    tc_wgmma_note(ctx, s, "tf32", a_how, why);
    return ST_OK;
}

/* --- Hopper: wgmma with TMA (kernels/gemm/wgmma.cuh) ------------------------------------------
 * f16 and bf16 on a compute capability 9.0 card take the wgmma kernel where the card runs this
 * build's sm_90a code and TMA can read A and B (gb_wgmma_tma_ok), tf32 where it runs sm_90a code
 * (tc_hopper_tf32); otherwise the cc 8.x path of gemm_tc_run, the note (tc_mma_pick's) saying why
 * not the wgmma kernel and how to get it. The persistent 128×256 kernel only where it starts with
 * the registers its setmaxnreg moves assume (gb_wgmma_persist_regs), else the 128×128 one, the
 * note saying why. ST_OK either way, unless a CUDA call fails. */
static enum status tc_hopper(struct impl_ctx *ctx, struct gemm_tc_state *s) {
    const int bf16 = s->dtype == DT_BF16;
    const void *a = s->dev.ptr[DEV_A], *b = s->dev.ptr[DEV_B];
    const char *tier = bf16 ? "bf16" : "f16";
    char why[352]; /* the pick's reason and the register check's: the note holds 511 */
    enum status st;
    size_t len = strlen(ctx->note);
    s->wgmma = 0;
    if (s->arch.sm != 90 || (s->dtype != DT_F16 && s->dtype != DT_BF16 && s->dtype != DT_TF32))
        return ST_OK;
    if (!gb_wgmma_built()) {
        snprintf(ctx->note + len, sizeof ctx->note - len,
                 "; not the wgmma kernel: it needs a CUDA 12.0+ build with "
                 "-DCMAKE_CUDA_ARCHITECTURES=90a-real");
        return ST_OK;
    }
    if (!gb_wgmma_runs(&s->arch)) {
        snprintf(ctx->note + len, sizeof ctx->note - len,
                 "; not the wgmma kernel: this build runs sm_90 code here, and wgmma exists in "
                 "sm_90a code only: rebuild with -DCMAKE_CUDA_ARCHITECTURES=90a-real");
        return ST_OK;
    }
    if (s->dtype == DT_TF32)
        return tc_hopper_tf32(ctx, s);
    if (!gb_wgmma_tma_ok(a, s->k, b, s->n)) {
        snprintf(ctx->note + len, sizeof ctx->note - len,
                 "; not the wgmma kernel: TMA needs 16-byte aligned A and B and lda, ldb "
                 "multiples of 8 (lda %d, ldb %d)",
                 s->k, s->n);
        return ST_OK;
    }
    if ((st = gb_check_kernels(ctx, bf16 ? gb_bgemm_wgmma_kernels : gb_hgemm_wgmma_kernels)) !=
        ST_OK)
        return st;
    if (gb_wgmma_encode(bf16, s->m, s->n, s->k, a, s->k, b, s->n, &s->maps, why, sizeof why) != 0) {
        snprintf(ctx->note, sizeof ctx->note, "gemm/cuda_tc's wgmma kernel: %s", why);
        return ST_ERROR;
    }
    CU_TRY(gb_wgmma_setup(bf16), ctx);
    if ((st = tc_wgmma_pick(ctx, s, bf16 ? GB_WGMMA_BF16 : GB_WGMMA_F16, why, sizeof why)) !=
        ST_OK)
        return st;
    tc_wgmma_note(ctx, s, tier, "", why);
    return ST_OK;
}

static enum status gemm_tc_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct tc_kernel *tc = p->dtype == DT_F64    ? &tc_f64
                                 : p->dtype == DT_BF16 ? &tc_bf16
                                 : p->dtype == DT_TF32 ? &tc_tf32
                                                       : &tc_f16;
    const struct tc_mma *mm = p->dtype == DT_F16    ? &mma_f16
                              : p->dtype == DT_BF16 ? &mma_bf16
                              : p->dtype == DT_TF32 ? &mma_tf32
                                                    : NULL;
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
    if (mm && mm->family(&refs) > 0 && (st = gb_check_kernels(ctx, mm->family)) != ST_OK)
        return st;
    if ((st = gemm_dev_prepare(ctx, &s->m, &s->n, &s->k)) != ST_OK)
        return st;
    if ((s->mma = tc_mma_pick(ctx, tc, mm, s)) < 0)
        return ST_ERROR;
    if (s->dtype == DT_F64) {
        if ((s->dmma16 = tc_dmma16_pick(ctx, s)) < 0)
            return ST_ERROR;
        if (s->dmma16)
            CU_TRY(gb_dgemm_dmma16_setup(), ctx);
    }
    return tc_hopper(ctx, s);
}

/* f16 or bf16 (s->dtype) on the kernel tc_mma_pick chose: an mma.sync one (s->mma 1: 64×32
 * warps, 2: 64×64) or the WMMA one (0). */
static cudaError_t gemm_tc_launch16(const struct gemm_tc_state *s, const void *a, const void *b,
                                    float *c) {
    const int bf16 = s->dtype == DT_BF16;
    if (s->mma)
        return (bf16 ? gb_bgemm_mma : gb_hgemm_mma)(gb_stream(), &s->arch, s->mma == 2, s->m, s->n,
                                                    s->k, a, s->k, b, s->n, c, s->n);
    return (bf16 ? gb_bgemm_wmma : gb_hgemm_wmma)(gb_stream(), &s->arch, s->m, s->n, s->k, a, s->k,
                                                  b, s->n, c, s->n);
}

static enum status gemm_tc_run(struct impl_ctx *ctx) {
    struct gemm_tc_state *s = ctx->state;
    void *a = s->dev.ptr[DEV_A], *b = s->dev.ptr[DEV_B], *c = s->dev.ptr[DEV_C];
    if (s->wgmma && s->dtype == DT_TF32) { /* tf32 on Hopper (tc_hopper_tf32): pass, kernel */
        CU_TRY(gb_tgemm_wgmma_copy(gb_stream(), s->m, s->n, s->k, (const float *)a, s->k,
                                   (const float *)b, s->n, s->a_copy, s->bt, s->ldk),
               ctx);
        CU_TRY(gb_tgemm_wgmma(gb_stream(), &s->arch, s->wgmma == 2, &s->maps, s->m, s->n, s->k,
                              (float *)c, s->n),
               ctx);
        return ST_OK;
    }
    if (s->wgmma) { /* f16, bf16 on Hopper (tc_hopper) */
        CU_TRY((s->wgmma == 2 ? gb_xgemm_wgmma_persist
                              : gb_xgemm_wgmma)(gb_stream(), &s->arch, s->dtype == DT_BF16,
                                                &s->maps, s->m, s->n, s->k, (float *)c, s->n),
               ctx);
        return ST_OK;
    }
    switch (s->dtype) {
    case DT_F64:
        CU_TRY((s->dmma16 ? gb_dgemm_dmma16 : gb_dgemm_dmma)(gb_stream(), &s->arch, s->m, s->n,
                                                             s->k, (const double *)a, s->k,
                                                             (const double *)b, s->n, (double *)c,
                                                             s->n),
               ctx);
        break;
    case DT_TF32:
        CU_TRY((s->mma ? gb_tgemm_mma : gb_tgemm_wmma)(gb_stream(), &s->arch, s->m, s->n, s->k,
                                                       (const float *)a, s->k, (const float *)b,
                                                       s->n, (float *)c, s->n),
               ctx);
        break;
    case DT_BF16: /* and f16, the default */
    default: CU_TRY(gemm_tc_launch16(s, a, b, (float *)c), ctx);
    }
    return ST_OK;
}

const struct impl gemm_cuda_tc_impl = {
    .name = "cuda_tc",
    .kind = DEV_CUDA,
    .summary = "own tensor-core GEMM, FP32 accumulation: FP16, BF16, TF32 on mma.sync 128x128 "
               "tiles (cc 8.0+; FP16, BF16 with 64x64 warps on large C; WMMA 64x64 for FP16 on "
               "cc 7.x and for rows not 16-byte multiples); FP16, BF16, TF32 on wgmma with TMA on "
               "cc 9.0 (sm_90a code) / FP64 on DMMA 8x8x4, 64x64 tiles (cc 8.0+), and on DMMA "
               "16x8x16, 128x128 tiles, with sm_90 code",
    .prepare = gemm_tc_prepare,
    .upload = gb_dev_upload,
    .run = gemm_tc_run,
    .download = gb_dev_download,
    .finish = gb_dev_finish,
    .release = gb_dev_release,
    .dtypes = DT_BIT(DT_F64) | DT_BIT(DT_F16) | DT_BIT(DT_BF16) | DT_BIT(DT_TF32),
};
