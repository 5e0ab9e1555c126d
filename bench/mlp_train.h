/* mlp_train.h — the mlp_train problem as its implementations and tests see it (defined with its
 * reference in bench/mlp_train.c): one SGD step of a two-layer perceptron, weights stored as
 * nn.Linear stores them (out_features × in_features), row-major:
 *   H = X·W1ᵀ + b1, A = ReLU(H), Z = A·W2ᵀ + b2, loss = batch mean of softmax cross-entropy(Z, y)
 *   X batch × in, W1 hidden × in, b1 hidden, W2 out × hidden, b2 out; labels: batch floats
 *   holding class numbers 0 … out−1. With dZ = (softmax(Z) − onehot(labels)) / batch:
 *   dW2 = dZᵀ·A, db2 = Σ_rows dZ, dH = (dZ·W2) ⊙ [H > 0], dW1 = dHᵀ·X, db1 = Σ_rows dH,
 * and every parameter P becomes P − lr·dP, in place. */
#ifndef GPUBENCH_MLP_LAYOUT_H
#define GPUBENCH_MLP_LAYOUT_H

#include "harness/core/workload.h"

/* Shape keys, inputs (the data, the initial parameters) and outputs (the parameters, which prepare
 * copies from in[] and each run updates in place, and the loss before the update). */
enum { MLP_KEY_BATCH, MLP_KEY_IN, MLP_KEY_HIDDEN, MLP_KEY_OUT };
enum { MLP_IN_X, MLP_IN_LABELS, MLP_IN_W1, MLP_IN_B1, MLP_IN_W2, MLP_IN_B2 };
enum { MLP_OUT_W1, MLP_OUT_B1, MLP_OUT_W2, MLP_OUT_B2, MLP_OUT_LOSS };

#define MLP_LR 0.1f /* every implementation's learning rate */

/* The f16 step's static loss scale, a power of two: the loss gradient is multiplied by it before
 * the backward pass and the gradients divided by it before the update, exactly. */
#define MLP_LOSS_SCALE 1024.0f

struct mlp_dims {
    long batch, in, hidden, out;
};
struct mlp_dims mlp_dims_of(const struct shape *s);

/* The class of example b: labels[b] rounded and clamped into [0, out). */
long mlp_label(const struct mlp_dims *d, const float *labels, long b);

/* The step in double, plainly, sharing no code with any implementation: new parameters into
 * w1n, b1n, w2n, b2n, the loss before the update into *loss. 0, or -1 out of memory. Stops
 * early, its outputs unfinished, once gb_interrupted is set (so does mlp_ref_clear_kinks). */
int mlp_ref_step(const struct mlp_dims *d, const float *x, const float *labels, const float *w1,
                 const float *b1, const float *w2, const float *b2, double lr, double *w1n,
                 double *b1n, double *w2n, double *b2n, double *loss);

/* Move each pre-activation x·w1ᵀ + b1 at least MLP_KINK_MARGIN · (Σ_i |x_i·w1_ij| + |b1_j|) from
 * the ReLU kink (adding the smallest step of 3·margin that clears it to b1[j]): there a float32
 * step and the reference may disagree about [h > 0], a flip no sane tolerance tells from a bug.
 * Returns the number of biases changed, or -1 out of memory. */
long mlp_ref_clear_kinks(const struct mlp_dims *d, const float *x, const float *w1, float *b1);
#define MLP_KINK_MARGIN 1e-4

extern const struct workload mlp_train_workload;

#endif
