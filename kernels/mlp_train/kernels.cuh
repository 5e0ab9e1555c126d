/* kernels.cuh — the element-wise and reduction kernels of one SGD step of the MLP
 * (Linear → ReLU → Linear → softmax cross-entropy); its GEMMs run on gemm_kernels.cuh.
 * C subset of CUDA C, shared by the nvcc build (mlp.cu adds the launchers) and the CPU
 * emulation of the tests.
 *
 * Matrices are row-major: a batch of `rows` examples × `cols` features. Reductions are
 * shared-memory trees (no warp shuffles, no atomics): they run on every architecture from
 * sm_20 and give the same bits on every run.
 */
#ifndef GPUBENCH_MLP_KERNELS_CUH
#define GPUBENCH_MLP_KERNELS_CUH

#include <float.h>

#include "kernels/common/kernel_common.cuh"

/* Threads of a softmax block; a power of two (the tree halves it). */
#define GB_SMX_THREADS 128
/* Bias-gradient blocks: 32 columns (one warp-wide, coalesced row segment) × 8 row lanes. */
#define GB_COLSUM_X 32
#define GB_COLSUM_Y 8

/* Forward bias + ReLU, in place: z[i][j] = max(z[i][j] + bias[j], 0) for a rows × cols z with
 * rows·cols < 2^31 (the launcher checks: 32-bit indices keep the modulo cheap). Grid-stride. */
__global__ void gb_bias_relu_kernel(float *__restrict__ z, const float *__restrict__ bias, int rows,
                                    int cols) {
    const unsigned n = (unsigned)rows * (unsigned)cols, stride = gridDim.x * blockDim.x;
    unsigned i;
    for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = z[i] + GB_LDG(bias + i % (unsigned)cols);
        z[i] = v > 0.0f ? v : 0.0f;
    }
}
GB_SIM_KERNEL(gb_bias_relu_kernel, float *, const float *, int, int)

/* Backward ReLU, in place: dh[i] = h[i] > 0 ? dh[i] : 0, where h is the ReLU output (h > 0
 * exactly where the pre-activation was > 0). Grid-stride. */
__global__ void gb_relu_backward_kernel(float *__restrict__ dh, const float *__restrict__ h,
                                        size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        if (!(h[i] > 0.0f))
            dh[i] = 0.0f;
}
GB_SIM_KERNEL(gb_relu_backward_kernel, float *, const float *, size_t)

/* red[0] = op over red[0 .. blockDim.x) (op: max when is_max, else +), by a shared-memory tree.
 * Every thread has stored its partial in red[threadIdx.x]; blockDim.x is a power of two.
 * Ends with a barrier after which every thread may read red[0]. */
static __device__ __forceinline__ void gb_block_reduce(float *red, int is_max) {
    int half;
    const int t = threadIdx.x;
    __syncthreads();
    for (half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half)
            red[t] = is_max ? fmaxf(red[t], red[t + half]) : red[t] + red[t + half];
        __syncthreads();
    }
}

/* Softmax cross-entropy, forward and backward, one row per block (grid-stride over rows):
 *   z = logits[row] + bias, m = max z, s = Σ exp(z − m)            (max-subtracted: no overflow)
 *   rowloss[row] = log s − (z[label] − m)                           (= −log softmax(z)[label])
 *   dlogits[row][j] = (exp(z[j] − m) / s − [j == label]) · scale    (scale = 1/batch for a mean)
 * labels hold class numbers as floats, rounded to nearest (ties to even) and clamped into
 * [0, cols), as mlp_label (bench/mlp_train.h) reads them. dlogits may alias logits.
 * blockDim.x: a power of two, at most GB_SMX_THREADS. */
