/* kernels.cuh — SGEMM, DGEMM and FP16 GEMM kernels (C subset of CUDA C): shared-memory tiled and
 * register blocked, row-major, C = op(A)·op(B) for op = identity or transpose, correct for any M,
 * N, K — the SIMT kernels of gemm/cuda, the same code on every card — and the tensor-core
 * kernels of gemm/cuda_tc (wmma.cuh, dmma.cuh).
 *
 * Two tile configurations, both 256 threads per block (tile.cuh explains the scheme: double-
 * buffered shared slices, the next one prefetched into registers, one barrier a slice):
 *   gb_sgemm_128x128_{nn,tn,nt}: 128×128×8 block tile, 8×8 per thread (64 accumulators;
 *       128–159 registers) for sm_35 and newer (255 registers per thread);
 *   gb_sgemm_64x64_{nn,tn,nt}:   64×64×16 block tile, 4×4 per thread (16 accumulators) for
 *       Fermi (sm_2x) and sm_30, which allow 63 registers per thread, and for small products
 *       everywhere. Below sm_35 it does not prefetch the next slice into registers (the 8
 *       registers that takes make ptxas spill under a 63-register cap); from sm_35 it does.
 *       The 8×8 tile would spill below sm_35, so the 128×128 kernels compile to a trap there
 *       and are never launched.
 * Shared by the nvcc build (cuda.cu adds the launcher) and the CPU emulation of the tests,
 * which also use the host helpers below so that they launch exactly what the launcher does.
 */
#ifndef GPUBENCH_GEMM_KERNELS_CUH
#define GPUBENCH_GEMM_KERNELS_CUH

#include "kernels/common/kernel_common.cuh"

#define GB_GEMM_THREADS 256

#define GB_GT_NAME gb_sgemm_128x128
#define GB_GT_BM 128
#define GB_GT_BN 128
#define GB_GT_BK 8
#define GB_GT_TM 8
#define GB_GT_TN 8
#define GB_GT_MIN_ARCH 350
#define GB_GT_PREFETCH 1
/* 2 blocks per SM caps the kernel at 128 registers (it takes 129 uncapped on sm_75–90, which
 * would leave one block per SM); ptxas fits 128 without spilling on sm_75–90 but spills on
 * sm_100/120 (and sm_35–70 could not be checked with CUDA 13), so only there. */
#define GB_GT_MIN_BLOCKS ((GB_ARCH >= 750 && GB_ARCH < 1000) ? 2 : 1)
#include "kernels/gemm/tile.cuh"

#define GB_GT_NAME gb_sgemm_64x64
#define GB_GT_BM 64
#define GB_GT_BN 64
#define GB_GT_BK 16
#define GB_GT_TM 4
#define GB_GT_TN 4
#define GB_GT_MIN_ARCH 0
#define GB_GT_MIN_BLOCKS 1
#define GB_GT_PREFETCH (GB_ARCH == 0 || GB_ARCH >= 350) /* no registers to spare below sm_35 */
#include "kernels/gemm/tile.cuh"

/* FP16 A and B, FP32 C and accumulation (the f16 tier; tile.cuh with GB_GT_HALF): the SGEMM's two
 * tiles and choice between them, from sm_53 (half.cuh), only where the toolkit has cuda_fp16.h
 * (CUDA 7.5). Registers as the SGEMM's: the prefetched slice is held as floats. */
#include "kernels/common/half.cuh"
#if GB_HAVE_HALF
#define GB_GT_NAME gb_hgemm_128x128
#define GB_GT_BM 128
#define GB_GT_BN 128
#define GB_GT_BK 8
#define GB_GT_TM 8
#define GB_GT_TN 8
#define GB_GT_MIN_ARCH GB_HALF_MIN_ARCH
#define GB_GT_PREFETCH 1
#define GB_GT_MIN_BLOCKS ((GB_ARCH >= 750 && GB_ARCH < 1000) ? 2 : 1) /* as the SGEMM's */
#define GB_GT_HALF 1
#include "kernels/gemm/tile.cuh"

#define GB_GT_NAME gb_hgemm_64x64
#define GB_GT_BM 64
#define GB_GT_BN 64
#define GB_GT_BK 16
#define GB_GT_TM 4
#define GB_GT_TN 4
#define GB_GT_MIN_ARCH GB_HALF_MIN_ARCH
#define GB_GT_PREFETCH 1
#define GB_GT_MIN_BLOCKS 1
#define GB_GT_HALF 1
#include "kernels/gemm/tile.cuh"
#endif

