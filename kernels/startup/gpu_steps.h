/* gpu_steps.h — what the startup rows on a GPU share (gpu_steps.c): the clock, and the dot
 * product on the device that proves what a row started works. Child-process side, and the
 * parent's checks. */
#ifndef GPUBENCH_STARTUP_GPU_STEPS_H
#define GPUBENCH_STARTUP_GPU_STEPS_H

#include "harness/core/workload.h"

double startup_now_ms(void);

/* In the parent, before any child: an `unsupported` row when the device is in exclusive-process
 * compute mode (cudaDevAttrComputeMode): the parent holds the device's context, so a child's own
 * context would be refused. */
enum status startup_child_check(struct impl_ctx *ctx);

/* startup_child_check, then an `unsupported` row naming the rebuild when this build has no code
 * for the device (gb_check_kernels on the startup kernel). */
enum status startup_check(struct impl_ctx *ctx);

/* Select the row's GPU and create its context (cudaSetDevice, cudaFree(0)): not timed by the
 * rows that measure something after it. */
enum status startup_context(struct impl_ctx *ctx);

/* a·b on the device with our kernel into p->out; *launch_ms (may be NULL): the launch and its
 * completion, host-clocked — the first launch of the process when nothing ran before it. */
enum status startup_device_dot(struct impl_ctx *ctx, double *launch_ms);

/* The same with the kernel of the PTX-only module (jit.cu), whose load JIT-compiles it: where
 * the build has that module (GPUBENCH_STARTUP_JIT_ARCH). */
enum status startup_device_jit_dot(struct impl_ctx *ctx, double *launch_ms);

#endif
