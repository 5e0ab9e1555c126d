/* cuda.cu — the launchers of kernels.cuh (contracts: cuda.h): the step's, once per tier
 * (step_launch.cuh), the transpose and the mixed-precision step's, and the list of the kernels. */
#include "kernels/mlp_train/cuda.h"
#include "kernels/mlp_train/kernels.cuh"

/* A launcher's return: ST_OK, or e's status with the note of ctx, the row's, naming it. */
static int done(void *ctx, cudaError_t e, const char *kernel) {
    struct impl_ctx *c = (struct impl_ctx *)ctx;
    if (e == cudaSuccess)
        return ST_OK;
    snprintf(c->note, sizeof c->note, "%s: %s: %s", kernel, cudaGetErrorName(e),
             cudaGetErrorString(e));
    return gpu_error_status(cudaGetErrorName(e));
}

/* An element-wise launch over n items on the grid-stride grid (none for n = 0: an empty grid is
 * a launch error), then done. */
#define GB_EW_LAUNCH(kernel, n, ...)                                                               \
    ((n) ? (void)(kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, gb_stream()>>>(__VA_ARGS__))        \
         : (void)0,                                                                                \
     done(ctx, cudaGetLastError(), GB_MLP_STR(kernel)))

#define GB_MLP_F64 0
#include "kernels/mlp_train/step_launch.cuh"
#define GB_MLP_F64 1
#include "kernels/mlp_train/step_launch.cuh"

int gb_transpose64(void *ctx, const double *in, int rows, int cols, int ld, double *out) {
    if (rows > 0 && cols > 0)
        gb_transpose64_kernel<<<dim3(gb_grid_of(cols, GB_TR_TILE), gb_grid_of(rows, GB_TR_TILE)),
                                dim3(GB_TR_TILE, GB_TR_ROWS), 0, gb_stream()>>>(in, rows, cols, ld,
                                                                                out);
    return done(ctx, rows < 0 || cols < 0 || ld < cols ? cudaErrorInvalidValue : cudaGetLastError(),
                "gb_transpose64_kernel");
}

#define GB_MLP_REF(k) {(const void *)k, #k}
int gb_mlp_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        GB_MLP_REF(gb_bias_relu_kernel), GB_MLP_REF(gb_relu_backward_kernel),
        GB_MLP_REF(gb_softmax_xent_kernel), GB_MLP_REF(gb_colsum_kernel), GB_MLP_REF(gb_sgd_kernel),
        GB_MLP_REF(gb_bias_relu64_kernel), GB_MLP_REF(gb_relu_backward64_kernel),
        GB_MLP_REF(gb_softmax_xent64_kernel), GB_MLP_REF(gb_colsum64_kernel),
        GB_MLP_REF(gb_sgd64_kernel), GB_MLP_REF(gb_transpose64_kernel),
        GB_MLP_REF(gb_f16_cast_kernel), GB_MLP_REF(gb_bias_relu_f16_kernel),
        GB_MLP_REF(gb_relu_backward_f16_kernel), GB_MLP_REF(gb_nonfinite_kernel),
        GB_MLP_REF(gb_amp_sgd_kernel)};
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

int gb_f16_cast(void *ctx, const float *in, unsigned short *out, size_t n) {
    return GB_EW_LAUNCH(gb_f16_cast_kernel, n, in, out, n);
}
int gb_bias_relu_f16(void *ctx, const float *z, const float *bias, unsigned short *a, int rows,
                     int cols) {
    if (rows < 0 || cols < 0 || (long long)rows * cols > 2147483647LL)
        return done(ctx, cudaErrorInvalidValue, "gb_bias_relu_f16");
    return GB_EW_LAUNCH(gb_bias_relu_f16_kernel, (size_t)rows * cols, z, bias, a, rows, cols);
}
int gb_relu_backward_f16(void *ctx, float *dh, const unsigned short *a, unsigned short *dh16,
                         size_t n) {
    return GB_EW_LAUNCH(gb_relu_backward_f16_kernel, n, dh, a, dh16, n);
}
int gb_nonfinite(void *ctx, const float *g, size_t n, int *bad) {
    return GB_EW_LAUNCH(gb_nonfinite_kernel, n, g, n, bad);
}
int gb_amp_sgd(void *ctx, float *w, const float *g, size_t n, float lr, float inv_scale,
               const int *bad) {
    return GB_EW_LAUNCH(gb_amp_sgd_kernel, n, w, g, n, lr, inv_scale, bad);
}
