/* cuda.h — the launchers of our SGEMM, DGEMM and FP16 GEMM kernels (kernels.cuh), callable from
 * C: the SIMT kernels of gemm/cuda (the MLP step uses the SGEMM's and DGEMM's too) and the
 * tensor-core kernels of gemm/cuda_tc.
 *
 * Every launcher enqueues its kernel(s) on `stream` and returns cudaGetLastError(): a bad
 * configuration or a sticky error of an earlier launch is reported where it happens. A launcher
 * never synchronises, allocates or copies. Matrices are row-major. C11 and CUDA C alike.
 */
#ifndef GPUBENCH_GEMM_CUDA_H
#define GPUBENCH_GEMM_CUDA_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "kernels/common/cuda_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels gb_sgemm launches (for gb_check_kernels). */
int gb_sgemm_kernels(const struct gb_kernel_ref **refs);

/* C (M×N, ldc) = op(A) · op(B): op(A) is M×K — A itself (M×K, lda ≥ K) or, with trans_a, the
 * transpose of a stored K×M A (lda ≥ M); op(B) is K×N — B (K×N, ldb ≥ N) or, with trans_b, the
 * transpose of a stored N×K B (ldb ≥ K). trans_a and trans_b together are not supported
 * (cudaErrorInvalidValue). Any M, N, K ≥ 0 (K == 0 gives C = 0; an empty C launches nothing).
 * The tile configuration follows arch (kernels.cuh): 128×128 from sm_35 on large enough
 * products, 64×64 otherwise. cudaErrorInvalidConfiguration when the grid exceeds the device's
 * limits. */
cudaError_t gb_sgemm(cudaStream_t stream, const struct gb_arch *arch, int trans_a, int trans_b,
                     int M, int N, int K, const float *A, int lda, const float *B, int ldb,
                     float *C, int ldc);

/* The edge of the square block tile gb_sgemm uses for an M×N product on arch: 128 or 64 (for
 * the row note). */
int gb_sgemm_tile_for(const struct gb_arch *arch, int M, int N);

/* The kernels gb_dgemm launches (for gb_check_kernels). */
int gb_dgemm_kernels(const struct gb_kernel_ref **refs);

/* C (M×N, ldc) = A (M×K, lda ≥ K) · B (K×N, ldb ≥ N) in FP64, row-major, any M, N, K ≥ 0. The
 * tile follows arch and the shape (kernels.cuh, gb_dgemm_tile): 128×128 or 64×64 from sm_35,
 * 32×32 before. cudaErrorInvalidValue on bad
 * sizes, cudaErrorInvalidConfiguration when the grid exceeds the device's limits. */
cudaError_t gb_dgemm(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                     const double *A, int lda, const double *B, int ldb, double *C, int ldc);

/* The edge of the square DGEMM tile of an M×N result on arch: 128, 64 or 32 (for the row note). */
int gb_dgemm_tile_for(const struct gb_arch *arch, int M, int N);

/* The kernels gb_hgemm launches (for gb_check_kernels); none in a build whose toolkit has no
 * FP16 types (before CUDA 7.5). */
int gb_hgemm_kernels(const struct gb_kernel_ref **refs);

/* C (M×N, ldc, FP32) = A (M×K, lda ≥ K) · B (K×N, ldb ≥ N), A and B FP16 (IEEE binary16 bits,
 * __half), FP32 products and accumulation, row-major, any M, N, K ≥ 0, any alignment of A and B
 * (2-byte) and leading dimension. The SIMT kernels (half2 loads, FP32 FMAs), the same on every
 * card: code for compute capability 5.3 and newer (gb_hgemm_has_body; below, the kernels' body
 * is a trap, and gb_hgemm refuses without launching); tiles as gb_sgemm's; checks as
 * gb_sgemm's; cudaErrorInvalidValue as well in a build without FP16 types. */
cudaError_t gb_hgemm(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                     const void *A, int lda, const void *B, int ldb, float *C, int ldc);

