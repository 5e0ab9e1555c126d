/* openblas.h — the pieces of mlp_train/openblas's float32 step (openblas_t.h, which says what
 * each does), for its tests; bench/mlp_train.h has the model. */
#ifndef GPUBENCH_MLP_OPENBLAS_H
#define GPUBENCH_MLP_OPENBLAS_H

#include <stddef.h>

#include "bench/mlp_train.h"

void mlp_cpu_forward(const struct mlp_dims *d, const float *x, const float *w1, const float *b1,
                     const float *w2, const float *b2, float *a, float *z);
float mlp_cpu_softmax_xent(const struct mlp_dims *d, const float *labels, float *z);
void mlp_cpu_backward_update(const struct mlp_dims *d, const float *x, float *a, const float *dz,
                             float *w1, float *b1, float *w2, float *b2, float *dw2, float *db1,
                             float lr);
size_t mlp_cpu_scratch_floats(const struct mlp_dims *d);
float mlp_cpu_step(const struct mlp_dims *d, const float *x, const float *labels, float *w1,
                   float *b1, float *w2, float *b2, float lr, float *scratch);

#endif
