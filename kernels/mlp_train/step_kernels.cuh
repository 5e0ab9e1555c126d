/* step_kernels.cuh — the step's kernels in one tier's type (tier.h), and for nvcc their
 * launchers; included by kernels.cuh once per tier. Element-wise kernels are grid-stride. */
#include "kernels/mlp_train/tier.h"
#define T GB_MLP_T
#if GB_MLP_F64 /* ptxas 11.8 (sm_70) kept unrolled double loops' trip count on the stack */
#define GB_MLP_LOOP GB_NO_UNROLL
#else
#define GB_MLP_LOOP
#endif

/* z[i][j] = max(z[i][j] + bias[j], 0) in place, rows·cols < 2^31 (32-bit indices keep the
 * modulo cheap; the launcher checks). */
__global__ void GB_MLP_K(gb_bias_relu)(T *__restrict__ z, const T *__restrict__ bias, int rows,
                                       int cols) {
    const unsigned n = (unsigned)rows * (unsigned)cols, stride = gridDim.x * blockDim.x;
    unsigned i;
    for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        T v = z[i] + GB_LDG(bias + i % (unsigned)cols);
        z[i] = v > 0 ? v : 0;
    }
}
GB_SIM_KERNEL(GB_MLP_K(gb_bias_relu), T *, const T *, int, int)

/* dh[i] = h[i] > 0 ? dh[i] : 0 in place; h, the ReLU output, is > 0 where its input was. */
__global__ void GB_MLP_K(gb_relu_backward)(T *__restrict__ dh, const T *__restrict__ h, size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        if (!(h[i] > 0))
            dh[i] = 0;
}
GB_SIM_KERNEL(GB_MLP_K(gb_relu_backward), T *, const T *, size_t)

/* red[0] = max (is_max) or sum of the threads' red[threadIdx.x]; all may read it after. */
static __device__ __forceinline__ void GB_MLP_N(gb_block_reduce)(T *red, int is_max) {
    int half;
    const int t = threadIdx.x;
    __syncthreads();
    for (half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half)
            red[t] = is_max ? GB_MLP_M(fmax)(red[t], red[t + half]) : red[t] + red[t + half];
        __syncthreads();
    }
}

/* Softmax cross-entropy of z = logits + bias, a row per block (blockDim.x a power of two ≤
 * GB_SMX_THREADS): rowloss = log s − (z[label] − m) with m = max z, s = Σ exp(z − m), and dlogits
 * (may alias logits) = (exp(z − m)/s − [j == label])·scale; labels as mlp_label reads them. */
__global__ void GB_LAUNCH_BOUNDS(GB_SMX_THREADS)
    GB_MLP_K(gb_softmax_xent)(const T *logits, const T *__restrict__ bias,
                              const float *__restrict__ labels, T *dlogits, T *__restrict__ rowloss,
                              int rows, int cols, T scale) {
    __shared__ T red[GB_SMX_THREADS];
    const int t = threadIdx.x, nt = blockDim.x;
    int row, j;
    for (row = blockIdx.x; row < rows; row += gridDim.x) { /* uniform over the block */
        const T *l = logits + (size_t)row * cols;
        T *dl = dlogits + (size_t)row * cols;
        const float yr = rintf(labels[row]);
        const int label = !(yr > 0.0f) ? 0 : yr >= (float)cols ? cols - 1 : (int)yr;
        /* z[label] before the first barrier, after which another thread may overwrite it with
         * its gradient when dlogits aliases logits (the emulation caught that) */
        const T zlabel = t == 0 ? l[label] + bias[label] : 0;
        T m = -GB_MLP_MAX, s = 0;
        GB_MLP_LOOP
        for (j = t; j < cols; j += nt)
            m = GB_MLP_M(fmax)(m, l[j] + bias[j]);
        red[t] = m;
        GB_MLP_N(gb_block_reduce)(red, 1);
        m = red[0];
        __syncthreads(); /* everyone has read red[0] before it is reused */
        GB_MLP_LOOP
        for (j = t; j < cols; j += nt)
            s += GB_MLP_M(exp)(l[j] + bias[j] - m);
        red[t] = s;
        GB_MLP_N(gb_block_reduce)(red, 0);
#if GB_MLP_F64
        /* exp(z − m − log s), not exp(z − m)/s: a double division calls its slow path, and
         * ptxas spilled the values live across it (sm_70, sm_100); s ≥ 1, log s is exact */
        const double mls = m + log(red[0]);
        if (t == 0)
            rowloss[row] = mls - zlabel;
        GB_MLP_LOOP
        for (j = t; j < cols; j += nt)
            dl[j] = (exp(l[j] + bias[j] - mls) - (j == label ? 1.0 : 0.0)) * scale;
#else
        const float inv = 1.0f / red[0];
        s = red[0];
        if (t == 0)
            rowloss[row] = logf(s) - (zlabel - m);
        /* every thread reads its own l[j] before writing dl[j]: safe when dl aliases l */
        for (j = t; j < cols; j += nt)
            dl[j] = (expf(l[j] + bias[j] - m) * inv - (j == label ? 1.0f : 0.0f)) * scale;
#endif
        __syncthreads(); /* red[0] is read above before the next row overwrites red */
    }
}
GB_SIM_KERNEL(GB_MLP_K(gb_softmax_xent), const T *, const T *, const float *, T *, T *, int, int, T)

