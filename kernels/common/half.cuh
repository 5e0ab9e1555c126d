/* half.cuh — FP16 operands for the GEMM kernels and the tensor-core tiles other workloads share
 * (C subset of CUDA C): where the half types come from, and the load of four consecutive halves
 * as FP32 that the FP16 tiles use in place of the SGEMM's float4 load (kernels/gemm/tile.cuh
 * with GB_GT_HALF).
 *
 * The types: cuda_fp16.h from CUDA 7.5 (the first toolkit with it), tests/emu/emu_half.h under
 * the emulation. GB_HAVE_HALF is 0 in an older toolkit's build: the FP16 kernels then do not
 * exist, and the f16 tier is refused before (harness/gpuinfo/gpu_tier.c: "FP16 needs CUDA 7.5").
 * GB_HALF_BODY says whether this compilation has the real body: from sm_53 (where the f16 tier
 * starts; the conversions alone would run earlier, but the tier is a promise about the card) and
 * in nvcc's host pass (GB_ARCH 0, which compiles no device code). Below sm_53 nothing here
 * touches a half: the kernels are traps, never launched, and an old toolkit's cuda_fp16.h needs
 * to declare no more than the types.
 */
#ifndef GPUBENCH_COMMON_HALF_CUH
#define GPUBENCH_COMMON_HALF_CUH

#include "kernels/common/kernel_common.cuh"

#if defined(GPUBENCH_EMU)
#define GB_HAVE_HALF 1 /* tests/emu/emu_half.h, through emu.h */
#elif defined(CUDART_VERSION) && CUDART_VERSION >= 7050
#include <cuda_fp16.h>
#define GB_HAVE_HALF 1
#else
#define GB_HAVE_HALF 0
#endif

#define GB_HALF_MIN_ARCH 530
#define GB_HALF_BODY (GB_ARCH == 0 || GB_ARCH >= GB_HALF_MIN_ARCH)

#if GB_HAVE_HALF

/* Four halves, one 8-byte load when aligned (two half2 words). */
typedef struct {
    __align__(8) __half2 lo;
    __half2 hi;
} gb_half4;

#if GB_HALF_BODY
/* p[i] as a float, 0 when i ≥ avail (outside the matrix: p[i] is not read). */
static __device__ __forceinline__ float gb_half_at(const __half *p, int i, int avail) {
    return i < avail ? __half2float(p[i]) : 0.0f;
}

/* p[i], p[i+1] as floats, one half2 load when both are inside; p + i is 4-byte aligned. A pair
 * straddling the edge (only p[i] inside) is read as one half, the other is 0. */
static __device__ __forceinline__ float2 gb_half_pair(const __half *p, int i, int avail) {
    float2 r;
    if (i + 1 < avail)
        return __half22float2(*(const __half2 *)(p + i));
    r.x = gb_half_at(p, i, avail);
    r.y = 0.0f;
    return r;
}

/* p[0..3] as a float4, zero from p[avail] on (avail ≤ 0: all zero, nothing read). One 8-byte
 * load when all four are inside and p is 8-byte aligned; otherwise half2 loads of the aligned
 * pairs: (0,1) and (2,3) when p is 4-byte aligned, else p[0], the pair (1,2), p[3] — an odd
 * leading dimension puts every other row there, and it still needs 3 loads, not 4. */
static __device__ __forceinline__ float4 gb_load_half4(const __half *p, int avail) {
    float2 lo, hi;
    if (avail >= 4 && GB_ALIGNED8(p)) {
        gb_half4 v = *(const gb_half4 *)p;
        lo = __half22float2(v.lo);
        hi = __half22float2(v.hi);
    } else if (GB_ALIGNED4(p)) {
        lo = gb_half_pair(p, 0, avail);
        hi = gb_half_pair(p, 2, avail);
    } else {
        float2 mid = gb_half_pair(p, 1, avail);
        lo.x = gb_half_at(p, 0, avail);
        lo.y = mid.x;
        hi.x = mid.y;
        hi.y = gb_half_at(p, 3, avail);
    }
    return make_float4(lo.x, lo.y, hi.x, hi.y);
}
#else
/* Below sm_53: never called (the kernels trap first), and reads no half. */
static __device__ __forceinline__ float4 gb_load_half4(const __half *p, int avail) {
    (void)p, (void)avail;
    return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}
#endif

#endif /* GB_HAVE_HALF */
#endif
