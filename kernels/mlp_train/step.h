/* step.h — the order of the launches of one MLP training step on our own kernels, written once
 * (step_t.h: gb_mlp_step on floats, gb_mlp_step64 on doubles) and run on a GPU with the `cuda`
 * row's GEMM or the `cublas` row's (cuda.c) and on the CPU emulation of the kernels
 * (test_emu.c), so the tests check the very sequence the rows run: operand transposes, buffer
 * reuse, what runs before the update. Plain C, no CUDA header; the model: bench/mlp_train.h. */
#ifndef GPUBENCH_MLP_STEP_H
#define GPUBENCH_MLP_STEP_H

#include <stddef.h>

#include "bench/mlp_train.h"

/* The step's buffers, in the order of its array (element counts): X [batch·in], the labels
 * [batch] (float32 class numbers in both tiers), W1 [hidden·in], b1 [hidden], W2 [out·hidden],
 * b2 [out] (updated in place), the loss [1] (before the update), the scratch. */
enum { GB_MLP_X, GB_MLP_LABELS, GB_MLP_W1, GB_MLP_B1, GB_MLP_W2, GB_MLP_B2, GB_MLP_LOSS,
       GB_MLP_SCRATCH, GB_MLP_NBUF };

/* Elements of the scratch: a and dh [batch·hidden], z [batch·out], dW1, dW2, db1, db2, row
 * losses [batch], each at a multiple of 64 elements (as aligned as cudaMalloc's 256 bytes, for
 * the kernels' vector paths). */
static inline size_t gb_mlp_round(size_t n) {
    return (n + 63) / 64 * 64;
}
static inline size_t gb_mlp_scratch_floats(const struct mlp_dims *d) {
    size_t b = (size_t)d->batch, i = (size_t)d->in, h = (size_t)d->hidden, o = (size_t)d->out;
    return 2 * gb_mlp_round(b * h) + gb_mlp_round(b * o) + gb_mlp_round(h * i) +
           gb_mlp_round(o * h) + gb_mlp_round(h) + gb_mlp_round(o) + gb_mlp_round(b);
}

#define GB_MLP_F64 0
#include "kernels/mlp_train/step_t.h"
#define GB_MLP_F64 1
#include "kernels/mlp_train/step_t.h"

#endif