__global__ void GB_LAUNCH_BOUNDS(GB_SMX_THREADS)
    gb_softmax_xent_kernel(const float *logits, const float *__restrict__ bias,
                           const float *__restrict__ labels, float *dlogits,
                           float *__restrict__ rowloss, int rows, int cols, float scale) {
    __shared__ float red[GB_SMX_THREADS];
    const int t = threadIdx.x, nt = blockDim.x;
    int row, j;
    for (row = blockIdx.x; row < rows; row += gridDim.x) { /* uniform over the block */
        const float *l = logits + (size_t)row * cols;
        float *dl = dlogits + (size_t)row * cols;
        const float yr = rintf(labels[row]);
        const int label = !(yr > 0.0f) ? 0 : yr >= (float)cols ? cols - 1 : (int)yr;
        /* z[label], read before the first barrier: once past it, another thread may overwrite
         * l[label] with its gradient when dlogits aliases logits (the emulation caught that) */
        const float zlabel = t == 0 ? l[label] + bias[label] : 0.0f;
        float m = -FLT_MAX, s = 0.0f, inv; /* FLT_MAX: no INFINITY macro needed in device code */
        for (j = t; j < cols; j += nt)
            m = fmaxf(m, l[j] + bias[j]);
        red[t] = m;
        gb_block_reduce(red, 1);
        m = red[0];
        __syncthreads(); /* everyone has read red[0] before it is reused */
        for (j = t; j < cols; j += nt)
            s += expf(l[j] + bias[j] - m);
        red[t] = s;
        gb_block_reduce(red, 0);
        s = red[0];
        inv = 1.0f / s;
        if (t == 0)
            rowloss[row] = logf(s) - (zlabel - m);
        /* every thread reads its own l[j] before writing dl[j]: safe when dl aliases l */
        for (j = t; j < cols; j += nt)
            dl[j] = (expf(l[j] + bias[j] - m) * inv - (j == label ? 1.0f : 0.0f)) * scale;
        __syncthreads(); /* red[0] is read above before the next row overwrites red */
    }
}
GB_SIM_KERNEL(gb_softmax_xent_kernel, const float *, const float *, const float *, float *, float *,
              int, int, float)

/* Column sums (the bias gradient): out[j] = scale · Σ_i x[i][j] for a rows × cols x.
 * Block (GB_COLSUM_X, GB_COLSUM_Y): threadIdx.x picks a column (a warp reads one contiguous row
 * segment), threadIdx.y a lane of rows; each thread sums its lane, then a shared-memory tree
 * (dynamic shared memory, blockDim.x·blockDim.y floats; blockDim.y a power of two) adds the
 * lanes. Grid-stride over column groups. */
__global__ void gb_colsum_kernel(const float *__restrict__ x, float *__restrict__ out, int rows,
                                 int cols, float scale) {
    GB_EXTERN_SHARED(float, part);
    const int tx = threadIdx.x, ty = threadIdx.y, bx = blockDim.x, by = blockDim.y;
    int c0, i, half;
    for (c0 = blockIdx.x * bx; c0 < cols; c0 += gridDim.x * bx) { /* uniform over the block */
        const int col = c0 + tx;
        float s = 0.0f;
        if (col < cols)
            for (i = ty; i < rows; i += by)
                s += x[(size_t)i * cols + col];
        part[ty * bx + tx] = s;
        __syncthreads();
        for (half = by / 2; half > 0; half /= 2) {
            if (ty < half)
                part[ty * bx + tx] += part[(ty + half) * bx + tx];
            __syncthreads();
        }
        if (ty == 0 && col < cols)
            out[col] = scale * part[tx];
        __syncthreads(); /* part[tx] is read above before the next group overwrites it */
    }
}
GB_SIM_KERNEL(gb_colsum_kernel, const float *, float *, int, int, float)

/* SGD update, in place: w[i] -= lr · g[i]. Grid-stride. */
__global__ void gb_sgd_kernel(float *__restrict__ w, const float *__restrict__ g, size_t n,
                              float lr) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        w[i] -= lr * g[i];
}
GB_SIM_KERNEL(gb_sgd_kernel, float *, const float *, size_t, float)

/* --- the f64 tier: the same kernels in doubles ------------------------------------------------
 * Each one is its float twin above with double data and the double maths (exp, log, fmax): the
 * C subset has no templates, so the pair is written out, as vecadd's and gemm's are. Same
 * launch configurations; the shared-memory trees hold doubles (1 KiB for softmax, 2 KiB for
 * the column sums). */

