/* cuda.cu — kernels.cuh for nvcc, with the launchers it holds under __CUDACC__ (contracts:
 * cuda.h): how a launcher reports, and the list of the kernels. */
#include "kernels/mlp_train/cuda.h"

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

#include "kernels/mlp_train/kernels.cuh" /* with their launchers: GB_EW_LAUNCH and done first */

#define GB_MLP_REF(k) {(const void *)k, #k}
#define GB_MLP_REFS(k) GB_MLP_REF(k##_kernel), GB_MLP_REF(k##64_kernel) /* both tiers' */
int gb_mlp_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        GB_MLP_REFS(gb_bias_relu), GB_MLP_REFS(gb_relu_backward), GB_MLP_REFS(gb_softmax_xent),
        GB_MLP_REFS(gb_colsum), GB_MLP_REFS(gb_sgd), GB_MLP_REF(gb_transpose64_kernel),
        GB_MLP_REF(gb_f16_cast_kernel), GB_MLP_REF(gb_bias_relu_f16_kernel),
        GB_MLP_REF(gb_relu_backward_f16_kernel), GB_MLP_REF(gb_nonfinite_kernel),
        GB_MLP_REF(gb_amp_sgd_kernel)};
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}