/* Does the FP16 GEMM code the device runs (arch: gb_impl_arch's code level) have its real body
 * (gb_hgemm_body_at: from sm_53)? Where it does not, gb_hgemm launches nothing and returns
 * cudaErrorNoKernelImageForDevice; an implementation refuses the row before (unsupported). */
int gb_hgemm_has_body(const struct gb_arch *arch);

/* The edge of the square block tile gb_hgemm uses for an M×N product on arch (for the row
 * note). */
int gb_hgemm_tile_for(const struct gb_arch *arch, int M, int N);

/* --- tensor cores (gemm/cuda_tc) --------------------------------------------------------- */

/* The kernels gb_hgemm_wmma and gb_hgemm_wmma_op launch (for gb_check_kernels); none in a build
 * whose toolkit has no WMMA (before CUDA 9). */
int gb_hgemm_wmma_kernels(const struct gb_kernel_ref **refs);

/* Does the WMMA kernel code the device runs (arch: gb_impl_arch's code level) have its real
 * body: from sm_70, in a build with CUDA 9 or newer (gb_hgemm_wmma_body_at)? */
int gb_hgemm_wmma_runs(const struct gb_arch *arch);

/* gb_hgemm's product (same operands and contract) on the FP16 tensor cores: nvcuda::wmma
 * 16×16×16 fragments, 64×64 tiles (wmma.cuh). cudaErrorInvalidValue on bad sizes (and in a build
 * without WMMA), cudaErrorInvalidConfiguration when the grid exceeds the device's limits,
 * cudaErrorNoKernelImageForDevice without launching where gb_hgemm_wmma_runs is 0. */
cudaError_t gb_hgemm_wmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const void *A, int lda, const void *B, int ldb, float *C, int ldc);

/* C (M×N, ldc, FP32) = op(A)·op(B) of FP16 A and B on the same WMMA kernel source: ta — A stored
 * K×M (lda ≥ M), tb — B stored N×K (ldb ≥ K), not both (cudaErrorInvalidValue); neither is
 * gb_hgemm_wmma. Errors as gb_hgemm_wmma's. mlp_train/cuda_tc's five products. */
cudaError_t gb_hgemm_wmma_op(cudaStream_t stream, const struct gb_arch *arch, int ta, int tb,
                             int M, int N, int K, const void *A, int lda, const void *B, int ldb,
                             float *C, int ldc);

/* The kernels gb_bgemm_wmma and gb_tgemm_wmma launch; none in a build whose toolkit has no BF16
 * and TF32 WMMA (before CUDA 11.0). */
int gb_bgemm_wmma_kernels(const struct gb_kernel_ref **refs);
int gb_tgemm_wmma_kernels(const struct gb_kernel_ref **refs);

/* Does the BF16 and TF32 WMMA kernel code the device runs have its real body: from sm_80, in a
 * build with CUDA 11.0 or newer (gb_wmma80_body_at)? */
int gb_wmma80_runs(const struct gb_arch *arch);

/* gb_hgemm_wmma's product and errors with BF16 A and B (__nv_bfloat16 bits), on the same
 * kernel source with 16×16×16 bf16 fragments (wmma.cuh), where gb_wmma80_runs. */
cudaError_t gb_bgemm_wmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const void *A, int lda, const void *B, int ldb, float *C, int ldc);

/* Likewise with FP32 A and B, each rounded to TF32 (to nearest, ties away: __float_to_tf32) on
 * the device, products and sums in FP32: 16×16×8 tf32 fragments, where gb_wmma80_runs. */
cudaError_t gb_tgemm_wmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const float *A, int lda, const float *B, int ldb, float *C, int ldc);

/* The kernel gb_dgemm_dmma launches; none in a build whose toolkit has no FP64 WMMA (before
 * CUDA 11.0). */
int gb_dgemm_dmma_kernels(const struct gb_kernel_ref **refs);

/* Does the DMMA kernel code the device runs have its real body: from sm_80, CUDA 11.0
 * (gb_dgemm_dmma_body_at)? */
int gb_dgemm_dmma_runs(const struct gb_arch *arch);

