/* amp_step.h — the launches of one mixed-precision (f16) MLP step, written once (as step.h is
 * for f32 and f64): run by mlp_train/cublas's f16 tier (cuBLAS GEMMs) and mlp_train/cuda_tc
 * (our WMMA GEMMs) through amp.c, and on the emulation (test_emu.c), which so checks the very
 * sequence the rows run. What the step is: docs/precision.md, "Mixed precision: mlp_train f16".
 * Plain C. */
#ifndef GPUBENCH_MLP_AMP_STEP_H
#define GPUBENCH_MLP_AMP_STEP_H

#include <stddef.h>

#include "kernels/mlp_train/step.h"

/* C (M×N, ldc, FP32) = op(A)·op(B) of FP16 A and B (bits in unsigned shorts), row-major, op
 * transposing where ta / tb is set (never both), products and sums in FP32. */
typedef int gb_mlp_gemm16(void *ctx, int ta, int tb, int M, int N, int K, const unsigned short *A,
                          int lda, const unsigned short *B, int ldb, float *C, int ldc);

/* The step's operations (amp.cuh's kernels, and f32's softmax and column sums); each returns 0
 * or a code of the caller's choosing, as step_t.h's. */
struct gb_mlp_amp_ops {
    gb_mlp_gemm16 *gemm;
    const struct gb_mlp_ops *f32; /* softmax_xent and colsum in float32 */
    int (*f16_cast)(void *ctx, const float *in, unsigned short *out, size_t n);
    int (*bias_relu_f16)(void *ctx, const float *z, const float *bias, unsigned short *a,
                         int rows, int cols);
    int (*relu_backward_f16)(void *ctx, float *dh, const unsigned short *a, unsigned short *dh16,
                             size_t n);
    int (*clear_flag)(void *ctx, int *bad); /* *bad = 0 */
    int (*nonfinite)(void *ctx, const float *g, size_t n, int *bad);
    int (*sgd)(void *ctx, float *w, const float *g, size_t n, float lr, float inv_scale,
               const int *bad);
};

/* The step's own buffers beside step.h's X, labels, parameters and loss: FP32 products and
 * gradients, the FP16 copies the GEMMs read, the overflow flag. */
struct gb_mlp_amp_bufs {
    float *h32, *z, *dw1, *dw2, *db1, *db2, *rowloss;
    unsigned short *w1h, *w2h, *a16, *dz16, *dh16;
    int *bad;
};

/* Carve them out of one FP32 and one FP16 allocation (NULL: only count): each piece at a
 * multiple of 64 elements (gb_mlp_round), the flag first in the FP32 one. Returns the FP32
 * elements; *n16 gets the FP16 ones. */
static inline size_t gb_mlp_amp_carve(const struct mlp_dims *d, float *p32, unsigned short *p16,
                                      struct gb_mlp_amp_bufs *s, size_t *n16) {
    const size_t B = (size_t)d->batch, I = (size_t)d->in, H = (size_t)d->hidden,
                 O = (size_t)d->out;
    float **f32[] = {&s->h32, &s->z, &s->dw1, &s->dw2, &s->db1, &s->db2, &s->rowloss};
    const size_t n32[] = {B * H, B * O, H * I, O * H, H, O, B};
    unsigned short **f16[] = {&s->w1h, &s->w2h, &s->a16, &s->dz16, &s->dh16};
    const size_t nh[] = {H * I, O * H, B * H, B * O, B * H};
    size_t t32 = 64, t16 = 0;
    int i;
    if (p32)
        s->bad = (int *)p32;
    for (i = 0; i < 7; i++) {
        if (p32)
            *f32[i] = p32 + t32;
        t32 += gb_mlp_round(n32[i]);
    }
    for (i = 0; i < 5; i++) {
        if (p16)
            *f16[i] = p16 + t16;
        t16 += gb_mlp_round(nh[i]);
    }
    *n16 = t16;
    return t32;
}

/* Enqueue one step on buf[] (step.h: X as FP16 bits, the rest FP32) and s: the gradients of the
 * loss scaled by MLP_LOSS_SCALE from FP16 operands, FP32 accumulation; the FP32 master weights
 * updated by lr·g/S unless a gradient is not finite. 5 GEMMs and the small kernels. Returns 0, or
 * the first op's error (nothing after it). */
static inline int gb_mlp_amp_step(const struct gb_mlp_amp_ops *ops, void *ctx,
                                  const struct mlp_dims *d, float lr, void *const *buf,
                                  const struct gb_mlp_amp_bufs *s) {
    const int B = (int)d->batch, I = (int)d->in, H = (int)d->hidden, O = (int)d->out;
    const size_t n[4] = {(size_t)H * I, (size_t)H, (size_t)O * H, (size_t)O};
    float *const g[4] = {s->dw1, s->db1, s->dw2, s->db2};
    const unsigned short *x16 = (const unsigned short *)buf[GB_MLP_X];
    const struct gb_mlp_ops *f = ops->f32;
    int rc, k;
    /* forward and backward: the gradients, scaled by S, and the loss */
    GB_MLP_DO(ops->f16_cast(ctx, (const float *)buf[GB_MLP_W1], s->w1h, n[0]));
    GB_MLP_DO(ops->f16_cast(ctx, (const float *)buf[GB_MLP_W2], s->w2h, n[2]));
    GB_MLP_DO(ops->gemm(ctx, 0, 1, B, H, I, x16, I, s->w1h, I, s->h32, H));
    GB_MLP_DO(ops->bias_relu_f16(ctx, s->h32, (const float *)buf[GB_MLP_B1], s->a16, B, H));
    GB_MLP_DO(ops->gemm(ctx, 0, 1, B, O, H, s->a16, H, s->w2h, H, s->z, O));
    GB_MLP_DO(f->softmax_xent(ctx, s->z, (const float *)buf[GB_MLP_B2],
                              (const float *)buf[GB_MLP_LABELS], s->z, s->rowloss, B, O,
                              MLP_LOSS_SCALE / (float)B));
    GB_MLP_DO(f->colsum(ctx, s->rowloss, (float *)buf[GB_MLP_LOSS], B, 1, 1.0f / (float)B));
    GB_MLP_DO(ops->f16_cast(ctx, s->z, s->dz16, (size_t)B * O));
    GB_MLP_DO(ops->gemm(ctx, 1, 0, O, H, B, s->dz16, O, s->a16, H, s->dw2, H));
    GB_MLP_DO(f->colsum(ctx, s->z, s->db2, B, O, 1.0f));
    GB_MLP_DO(ops->gemm(ctx, 0, 0, B, H, O, s->dz16, O, s->w2h, H, s->h32, H));
    GB_MLP_DO(ops->relu_backward_f16(ctx, s->h32, s->a16, s->dh16, (size_t)B * H));
    GB_MLP_DO(ops->gemm(ctx, 1, 0, H, I, B, s->dh16, H, x16, I, s->dw1, I));
    GB_MLP_DO(f->colsum(ctx, s->h32, s->db1, B, H, 1.0f));
    /* the update, unless a gradient is not finite */
    GB_MLP_DO(ops->clear_flag(ctx, s->bad));
    for (k = 0; k < 4; k++)
        GB_MLP_DO(ops->nonfinite(ctx, g[k], n[k], s->bad));
    for (k = 0; k < 4; k++)
        GB_MLP_DO(ops->sgd(ctx, (float *)buf[GB_MLP_W1 + k], g[k], n[k], lr, 1 / MLP_LOSS_SCALE,
                           s->bad));
    return 0;
}

#endif
