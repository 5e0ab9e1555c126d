/* gpu_tier.c — the tier/architecture decision table (gpu_tier.h). Sources: CUDA C Programming
 * Guide, "Arithmetic Instructions" throughput table (half precision from 5.3) and "Warp Matrix
 * Functions" (WMMA from 7.0; bf16 and tf32 fragments from 8.0); CUDA 11.0 release notes
 * (cuda_bf16.h, CUBLAS_COMPUTE_32F_FAST_TF32, cublasGemmEx's compute types changed). */
#include "harness/gpuinfo/gpu_tier.h"

#include <stdio.h>
#include <stdlib.h>

struct tier_need {
    int cc;   /* major·10 + minor */
    int cuda; /* CUDART_VERSION style */
};

static const struct tier_need needs[DT_COUNT] = {
    [DT_F32] = {20, 0},      [DT_F64] = {20, 0},      [DT_F16] = {53, 7050},
    [DT_TF32] = {80, 11000}, [DT_BF16] = {80, 11000},
};

int gpu_tier_min_cc(enum dtype t) {
    return (unsigned)t < DT_COUNT ? needs[t].cc : 0;
}
int gpu_tier_min_cuda(enum dtype t) {
    return (unsigned)t < DT_COUNT ? needs[t].cuda : 0;
}

int gpu_tier_check(enum dtype t, int cc_major, int cc_minor, int cuda_build, char *why,
                   size_t whylen) {
    int cc = gpu_tier_min_cc(t), cuda = gpu_tier_min_cuda(t);
    if (cc_major * 10 + cc_minor < cc) {
        snprintf(why, whylen, "%s needs compute capability %d.%d; this is %d.%d", dtype_label(t),
                 cc / 10, cc % 10, cc_major, cc_minor);
        return -1;
    }
    if (cuda_build > 0 && cuda_build < cuda) {
        snprintf(why, whylen,
                 "%s needs CUDA %d.%d or newer; this gpubench was built with CUDA %d.%d",
                 dtype_label(t), cuda / 1000, cuda % 1000 / 10, cuda_build / 1000,
                 cuda_build % 1000 / 10);
        return -1;
    }
    return 0;
}

int gpu_cuda_version_number(const char *text) {
    char *end;
    long major = strtol(text, &end, 10);
    if (end == text || *end != '.')
        return 0;
    long minor = strtol(end + 1, NULL, 10);
    return (int)(major * 1000 + minor * 10);
}