/* gb_dgemm's product (same operands and contract) on the FP64 tensor cores: nvcuda::wmma 8×8×4
 * double fragments, 64×64 tiles (dmma.cuh); errors as gb_hgemm_wmma's. */
cudaError_t gb_dgemm_dmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const double *A, int lda, const double *B, int ldb, double *C, int ldc);

/* Does the m16n8k16 .f64 kernel (dmma16.cuh, the same family as gb_dgemm_dmma's) have its real
 * body in the code the device runs: sm_90 code of a CUDA 11.8+ build (gb_dgemm_dmma16_body_at)? */
int gb_dgemm_dmma16_runs(const struct gb_arch *arch);

/* Lets that kernel take its 146 KiB of dynamic shared memory (cudaFuncSetAttribute), once before
 * gb_dgemm_dmma16; cudaErrorInvalidValue in a build without it (before CUDA 11.8). */
cudaError_t gb_dgemm_dmma16_setup(void);

/* gb_dgemm_dmma's product on mma.sync m16n8k16 .f64 (SASS DMMA.16x8x16): 128×128 tiles, a
 * 4-stage cp.async pipeline (dmma16.cuh); cudaErrorNoKernelImageForDevice without launching
 * where gb_dgemm_dmma16_runs is 0, otherwise errors as gb_dgemm_dmma's. */
cudaError_t gb_dgemm_dmma16(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                            const double *A, int lda, const double *B, int ldb, double *C,
                            int ldc);

/* --- the sm_80+ mma.sync kernels (mma.cuh; gemm/cuda_tc's f16, bf16, tf32 from 8.0) -------- */

/* The kernels gb_hgemm_mma, gb_bgemm_mma and gb_tgemm_mma launch; none in a build whose toolkit
 * has no mma.sync bf16/tf32, ldmatrix and cp.async (before CUDA 11.0). */
int gb_hgemm_mma_kernels(const struct gb_kernel_ref **refs);
int gb_bgemm_mma_kernels(const struct gb_kernel_ref **refs);
int gb_tgemm_mma_kernels(const struct gb_kernel_ref **refs);

/* Does the mma kernel code the device runs have its real body: from sm_80, in a build with
 * CUDA 11.0 or newer (gb_mm_body_at)? */
int gb_mma_runs(const struct gb_arch *arch);

/* Can the mma kernels read these operands (esize-byte elements) with 16-byte cp.async: A and B
 * 16-byte aligned, lda·esize and ldb·esize multiples of 16 (gb_mm_fits)? Where not, gemm/cuda_tc
 * runs the WMMA kernel, which takes any alignment. */
int gb_mma_fits_ptrs(int esize, const void *A, int lda, const void *B, int ldb);

/* Which f16/bf16 mma kernel suits an M×N C on sms multiprocessors: 1, the 64×64-warp one (from
 * two 128×128 tiles an SM), 0, the 64×32-warp one (gb_mm_pick; mma.cuh says why). */
int gb_mma_pick(int M, int N, int sms);

/* gb_hgemm_wmma's, gb_bgemm_wmma's and gb_tgemm_wmma's products (same operands and contract:
 * FP32 C, FP32 accumulation; tf32 operands rounded to nearest, ties away) on 128×128 tiles of
 * mma.sync m16n8k16 (f16, bf16) or m16n8k8 (tf32) with ldmatrix and a 3-stage cp.async pipeline
 * (mma.cuh): f16 and bf16 with 64×64 warp tiles where w64 is 1, else (and tf32) 64×32. Errors as
 * gb_hgemm_wmma's, cudaErrorNoKernelImageForDevice where gb_mma_runs is 0, and
 * cudaErrorMisalignedAddress without launching where gb_mma_fits_ptrs is 0. */
cudaError_t gb_hgemm_mma(cudaStream_t stream, const struct gb_arch *arch, int w64, int M, int N,
                         int K, const void *A, int lda, const void *B, int ldb, float *C, int ldc);
cudaError_t gb_bgemm_mma(cudaStream_t stream, const struct gb_arch *arch, int w64, int M, int N,
                         int K, const void *A, int lda, const void *B, int ldb, float *C, int ldc);