/* z[i][j] = max(z[i][j] + bias[j], 0), rows·cols < 2^31. Grid-stride. */
__global__ void gb_bias_relu64_kernel(double *__restrict__ z, const double *__restrict__ bias,
                                      int rows, int cols) {
    const unsigned n = (unsigned)rows * (unsigned)cols, stride = gridDim.x * blockDim.x;
    unsigned i;
    for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        double v = z[i] + bias[i % (unsigned)cols];
        z[i] = v > 0.0 ? v : 0.0;
    }
}
GB_SIM_KERNEL(gb_bias_relu64_kernel, double *, const double *, int, int)

/* dh[i] = h[i] > 0 ? dh[i] : 0, in place. Grid-stride. */
__global__ void gb_relu_backward64_kernel(double *__restrict__ dh, const double *__restrict__ h,
                                          size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        if (!(h[i] > 0.0))
            dh[i] = 0.0;
}
GB_SIM_KERNEL(gb_relu_backward64_kernel, double *, const double *, size_t)

/* gb_block_reduce in doubles. */
static __device__ __forceinline__ void gb_block_reduce64(double *red, int is_max) {
    int half;
    const int t = threadIdx.x;
    __syncthreads();
    for (half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half)
            red[t] = is_max ? fmax(red[t], red[t + half]) : red[t] + red[t + half];
        __syncthreads();
    }
}

/* gb_softmax_xent_kernel in doubles (labels stay float32 class numbers). */
__global__ void GB_LAUNCH_BOUNDS(GB_SMX_THREADS)
    gb_softmax_xent64_kernel(const double *logits, const double *__restrict__ bias,
                             const float *__restrict__ labels, double *dlogits,
                             double *__restrict__ rowloss, int rows, int cols, double scale) {
    __shared__ double red[GB_SMX_THREADS];
    const int t = threadIdx.x, nt = blockDim.x;
    int row, j;
    for (row = blockIdx.x; row < rows; row += gridDim.x) { /* uniform over the block */
        const double *l = logits + (size_t)row * cols;
        double *dl = dlogits + (size_t)row * cols;
        const float yr = rintf(labels[row]);
        const int label = !(yr > 0.0f) ? 0 : yr >= (float)cols ? cols - 1 : (int)yr;
        const double zlabel = t == 0 ? l[label] + bias[label] : 0.0; /* before any barrier */
        double m = -DBL_MAX, s = 0.0, mls;
        /* The loops are not unrolled: ptxas 11.8 (sm_70) kept the unrolled loops' shared trip
         * count, (cols - 1 - t) / nt, on the stack. */
        GB_NO_UNROLL
        for (j = t; j < cols; j += nt)
            m = fmax(m, l[j] + bias[j]);
        red[t] = m;
        gb_block_reduce64(red, 1);
        m = red[0];
        __syncthreads();
        GB_NO_UNROLL
        for (j = t; j < cols; j += nt)
            s += exp(l[j] + bias[j] - m);
        red[t] = s;
        gb_block_reduce64(red, 0);
        /* p = exp(z - m - log s), not exp(z - m) / s: a double division is a call to its slow
         * path, and the values live across it spilled to the stack (ptxas, sm_70 and sm_100).
         * s >= 1 (the maximum's own term), so log s is exact to a few ulp. */
        mls = m + log(red[0]);
        if (t == 0)
            rowloss[row] = mls - zlabel;
        GB_NO_UNROLL
        for (j = t; j < cols; j += nt)
            dl[j] = (exp(l[j] + bias[j] - mls) - (j == label ? 1.0 : 0.0)) * scale;
        __syncthreads();
    }
}
GB_SIM_KERNEL(gb_softmax_xent64_kernel, const double *, const double *, const float *, double *,
              double *, int, int, double)

/* gb_colsum_kernel in doubles: dynamic shared memory of blockDim.x·blockDim.y doubles. */
__global__ void gb_colsum64_kernel(const double *__restrict__ x, double *__restrict__ out,
                                   int rows, int cols, double scale) {
    GB_EXTERN_SHARED(double, part64);
    const int tx = threadIdx.x, ty = threadIdx.y, bx = blockDim.x, by = blockDim.y;
    int c0, i, half;
    for (c0 = blockIdx.x * bx; c0 < cols; c0 += gridDim.x * bx) { /* uniform over the block */
        const int col = c0 + tx;
        double s = 0.0;
        if (col < cols)
            for (i = ty; i < rows; i += by)
                s += x[(size_t)i * cols + col];
        part64[ty * bx + tx] = s;
        __syncthreads();
        for (half = by / 2; half > 0; half /= 2) {
            if (ty < half)
                part64[ty * bx + tx] += part64[(ty + half) * bx + tx];
            __syncthreads();
        }
        if (ty == 0 && col < cols)
            out[col] = scale * part64[tx];
        __syncthreads();
    }
}
GB_SIM_KERNEL(gb_colsum64_kernel, const double *, double *, int, int, double)

