/* wmma.cuh — GEMM on the tensor cores through nvcuda::wmma, FP32 C and accumulation: C (M×N,
 * ldc, FP32) = A (M×K, lda) · B (K×N, ldb), row-major, any M, N, K ≥ 0 and any leading dimension
 * and alignment of A and B. gemm/cuda_tc's 16-bit and tf32 tiers (kernels/gemm/cuda_tc.c) on
 * sm_70/75 code (f16), and on sm_80+ code where mma.cuh's faster kernels cannot run (rows of A
 * or B not multiples of 16 bytes, or unaligned bases); one kernel source (kernels/common/wmma_tile.cuh)
 * instantiated per tier at the end of this file (the f16 tier's parameters in wmma_f16.cuh,
 * which kernels/conv2d/tc.cuh instantiates too, without the GEMM kernel, for its convolution on
 * the same tiles):
 *   gb_hgemm_wmma_64x64  f16:  __half A and B, 16×16×16 fragments, compute capability 7.0, CUDA 9;
 *   gb_bgemm_wmma_64x64  bf16: __nv_bfloat16 A and B, 16×16×16 fragments, 8.0, CUDA 11.0;
 *   gb_tgemm_wmma_64x64  tf32: float A and B, rounded to TF32 (__float_to_tf32, round to nearest,
 *                        ties away) on their way into shared memory, wmma::precision::tf32
 *                        16×16×8 fragments, 8.0, CUDA 11.0;
 *   gb_hgemm_wmma_64x64_nt, gb_hgemm_wmma_64x64_tn  f16 with B, with A stored transposed
 *                        (C = A·Bᵀ, Aᵀ·B: GB_WT_TB, GB_WT_TA), for mlp_train/cuda_tc's step
 *                        (kernels/mlp_train/cuda_tc.c), 7.0, CUDA 9.
 *
 * SASS check: gb_hgemm_wmma_64x64 HMMA from 700
 * SASS check: gb_hgemm_wmma_64x64_nt HMMA from 700
 * SASS check: gb_hgemm_wmma_64x64_tn HMMA from 700
 * SASS check: gb_bgemm_wmma_64x64 HMMA from 800
 * SASS check: gb_tgemm_wmma_64x64 HMMA from 800
 * (tests/gpuinfo/sass_check.py: the build's machine code for that architecture and newer must
 * hold HMMA instructions in the kernel, and none below; BF16 and TF32 mma are HMMA.16816.F32.BF16
 * and HMMA.1684.F32.TF32 in the SASS)
 *
 * The tiles, the twin and why C++: kernels/common/wmma.cuh.
 */
#ifndef GPUBENCH_GEMM_WMMA_CUH
#define GPUBENCH_GEMM_WMMA_CUH

#include "kernels/common/wmma.cuh"

/* --- the kernels, one source (kernels/common/wmma_tile.cuh) per tier ---------------------- */
#define GB_WT_NAME gb_hgemm_wmma_64x64
#include "kernels/common/wmma_f16.cuh"

#define GB_WT_NAME gb_bgemm_wmma_64x64
#define GB_WT_IN __nv_bfloat16
#define GB_WT_PAIR __nv_bfloat162
#define GB_WT_ALIGNED(p) GB_ALIGNED4(p)
#define GB_WT_ZERO __float2bfloat16(0.0f)
#define GB_WT_ROUND(x) (x)
#define GB_WT_FLOAT(x) __bfloat162float(x)
#define GB_WT_FRAG __nv_bfloat16
#define GB_WT_FK 16
#define GB_WT_HAVE GB_HAVE_WMMA_80
#define GB_WT_MIN_ARCH GB_WMMA_80_MIN_ARCH
#include "kernels/common/wmma_tile.cuh"

#define GB_WT_NAME gb_tgemm_wmma_64x64
#define GB_WT_IN float
#define GB_WT_PAIR float2
#define GB_WT_ALIGNED(p) GB_ALIGNED8(p)
#define GB_WT_ZERO 0.0f
#define GB_WT_ROUND(x) gb_wm_tf32(x)
#define GB_WT_FLOAT(x) (x)
#define GB_WT_FRAG nvcuda::wmma::precision::tf32
#define GB_WT_FK 8
#define GB_WT_HAVE GB_HAVE_WMMA_80
#define GB_WT_MIN_ARCH GB_WMMA_80_MIN_ARCH
#include "kernels/common/wmma_tile.cuh"

/* the f16 tier with a transposed operand (wmma_tile.cuh's GB_WT_TA, GB_WT_TB) */
#define GB_WT_NAME gb_hgemm_wmma_64x64_nt
#define GB_WT_TB 1
#include "kernels/common/wmma_f16.cuh"

#define GB_WT_NAME gb_hgemm_wmma_64x64_tn
#define GB_WT_TA 1
#include "kernels/common/wmma_f16.cuh"

#endif
