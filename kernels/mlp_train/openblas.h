/* openblas.h — the pieces of mlp_train/openblas's float32 step (openblas_t.h), for its tests.
 * Model, shapes and gradients: bench/mlp_train.h. The float64 ones (mlp_cpu_step64, …) are the
 * same in doubles. */
#ifndef GPUBENCH_MLP_OPENBLAS_H
#define GPUBENCH_MLP_OPENBLAS_H

#include <stddef.h>

#include "bench/mlp_train.h"

/* Forward: a = ReLU(x·w1ᵀ + b1) (batch × hidden) and z = a·w2ᵀ + b2 (batch × out). */
void mlp_cpu_forward(const struct mlp_dims *d, const float *x, const float *w1, const float *b1,
                     const float *w2, const float *b2, float *a, float *z);

/* Softmax cross-entropy: returns the batch-mean loss (max-subtracted, so no overflow) and
 * overwrites z (the logits) with dZ = (softmax(z) − onehot) / batch. */
float mlp_cpu_softmax_xent(const struct mlp_dims *d, const float *labels, float *z);

/* Backward and update, in place, given a (the activations, overwritten with dH) and dz:
 * w2 −= lr·dzᵀ·a, b2 −= lr·Σ dz, b1 −= lr·Σ dH and w1 −= lr·dHᵀ·x, where dH = (dz·w2) ⊙ [a > 0]
 * uses the old w2. The small pieces run as one pass over the columns of a on the CPU pool; the
 * w1 update is one SGEMM with beta = 1, so dW1 never exists as a buffer. `dw2` is out × hidden
 * scratch and `db1` hidden scratch. */
void mlp_cpu_backward_update(const struct mlp_dims *d, const float *x, float *a, const float *dz,
                             float *w1, float *b1, float *w2, float *b2, float *dw2, float *db1,
                             float lr);

/* Elements of scratch mlp_cpu_step (and mlp_cpu_step64) needs: a, z, dw2 and db1. */
size_t mlp_cpu_scratch_floats(const struct mlp_dims *d);

/* The whole step: forward, loss, backward, update. Returns the loss before the update. */
float mlp_cpu_step(const struct mlp_dims *d, const float *x, const float *labels, float *w1,
                   float *b1, float *w2, float *b2, float lr, float *scratch);

#endif