/* w[i] -= lr · g[i]. Grid-stride. */
__global__ void gb_sgd64_kernel(double *__restrict__ w, const double *__restrict__ g, size_t n,
                                double lr) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        w[i] -= lr * g[i];
}
GB_SIM_KERNEL(gb_sgd64_kernel, double *, const double *, size_t, double)

/* Transpose for the own DGEMM, which takes no transposed operands (kernels/gemm/cuda.h):
 * out (cols × rows, dense) = inᵀ for a rows × cols `in` with leading dimension ld ≥ cols.
 * Blocks of GB_TR_TILE × GB_TR_ROWS threads move GB_TR_TILE² tiles through shared memory, so that
 * reads and writes are both whole rows (coalesced); the tile's row is padded by one double so the
 * column reads spread over the banks. Grid-stride in both directions (any grid fits any shape). */
#define GB_TR_TILE 32
#define GB_TR_ROWS 8
__global__ void gb_transpose64_kernel(const double *__restrict__ in, int rows, int cols, int ld,
                                      double *__restrict__ out) {
    __shared__ double tile[GB_TR_TILE][GB_TR_TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    int r0, c0, k;
    for (r0 = blockIdx.y * GB_TR_TILE; r0 < rows; r0 += gridDim.y * GB_TR_TILE)
        for (c0 = blockIdx.x * GB_TR_TILE; c0 < cols; c0 += gridDim.x * GB_TR_TILE) {
            for (k = ty; k < GB_TR_TILE; k += GB_TR_ROWS) /* uniform over the block */
                if (r0 + k < rows && c0 + tx < cols)
                    tile[k][tx] = in[(size_t)(r0 + k) * ld + c0 + tx];
            __syncthreads();
            for (k = ty; k < GB_TR_TILE; k += GB_TR_ROWS)
                if (c0 + k < cols && r0 + tx < rows)
                    out[(size_t)(c0 + k) * rows + r0 + tx] = tile[tx][k];
            __syncthreads(); /* the tile is read before the next one overwrites it */
        }
}
GB_SIM_KERNEL(gb_transpose64_kernel, const double *, int, int, int, double *)

/* Grid of the transpose: one block per tile, at most 65535 per direction. */
static inline unsigned gb_transpose_blocks(int n) {
    long b = ((long)n + GB_TR_TILE - 1) / GB_TR_TILE;
    return (unsigned)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

/* --- the f16 tier (mixed precision, kernels/mlp_train/cublas.c) -----------------------------
 * FP16 values travel as their bits in unsigned shorts and are made here by arithmetic (frexpf,
 * ldexpf, rintf: round to nearest even), not by cuda_fp16.h: the same code then builds for every
 * architecture and toolkit, and runs unchanged on the CPU emulation. These kernels are
 * memory-bound; the conversion's few extra instructions are hidden behind the loads. */

/* The FP16 bits of x, rounded to nearest even: overflow to ±inf from 65520 (65504 + half an ulp),
 * subnormals below 2^-14, NaN as 0x7e00 (harness/core/dtype.c's dtype_f32_to_f16, the host's). */
static __device__ __forceinline__ unsigned short gb_f16_bits(float x) {
    const unsigned short sign = signbit(x) ? 0x8000u : 0u;
    const float a = fabsf(x);
    int e;
    float q;
    if (x != x)
        return 0x7e00u;
    if (a >= 65520.0f)
        return (unsigned short)(sign | 0x7c00u);
    if (a < 6.103515625e-05f) /* 2^-14: a subnormal, a multiple of 2^-24 */
        return (unsigned short)(sign | (unsigned)rintf(a * 16777216.0f));
    (void)frexpf(a, &e);               /* a in [2^(e-1), 2^e) */
    q = rintf(ldexpf(a, 11 - e));      /* 10 mantissa bits: q in [1024, 2048] */
    if (q >= 2048.0f)                  /* rounded up to the next power of two */
        q = 1024.0f, e++;
    return (unsigned short)(sign | (unsigned)(e - 1 + 15) << 10 | ((unsigned)q - 1024u));
}

/* 1 when the FP16 value h is > 0 (positive, nonzero, not NaN): 0x0001 … 0x7c00. */
static __device__ __forceinline__ int gb_f16_positive(unsigned short h) {
    return h >= 1u && h <= 0x7c00u;
}

/* out[i] = FP16 bits of in[i], i in [0, n): the FP16 copies of the FP32 master weights and of
 * the (loss-scaled) logit gradients. Grid-stride. */
__global__ void gb_f16_cast_kernel(const float *__restrict__ in, unsigned short *__restrict__ out,
                                   size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = gb_f16_bits(in[i]);
}
GB_SIM_KERNEL(gb_f16_cast_kernel, const float *, unsigned short *, size_t)

/* a[i][j] = FP16 of max(z[i][j] + bias[j], 0): the FP32 product plus the FP32 bias, rectified,
 * rounded once to FP16. rows·cols < 2^31. Grid-stride. */
__global__ void gb_bias_relu_f16_kernel(const float *__restrict__ z, const float *__restrict__ bias,
                                        unsigned short *__restrict__ a, int rows, int cols) {
    const unsigned n = (unsigned)rows * (unsigned)cols, stride = gridDim.x * blockDim.x;
    unsigned i;
    for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = z[i] + bias[i % (unsigned)cols];
        a[i] = gb_f16_bits(v > 0.0f ? v : 0.0f);
    }
}
GB_SIM_KERNEL(gb_bias_relu_f16_kernel, const float *, const float *, unsigned short *, int, int)

/* Backward ReLU against the FP16 activations a: dh[i] = a[i] > 0 ? dh[i] : 0 in place (FP32, for
 * the bias gradient), and dh16[i] = its FP16 bits (the operand of the dW1 product). */
__global__ void gb_relu_backward_f16_kernel(float *__restrict__ dh,
                                            const unsigned short *__restrict__ a,
                                            unsigned short *__restrict__ dh16, size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = gb_f16_positive(a[i]) ? dh[i] : 0.0f;
        dh[i] = v;
        dh16[i] = gb_f16_bits(v);
    }
}
GB_SIM_KERNEL(gb_relu_backward_f16_kernel, float *, const unsigned short *, unsigned short *,
              size_t)

