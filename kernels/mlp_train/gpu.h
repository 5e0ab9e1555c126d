/* gpu.h — what mlp_train's GPU rows share (cuda.c): their buffers, shape check and cuBLAS
 * handle, and the f16 tier of `cublas` (amp.c). */
#ifndef GPUBENCH_MLP_GPU_H
#define GPUBENCH_MLP_GPU_H

#include "harness/core/workload.h"
#include "kernels/common/cuda_check.h"
#include "kernels/common/dev_bufs.h"
#include "kernels/mlp_train/step.h"

/* Specs of the buffers every row begins with (kernels/common/dev_bufs.h), spec[GB_MLP_X] up to
 * spec[GB_MLP_LOSS] in step.h's order: X in the tier's storage (FP16 in f16), the float32
 * labels, the parameters (uploaded, trained in place, downloaded; float32 master weights in f16)
 * and the loss. */
void mlp_dev_specs(struct problem *p, struct gb_dev_spec *spec);

/* The shape's dimensions (lr MLP_LR); ST_UNSUPPORTED with a note when batch·hidden reaches 2^31,
 * beyond our bias + ReLU kernels' 32-bit indexing. */
enum status mlp_gpu_dims(struct impl_ctx *ctx, struct gb_mlp_dims *d);

#ifdef GPUBENCH_HAVE_CUBLAS
/* A cuBLAS handle on the row's stream (*have = 1 once made): pedantic FP32 where cuBLAS has the
 * mode (11.0), its default math (FP32) before; with tensor_ops, the math that lets FP16 products
 * use tensor cores. *math names it for the note. */
enum status mlp_blas_handle(struct impl_ctx *ctx, cublasHandle_t *h, int *have, int tensor_ops,
                            const char **math);

/* `cublas`'s f16 tier: its prepare and run (amp.c); upload, download and release are the layer's. */
enum status mlp_amp_prepare(struct impl_ctx *ctx);
enum status mlp_amp_run(struct impl_ctx *ctx);
#endif

#endif
