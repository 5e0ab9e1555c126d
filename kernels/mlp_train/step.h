/* step.h — the order of the launches of one MLP training step on our own kernels, written
 * once and run three ways: on a GPU through the launchers with the `cuda` row's GEMM or the
 * `cublas` row's (gpu.c), and on the CPU emulation of the kernels (kernels/mlp_train/test_emu.c),
 * so the tests check the very sequence the rows run — operand transposes, buffer reuse, what runs
 * before the update — and not a copy of it. Plain C: no CUDA header.
 *
 * The model and layouts are those of bench/mlp_train.h (weights as nn.Linear stores them):
 *   a = ReLU(x·w1ᵀ + b1), z = a·w2ᵀ + b2, loss = mean_i −log softmax(z_i)[label_i],
 *   dz = (softmax(z) − onehot)/batch, dw2 = dzᵀ·a, db2 = Σ_i dz, dh = (dz·w2) ⊙ [a > 0],
 *   dw1 = dhᵀ·x, db1 = Σ_i dh, then p −= lr·dp for every parameter.
 * step_t.h declares the step's buffers and ops and defines it for each tier: gb_mlp_step on
 * floats, gb_mlp_step64 on doubles.
 */
#ifndef GPUBENCH_MLP_STEP_H
#define GPUBENCH_MLP_STEP_H

#include <stddef.h>

struct gb_mlp_dims {
    int batch, in, hidden, out;
    float lr;
};

/* Elements (of the tier's type) of one step's scratch: a, z, dh, dw1, dw2, db1, db2 and
 * rowloss, each rounded up to 64 elements so that every piece starts as aligned as the buffer
 * (cudaMalloc's 256 bytes) and the kernels' vector paths apply whatever the shape. */
static inline size_t gb_mlp_round(size_t n) {
    return (n + 63) / 64 * 64;
}
static inline size_t gb_mlp_scratch_floats(const struct gb_mlp_dims *d) {
    size_t b = (size_t)d->batch, i = (size_t)d->in, h = (size_t)d->hidden, o = (size_t)d->out;
    return 2 * gb_mlp_round(b * h) + gb_mlp_round(b * o) + gb_mlp_round(h * i) +
           gb_mlp_round(o * h) + gb_mlp_round(h) + gb_mlp_round(o) + gb_mlp_round(b);
}

#define GB_MLP_F64 0
#include "kernels/mlp_train/step_t.h"
#define GB_MLP_F64 1
#include "kernels/mlp_train/step_t.h"

#endif
