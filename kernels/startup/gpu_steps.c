/* gpu_steps.c — the steps the GPU startup rows share (gpu_steps.h). */
#include "kernels/startup/gpu_steps.h"

#include <stdio.h>
#include <time.h>

#include "harness/core/device.h"
#include "kernels/common/cuda_check.h"
#include "kernels/startup/cuda.h"
#include "bench/startup.h"

double startup_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Every row here starts a child process that makes its own context on the device while this
 * process (the runner) holds the device's primary context. In exclusive-process compute mode
 * that child's context is refused (cudaErrorDevicesUnavailable): the rows cannot be measured. */
enum status startup_child_check(struct impl_ctx *ctx) {
    int mode = cudaComputeModeDefault;
    CU_TRY(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, ctx->dev->ordinal), ctx);
    if (mode == cudaComputeModeExclusiveProcess) {
        snprintf(ctx->note, sizeof ctx->note,
                 "exclusive-process compute mode: the parent holds the device's only context");
        return ST_UNSUPPORTED;
    }
    return ST_OK;
}

enum status startup_check(struct impl_ctx *ctx) {
    enum status st = startup_child_check(ctx);
    return st == ST_OK ? gb_check_kernels(ctx, gb_startup_kernels) : st;
}

enum status startup_context(struct impl_ctx *ctx) {
    CU_TRY(cudaSetDevice(ctx->dev->ordinal), ctx);
    CU_TRY(cudaFree(0), ctx);
    return ST_OK;
}

typedef cudaError_t (*dot_launcher)(cudaStream_t, const float *, const float *, int, float *);

/* Copy a and b in, launch (timed when asked), copy the result back. */
static enum status dot_on(struct impl_ctx *ctx, dot_launcher launch, float *d, double *launch_ms) {
    struct problem *p = ctx->p;
    size_t n = p->in[STARTUP_IN_A].n;
    CU_TRY(cudaMemcpy(d, p->in[STARTUP_IN_A].data, n * sizeof(float), cudaMemcpyHostToDevice),
           ctx);
    CU_TRY(cudaMemcpy(d + n, p->in[STARTUP_IN_B].data, n * sizeof(float),
                      cudaMemcpyHostToDevice),
           ctx);
    double t0 = startup_now_ms();
    CU_TRY(launch(0, d, d + n, (int)n, d + 2 * n), ctx);
    CU_TRY(cudaDeviceSynchronize(), ctx);
    if (launch_ms)
        *launch_ms = startup_now_ms() - t0;
    CU_TRY(cudaMemcpy(p->out[STARTUP_OUT_DOT].data, d + 2 * n, sizeof(float),
                      cudaMemcpyDeviceToHost),
           ctx);
    return ST_OK;
}

static enum status device_dot(struct impl_ctx *ctx, dot_launcher launch, double *launch_ms) {
    size_t n = ctx->p->in[STARTUP_IN_A].n;
    float *d = NULL;
    CU_TRY(cudaMalloc((void **)&d, (2 * n + 1) * sizeof(float)), ctx);
    enum status st = dot_on(ctx, launch, d, launch_ms);
    CU_WARN(cudaFree(d));
    return st;
}

enum status startup_device_dot(struct impl_ctx *ctx, double *launch_ms) {
    return device_dot(ctx, gb_startup_dot, launch_ms);
}

#ifdef GPUBENCH_STARTUP_JIT_ARCH
enum status startup_device_jit_dot(struct impl_ctx *ctx, double *launch_ms) {
    return device_dot(ctx, gb_startup_jit, launch_ms);
}
#endif