/* The tensor-core kernels of gemm/cuda_tc (wmma.cuh says why they hold the project's only C++):
 * WMMA, one source for FP16 from sm_70 (CUDA 9), gb_hgemm_wmma_64x64 (and, with A or B stored
 * transposed, gb_hgemm_wmma_64x64_tn and _nt for mlp_train/cuda_tc), and BF16 and TF32 from
 * sm_80 (CUDA 11), gb_bgemm_wmma_64x64 and gb_tgemm_wmma_64x64; FP64 from sm_80 (CUDA 11),
 * gb_dgemm_dmma_64x64. */
#include "kernels/gemm/wmma.cuh"
#include "kernels/gemm/dmma.cuh"
/* FP64 on Hopper's m16n8k16 .f64 (DMMA.16x8x16), sm_90 code, CUDA 11.8: gb_dgemm_dmma16_128x128 */
#include "kernels/gemm/dmma16.cuh"
/* the sm_80+ mma.sync kernels of gemm/cuda_tc (f16, bf16, tf32) */
#include "kernels/gemm/mma.cuh"
/* the sm_90a wgmma kernels of gemm/cuda_tc (f16, bf16) */
#include "kernels/gemm/wgmma.cuh"
/* the persistent 128×256 wgmma kernels with a 2-CTA multicast cluster (f16, bf16) */
#include "kernels/gemm/wgmma_persist.cuh"
/* tf32 on wgmma: its pass (K-major TF32 copies of Bᵀ, and of A where TMA cannot read A in
 * place) and the 128×128 and persistent 128×256 kernels on them */
#include "kernels/gemm/wgmma_tf32.cuh"

/* DGEMM (dgemm.cuh: double-buffered, double2 shared loads, one barrier a slice), its own tiles
 * per architecture, all 256 threads:
 *   gb_dgemm_128x128: 128×128×8, 8×8 doubles per thread (64 FP64 accumulators, 128 registers of
 *       them) from sm_35, whose 255 registers per thread hold them: 64 FMAs per 8 double2
 *       shared loads a k step, so the FP64 units and not shared memory bound it. Not on sm_53
 *       and sm_62 (Tegra), whose blocks get 32K registers: 128 a thread, where ptxas spilled
 *       2 KB of it (GB_DGEMM_NO_128);
 *   gb_dgemm_64x64: 64×64×8, 4×4 per thread, from sm_35 for products with fewer 128×128 tiles
 *       than multiprocessors (as the SGEMM's choice, gb_sgemm_pick), and sm_53/62;
 *   gb_dgemm_32x32: 32×32×16, 2×2 per thread, on Fermi and sm_30 (63 registers per thread: the
 *       4×4 tile's accumulators and operands alone would take 48); no register prefetch (the
 *       emulation runs it at every architecture: the tests' path without prefetch). */
/* Where the 128×128 DGEMM is a trap: below sm_35 and on sm_53/62 (32K registers a block). */
#define GB_DGEMM_NO_128 (GB_ARCH > 0 && (GB_ARCH < 350 || GB_ARCH == 530 || GB_ARCH == 620))
#define GB_DG_NAME gb_dgemm_128x128
#define GB_DG_BM 128
#define GB_DG_BN 128
#define GB_DG_BK 8
#define GB_DG_TM 8
#define GB_DG_TN 8
#define GB_DG_TRAP GB_DGEMM_NO_128
#define GB_DG_PREFETCH 1
#include "kernels/gemm/dgemm.cuh"

#define GB_DG_NAME gb_dgemm_64x64
#define GB_DG_BM 64
#define GB_DG_BN 64
#define GB_DG_BK 8
#define GB_DG_TM 4
#define GB_DG_TN 4
#define GB_DG_TRAP (GB_ARCH > 0 && GB_ARCH < 350)
#define GB_DG_PREFETCH 1
#include "kernels/gemm/dgemm.cuh"

#define GB_DG_NAME gb_dgemm_32x32
#define GB_DG_BM 32
#define GB_DG_BN 32
#define GB_DG_BK 16
#define GB_DG_TM 2
#define GB_DG_TN 2
#define GB_DG_TRAP 0
#define GB_DG_PREFETCH 0 /* launched only below sm_35: no registers to spare there */
#include "kernels/gemm/dgemm.cuh"

/* The DGEMM tile edge for an M×N result on a device of compute capability sm (35 = 3.5) with
 * `sms` multiprocessors: 32 before sm_35; from it 128 where there are at least as many 128×128
 * tiles as multiprocessors, else 64 (more blocks for small products); 64 on sm_53/62 (see
 * gb_dgemm_128x128). A design heuristic, not a measured one: no GPU was available when it was
 * written. */
static inline int gb_dgemm_tile(int sm, int sms, int M, int N) {
    long tiles = (((long)M + 127) / 128) * (((long)N + 127) / 128);
    return sm < 35 ? 32 : (tiles >= sms && sm != 53 && sm != 62) ? 128 : 64;
}

