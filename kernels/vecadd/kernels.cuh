/* kernels.cuh — c = a + b on the GPU: a grid-stride kernel (C subset of CUDA C).
 *
 * Shared by the nvcc build (cuda.cu adds the launcher) and the CPU emulation of the tests.
 */
#ifndef GPUBENCH_VECADD_KERNELS_CUH
#define GPUBENCH_VECADD_KERNELS_CUH

#include "kernels/common/kernel_common.cuh"

/* c[i] = a[i] + b[i] for i in [0, n). Any grid: each thread strides by the whole grid, so one
 * launch covers any n (and Fermi's 65535-block limit never binds). When a, b and c are all
 * 16-byte aligned the body moves float4s (one 128-bit load per operand, fewer instructions per
 * byte on every architecture) and the last n % 4 elements go through the scalar loop. */
__global__ void gb_vecadd_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                 float *__restrict__ c, size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t done = 0; /* elements handled by the vector loop */
    size_t i;
    if (GB_ALIGNED16(a) && GB_ALIGNED16(b) && GB_ALIGNED16(c)) {
        const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b;
        float4 *c4 = (float4 *)c;
        size_t n4 = n / 4;
        for (i = first; i < n4; i += stride) {
            float4 x = a4[i], y = b4[i], z;
            z.x = x.x + y.x;
            z.y = x.y + y.y;
            z.z = x.z + y.z;
            z.w = x.w + y.w;
            c4[i] = z;
        }
        done = n4 * 4;
    }
    for (i = done + first; i < n; i += stride)
        c[i] = a[i] + b[i];
}
GB_SIM_KERNEL(gb_vecadd_kernel, const float *, const float *, float *, size_t)

/* The f64 tier: c[i] = a[i] + b[i] in doubles, grid-stride, one element per step (a double
 * is already an 8-byte access; the float4 trick buys little more for a memory-bound add). */
__global__ void gb_vecadd64_kernel(const double *__restrict__ a, const double *__restrict__ b,
                                   double *__restrict__ c, size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}
GB_SIM_KERNEL(gb_vecadd64_kernel, const double *, const double *, double *, size_t)

/* The f16 tier: a, b and c hold IEEE halves, passed as their 16-bit patterns so that the C
 * emulation compiles this very kernel. Eight halves move as one 16-byte access per operand when
 * a, b and c are 16-byte aligned (as the f32 kernel's float4s: a 4-byte access per operand per
 * step read the H200's memory at 0.82 of its copy rate), pairs as one 4-byte access when they are
 * only 4-byte aligned; the last few elements (or all of them, misaligned) go one by one. Each sum
 * is the correctly rounded half sum: half arithmetic from sm_53 (__hadd2 on a pair, __hadd), the
 * float sum rounded once to half before (every card converts; the f16 tier gate keeps those rows
 * unsupported anyway, harness/gpuinfo/gpu_tier.c) and in the emulation, which gives the same
 * result (kernels/vecadd/cpu16.c says why). cuda_fp16.h exists from CUDA 7.5: older toolkits
 * compile no f16 kernel (GB_VECADD_F16 0) and the launcher says so. */
#if defined(__CUDACC__)
#if CUDART_VERSION >= 7050
#include <cuda_fp16.h>
#define GB_VECADD_F16 1
#else
#define GB_VECADD_F16 0
#endif
#if GB_ARCH >= 530
#define GB_HADD2(a, b, c, i)                                                                       \
    (((__half2 *)(c))[i] = __hadd2(((const __half2 *)(a))[i], ((const __half2 *)(b))[i]))
/* eight halves: one 16-byte load of each operand, four __hadd2 on its 32-bit words (the local
 * vectors stay in registers: ptxas reports no stack frame), one 16-byte store */
#define GB_HADD8(a, b, c, i)                                                                       \
    do {                                                                                           \
        uint4 x_ = ((const uint4 *)(a))[i], y_ = ((const uint4 *)(b))[i], z_;                      \
        const __half2 *xh_ = (const __half2 *)&x_, *yh_ = (const __half2 *)&y_;                   \
        __half2 *zh_ = (__half2 *)&z_;                                                             \
        zh_[0] = __hadd2(xh_[0], yh_[0]);                                                          \
        zh_[1] = __hadd2(xh_[1], yh_[1]);                                                          \
        zh_[2] = __hadd2(xh_[2], yh_[2]);                                                          \
        zh_[3] = __hadd2(xh_[3], yh_[3]);                                                          \
        ((uint4 *)(c))[i] = z_;                                                                    \
    } while (0)
#define GB_HADD1(a, b, c, i)                                                                       \
    (((__half *)(c))[i] = __hadd(((const __half *)(a))[i], ((const __half *)(b))[i]))
#else
#define GB_HADD1(a, b, c, i)                                                                       \
    (((__half *)(c))[i] = __float2half(__half2float(((const __half *)(a))[i]) +                    \
                                       __half2float(((const __half *)(b))[i])))
#define GB_HADD2(a, b, c, i) (GB_HADD1(a, b, c, 2 * (i)), GB_HADD1(a, b, c, 2 * (i) + 1))
#define GB_HADD8(a, b, c, i)                                                                       \
    (GB_HADD2(a, b, c, 4 * (i)), GB_HADD2(a, b, c, 4 * (i) + 1), GB_HADD2(a, b, c, 4 * (i) + 2),     \
     GB_HADD2(a, b, c, 4 * (i) + 3))
#endif
#else /* the emulation */
#include "harness/core/dtype.h"
#define GB_VECADD_F16 1
#define GB_HADD1(a, b, c, i)                                                                       \
    ((c)[i] = dtype_f32_to_f16(dtype_f16_to_f32((a)[i]) + dtype_f16_to_f32((b)[i])))
#define GB_HADD2(a, b, c, i) (GB_HADD1(a, b, c, 2 * (i)), GB_HADD1(a, b, c, 2 * (i) + 1))
#define GB_HADD8(a, b, c, i)                                                                       \
    (GB_HADD2(a, b, c, 4 * (i)), GB_HADD2(a, b, c, 4 * (i) + 1), GB_HADD2(a, b, c, 4 * (i) + 2),     \
     GB_HADD2(a, b, c, 4 * (i) + 3))
#endif

#if GB_VECADD_F16
__global__ void gb_vecadd16_kernel(const unsigned short *__restrict__ a,
                                   const unsigned short *__restrict__ b,
                                   unsigned short *__restrict__ c, size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t done = 0; /* elements handled by the 16-byte or the pair loop */
    size_t i;
    if (GB_ALIGNED16(a) && GB_ALIGNED16(b) && GB_ALIGNED16(c)) {
        size_t n8 = n / 8;
        for (i = first; i < n8; i += stride)
            GB_HADD8(a, b, c, i);
        done = n8 * 8;
    } else if (GB_ALIGNED4(a) && GB_ALIGNED4(b) && GB_ALIGNED4(c)) {
        size_t n2 = n / 2;
        for (i = first; i < n2; i += stride)
            GB_HADD2(a, b, c, i);
        done = n2 * 2;
    }
    for (i = done + first; i < n; i += stride)
        GB_HADD1(a, b, c, i);
}
GB_SIM_KERNEL(gb_vecadd16_kernel, const unsigned short *, const unsigned short *,
              unsigned short *, size_t)
#endif

#endif
