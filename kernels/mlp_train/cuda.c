/* cuda.c — mlp_train's `cuda` and `cublas` rows: step.h's step on our elementwise kernels with
 * the one thing the rows differ in, the GEMM hook: kernels/gemm's SGEMM, DGEMM (cuda) or cuBLAS's
 * (cublas; its f16 tier is amp.c's, shared with cuda_tc.c), which gets the row's impl_ctx and
 * returns as cuda.h's do. */
#include <stdio.h>

#include "bench/mlp_train.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/gemm/cuda.h"
#include "kernels/mlp_train/cuda.h"

enum status mlp_gpu_begin(struct impl_ctx *ctx, struct gb_dev_spec *spec) {
    static const char *const names[] = {"X", "labels", "W1", "b1", "W2", "b2"};
    struct mlp_gpu *g = ctx->state;
    struct problem *p = ctx->p;
    g->d = mlp_dims_of(&p->shape); /* bench/mlp_train.c's complete() keeps each within int */
    if ((double)g->d.batch * g->d.hidden > 2147483647.0) {
        snprintf(ctx->note, sizeof ctx->note,
                 "batch·hidden is 2^31 or more, beyond the own bias+ReLU kernel's indexing");
        return ST_UNSUPPORTED;
    }
    for (int k = GB_MLP_X; k < GB_MLP_LOSS; k++) /* the inputs; the parameters also outputs */
        spec[k] = (struct gb_dev_spec){
            names[k], .in = &p->in[k],
            .out = k < GB_MLP_W1 ? NULL : &p->out[MLP_OUT_W1 + k - GB_MLP_W1],
            .store = k == GB_MLP_X ? GB_DEV_TIER : k == GB_MLP_LABELS ? GB_DEV_FP32 : GB_DEV_WIDE};
    spec[GB_MLP_LOSS] =
        (struct gb_dev_spec){"loss", .out = &p->out[MLP_OUT_LOSS], .store = GB_DEV_WIDE};
    return ST_OK;
}

/* prepare's share of the step: the buffers (`what` names them for the footprint), the scratch
 * with `extra` elements for the row after the step's, the ops with the row's GEMMs. */
static enum status step_prepare(struct impl_ctx *ctx, gb_mlp_gemm *gemm, gb_mlp_gemm64 *gemm64,
                                size_t extra, const char *what) {
    struct mlp_gpu *g = ctx->state;
    struct gb_dev_spec spec[GB_MLP_NBUF];
    enum status st = mlp_gpu_begin(ctx, spec);
    spec[GB_MLP_SCRATCH] = (struct gb_dev_spec){"activations and gradients",
                                                .n = gb_mlp_scratch_floats(&g->d) + extra};
    g->ops = gb_mlp_gpu_ops, g->ops.gemm = gemm;
    g->ops64 = gb_mlp_gpu_ops64, g->ops64.gemm = gemm64;
    return st != ST_OK ? st : gb_dev_prepare(ctx, spec, GB_MLP_NBUF, 0, what);
}

/* impl.run of both rows: one step; an op that failed has written the note. */
static enum status step_run(struct impl_ctx *ctx) {
    struct mlp_gpu *g = ctx->state;
    return (enum status)(g->dev.t == DT_F64
                             ? gb_mlp_step64(&g->ops64, ctx, &g->d, MLP_LR, g->dev.ptr)
                             : gb_mlp_step(&g->ops, ctx, &g->d, MLP_LR, g->dev.ptr));
}

static int cuda_gemm(void *c, int ta, int tb, int M, int N, int K, const float *A, int lda,
                     const float *B, int ldb, float *C, int ldc) {
    struct impl_ctx *ctx = c;
    const struct mlp_gpu *g = ctx->state;
    CU_TRY(gb_sgemm(gb_stream(), &g->arch, ta, tb, M, N, K, A, lda, B, ldb, C, ldc), ctx);
    return ST_OK;
}

/* Our DGEMM takes no transposed operands: one is first copied transposed into tr (a read and a
 * write, small next to its product). The step never transposes both, and each product has
 * consumed tr before the next transpose is enqueued. */
static int cuda_gemm64(void *c, int ta, int tb, int M, int N, int K, const double *A, int lda,
                       const double *B, int ldb, double *C, int ldc) {
    struct impl_ctx *ctx = c;
    const struct mlp_gpu *g = ctx->state;
    int st = ST_OK;
    if (ta) /* A is stored K × M */
        st = gb_transpose64(ctx, A, K, M, lda, g->tr), A = g->tr, lda = K;
    else if (tb) /* B is stored N × K */
        st = gb_transpose64(ctx, B, N, K, ldb, g->tr), B = g->tr, ldb = N;
    if (st != ST_OK)
        return st;
    CU_TRY(gb_dgemm(gb_stream(), &g->arch, M, N, K, A, lda, B, ldb, C, ldc), ctx);
    return ST_OK;
}

