/* cublas.c — startup/cublas_create: cublasCreate after the context, in a fresh process per
 * repetition; the handle then computes a·b (a 1×1×n cublasSgemm, the call the other rows use)
 * to show it works. */
#include <stdio.h>

#include "kernels/common/child.h"
#include "kernels/common/cuda_check.h"
#include "kernels/startup/gpu_steps.h"
#include "bench/startup.h"

/* a·b through the handle, into p->out: C (1×1) = aᵀ (1×n) · b (n×1). */
static enum status handle_dot(struct impl_ctx *ctx, cublasHandle_t h) {
    struct problem *p = ctx->p;
    size_t n = p->in[STARTUP_IN_A].n;
    float *d = NULL;
    const float one = 1.0f, zero = 0.0f;
    CU_TRY(cudaMalloc((void **)&d, (2 * n + 1) * sizeof(float)), ctx);
    enum status st = ST_OK;
    cudaError_t e = cudaMemcpy(d, p->in[STARTUP_IN_A].data, n * sizeof(float),
                               cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(d + n, p->in[STARTUP_IN_B].data, n * sizeof(float),
                       cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        snprintf(ctx->note, sizeof ctx->note, "cudaMemcpy: %s", cudaGetErrorName(e));
        st = gpu_error_status(cudaGetErrorName(e));
    } else {
        cublasStatus_t bs = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, (int)n, &one, d, 1,
                                        d + n, (int)n, &zero, d + 2 * n, 1);
        if (bs != CUBLAS_STATUS_SUCCESS) {
            snprintf(ctx->note, sizeof ctx->note, "cublasSgemm: %s", gb_cublas_status_name(bs));
            st = gpu_error_status(gb_cublas_status_name(bs));
        } else if ((e = cudaMemcpy(p->out[STARTUP_OUT_DOT].data, d + 2 * n, sizeof(float),
                                   cudaMemcpyDeviceToHost)) != cudaSuccess) {
            snprintf(ctx->note, sizeof ctx->note, "cudaMemcpy: %s", cudaGetErrorName(e));
            st = gpu_error_status(cudaGetErrorName(e));
        }
    }
    CU_WARN(cudaFree(d));
    return st;
}

static enum status create_child(struct impl_ctx *ctx, double *ms) {
    enum status st = startup_context(ctx);
    if (st != ST_OK)
        return st;
    cublasHandle_t h = NULL;
    double t0 = startup_now_ms();
    CUBLAS_TRY(cublasCreate(&h), ctx);
    *ms = startup_now_ms() - t0;
    st = handle_dot(ctx, h);
    CUBLAS_WARN(cublasDestroy(h));
    return st;
}

static enum status create_run(struct impl_ctx *ctx) {
    return gb_child_run(ctx, "startup", "cublas_create", NULL);
}

const struct impl startup_cublas_create_impl = {
    .name = "cublas_create", .kind = DEV_CUDA,
    .summary = "cublasCreate after the context, in a fresh process",
    .prepare = startup_child_check, .run = create_run, .child = create_child};
