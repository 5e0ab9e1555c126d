/* step.h — the launches of one MLP training step on our kernels, written once (step_t.h:
 * gb_mlp_step on floats, gb_mlp_step64 on doubles), run by the `cuda` and `cublas` rows (cuda.c)
 * and on the emulation (test_emu.c), which so checks the very sequence the rows run. Plain C. */
#ifndef GPUBENCH_MLP_STEP_H
#define GPUBENCH_MLP_STEP_H

#include <stddef.h>

#include "bench/mlp_train.h"

/* The step's buffers in its array's order, the inputs' (bench/mlp_train.h): X, the float32
 * labels, the parameters (updated in place); then the loss (before the update), the scratch. */
enum { GB_MLP_X = MLP_IN_X, GB_MLP_LABELS = MLP_IN_LABELS, GB_MLP_W1 = MLP_IN_W1,
       GB_MLP_B1 = MLP_IN_B1, GB_MLP_W2 = MLP_IN_W2, GB_MLP_B2 = MLP_IN_B2, GB_MLP_LOSS,
       GB_MLP_SCRATCH, GB_MLP_NBUF };

/* Elements of the scratch (a, dh, z, dW1, dW2, db1, db2, row losses), each piece at a multiple
 * of 64 elements, as aligned as cudaMalloc's 256 bytes. */
static inline size_t gb_mlp_round(size_t n) {
    return (n + 63) / 64 * 64;
}
static inline size_t gb_mlp_scratch_floats(const struct mlp_dims *d) {
    size_t b = (size_t)d->batch, i = (size_t)d->in, h = (size_t)d->hidden, o = (size_t)d->out;
    return 2 * gb_mlp_round(b * h) + gb_mlp_round(b * o) + gb_mlp_round(h * i) +
           gb_mlp_round(o * h) + gb_mlp_round(h) + gb_mlp_round(o) + gb_mlp_round(b);
}

/* Return the code of a call that did not return 0 (into an int rc the caller declares). */
#define GB_MLP_DO(call)                                                                            \
    do {                                                                                           \
        if ((rc = (call)) != 0)                                                                    \
            return rc;                                                                             \
    } while (0)

#define GB_MLP_F64 0
#include "kernels/mlp_train/step_t.h"
#define GB_MLP_F64 1
#include "kernels/mlp_train/step_t.h"

#endif
