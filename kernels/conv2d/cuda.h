/* cuda.h — the launchers of the implicit-GEMM convolution kernels (kernels.cuh), callable
 * from C.
 *
 * Every launcher enqueues its kernel(s) on `stream` and returns cudaGetLastError(): a bad
 * configuration or a sticky error of an earlier launch is reported where it happens. A launcher
 * never synchronises, allocates or copies. Matrices are row-major. C11 and CUDA C alike.
 */
#ifndef GPUBENCH_CONV2D_CUDA_H
#define GPUBENCH_CONV2D_CUDA_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "kernels/common/cuda_impl.h"
#include "bench/conv2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels gb_conv2d launches (for gb_check_kernels). */
int gb_conv2d_kernels(const struct gb_kernel_ref **refs);

/* y (n×k×p×q) = conv(x (n×c×h×w), wt (k×c×r×s)), NCHW, cross-correlation, any stride and
 * padding per axis; d must have been completed by conv2d_dims_finish (cudaErrorInvalidValue
 * otherwise). Implicit GEMM (kernels.cuh). */
cudaError_t gb_conv2d(cudaStream_t stream, const struct gb_arch *arch,
                      const struct conv2d_dims *d, const float *x, const float *wt, float *y);

/* gb_conv2d in doubles (the f64 tier): the same shapes and errors. */
cudaError_t gb_conv2d64(cudaStream_t stream, const struct gb_arch *arch,
                        const struct conv2d_dims *d, const double *x, const double *wt,
                        double *y);

/* --- tensor cores (conv2d/cuda_tc, kernels/conv2d/tc.cuh) -------------------------------- */

/* The kernel gb_conv2d_wmma launches (for gb_check_kernels); 0 in a build whose CUDA has no
 * WMMA (before CUDA 9). */
int gb_conv2d_wmma_kernels(const struct gb_kernel_ref **refs);

/* Does the device, at arch's code level (gb_impl_arch), run gb_conv2d_wmma's real body: from
 * sm_70, in a build with CUDA 9 or newer? */
int gb_conv2d_wmma_runs(const struct gb_arch *arch);

/* 1 when the kernel's int arithmetic reaches every index of d (conv2d_dims_int_indexed, and the
 * input offsets its gather walks through, up to a slice past the last channel). */
int gb_conv2d_wmma_fits(const struct conv2d_dims *d);

/* y (n×k×p×q) = conv(x (n×c×h×w), wt (k×c×r×s)), NCHW, cross-correlation, all three __half,
 * FP32 accumulation, on the FP16 tensor cores (tc.cuh). cudaErrorInvalidValue for a d not
 * completed by conv2d_dims_finish or beyond gb_conv2d_wmma_fits (or a build without WMMA),
 * cudaErrorNoKernelImageForDevice where gb_conv2d_wmma_runs is 0 (nothing launched). */
cudaError_t gb_conv2d_wmma(cudaStream_t stream, const struct gb_arch *arch,
                           const struct conv2d_dims *d, const void *x, const void *wt, void *y);

/* --- tensor cores from sm_80 (kernels/conv2d/tc_mma.cuh) ----------------------------------- */

/* The kernels gb_conv2d_mma launches, one a block tile (128×128, then 64×256); 0 in a build
 * whose CUDA has no mma.sync (before 11.0). */
int gb_conv2d_mma_kernels(const struct gb_kernel_ref **refs);

/* The block tiles (filters × pixels; tc_mma.cuh's GB_CMM_T128 and GB_CMM_T64) */
enum { GB_CONV2D_MMA_128X128, GB_CONV2D_MMA_64X256, GB_CONV2D_MMA_TILES };

/* The tile's name, "128x128" or "64x256" (GPUBENCH_CONV_KERNEL's values). */
const char *gb_conv2d_mma_tile_name(int tile);

/* The tile for d on a card of smem_sm bytes of shared memory an SM (tc_mma.cuh's gb_cmm_pick:
 * the smaller modelled mma work, filters and pixels padded to the tile; 64×256 only below 128
 * filters and where two of its blocks fit an SM; ties to 128×128), that work of a tile, and the
 * blocks of a tile an SM holds (gb_cmm_blocks_an_sm), for the row note. */
int gb_conv2d_mma_pick(const struct conv2d_dims *d, int smem_sm);
long long gb_conv2d_mma_work(int tile, const struct conv2d_dims *d);
int gb_conv2d_mma_blocks_an_sm(int tile, int smem_sm);

/* Does the epilogue store y in pairs of halves, one 32-bit store each (tc_mma.cuh's
 * gb_cmm_pairs: p·q even and y 4-byte aligned), rather than a half at a time? */
int gb_conv2d_mma_pairs(const struct conv2d_dims *d, const void *y);

/* Before the first gb_conv2d_mma of tile: lets its kernel take its dynamic shared memory (the
 * 64×256 tile's 60 KiB is past the 48 KiB a kernel gets unasked; 128×128's 48 KiB needs
 * nothing). cudaErrorInvalidValue for no such tile (or a build without mma.sync). */
cudaError_t gb_conv2d_mma_setup(int tile);

/* Does the device, at arch's code level, run gb_conv2d_mma's real body: from sm_80, in a build
 * with CUDA 11.0 or newer? */
int gb_conv2d_mma_runs(const struct gb_arch *arch);

/* 1 when the kernel's int arithmetic reaches every index of d in the padded layouts below. */
int gb_conv2d_mma_fits(const struct conv2d_dims *d);

/* Elements of the padded layouts the kernel reads: x as n × h × w × cp (NHWC), the filters as
 * k × r × s × cp (KRSC), cp = c rounded up to a multiple of 8, the padding zero; and where
 * element i of the problem's NCHW x, resp. KCRS filters, sits in them (a gb_dev_place_fn's
 * shape; arg: the struct conv2d_dims). */
size_t gb_conv2d_mma_x_elems(const struct conv2d_dims *d);
size_t gb_conv2d_mma_w_elems(const struct conv2d_dims *d);
size_t gb_conv2d_mma_x_place(size_t i, const void *dims);
size_t gb_conv2d_mma_w_place(size_t i, const void *dims);

/* y (n×k×p×q, NCHW) = conv(x, wt), x and wt __half in the padded layouts above (16-byte
 * aligned), y __half, FP32 accumulation, on mma.sync (tc_mma.cuh) in block tile `tile` (set up
 * by gb_conv2d_mma_setup). cudaErrorInvalidValue for a d not completed by conv2d_dims_finish or
 * beyond gb_conv2d_mma_fits, a bad tile (or a build without it), cudaErrorNoKernelImageForDevice
 * where gb_conv2d_mma_runs is 0 (nothing launched). */
cudaError_t gb_conv2d_mma(cudaStream_t stream, const struct gb_arch *arch,
                          const struct conv2d_dims *d, int tile, const void *x, const void *wt,
                          void *y);

#ifdef __cplusplus
}
#endif

#endif
