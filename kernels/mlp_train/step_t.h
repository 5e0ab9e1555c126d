/* step_t.h — step.h's step in one tier's type (tier.h), included by step.h once per tier. */
#include "kernels/mlp_train/tier.h"
#define T GB_MLP_T

/* C (M×N, ldc) = op(A)·op(B), row-major, op transposing where ta / tb is set. */
typedef int GB_MLP_N(gb_mlp_gemm)(void *ctx, int ta, int tb, int M, int N, int K, const T *A,
                                  int lda, const T *B, int ldb, T *C, int ldc);

/* The step's operations, row-major, as step_kernels.cuh's kernels say; each returns 0 or a code
 * of the caller's choosing (on the GPU an enum status, the note written: cuda.h). */
struct GB_MLP_N(gb_mlp_ops) {
    GB_MLP_N(gb_mlp_gemm) *gemm;
    int (*bias_relu)(void *ctx, T *z, const T *bias, int rows, int cols);
    int (*relu_backward)(void *ctx, T *dh, const T *h, size_t n);
    int (*softmax_xent)(void *ctx, const T *logits, const T *bias, const float *labels, T *dlogits,
                        T *rowloss, int rows, int cols, T scale);
    int (*colsum)(void *ctx, const T *x, T *out, int rows, int cols, T scale);
    int (*sgd)(void *ctx, T *w, const T *g, size_t n, T lr);
};

/* Enqueue one SGD step, learning rate lr (float64: (double)lr, as its reference), on buf[]
 * (step.h): 5 GEMMs, 10 small kernels. Returns 0, or the first op's error (nothing after it). */
static inline int GB_MLP_N(gb_mlp_step)(const struct GB_MLP_N(gb_mlp_ops) *ops, void *ctx,
                                        const struct mlp_dims *d, float lr_f, void *const *buf) {
    const int B = (int)d->batch, I = (int)d->in, H = (int)d->hidden, O = (int)d->out;
    const size_t bh = (size_t)B * H, bo = (size_t)B * O, hi = (size_t)H * I, oh = (size_t)O * H;
    const T inv_batch = (T)1 / (T)B, lr = (T)lr_f;
    const T *x = (const T *)buf[GB_MLP_X];
    const float *labels = (const float *)buf[GB_MLP_LABELS];
    T *w1 = (T *)buf[GB_MLP_W1], *b1 = (T *)buf[GB_MLP_B1];
    T *w2 = (T *)buf[GB_MLP_W2], *b2 = (T *)buf[GB_MLP_B2];
    /* a: the activations, kept for the backward pass; z: the logits, then dz */
    T *a = (T *)buf[GB_MLP_SCRATCH], *dh = a + gb_mlp_round(bh);
    T *z = dh + gb_mlp_round(bh), *dw1 = z + gb_mlp_round(bo);
    T *dw2 = dw1 + gb_mlp_round(hi), *db1 = dw2 + gb_mlp_round(oh);
    T *db2 = db1 + gb_mlp_round((size_t)H), *rowloss = db2 + gb_mlp_round((size_t)O);
    int rc;
    /* forward: a = ReLU(x·w1ᵀ + b1) (w1 is H×I: the "nt" GEMM), z = a·w2ᵀ (+ b2 in softmax) */
    GB_MLP_DO(ops->gemm(ctx, 0, 1, B, H, I, x, I, w1, I, a, H));
    GB_MLP_DO(ops->bias_relu(ctx, a, b1, B, H));
    GB_MLP_DO(ops->gemm(ctx, 0, 1, B, O, H, a, H, w2, H, z, O));
    /* loss and dz = (softmax − onehot)/batch, in place of z; loss = mean of the row losses */
    GB_MLP_DO(ops->softmax_xent(ctx, z, b2, labels, z, rowloss, B, O, inv_batch));
    GB_MLP_DO(ops->colsum(ctx, rowloss, (T *)buf[GB_MLP_LOSS], B, 1, inv_batch));
    /* backward, all from the old parameters: dw2 = dzᵀ·a ("tn": dz is stored B×O) */
    GB_MLP_DO(ops->gemm(ctx, 1, 0, O, H, B, z, O, a, H, dw2, H));
    GB_MLP_DO(ops->colsum(ctx, z, db2, B, O, 1));
    GB_MLP_DO(ops->gemm(ctx, 0, 0, B, H, O, z, O, w2, H, dh, H)); /* dh = dz·w2 */
    GB_MLP_DO(ops->relu_backward(ctx, dh, a, bh));
    GB_MLP_DO(ops->gemm(ctx, 1, 0, H, I, B, dh, H, x, I, dw1, I)); /* dw1 = dhᵀ·x */
    GB_MLP_DO(ops->colsum(ctx, dh, db1, B, H, 1));
    GB_MLP_DO(ops->sgd(ctx, w1, dw1, hi, lr)); /* the update */
    GB_MLP_DO(ops->sgd(ctx, b1, db1, (size_t)H, lr));
    GB_MLP_DO(ops->sgd(ctx, w2, dw2, oh, lr));
    GB_MLP_DO(ops->sgd(ctx, b2, db2, (size_t)O, lr));
    return 0;
}

#undef T
#undef GB_MLP_F64