/* *bad = 1 when some g[i] is Inf or NaN (the loss scale overflowed FP16 or FP32 somewhere);
 * untouched otherwise. Every writer writes the same 1, so the race is benign. Grid-stride. */
__global__ void gb_nonfinite_kernel(const float *__restrict__ g, size_t n, int *bad) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        if (!(fabsf(g[i]) <= FLT_MAX))
            *bad = 1;
}
GB_SIM_KERNEL(gb_nonfinite_kernel, const float *, size_t, int *)

/* The optimizer step on the FP32 master weights from loss-scaled gradients: w[i] -= lr ·
 * (g[i] · inv_scale), unless *bad (then the step is skipped: w unchanged). Grid-stride. */
__global__ void gb_amp_sgd_kernel(float *__restrict__ w, const float *__restrict__ g, size_t n,
                                  float lr, float inv_scale, const int *__restrict__ bad) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    if (*bad)
        return;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        w[i] -= lr * (g[i] * inv_scale);
}
GB_SIM_KERNEL(gb_amp_sgd_kernel, float *, const float *, size_t, float, float, const int *)

/* Grid of the softmax launch: one block per row up to the 65535 every architecture allows. */
static inline unsigned gb_softmax_blocks(int rows) {
    return (unsigned)(rows < 1 ? 1 : rows > 65535 ? 65535 : rows);
}

/* Grid of the column-sum launch: one block per GB_COLSUM_X columns, at most 65535. */
static inline unsigned gb_colsum_blocks(int cols) {
    long b = ((long)cols + GB_COLSUM_X - 1) / GB_COLSUM_X;
    return (unsigned)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

#endif