/* The DGEMM grid of an M×N result with tile edge t (limits as gb_sgemm_grid). Returns 0 or -1. */
static inline int gb_dgemm_grid(int t, int sm, int M, int N, dim3 *grid) {
    long gx = ((long)N + t - 1) / t, gy = ((long)M + t - 1) / t;
    if (gy > 65535 || gx > (sm >= 30 ? 2147483647L : 65535L))
        return -1;
    grid->x = (unsigned)gx;
    grid->y = (unsigned)gy;
    grid->z = 1;
    return 0;
}

/* Does the FP16 GEMM code compiled for compute capability code_sm (the code level the device
 * runs: gb_arch_code_level) have its real body? From sm_53 (GB_HALF_MIN_ARCH, half.cuh); below,
 * the kernels are __trap(), a sticky error that would make every later row on the device
 * `error': the host refuses before launching (kernels/gemm/cuda.cu). */
static inline int gb_hgemm_body_at(int code_sm) { return code_sm * 10 >= GB_HALF_MIN_ARCH; }

/* Likewise the tensor-core kernels (wmma.cuh, dmma.cuh): a real body from sm_70 (WMMA f16) and
 * sm_80 (WMMA bf16 and tf32, DMMA), in a toolkit that has them (CUDA 9 and 11); below, a trap
 * the host never launches. */
static inline int gb_hgemm_wmma_body_at(int code_sm) {
    return gb_wm_body_at(GB_HAVE_WMMA, GB_WMMA_MIN_ARCH, code_sm);
}
static inline int gb_wmma80_body_at(int code_sm) {
    return gb_wm_body_at(GB_HAVE_WMMA_80, GB_WMMA_80_MIN_ARCH, code_sm);
}
static inline int gb_dgemm_dmma_body_at(int code_sm) {
    return GB_HAVE_DMMA && code_sm * 10 >= GB_DMMA_MIN_ARCH;
}
static inline int gb_dgemm_dmma16_body_at(int code_sm) {
    return gb_d16_body_at(GB_HAVE_DMMA16, code_sm);
}

/* Tile configurations, as the launcher and the tests name them. */
enum gb_gemm_cfg { GB_GEMM_64 = 0, GB_GEMM_128 = 1 };

/* Block tile edge of a configuration. */
static inline int gb_sgemm_tile(enum gb_gemm_cfg cfg) {
    return cfg == GB_GEMM_128 ? 128 : 64;
}

/* The configuration for an M×N result on a device of compute capability sm (35 = 3.5) with
 * `sms` multiprocessors: 128×128 where registers allow it and there are at least as many
 * 128×128 tiles as multiprocessors (otherwise the smaller tile keeps more SMs busy). A design
 * heuristic, not a measured one: no GPU was available when it was written. */
static inline enum gb_gemm_cfg gb_sgemm_pick(int sm, int sms, int M, int N) {
    long tiles = (((long)M + 127) / 128) * (((long)N + 127) / 128);
    return (sm >= 35 && tiles >= sms) ? GB_GEMM_128 : GB_GEMM_64;
}

/* Grid of an M×N result for configuration cfg: x over column tiles, y over row tiles. Returns
 * 0, or -1 when it exceeds the device's limits (gridDim.y ≤ 65535; gridDim.x ≤ 65535 before
 * sm_30). */
static inline int gb_sgemm_grid(enum gb_gemm_cfg cfg, int sm, int M, int N, dim3 *grid) {
    long t = gb_sgemm_tile(cfg);
    long gx = ((long)N + t - 1) / t, gy = ((long)M + t - 1) / t;
    if (gy > 65535 || gx > (sm >= 30 ? 2147483647L : 65535L))
        return -1;
    grid->x = (unsigned)gx;
    grid->y = (unsigned)gy;
    grid->z = 1;
    return 0;
}

/* Everything the launcher decides, as a plain function the emulation tests share: checks the
 * arguments (see gb_sgemm in kernels/gemm/cuda.h), picks the configuration, the entry point
 * (*variant: 0 nn, 1 tn, 2 nt) and the grid. Returns 0 (launch), 1 (empty C: launch nothing),
 * -1 (bad arguments) or -2 (grid beyond the device's limits). */
static inline int gb_sgemm_plan(int sm, int sms, int trans_a, int trans_b, int M, int N, int K,
                                int lda, int ldb, int ldc, enum gb_gemm_cfg *cfg, int *variant,
                                dim3 *grid) {
    if ((trans_a && trans_b) || M < 0 || N < 0 || K < 0 || ldc < N || lda < (trans_a ? M : K) ||
        ldb < (trans_b ? K : N))
        return -1;
    if (M == 0 || N == 0)
        return 1;
    *cfg = gb_sgemm_pick(sm, sms, M, N);
    *variant = trans_a ? 1 : trans_b ? 2 : 0;
    return gb_sgemm_grid(*cfg, sm, M, N, grid) == 0 ? 0 : -2;
}

#endif
