/* step_launch.cuh — the launchers of step_kernels.cuh in one tier's type (tier.h) as
 * gb_mlp_step's ops (step_t.h), included by cuda.cu once per tier. bias_relu needs rows·cols
 * < 2^31 (32-bit indices), softmax_xent cols ≥ 1. */
#include "kernels/mlp_train/tier.h"
#define T GB_MLP_T

static int GB_MLP_N(bias_relu)(void *ctx, T *z, const T *bias, int rows, int cols) {
    if (rows < 0 || cols < 0 || (long long)rows * cols > 2147483647LL)
        return done(ctx, cudaErrorInvalidValue, "gb_bias_relu");
    return GB_EW_LAUNCH(GB_MLP_K(gb_bias_relu), (size_t)rows * cols, z, bias, rows, cols);
}

static int GB_MLP_N(relu_backward)(void *ctx, T *dh, const T *h, size_t n) {
    return GB_EW_LAUNCH(GB_MLP_K(gb_relu_backward), n, dh, h, n);
}

static int GB_MLP_N(softmax_xent)(void *ctx, const T *logits, const T *bias, const float *labels,
                                  T *dlogits, T *rowloss, int rows, int cols, T scale) {
    if (rows < 0 || cols < 1)
        return done(ctx, cudaErrorInvalidValue, "gb_softmax_xent");
    if (rows > 0)
        GB_MLP_K(gb_softmax_xent)<<<gb_grid_of(rows, 1), GB_SMX_THREADS, 0, gb_stream()>>>(
            logits, bias, labels, dlogits, rowloss, rows, cols, scale);
    return done(ctx, cudaGetLastError(), GB_MLP_STR(GB_MLP_K(gb_softmax_xent)));
}

static int GB_MLP_N(colsum)(void *ctx, const T *x, T *out, int rows, int cols, T scale) {
    if (rows < 0 || cols < 0)
        return done(ctx, cudaErrorInvalidValue, "gb_colsum");
    if (cols > 0)
        GB_MLP_K(gb_colsum)<<<gb_grid_of(cols, GB_COLSUM_X), dim3(GB_COLSUM_X, GB_COLSUM_Y),
                              GB_COLSUM_X * GB_COLSUM_Y * sizeof(T), gb_stream()>>>(
            x, out, rows, cols, scale);
    return done(ctx, cudaGetLastError(), GB_MLP_STR(GB_MLP_K(gb_colsum)));
}

static int GB_MLP_N(sgd)(void *ctx, T *w, const T *g, size_t n, T lr) {
    return GB_EW_LAUNCH(GB_MLP_K(gb_sgd), n, w, g, n, lr);
}

const struct GB_MLP_N(gb_mlp_ops) GB_MLP_N(gb_mlp_gpu_ops) = {
    NULL, GB_MLP_N(bias_relu), GB_MLP_N(relu_backward), GB_MLP_N(softmax_xent),
    GB_MLP_N(colsum), GB_MLP_N(sgd)};

#undef T
#undef GB_MLP_F64
