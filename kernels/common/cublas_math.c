/* cublas_math.c — the exact tiers' cuBLAS math mode (cublas_math.h, which cites cuBLAS's
 * documentation for every rule here). */
#include "kernels/common/cublas_math.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/common/cuda_check.h"

/* NAME=value when NAME is set to something other than "" or "0" (cuBLAS documents 1 and 0;
 * any other value is taken as "on", to be safe). */
static const char *set_on(const char *name, char *buf, size_t len) {
    const char *v = getenv(name);
    if (!v || !v[0] || strcmp(v, "0") == 0)
        return NULL;
    snprintf(buf, len, "%s=%s", name, v);
    return buf;
}

const char *gb_cublas_exact_env(enum dtype t, char *buf, size_t len) {
    if (t == DT_F64)
        return set_on("CUBLAS_EMULATE_DOUBLE_PRECISION", buf, len);
    if (t != DT_F32)
        return NULL;
    const char *e = set_on("CUBLAS_EMULATE_SINGLE_PRECISION", buf, len);
    return e ? e : set_on("NVIDIA_TF32_OVERRIDE", buf, len);
}

enum status gb_cublas_exact_math(struct impl_ctx *ctx, cublasHandle_t h, enum dtype t, char *math,
                                 size_t len) {
#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
    char env[96];
    const char *why = gb_cublas_exact_env(t, env, sizeof env);
    CUBLAS_TRY(cublasSetMathMode(h, why ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH), ctx);
    if (why)
        snprintf(math, len,
                 "math=pedantic (CUBLAS_PEDANTIC_MATH: %s would allow %s under default "
                 "math)",
                 why, t == DT_F64 ? "fixed-point FP64 emulation" : "a non-FP32 path");
    else
        snprintf(math, len, "math=default (CUBLAS_DEFAULT_MATH: IEEE %s, no TF32, no emulation)",
                 t == DT_F64 ? "FP64" : "FP32");
#else
    (void)ctx, (void)h;
    snprintf(math, len, "math=default (%s; cuBLAS before 11 has no other mode for it)",
             t == DT_F64 ? "FP64" : "FP32");
#endif
    return ST_OK;
}
