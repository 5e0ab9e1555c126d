/* step.h — the order of the launches of one MLP training step on our own kernels, written
 * once and run two ways: on a GPU through the launchers (mlp_train_cuda.c) and on the CPU
 * emulation of the kernels (kernels/mlp_train/test_emu.c), so the tests check the very sequence the
 * `cuda` row runs — operand transposes, buffer reuse, what runs before the update — and not a
 * copy of it. Plain C: no CUDA header.
 *
 * The model and layouts are those of bench/mlp_train.h (weights as nn.Linear stores them):
 *   a = ReLU(x·w1ᵀ + b1), z = a·w2ᵀ + b2, loss = mean_i −log softmax(z_i)[label_i],
 *   dz = (softmax(z) − onehot)/batch, dw2 = dzᵀ·a, db2 = Σ_i dz, dh = (dz·w2) ⊙ [a > 0],
 *   dw1 = dhᵀ·x, db1 = Σ_i dh, then p −= lr·dp for every parameter.
 */
#ifndef GPUBENCH_MLP_STEP_H
#define GPUBENCH_MLP_STEP_H

#include <stddef.h>

struct gb_mlp_dims {
    int batch, in, hidden, out;
    float lr;
};

/* Device buffers (float counts in brackets). Inputs: x [batch·in], labels [batch] (class
 * numbers as floats). Parameters, updated in place: w1 [hidden·in], b1 [hidden], w2
 * [out·hidden], b2 [out]; loss [1] gets the loss before the update. The rest is scratch. */
struct gb_mlp_bufs {
    const float *x, *labels;
    float *w1, *b1, *w2, *b2, *loss;
    float *a;       /* [batch·hidden] activations, kept for the backward pass */
    float *z;       /* [batch·out] logits, then dz in place */
    float *dh;      /* [batch·hidden] */
    float *dw1;     /* [hidden·in] */
    float *dw2;     /* [out·hidden] */
    float *db1;     /* [hidden] */
    float *db2;     /* [out] */
    float *rowloss; /* [batch] */
};

/* How to launch each kernel (cuda_kernels.h has the semantics). Each returns 0 or a nonzero
 * error code of the caller's choosing (a cudaError_t on the GPU), which gb_mlp_step passes on. */
struct gb_mlp_ops {
    int (*sgemm)(void *ctx, int trans_a, int trans_b, int M, int N, int K, const float *A, int lda,
                 const float *B, int ldb, float *C, int ldc);
    int (*bias_relu)(void *ctx, float *z, const float *bias, int rows, int cols);
    int (*relu_backward)(void *ctx, float *dh, const float *h, size_t n);
    int (*softmax_xent)(void *ctx, const float *logits, const float *bias, const float *labels,
                        float *dlogits, float *rowloss, int rows, int cols, float scale);
    int (*colsum)(void *ctx, const float *x, float *out, int rows, int cols, float scale);
    int (*sgd)(void *ctx, float *w, const float *g, size_t n, float lr);
};

/* Scratch floats of one step (a, z, dh, dw1, dw2, db1, db2, rowloss together). */
size_t gb_mlp_scratch_floats(const struct gb_mlp_dims *d);

/* Point the scratch members of b into `scratch` (gb_mlp_scratch_floats floats, 16-byte aligned;
 * every piece then starts 256-byte aligned relative to it). */
void gb_mlp_carve(const struct gb_mlp_dims *d, float *scratch, struct gb_mlp_bufs *b);

/* Enqueue one SGD step: 5 SGEMMs and 10 small kernels. Returns 0, or the first error an op
 * returned (nothing after it is launched). */
int gb_mlp_step(const struct gb_mlp_ops *ops, void *ctx, const struct gb_mlp_dims *d,
                const struct gb_mlp_bufs *b);

/* --- the f64 tier: the same step in doubles -------------------------------------------------
 * The same sequence over double buffers (labels stay float32 class numbers) and the f64 kernels;
 * lr is (double)d->lr, the value the f64 reference (bench/mlp_train.c) uses. Written out beside
 * the float one: C has no templates, and the sequence is short enough that a macro-generated
 * pair would hide more than it saves. */
struct gb_mlp_bufs64 {
    const double *x;
    const float *labels;
    double *w1, *b1, *w2, *b2, *loss;
    double *a, *z, *dh, *dw1, *dw2, *db1, *db2, *rowloss; /* as in gb_mlp_bufs */
};

struct gb_mlp_ops64 {
    int (*dgemm)(void *ctx, int trans_a, int trans_b, int M, int N, int K, const double *A,
                 int lda, const double *B, int ldb, double *C, int ldc);
    int (*bias_relu)(void *ctx, double *z, const double *bias, int rows, int cols);
    int (*relu_backward)(void *ctx, double *dh, const double *h, size_t n);
    int (*softmax_xent)(void *ctx, const double *logits, const double *bias, const float *labels,
                        double *dlogits, double *rowloss, int rows, int cols, double scale);
    int (*colsum)(void *ctx, const double *x, double *out, int rows, int cols, double scale);
    int (*sgd)(void *ctx, double *w, const double *g, size_t n, double lr);
};

/* gb_mlp_carve for doubles: `scratch` holds gb_mlp_scratch_floats(d) doubles (the same count
 * of elements), 16-byte aligned. */
void gb_mlp_carve64(const struct gb_mlp_dims *d, double *scratch, struct gb_mlp_bufs64 *b);

/* gb_mlp_step in doubles: 5 DGEMMs and 10 small kernels. */
int gb_mlp_step64(const struct gb_mlp_ops64 *ops, void *ctx, const struct gb_mlp_dims *d,
                  const struct gb_mlp_bufs64 *b);

#endif
