/* cublas_math.h — the cuBLAS math mode of the exact tiers (float32, float64): the library's
 * fastest mode that keeps IEEE FP32 / FP64 products and sums, and the words a row's note names
 * it with (docs/precision.md, "cuBLAS math modes"). Implemented in kernels/common/cublas_math.c;
 * in builds with cuBLAS only (GPUBENCH_HAVE_CUBLAS).
 *
 * From cuBLAS's own documentation (docs.nvidia.com/cuda/cublas):
 * - §2.2.10 cublasMath_t: CUBLAS_DEFAULT_MATH "uses compute and intermediate storage precisions
 *   with at least the same number of mantissa and exponent bits as requested"; TF32 (10 mantissa
 *   bits) needs CUBLAS_TF32_TENSOR_OP_MATH, BF16x9 CUBLAS_FP32_EMULATED_BF16X9_MATH, fixed-point
 *   FP64 emulation CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH: each opt-in. CUBLAS_PEDANTIC_MATH "uses
 *   the prescribed precision and standardized arithmetic for all phases", and may be slower: an
 *   H200's cublasDgemm ran 25% slower in it than in default math, which is still IEEE FP64 on
 *   the FP64 tensor cores (DMMA).
 * - §1.5 Floating Point Emulation: from CUDA 13.0 Update 2 (cuBLAS 13.1) DGEMM can be emulated
 *   in fixed point on the integer tensor cores (Ozaki scheme) on compute capability 8.x, 9.0,
 *   10.0, 11.0 and 12.x — an H100/H200 included — and FP32 in BF16x9 on 10.0 and 10.3 (cuBLAS
 *   12.9); "the results are not IEEE-754 compliant". Both can be switched on "without any code
 *   changes" by the environment: CUBLAS_EMULATE_DOUBLE_PRECISION=1,
 *   CUBLAS_EMULATE_SINGLE_PRECISION=1. No emulation strategy turns it off
 *   (cublasEmulationStrategy_t: DEFAULT, PERFORMANT, EAGER, §2.2.12).
 * - §2.2.11: "NVIDIA_TF32_OVERRIDE=0 will override any defaults or programmatic configuration of
 *   NVIDIA libraries" so that no TF32 is used; no other value is documented.
 * So a float64 (float32) handle gets CUBLAS_DEFAULT_MATH unless the environment asks for FP64
 * (FP32) emulation — or, for float32, sets NVIDIA_TF32_OVERRIDE to an undocumented value — and
 * then CUBLAS_PEDANTIC_MATH, which by its definition admits no emulation, and the note says why.
 * cuBLAS before 11 has neither mode nor emulation: its default math is FP32/FP64. */
#ifndef GPUBENCH_CUBLAS_MATH_H
#define GPUBENCH_CUBLAS_MATH_H

#include <cublas_v2.h>

#include "harness/core/workload.h"

/* The environment variable (NAME=value) that makes default math unsafe for tier t (DT_F32 or
 * DT_F64), or NULL when there is none; written into buf. */
const char *gb_cublas_exact_env(enum dtype t, char *buf, size_t len);

/* Set h's math mode for tier t (DT_F32 or DT_F64) as above and write its name into `math`
 * ("math=default (CUBLAS_DEFAULT_MATH)", …) for the row's note. ST_OK, or the status of the
 * failed cublasSetMathMode with its name in ctx->note. */
enum status gb_cublas_exact_math(struct impl_ctx *ctx, cublasHandle_t h, enum dtype t, char *math,
                                 size_t len);

#endif