cudaError_t gb_tgemm_mma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                         const float *A, int lda, const float *B, int ldb, float *C, int ldc);

/* --- Hopper: wgmma with TMA (gemm/cuda_tc's f16 and bf16 on sm_90a code, wgmma.cuh) ------- */

/* The kernels gb_xgemm_wgmma launches for f16 and bf16; none in a build whose toolkit predates
 * CUDA 12.0. */
int gb_hgemm_wgmma_kernels(const struct gb_kernel_ref **refs);
int gb_bgemm_wgmma_kernels(const struct gb_kernel_ref **refs);

/* Was this gpubench built with a toolkit that has wgmma and TMA (CUDA 12.0+)? */
int gb_wgmma_built(void);

/* Does the device run the wgmma kernel's real body: compute capability 9.0 running this build's
 * sm_90a code (arch: gb_impl_arch's, arch_specific), in a CUDA 12.0+ build (gb_wg_body_at)? A
 * build without 90a in CMAKE_CUDA_ARCHITECTURES runs sm_90 code there, where it is a trap. */
int gb_wgmma_runs(const struct gb_arch *arch);

/* Can TMA read A and B as given (16-byte aligned bases, lda and ldb multiples of 8)? */
int gb_wgmma_tma_ok(const void *A, int lda, const void *B, int ldb);

/* The tensor maps of A (M×K, lda) and B (K×N, ldb), CUtensorMap bytes (copied into aligned
 * ones at each launch). */
struct gb_wgmma_maps {
    unsigned char a[128], b[128];
};

/* Encode maps for a product with FP16 (bf16 = 0) or BF16 (1) operands: cuTensorMapEncodeTiled,
 * from the driver through cudaGetDriverEntryPoint(ByVersion). 0, or -1 with why (len bytes):
 * the call that failed and its error name, or the TMA rule A and B break (gb_wgmma_tma_ok). */
int gb_wgmma_encode(int bf16, int M, int N, int K, const void *A, int lda, const void *B, int ldb,
                    struct gb_wgmma_maps *maps, char *why, size_t len);

/* Let the kernels of the tier (128×128 and persistent 128×256) use their dynamic shared memory (above 48 KiB: cudaFuncSetAttribute).
 * Once, before the first launch. */
cudaError_t gb_wgmma_setup(int bf16);

/* C (M×N, ldc, FP32) = A·B of the maps (gb_wgmma_encode, same M, N, K), 128×128 tiles;
 * cudaErrorInvalidValue on bad sizes (and in a build before CUDA 12.0),
 * cudaErrorInvalidConfiguration when the grid exceeds the device's limits,
 * cudaErrorNoKernelImageForDevice without launching where gb_wgmma_runs is 0. */
cudaError_t gb_xgemm_wgmma(cudaStream_t stream, const struct gb_arch *arch, int bf16,
                           const struct gb_wgmma_maps *maps, int M, int N, int K, float *C,
                           int ldc);

/* The persistent 128×256 kernel with 2-CTA clusters (wgmma_persist.cuh; the same maps, the same
 * setup): does a product of M×N on a card of sms multiprocessors take it (gb_wp_pick: the
 * smaller modelled time), with the model's rounds of the 128×128 kernel (*r128) and of the
 * persistent one (*r256) and a 128×256 tile's cost in 128×128 tiles, in tenths (*cost_x10);
 * and its launcher, with gb_xgemm_wgmma's errors. */
int gb_wgmma_persist_pick(int M, int N, int sms, long *r128, long *r256, int *cost_x10);
/* The tier of a wgmma kernel, where one function serves the three. */
enum gb_wgmma_tier { GB_WGMMA_F16, GB_WGMMA_BF16, GB_WGMMA_TF32 };
/* The tier's persistent kernel's registers a thread at entry (cudaFuncGetAttributes' numRegs)
 * into *regs, the count its setmaxnreg moves assume into *need (GB_WP_REGS_ENTRY), and into *ok
 * whether the moves can complete (gb_wp_regs_ok; with fewer registers the consumers' increase
 * would wait forever); the runtime's error, or cudaErrorInvalidValue before CUDA 12.0. */
