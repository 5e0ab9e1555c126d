/* cudnn.c — startup/cudnn_create: cudnnCreate after the context, in a fresh process per
 * repetition (cuDNN loads its sub-libraries then); our kernel then shows the device works. */
#include <stdio.h>

#include "kernels/common/child.h"
#include "kernels/common/cuda_check.h"
#include "kernels/startup/device.h"
#include "kernels/startup/layout.h"

static enum status create_child(struct impl_ctx *ctx, double *ms) {
    enum status st = startup_context(ctx);
    if (st != ST_OK)
        return st;
    cudnnHandle_t h = NULL;
    double t0 = startup_now_ms();
    CUDNN_TRY(cudnnCreate(&h), ctx);
    *ms = startup_now_ms() - t0;
    st = startup_device_dot(ctx, NULL);
    CUDNN_WARN(cudnnDestroy(h));
    return st;
}

static enum status create_run(struct impl_ctx *ctx) {
    return gb_child_run(ctx, "startup", "cudnn_create", NULL);
}

const struct impl startup_cudnn_create_impl = {
    .name = "cudnn_create", .kind = DEV_CUDA,
    .summary = "cudnnCreate after the context, in a fresh process",
    .run = create_run, .child = create_child};
