/* mlp_train.h — the mlp_train problem as every implementation and test of it sees it
 * (bench/mlp_train.c defines it and its reference): one SGD step of a two-layer perceptron.
 *
 * The model, with weights stored as PyTorch's nn.Linear stores them (out_features × in_features):
 *   H = X·W1ᵀ + b1, A = ReLU(H), Z = A·W2ᵀ + b2, loss = batch mean of softmax cross-entropy(Z, y).
 * Shapes (row-major, dense): X batch × in, W1 hidden × in, b1 hidden, A batch × hidden,
 * W2 out × hidden, b2 out, Z batch × out; labels: batch floats holding class numbers 0 … out−1.
 * Gradients (with dZ = (softmax(Z) − onehot(labels)) / batch):
 *   dW2 = dZᵀ·A, db2 = Σ_rows dZ, dH = (dZ·W2) ⊙ [H > 0], dW1 = dHᵀ·X, db1 = Σ_rows dH,
 * and every parameter P becomes P − lr·dP, in place.
 */
#ifndef GPUBENCH_MLP_LAYOUT_H
#define GPUBENCH_MLP_LAYOUT_H

#include "harness/core/workload.h"

/* Shape keys in canonical order (shape.v[]), read-only inputs (problem in[]: the data and the
 * initial parameters) and outputs (problem out[]: the parameters, which an implementation's
 * prepare copies from in[] and each run updates in place, and the loss before the update). */
enum { MLP_KEY_BATCH, MLP_KEY_IN, MLP_KEY_HIDDEN, MLP_KEY_OUT };
enum { MLP_IN_X, MLP_IN_LABELS, MLP_IN_W1, MLP_IN_B1, MLP_IN_W2, MLP_IN_B2 };
enum { MLP_OUT_W1, MLP_OUT_B1, MLP_OUT_W2, MLP_OUT_B2, MLP_OUT_LOSS };

/* The SGD learning rate of every implementation. */
#define MLP_LR 0.1f

/* The static loss scale of the mixed-precision (f16) step, a power of two: the loss gradient
 * is multiplied by it before the backward pass and the FP32 gradients divided by it before the
 * update, both exactly (docs/precision.md). */
#define MLP_LOSS_SCALE 1024.0f

struct mlp_dims {
    long batch, in, hidden, out;
};

/* The shape's dimensions. */
struct mlp_dims mlp_dims_of(const struct shape *s);

/* The class of example b: labels[b] rounded and clamped into [0, out). */
long mlp_label(const struct mlp_dims *d, const float *labels, long b);

/* The same step in double, written as plainly as possible and sharing no code with any
 * implementation: new parameters into w1n (hidden × in), b1n, w2n, b2n and the loss before the
 * update into *loss. Returns 0, or -1 when its scratch cannot be allocated. */
int mlp_ref_step(const struct mlp_dims *d, const float *x, const float *labels, const float *w1,
                 const float *b1, const float *w2, const float *b2, double lr, double *w1n,
                 double *b1n, double *w2n, double *b2n, double *loss);

/* Keep every pre-activation h = x·w1ᵀ + b1 (computed in double) at least a relative margin away
 * from the ReLU kink at 0, by adding the smallest step of 3·margin that clears a column to its
 * bias b1[j]. Why: at |h| ≈ 0 a float32 implementation and the double reference may disagree
 * about [h > 0], which flips a whole batch row's share of dW1[:, j] — a legitimate rounding
 * difference that no sane tolerance could separate from a bug. The margin is
 * MLP_KINK_MARGIN · (Σ_i |x_i·w1_ij| + |b1_j|), far above float32 rounding of that sum.
 * Returns the number of biases changed, or -1 when its scratch cannot be allocated. */
long mlp_ref_clear_kinks(const struct mlp_dims *d, const float *x, const float *w1, float *b1);

#define MLP_KINK_MARGIN 1e-4

/* The workload itself (bench/mlp_train.c). */
extern const struct workload mlp_train_workload;

#endif
