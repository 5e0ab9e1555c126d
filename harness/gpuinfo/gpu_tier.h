/* gpu_tier.h — which precision tiers a CUDA device (and the toolkit gpubench was built with) can
 * compute in, as a pure function of plain data: the harness asks it before every GPU row of a
 * tier other than f32, so a card without the hardware gets an `unsupported` row that says why
 * ("BF16 needs compute capability 8.0; this is 3.5"). Tested on real cards' numbers in
 * tests/gpuinfo/test_gpu_tier.c. No CUDA headers.
 */
#ifndef GPUBENCH_GPU_TIER_H
#define GPUBENCH_GPU_TIER_H

#include <stddef.h>

#include "harness/core/dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The least compute capability (major·10 + minor) whose hardware computes in tier t, and the
 * least CUDA toolkit (major·1000 + minor·10, as CUDART_VERSION) whose headers have its types:
 *   f32, f64  every card gpubench supports (Fermi 2.0 on)    any toolkit
 *   f16       5.3 (half arithmetic: Tegra X1, then 6.0, 6.2, 7.0 on)     CUDA 7.5 (cuda_fp16.h)
 *   tf32      8.0 (Ampere tensor cores)                      CUDA 11.0
 *   bf16      8.0 (Ampere: __nv_bfloat16, cuBLAS and cuDNN)  CUDA 11.0 (cuda_bf16.h)
 * (Compute capability 6.1 and 7.5 run f16 too — 6.1 at 1/64 of FP32, the table of peaks says
 * so; 5.0 and 5.2 have no half arithmetic.) */
int gpu_tier_min_cc(enum dtype t);
int gpu_tier_min_cuda(enum dtype t);

/* 0 when a device of compute capability cc_major.cc_minor runs tier t in a build with CUDA
 * `cuda_build` (CUDART_VERSION style; 0: unknown, not checked); otherwise -1 with the reason in
 * why: "BF16 needs compute capability 8.0; this is 3.5", or "BF16 needs CUDA 11.0 or newer;
 * this gpubench was built with CUDA 10.2". */
int gpu_tier_check(enum dtype t, int cc_major, int cc_minor, int cuda_build, char *why,
                   size_t whylen);

/* "13.0" or "10.2" (GPUBENCH_BUILD_CUDA_VERSION) as CUDART_VERSION (13000, 10020); 0 when
 * empty or unreadable. */
int gpu_cuda_version_number(const char *text);

#ifdef __cplusplus
}
#endif

#endif