cudaError_t gb_wgmma_persist_regs(enum gb_wgmma_tier tier, int *regs, int *need, int *ok);
cudaError_t gb_xgemm_wgmma_persist(cudaStream_t stream, const struct gb_arch *arch, int bf16,
                                   const struct gb_wgmma_maps *maps, int M, int N, int K,
                                   float *C, int ldc);

/* --- Hopper: tf32 on wgmma (gemm/cuda_tc's tf32 on sm_90a code, wgmma_tf32.cuh) ------------
 * wgmma reads tf32 operands K-major only: a pass first writes B transposed and rounded to TF32
 * (N×K) and, where TMA cannot read A in place, A rounded (M×K), both K-major with leading
 * dimension ldk, into one device buffer (`copies`), and the kernel reads A (or its copy) and Bᵀ
 * through their tensor maps. */

/* The pass and the kernel; none in a build whose toolkit predates CUDA 12.0. */
int gb_tgemm_wgmma_kernels(const struct gb_kernel_ref **refs);

/* Can the kernel read A (lda floats a row) in place, so the pass copies B alone
 * (gb_wt_a_in_place: a 16-byte aligned base, lda a multiple of 4)? */
int gb_tgemm_wgmma_a_in_place(const float *A, int lda);

/* The copies' floats ((M + N)·ldk, or N·ldk where A is read in place) and their leading
 * dimension *ldk (K rounded up to 4). */
size_t gb_tgemm_wgmma_copies(int M, int N, int K, int a_in_place, int *ldk);

/* The pass on stream: ar[0 .. M·ldk) = A rounded (none where ar is NULL: A read in place),
 * bt[0 .. N·ldk) = Bᵀ rounded (TF32 to nearest, ties away, as cvt.rna). cudaErrorInvalidValue
 * on bad sizes (and before CUDA 12.0), cudaErrorInvalidConfiguration beyond the grid's limits;
 * nothing to do where M, N or K is 0. */
cudaError_t gb_tgemm_wgmma_copy(cudaStream_t stream, int M, int N, int K, const float *A, int lda,
                                const float *B, int ldb, float *ar, float *bt, int ldk);

/* The maps the kernel reads (FP32, 128-byte swizzle), as gb_wgmma_encode's: of a (M×K, lda: A
 * itself, or its copy with ldk) and of bt (N×K, ldk), Bᵀ's boxes 64 rows for the persistent
 * kernel (persist 1), 128 for the 128×128 one: 0, or -1 with why. */
int gb_tgemm_wgmma_encode(int persist, int M, int N, int K, const float *a, int lda,
                          const float *bt, int ldk, struct gb_wgmma_maps *maps, char *why,
                          size_t len);

/* gb_wgmma_setup's for the tf32 kernels, and a kernel: C (M×N, ldc) = A·B from the maps
 * (gb_tgemm_wgmma_encode's, with the same persist), 128×128 tiles (persist 0) or the persistent
 * 128×256 kernel (1; gb_wgmma_persist_pick and gb_wgmma_persist_regs as for f16 and bf16), with
 * gb_xgemm_wgmma's errors. */
cudaError_t gb_tgemm_wgmma_setup(void);
cudaError_t gb_tgemm_wgmma(cudaStream_t stream, const struct gb_arch *arch, int persist,
                           const struct gb_wgmma_maps *maps, int M, int N, int K, float *C,
                           int ldc);

/* gemm/cuda's and gemm/cuda_tc's prepare, their common part (kernels/gemm/cuda.c): the row's
 * buffers A, B and C in gb_dev_prepare's order (C FP32 in every tier but f64, where it is of the
 * tier), and the problem's sizes as ints, which bench/gemm.c's complete() keeps them within. */
enum status gemm_dev_prepare(struct impl_ctx *ctx, int *m, int *n, int *k);

#ifdef __cplusplus
}
#endif

#endif
