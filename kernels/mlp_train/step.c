/* step.c — one MLP training step as a sequence of kernel launches (see mlp_step.h). */
#include "kernels/mlp_train/step.h"

/* Each scratch piece starts on a 256-byte boundary (as cudaMalloc's own) so that the kernels'
 * float4 paths apply whatever the shape. */
static size_t gb_mlp_round(size_t n) {
    return (n + 63) / 64 * 64;
}

size_t gb_mlp_scratch_floats(const struct gb_mlp_dims *d) {
    size_t b = (size_t)d->batch, i = (size_t)d->in, h = (size_t)d->hidden, o = (size_t)d->out;
    return 2 * gb_mlp_round(b * h) + gb_mlp_round(b * o) + gb_mlp_round(h * i) +
           gb_mlp_round(o * h) + gb_mlp_round(h) + gb_mlp_round(o) + gb_mlp_round(b);
}

void gb_mlp_carve(const struct gb_mlp_dims *d, float *scratch, struct gb_mlp_bufs *b) {
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

#define GB_MLP_DO(call)                                                                            \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        if (rc_ != 0)                                                                              \
            return rc_;                                                                            \
    } while (0)

int gb_mlp_step(const struct gb_mlp_ops *ops, void *ctx, const struct gb_mlp_dims *d,
                const struct gb_mlp_bufs *b) {
    const int B = d->batch, I = d->in, H = d->hidden, O = d->out;
    const float inv_batch = 1.0f / (float)B;

    /* forward: a = ReLU(x·w1ᵀ + b1) (w1 is H×I: the "nt" GEMM), z = a·w2ᵀ (+ b2 in softmax) */
    GB_MLP_DO(ops->sgemm(ctx, 0, 1, B, H, I, b->x, I, b->w1, I, b->a, H));
    GB_MLP_DO(ops->bias_relu(ctx, b->a, b->b1, B, H));
    GB_MLP_DO(ops->sgemm(ctx, 0, 1, B, O, H, b->a, H, b->w2, H, b->z, O));
    /* loss and dz = (softmax − onehot)/batch, in place of z; loss = mean of the row losses */
    GB_MLP_DO(ops->softmax_xent(ctx, b->z, b->b2, b->labels, b->z, b->rowloss, B, O, inv_batch));
    GB_MLP_DO(ops->colsum(ctx, b->rowloss, b->loss, B, 1, inv_batch));
    /* backward, all from the old parameters: dw2 = dzᵀ·a ("tn": dz is stored B×O) */
    GB_MLP_DO(ops->sgemm(ctx, 1, 0, O, H, B, b->z, O, b->a, H, b->dw2, H));
    GB_MLP_DO(ops->colsum(ctx, b->z, b->db2, B, O, 1.0f));
    GB_MLP_DO(ops->sgemm(ctx, 0, 0, B, H, O, b->z, O, b->w2, H, b->dh, H)); /* dh = dz·w2 */
    GB_MLP_DO(ops->relu_backward(ctx, b->dh, b->a, (size_t)B * H));
    GB_MLP_DO(ops->sgemm(ctx, 1, 0, H, I, B, b->dh, H, b->x, I, b->dw1, I)); /* dw1 = dhᵀ·x */
    GB_MLP_DO(ops->colsum(ctx, b->dh, b->db1, B, H, 1.0f));
    /* update */
    GB_MLP_DO(ops->sgd(ctx, b->w1, b->dw1, (size_t)H * I, d->lr));
    GB_MLP_DO(ops->sgd(ctx, b->b1, b->db1, (size_t)H, d->lr));
    GB_MLP_DO(ops->sgd(ctx, b->w2, b->dw2, (size_t)O * H, d->lr));
    GB_MLP_DO(ops->sgd(ctx, b->b2, b->db2, (size_t)O, d->lr));
    return 0;
}

void gb_mlp_carve64(const struct gb_mlp_dims *d, double *scratch, struct gb_mlp_bufs64 *b) {
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

int gb_mlp_step64(const struct gb_mlp_ops64 *ops, void *ctx, const struct gb_mlp_dims *d,
                  const struct gb_mlp_bufs64 *b) {
    const int B = d->batch, I = d->in, H = d->hidden, O = d->out;
    const double inv_batch = 1.0 / (double)B, lr = (double)d->lr;

    GB_MLP_DO(ops->dgemm(ctx, 0, 1, B, H, I, b->x, I, b->w1, I, b->a, H));
    GB_MLP_DO(ops->bias_relu(ctx, b->a, b->b1, B, H));
    GB_MLP_DO(ops->dgemm(ctx, 0, 1, B, O, H, b->a, H, b->w2, H, b->z, O));
    GB_MLP_DO(ops->softmax_xent(ctx, b->z, b->b2, b->labels, b->z, b->rowloss, B, O, inv_batch));
    GB_MLP_DO(ops->colsum(ctx, b->rowloss, b->loss, B, 1, inv_batch));
    GB_MLP_DO(ops->dgemm(ctx, 1, 0, O, H, B, b->z, O, b->a, H, b->dw2, H));
    GB_MLP_DO(ops->colsum(ctx, b->z, b->db2, B, O, 1.0));
    GB_MLP_DO(ops->dgemm(ctx, 0, 0, B, H, O, b->z, O, b->w2, H, b->dh, H));
    GB_MLP_DO(ops->relu_backward(ctx, b->dh, b->a, (size_t)B * H));
    GB_MLP_DO(ops->dgemm(ctx, 1, 0, H, I, B, b->dh, H, b->x, I, b->dw1, I));
    GB_MLP_DO(ops->colsum(ctx, b->dh, b->db1, B, H, 1.0));
    GB_MLP_DO(ops->sgd(ctx, b->w1, b->dw1, (size_t)H * I, lr));
    GB_MLP_DO(ops->sgd(ctx, b->b1, b->db1, (size_t)H, lr));
    GB_MLP_DO(ops->sgd(ctx, b->w2, b->dw2, (size_t)O * H, lr));
    GB_MLP_DO(ops->sgd(ctx, b->b2, b->db2, (size_t)O, lr));
    return 0;
}
