/* kernel_rows.c — prepare-time helpers of the `cuda` rows (see kernel_rows.h). */
#include "kernels/cuda/kernel_rows.h"

#include <stdio.h>
#include <stdlib.h>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_runtime_helpers.h"

enum status gb_rows_check_kernels(struct impl_ctx *ctx,
                                  int (*family)(const struct gb_kernel_ref **refs)) {
    const struct gb_kernel_ref *refs;
    int n = family(&refs), i;
    for (i = 0; i < n; i++) {
        enum status st = gb_check_kernel_image(ctx, refs[i].fn, refs[i].name);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

enum status gb_rows_arch(struct impl_ctx *ctx, struct gb_arch *arch) {
    CU_TRY(gb_arch_query(arch), ctx);
    CU_TRY(gb_arch_code_level(arch), ctx);
    return ST_OK;
}

enum status gb_rows_state(struct impl_ctx *ctx, size_t bytes) {
    if (!(ctx->state = calloc(1, bytes))) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory");
        return ST_OOM;
    }
    return ST_OK;
}
