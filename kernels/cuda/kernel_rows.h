/* kernel_rows.h — what the `cuda` implementation rows (our own kernels: vecadd_cuda.c,
 * gemm_cuda.c, conv2d_cuda.c, mlp_train_cuda.c) share in prepare: the "does this build have
 * code for this device" check over a kernel family, and the device facts the launchers need. */
#ifndef GPUBENCH_KERNEL_ROWS_H
#define GPUBENCH_KERNEL_ROWS_H

#include "bench/workload.h"
#include "kernels/cuda/cuda_kernels.h"

/* The `cuda` rows, one per workload, for the workloads' impl tables. */
extern const struct impl vecadd_cuda_impl, gemm_cuda_impl, conv2d_cuda_impl, mlp_train_cuda_impl;

/* ST_OK when the current device can run every kernel `family` lists (gb_check_kernel_image on
 * each); otherwise that check's status and note (ST_UNSUPPORTED: no image for this device). */
enum status gb_rows_check_kernels(struct impl_ctx *ctx,
                                  int (*family)(const struct gb_kernel_ref **refs));

/* Fill *arch for the current device; ST_ERROR (or the mapped status) with a note on failure. */
enum status gb_rows_arch(struct impl_ctx *ctx, struct gb_arch *arch);

/* Allocate the zeroed private state of a row into ctx->state; ST_OOM with a note when out of host
 * memory. */
enum status gb_rows_state(struct impl_ctx *ctx, size_t bytes);

#endif