/* out[j] = scale · Σ_i x[i][j] (bias gradients): threadIdx.x a column (coalesced rows),
 * threadIdx.y a lane of rows, the lanes added by a tree in dynamic shared memory. */
__global__ void GB_MLP_K(gb_colsum)(const T *__restrict__ x, T *__restrict__ out, int rows,
                                    int cols, T scale) {
    GB_EXTERN_SHARED(T, GB_MLP_N(part));
    const int tx = threadIdx.x, ty = threadIdx.y, bx = blockDim.x, by = blockDim.y;
    int c0, i, half;
    for (c0 = blockIdx.x * bx; c0 < cols; c0 += gridDim.x * bx) { /* uniform over the block */
        const int col = c0 + tx;
        T s = 0;
        if (col < cols)
            for (i = ty; i < rows; i += by)
                s += x[(size_t)i * cols + col];
        GB_MLP_N(part)[ty * bx + tx] = s;
        __syncthreads();
        for (half = by / 2; half > 0; half /= 2) {
            if (ty < half)
                GB_MLP_N(part)[ty * bx + tx] += GB_MLP_N(part)[(ty + half) * bx + tx];
            __syncthreads();
        }
        if (ty == 0 && col < cols)
            out[col] = scale * GB_MLP_N(part)[tx];
        __syncthreads(); /* part[tx] is read above before the next group overwrites it */
    }
}
GB_SIM_KERNEL(GB_MLP_K(gb_colsum), const T *, T *, int, int, T)

/* w[i] −= lr · g[i] in place. */
__global__ void GB_MLP_K(gb_sgd)(T *__restrict__ w, const T *__restrict__ g, size_t n, T lr) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        w[i] -= lr * g[i];
}
GB_SIM_KERNEL(GB_MLP_K(gb_sgd), T *, const T *, size_t, T)

#ifdef __CUDACC__ /* the launchers (cuda.cu), as gb_mlp_step's ops (step_t.h) */
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
    if (rows > 0)
        GB_MLP_K(gb_softmax_xent)<<<gb_grid_of(rows, 1), GB_SMX_THREADS, 0, gb_stream()>>>(
            logits, bias, labels, dlogits, rowloss, rows, cols, scale);
    return done(ctx, cudaGetLastError(), GB_MLP_STR(GB_MLP_K(gb_softmax_xent)));
}
static int GB_MLP_N(colsum)(void *ctx, const T *x, T *out, int rows, int cols, T scale) {
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
#endif

#undef GB_MLP_LOOP
#undef T
#undef GB_MLP_F64
