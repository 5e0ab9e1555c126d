/* cpu16.h — the f16 tier of vecadd/cpu (cpu16.c): halves in private buffers, converted in
 * prepare and finish, never in a timed run. The calls of struct impl (harness/core/workload.h);
 * vecadd16_run splits over the pool from min_parallel elements on. */
#ifndef GPUBENCH_VECADD_CPU16_H
#define GPUBENCH_VECADD_CPU16_H

#include <stddef.h>

#include "harness/core/workload.h"

enum status vecadd16_prepare(struct impl_ctx *ctx);
enum status vecadd16_run(struct impl_ctx *ctx, size_t min_parallel);
enum status vecadd16_finish(struct impl_ctx *ctx);
void vecadd16_release(struct impl_ctx *ctx);

#endif
