/* amp.cuh — the mixed-precision step's own kernels (amp_step.h: the f16 rows of mlp_train/cublas
 * and mlp_train/cuda_tc), grid-stride. FP16 values are bits in unsigned shorts made by
 * arithmetic, not cuda_fp16.h: one code for every architecture, toolkit and the emulation, its
 * cost hidden behind the loads. */

/* The FP16 bits of x, as harness/core/dtype.c's dtype_f32_to_f16: ±inf from 65520, subnormals
 * below 2^-14, NaN as 0x7e00. */
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

/* out[i] = FP16 bits of in[i]: copies of the master weights and of the scaled logit gradients. */
__global__ void gb_f16_cast_kernel(const float *__restrict__ in, unsigned short *__restrict__ out,
                                   size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = gb_f16_bits(in[i]);
}
GB_SIM_KERNEL(gb_f16_cast_kernel, const float *, unsigned short *, size_t)

/* a[i][j] = FP16(max(z[i][j] + bias[j], 0)), rounded once; rows·cols < 2^31. */
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

/* dh[i] = a[i] > 0 ? dh[i] : 0 in place (FP32, for db1) against the FP16 activations, and
 * dh16[i] = FP16(dh[i]) (for dW1). */
__global__ void gb_relu_backward_f16_kernel(float *__restrict__ dh,
                                            const unsigned short *__restrict__ a,
                                            unsigned short *__restrict__ dh16, size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = a[i] >= 1u && a[i] <= 0x7c00u ? dh[i] : 0.0f; /* a[i] > 0, not NaN */
        dh[i] = v;
        dh16[i] = gb_f16_bits(v);
    }
}
GB_SIM_KERNEL(gb_relu_backward_f16_kernel, float *, const unsigned short *, unsigned short *,
              size_t)

/* *bad = 1 when some g[i] is Inf or NaN (the loss scale overflowed somewhere), else untouched;
 * every writer writes the same 1, so the race is benign. */
__global__ void gb_nonfinite_kernel(const float *__restrict__ g, size_t n, int *bad) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        if (!(fabsf(g[i]) <= FLT_MAX))
            *bad = 1;
}
GB_SIM_KERNEL(gb_nonfinite_kernel, const float *, size_t, int *)

/* w[i] −= lr · (g[i] · inv_scale) on the FP32 master weights, unless *bad (the step skipped). */
__global__ void gb_amp_sgd_kernel(float *__restrict__ w, const float *__restrict__ g, size_t n,
                                  float lr, float inv_scale, const int *__restrict__ bad) {
    size_t stride = (size_t)gridDim.x * blockDim.x, i;
    if (*bad)
        return;
    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        w[i] -= lr * (g[i] * inv_scale);
}
GB_SIM_KERNEL(gb_amp_sgd_kernel, float *, const float *, size_t, float, float, const int *)
#ifdef __CUDACC__ /* the launchers (cuda.cu) */
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
#endif
