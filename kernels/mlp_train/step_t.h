/* step_t.h — step.h's step in one tier's type (tier.h), included by step.h once per tier:
 * gb_mlp_bufs, gb_mlp_ops, gb_mlp_carve, gb_mlp_step on floats, gb_mlp_bufs64, … on doubles
 * (whose lr is (double)d->lr, the value the float64 reference uses). */
#include "kernels/mlp_train/tier.h"

/* Device buffers (element counts in brackets): inputs x [batch·in] and labels [batch] (class
 * numbers as floats in both tiers); the parameters, updated in place: w1 [hidden·in], b1
 * [hidden], w2 [out·hidden], b2 [out]; loss [1], the loss before the update; scratch: a
 * [batch·hidden] (the activations, kept for the backward pass), z [batch·out] (the logits, then
 * dz in place), dh [batch·hidden], dw1, db1, dw2, db2 (as their parameters), rowloss [batch]. */
struct GB_MLP_N(gb_mlp_bufs) {
    const GB_MLP_T *x;
    const float *labels;
    GB_MLP_T *w1, *b1, *w2, *b2, *loss, *a, *z, *dh, *dw1, *dw2, *db1, *db2, *rowloss;
};

/* C (M×N, ldc) = op(A)·op(B), row-major, op transposing where ta / tb is set. */
typedef int GB_MLP_N(gb_mlp_gemm)(void *ctx, int ta, int tb, int M, int N, int K,
                                  const GB_MLP_T *A, int lda, const GB_MLP_T *B, int ldb,
                                  GB_MLP_T *C, int ldc);

/* The step's operations (row-major; on the GPU, kernels/mlp_train/cuda.h). Each returns 0 or a
 * nonzero code of the caller's choosing (a cudaError_t on the GPU), which gb_mlp_step returns.
 *   bias_relu      z = max(z + bias, 0) in place; z is rows × cols, bias has cols entries
 *   relu_backward  dh[i] = 0 where h[i] <= 0 (h: the ReLU output), in place, i in [0, n)
 *   softmax_xent   rowloss[i] = −log softmax(z_i)[label_i] and dlogits = (softmax − onehot)·scale
 *                  for z = logits + bias (per column), rows × cols; labels rounded and clamped
 *                  as mlp_label (bench/mlp_train.h) reads them; dlogits may be logits
 *   colsum         out[j] = scale · Σ_i x[i][j] for a rows × cols x
 *   sgd            w[i] −= lr · g[i], i in [0, n) */
struct GB_MLP_N(gb_mlp_ops) {
    GB_MLP_N(gb_mlp_gemm) *gemm;
    int (*bias_relu)(void *ctx, GB_MLP_T *z, const GB_MLP_T *bias, int rows, int cols);
    int (*relu_backward)(void *ctx, GB_MLP_T *dh, const GB_MLP_T *h, size_t n);
    int (*softmax_xent)(void *ctx, const GB_MLP_T *logits, const GB_MLP_T *bias,
                        const float *labels, GB_MLP_T *dlogits, GB_MLP_T *rowloss, int rows,
                        int cols, GB_MLP_T scale);
    int (*colsum)(void *ctx, const GB_MLP_T *x, GB_MLP_T *out, int rows, int cols, GB_MLP_T scale);
    int (*sgd)(void *ctx, GB_MLP_T *w, const GB_MLP_T *g, size_t n, GB_MLP_T lr);
};

/* Point the scratch members of b into `scratch` (gb_mlp_scratch_floats(d) elements). */
static inline void GB_MLP_N(gb_mlp_carve)(const struct gb_mlp_dims *d, GB_MLP_T *scratch,
                                          struct GB_MLP_N(gb_mlp_bufs) *b) {
    size_t nb = (size_t)d->batch, ni = (size_t)d->in, nh = (size_t)d->hidden;
    size_t no = (size_t)d->out;
    b->a = scratch;
    b->dh = b->a + gb_mlp_round(nb * nh);
    b->z = b->dh + gb_mlp_round(nb * nh);
    b->dw1 = b->z + gb_mlp_round(nb * no);
    b->dw2 = b->dw1 + gb_mlp_round(nh * ni);
    b->db1 = b->dw2 + gb_mlp_round(no * nh);
    b->db2 = b->db1 + gb_mlp_round(nh);
    b->rowloss = b->db2 + gb_mlp_round(no);
}

/* Enqueue one SGD step: 5 GEMMs and 10 small kernels. Returns 0, or the first error an op
 * returned (nothing after it is launched). */
static inline int GB_MLP_N(gb_mlp_step)(const struct GB_MLP_N(gb_mlp_ops) *ops, void *ctx,
                                        const struct gb_mlp_dims *d,
                                        const struct GB_MLP_N(gb_mlp_bufs) *b) {
    const int B = d->batch, I = d->in, H = d->hidden, O = d->out;
    const GB_MLP_T inv_batch = (GB_MLP_T)1 / (GB_MLP_T)B, lr = (GB_MLP_T)d->lr;
    int rc;
#define GB_MLP_DO(call)                                                                            \
    do {                                                                                           \
        if ((rc = (call)) != 0)                                                                    \
            return rc;                                                                             \
    } while (0)
    /* forward: a = ReLU(x·w1ᵀ + b1) (w1 is H×I: the "nt" GEMM), z = a·w2ᵀ (+ b2 in softmax) */
    GB_MLP_DO(ops->gemm(ctx, 0, 1, B, H, I, b->x, I, b->w1, I, b->a, H));
    GB_MLP_DO(ops->bias_relu(ctx, b->a, b->b1, B, H));
    GB_MLP_DO(ops->gemm(ctx, 0, 1, B, O, H, b->a, H, b->w2, H, b->z, O));
    /* loss and dz = (softmax − onehot)/batch, in place of z; loss = mean of the row losses */
    GB_MLP_DO(ops->softmax_xent(ctx, b->z, b->b2, b->labels, b->z, b->rowloss, B, O, inv_batch));
    GB_MLP_DO(ops->colsum(ctx, b->rowloss, b->loss, B, 1, inv_batch));
    /* backward, all from the old parameters: dw2 = dzᵀ·a ("tn": dz is stored B×O) */
    GB_MLP_DO(ops->gemm(ctx, 1, 0, O, H, B, b->z, O, b->a, H, b->dw2, H));
    GB_MLP_DO(ops->colsum(ctx, b->z, b->db2, B, O, 1));
    GB_MLP_DO(ops->gemm(ctx, 0, 0, B, H, O, b->z, O, b->w2, H, b->dh, H)); /* dh = dz·w2 */
    GB_MLP_DO(ops->relu_backward(ctx, b->dh, b->a, (size_t)B * H));
    GB_MLP_DO(ops->gemm(ctx, 1, 0, H, I, B, b->dh, H, b->x, I, b->dw1, I)); /* dw1 = dhᵀ·x */
    GB_MLP_DO(ops->colsum(ctx, b->dh, b->db1, B, H, 1));
    /* update */
    GB_MLP_DO(ops->sgd(ctx, b->w1, b->dw1, (size_t)H * I, lr));
    GB_MLP_DO(ops->sgd(ctx, b->b1, b->db1, (size_t)H, lr));
    GB_MLP_DO(ops->sgd(ctx, b->w2, b->dw2, (size_t)O * H, lr));
    GB_MLP_DO(ops->sgd(ctx, b->b2, b->db2, (size_t)O, lr));
#undef GB_MLP_DO
    return 0;
}

#undef GB_MLP_F64