static enum status cuda_prepare(struct impl_ctx *ctx) {
    const long *v = ctx->p->shape.v;
    const int f64 = ctx->p->dtype == DT_F64;
    const size_t B = (size_t)v[MLP_KEY_BATCH], I = (size_t)v[MLP_KEY_IN],
                 H = (size_t)v[MLP_KEY_HIDDEN], O = (size_t)v[MLP_KEY_OUT];
    const size_t hx = H * (I > B ? I : B), ox = O * (H > B ? H : B); /* W1 or dH, W2 or dZ */
    const size_t tr = f64 ? (hx > ox ? hx : ox) : 0; /* the largest operand f64 transposes */
    struct mlp_gpu *g;
    enum status st;
    if ((st = gb_check_kernels(ctx, f64 ? gb_dgemm_kernels : gb_sgemm_kernels)) != ST_OK ||
        (st = gb_check_kernels(ctx, gb_mlp_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *g)) != ST_OK)
        return st;
    g = ctx->state;
    if ((st = gb_impl_arch(ctx, &g->arch)) != ST_OK ||
        (st = step_prepare(ctx, cuda_gemm, cuda_gemm64, tr,
                           "X, labels, parameters, loss, activations and gradients")) != ST_OK)
        return st;
    g->tr = (double *)g->dev.ptr[GB_MLP_SCRATCH] + gb_mlp_scratch_floats(&g->d);
    const int t = f64 ? gb_dgemm_tile_for(&g->arch, (int)B, (int)H) : gb_sgemm_tile_for(&g->arch, (int)B, (int)H);
    snprintf(ctx->note, sizeof ctx->note,
             f64 ? "own DGEMM %dx%d tiles, transposed operands copied by an own kernel first"
                 : "own SGEMM %dx%d tiles for X*W1^T",
             t, t);
    return ST_OK;
}

const struct impl mlp_train_cuda_impl = {
    .name = "cuda", .kind = DEV_CUDA, .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64),
    .summary = "own SGEMM for the 5 GEMMs + own bias/ReLU, softmax-xent, reduction, SGD kernels; "
               "f64: own DGEMM",
    .prepare = cuda_prepare, .upload = gb_dev_upload, .run = step_run,
    .download = gb_dev_download, .release = gb_dev_release};

#ifdef GPUBENCH_HAVE_CUBLAS
#include "kernels/common/cublas_math.h"

/* Row-major C = op(A)·op(B) from column-major cuBLAS: the column-major view of a row-major
 * matrix is its transpose, so Cᵀ = op(B)ᵀ·op(A)ᵀ is computed: operands swapped, flags kept.
 * Written once for cublasSgemm and cublasDgemm, which differ only in T. */
#define MLP_CUBLAS_GEMM(name, T, gemm)                                                             \
    static int name(void *c, int ta, int tb, int M, int N, int K, const T *A, int lda,             \
                    const T *B, int ldb, T *C, int ldc) {                                          \
        struct impl_ctx *ctx = c;                                                                  \
        const struct mlp_gpu *g = ctx->state;                                                      \
        const T one = 1, zero = 0;                                                                 \
        CUBLAS_TRY(gemm(g->h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N,  \
                        M, K, &one, B, ldb, A, lda, &zero, C, ldc),                                \
                   ctx);                                                                           \
        return ST_OK;                                                                              \
    }
MLP_CUBLAS_GEMM(cublas_gemm, float, cublasSgemm)
MLP_CUBLAS_GEMM(cublas_gemm64, double, cublasDgemm)

/* gb_dev_release's teardown: the handle, once the stream is idle. */
static void cublas_teardown(struct impl_ctx *ctx) {
    struct mlp_gpu *g = ctx->state;
    if (g->have_handle)
        CUBLAS_WARN(cublasDestroy(g->h));
}

/* The handle on the row's stream: f32 and f64 in cuBLAS's fastest math that keeps IEEE FP32 /
 * FP64 (gb_cublas_exact_math, kernels/common/cublas_math.h); for f16 the math that lets FP16
 * products use tensor cores. */
static enum status cublas_prepare(struct impl_ctx *ctx) {
    const enum dtype t = ctx->p->dtype;
    struct mlp_gpu *g;
    enum status st;
    if ((st = gb_check_kernels(ctx, gb_mlp_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *g)) != ST_OK)
        return st;
    g = ctx->state;
    g->dev.teardown = cublas_teardown;
    if ((st = t == DT_F16 ? mlp_amp_buffers(ctx, mlp_amp_cublas_gemm,
                                            "cublasGemmEx FP16 operands, FP32 accumulation "
                                            "(tensor ops)",
                                            1)
                          : step_prepare(ctx, cublas_gemm, cublas_gemm64, 0,
                                         "X, labels, parameters, loss, activations and "
                                         "gradients; cuBLAS's workspace comes on top")) != ST_OK)
        return st;
    CUBLAS_TRY(cublasCreate(&g->h), ctx);
    g->have_handle = 1;
    CUBLAS_TRY(cublasSetStream(g->h, gb_stream()), ctx);
    if (t == DT_F16) { /* mlp_amp_buffers wrote the note */
#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
        CUBLAS_TRY(cublasSetMathMode(g->h, CUBLAS_DEFAULT_MATH), ctx);
#elif defined(CUDART_VERSION) && CUDART_VERSION >= 9000
        CUBLAS_TRY(cublasSetMathMode(g->h, CUBLAS_TENSOR_OP_MATH), ctx);
#endif
        return ST_OK;
    }
    char math[160];
    if ((st = gb_cublas_exact_math(ctx, g->h, t, math, sizeof math)) != ST_OK)
        return st;
    snprintf(ctx->note, sizeof ctx->note, "%s (%s) + own %selementwise kernels",
             t == DT_F64 ? "cublasDgemm" : "cuBLAS GEMMs", math, t == DT_F64 ? "f64 " : "");
    return ST_OK;
}

static enum status cublas_run(struct impl_ctx *ctx) {
    return ctx->p->dtype == DT_F16 ? mlp_amp_run(ctx) : step_run(ctx);
}

const struct impl mlp_train_cublas_impl = {
    .name = "cublas", .kind = DEV_CUDA, .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
    .summary = "cuBLAS GEMMs (default math: IEEE FP32) + own elementwise kernels; f64: "
               "cublasDgemm + own kernels; f16: mixed precision (cc 7.0+)",
    .prepare = cublas_prepare, .upload = gb_dev_upload, .run = cublas_run,
    .download = gb_dev_download, .release = gb_dev_release, .host_bytes = mlp_amp_host_bytes};
#endif
