/* cuda.cu — launchers of the MLP step's element-wise and reduction kernels (kernels.cuh). */
#include "kernels/mlp_train/cuda.h"
#include "kernels/mlp_train/kernels.cuh"

int gb_mlp_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_bias_relu_kernel, "gb_bias_relu_kernel"},
        {(const void *)gb_relu_backward_kernel, "gb_relu_backward_kernel"},
        {(const void *)gb_softmax_xent_kernel, "gb_softmax_xent_kernel"},
        {(const void *)gb_colsum_kernel, "gb_colsum_kernel"},
        {(const void *)gb_sgd_kernel, "gb_sgd_kernel"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

cudaError_t gb_bias_relu(cudaStream_t stream, float *z, const float *bias, int rows, int cols) {
    if (rows < 0 || cols < 0 || (long long)rows * cols > 2147483647LL)
        return cudaErrorInvalidValue;
    if (rows == 0 || cols == 0)
        return cudaGetLastError();
    gb_bias_relu_kernel<<<gb_ew_blocks((size_t)rows * cols), GB_EW_THREADS, 0, stream>>>(
        z, bias, rows, cols);
    return cudaGetLastError();
}

cudaError_t gb_relu_backward(cudaStream_t stream, float *dh, const float *h, size_t n) {
    if (n == 0)
        return cudaGetLastError();
    gb_relu_backward_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(dh, h, n);
    return cudaGetLastError();
}

cudaError_t gb_softmax_xent(cudaStream_t stream, const float *logits, const float *bias,
                            const float *labels, float *dlogits, float *rowloss, int rows, int cols,
                            float scale) {
    if (rows < 0 || cols < 1)
        return cudaErrorInvalidValue;
    if (rows == 0)
        return cudaGetLastError();
    gb_softmax_xent_kernel<<<gb_softmax_blocks(rows), GB_SMX_THREADS, 0, stream>>>(
        logits, bias, labels, dlogits, rowloss, rows, cols, scale);
    return cudaGetLastError();
}

cudaError_t gb_colsum(cudaStream_t stream, const float *x, float *out, int rows, int cols,
                      float scale) {
    dim3 block;
    if (rows < 0 || cols < 0)
        return cudaErrorInvalidValue;
    if (cols == 0)
        return cudaGetLastError();
    block.x = GB_COLSUM_X;
    block.y = GB_COLSUM_Y;
    block.z = 1;
    gb_colsum_kernel<<<gb_colsum_blocks(cols), block, GB_COLSUM_X * GB_COLSUM_Y * sizeof(float),
                       stream>>>(x, out, rows, cols, scale);
    return cudaGetLastError();
}

cudaError_t gb_sgd(cudaStream_t stream, float *w, const float *g, size_t n, float lr) {
    if (n == 0)
        return cudaGetLastError();
    gb_sgd_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(w, g, n, lr);
    return cudaGetLastError();
}

/* --- the f64 tier ---------------------------------------------------------------------------- */
int gb_mlp_kernels64(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_bias_relu64_kernel, "gb_bias_relu64_kernel"},
        {(const void *)gb_relu_backward64_kernel, "gb_relu_backward64_kernel"},
        {(const void *)gb_softmax_xent64_kernel, "gb_softmax_xent64_kernel"},
        {(const void *)gb_colsum64_kernel, "gb_colsum64_kernel"},
        {(const void *)gb_sgd64_kernel, "gb_sgd64_kernel"},
        {(const void *)gb_transpose64_kernel, "gb_transpose64_kernel"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

cudaError_t gb_bias_relu64(cudaStream_t stream, double *z, const double *bias, int rows,
                           int cols) {
    if (rows < 0 || cols < 0 || (long long)rows * cols > 2147483647LL)
        return cudaErrorInvalidValue;
    if (rows == 0 || cols == 0)
        return cudaGetLastError();
    gb_bias_relu64_kernel<<<gb_ew_blocks((size_t)rows * cols), GB_EW_THREADS, 0, stream>>>(
        z, bias, rows, cols);
    return cudaGetLastError();
}

cudaError_t gb_relu_backward64(cudaStream_t stream, double *dh, const double *h, size_t n) {
    if (n == 0)
        return cudaGetLastError();
    gb_relu_backward64_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(dh, h, n);
    return cudaGetLastError();
}

cudaError_t gb_softmax_xent64(cudaStream_t stream, const double *logits, const double *bias,
                              const float *labels, double *dlogits, double *rowloss, int rows,
                              int cols, double scale) {
    if (rows < 0 || cols < 1)
        return cudaErrorInvalidValue;
    if (rows == 0)
        return cudaGetLastError();
    gb_softmax_xent64_kernel<<<gb_softmax_blocks(rows), GB_SMX_THREADS, 0, stream>>>(
        logits, bias, labels, dlogits, rowloss, rows, cols, scale);
    return cudaGetLastError();
}

cudaError_t gb_colsum64(cudaStream_t stream, const double *x, double *out, int rows, int cols,
                        double scale) {
    dim3 block;
    if (rows < 0 || cols < 0)
        return cudaErrorInvalidValue;
    if (cols == 0)
        return cudaGetLastError();
    block.x = GB_COLSUM_X;
    block.y = GB_COLSUM_Y;
    block.z = 1;
    gb_colsum64_kernel<<<gb_colsum_blocks(cols), block, GB_COLSUM_X * GB_COLSUM_Y * sizeof(double),
                         stream>>>(x, out, rows, cols, scale);
    return cudaGetLastError();
}

cudaError_t gb_sgd64(cudaStream_t stream, double *w, const double *g, size_t n, double lr) {
    if (n == 0)
        return cudaGetLastError();
    gb_sgd64_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(w, g, n, lr);
    return cudaGetLastError();
}

cudaError_t gb_transpose64(cudaStream_t stream, const double *in, int rows, int cols, int ld,
                           double *out) {
    dim3 grid, block;
    if (rows < 0 || cols < 0 || ld < cols)
        return cudaErrorInvalidValue;
    if (rows == 0 || cols == 0)
        return cudaGetLastError();
    grid.x = gb_transpose_blocks(cols);
    grid.y = gb_transpose_blocks(rows);
    grid.z = 1;
    block.x = GB_TR_TILE;
    block.y = GB_TR_ROWS;
    block.z = 1;
    gb_transpose64_kernel<<<grid, block, 0, stream>>>(in, rows, cols, ld, out);
    return cudaGetLastError();
}

/* --- the f16 tier (mixed precision) ---------------------------------------------------------- */
int gb_mlp_kernels16(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_f16_cast_kernel, "gb_f16_cast_kernel"},
        {(const void *)gb_bias_relu_f16_kernel, "gb_bias_relu_f16_kernel"},
        {(const void *)gb_relu_backward_f16_kernel, "gb_relu_backward_f16_kernel"},
        {(const void *)gb_nonfinite_kernel, "gb_nonfinite_kernel"},
        {(const void *)gb_amp_sgd_kernel, "gb_amp_sgd_kernel"},
        {(const void *)gb_softmax_xent_kernel, "gb_softmax_xent_kernel"},
        {(const void *)gb_colsum_kernel, "gb_colsum_kernel"},
    };
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

cudaError_t gb_f16_cast(cudaStream_t stream, const float *in, unsigned short *out, size_t n) {
    if (n == 0)
        return cudaGetLastError();
    gb_f16_cast_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(in, out, n);
    return cudaGetLastError();
}

cudaError_t gb_bias_relu_f16(cudaStream_t stream, const float *z, const float *bias,
                             unsigned short *a, int rows, int cols) {
    if (rows < 0 || cols < 0 || (long long)rows * cols > 2147483647LL)
        return cudaErrorInvalidValue;
    if (rows == 0 || cols == 0)
        return cudaGetLastError();
    gb_bias_relu_f16_kernel<<<gb_ew_blocks((size_t)rows * cols), GB_EW_THREADS, 0, stream>>>(
        z, bias, a, rows, cols);
    return cudaGetLastError();
}

cudaError_t gb_relu_backward_f16(cudaStream_t stream, float *dh, const unsigned short *a,
                                 unsigned short *dh16, size_t n) {
    if (n == 0)
        return cudaGetLastError();
    gb_relu_backward_f16_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(dh, a, dh16, n);
    return cudaGetLastError();
}

cudaError_t gb_nonfinite(cudaStream_t stream, const float *g, size_t n, int *bad) {
    if (n == 0)
        return cudaGetLastError();
    gb_nonfinite_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(g, n, bad);
    return cudaGetLastError();
}

cudaError_t gb_amp_sgd(cudaStream_t stream, float *w, const float *g, size_t n, float lr,
                       float inv_scale, const int *bad) {
    if (n == 0)
        return cudaGetLastError();
    gb_amp_sgd_kernel<<<gb_ew_blocks(n), GB_EW_THREADS, 0, stream>>>(w, g, n, lr, inv_scale, bad);
    return cudaGetLastError();
}
