/* cuda.c — mlp_train's `cuda` and `cublas` rows: step.h's step on our elementwise kernels, with
 * our GEMMs (cuda: kernels/gemm's SGEMM and DGEMM) or cuBLAS's (cublas: pedantic FP32 where
 * cuBLAS has it, cublasDgemm; its f16 tier is amp.c's). The rows differ only in that GEMM.
 * Buffers: gpu.h. Our DGEMM takes untransposed operands only: a transposed operand is first
 * written transposed into `tr` by our own kernel, one read and one write of the operand, small
 * next to a product of it. */
#include <stdio.h>

#include "bench/mlp_train.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/gemm/cuda.h"
#include "kernels/mlp_train/cuda.h"
#include "kernels/mlp_train/gpu.h"

/* A row: the step's dims and ops, then what its GEMM needs (the GEMMs get the row as ctx). */
struct mlp_gpu {
    struct gb_dev_bufs dev; /* first: gb_dev_* take ctx->state as it; ptr[] is the step's buf */
    struct gb_mlp_dims d;
    struct gb_mlp_ops ops;
    struct gb_mlp_ops64 ops64;
    struct gb_arch arch; /* cuda */
    double *tr;          /* cuda, f64: room for the largest operand the step transposes */
#ifdef GPUBENCH_HAVE_CUBLAS
    cublasHandle_t h; /* cublas */
    int have_handle;
    const char *blas_error; /* the status name of a cuBLAS GEMM that failed */
#endif
};

void mlp_dev_specs(struct problem *p, struct gb_dev_spec *spec) {
    static const char *const names[4] = {"W1", "b1", "W2", "b2"};
    spec[GB_MLP_X] = (struct gb_dev_spec){.name = "X", .in = &p->in[MLP_IN_X]};
    spec[GB_MLP_LABELS] =
        (struct gb_dev_spec){.name = "labels", .in = &p->in[MLP_IN_LABELS], .store = GB_DEV_FP32};
    for (int k = 0; k < 4; k++)
        spec[GB_MLP_W1 + k] = (struct gb_dev_spec){.name = names[k],
                                                    .in = &p->in[MLP_IN_W1 + k],
                                                    .out = &p->out[MLP_OUT_W1 + k],
                                                    .store = GB_DEV_WIDE};
    spec[GB_MLP_LOSS] =
        (struct gb_dev_spec){.name = "loss", .out = &p->out[MLP_OUT_LOSS], .store = GB_DEV_WIDE};
}

enum status mlp_gpu_dims(struct impl_ctx *ctx, struct gb_mlp_dims *d) {
    const long *v = ctx->p->shape.v; /* bench/mlp_train.c's complete() keeps them within int */
    *d = (struct gb_mlp_dims){(int)v[MLP_KEY_BATCH], (int)v[MLP_KEY_IN], (int)v[MLP_KEY_HIDDEN],
                              (int)v[MLP_KEY_OUT], MLP_LR};
    if ((double)d->batch * d->hidden <= 2147483647.0)
        return ST_OK;
    snprintf(ctx->note, sizeof ctx->note,
             "batch·hidden is 2^31 or more, beyond the own bias+ReLU kernel's indexing");
    return ST_UNSUPPORTED;
}

/* prepare's share of the step, after the state: the buffers (`what` names them for the
 * footprint), the scratch with `extra` elements for the row after the step's, the ops with the
 * row's GEMMs. */
static enum status step_prepare(struct impl_ctx *ctx, gb_mlp_gemm *gemm, gb_mlp_gemm64 *gemm64,
                                size_t extra, const char *what) {
    struct mlp_gpu *g = ctx->state;
    struct gb_dev_spec spec[GB_MLP_NBUF];
    enum status st;
    if ((st = mlp_gpu_dims(ctx, &g->d)) != ST_OK)
        return st;
    mlp_dev_specs(ctx->p, spec);
    spec[GB_MLP_SCRATCH] = (struct gb_dev_spec){.name = "activations and gradients",
                                                .n = gb_mlp_scratch_floats(&g->d) + extra};
    g->ops = gb_mlp_gpu_ops, g->ops.gemm = gemm;
    g->ops64 = gb_mlp_gpu_ops64, g->ops64.gemm = gemm64;
    return gb_dev_prepare(ctx, spec, GB_MLP_NBUF, 0, what);
}

/* impl.run of both rows: one step, an error named in the note. */
static enum status step_run(struct impl_ctx *ctx) {
    struct mlp_gpu *g = ctx->state;
    const char *name = NULL;
    int rc = g->dev.t == DT_F64 ? gb_mlp_step64(&g->ops64, g, &g->d, g->dev.ptr)
                                : gb_mlp_step(&g->ops, g, &g->d, g->dev.ptr);
    if (rc == 0)
        return ST_OK;
#ifdef GPUBENCH_HAVE_CUBLAS
    name = g->blas_error; /* a cuBLAS GEMM's failure; else a cudaError_t the launcher took */
    g->blas_error = NULL;
#endif
    name = name ? name : cudaGetErrorName((cudaError_t)rc);
    snprintf(ctx->note, sizeof ctx->note, "gb_mlp_step: %s", name);
    return gpu_error_status(name);
}

/* --- cuda: our SGEMM; f64 our DGEMM, after our transpose of a transposed operand ------------ */
static int cuda_gemm(void *c, int ta, int tb, int M, int N, int K, const float *A, int lda,
                     const float *B, int ldb, float *C, int ldc) {
    const struct mlp_gpu *g = c;
    return (int)gb_sgemm(gb_stream(), &g->arch, ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
}

/* The step never transposes both operands, and each product has consumed tr before the next
 * one's transpose is enqueued on the stream. */
static int cuda_gemm64(void *c, int ta, int tb, int M, int N, int K, const double *A, int lda,
                       const double *B, int ldb, double *C, int ldc) {
    const struct mlp_gpu *g = c;
    cudaError_t e = cudaSuccess;
    if (ta && tb)
        return (int)cudaErrorInvalidValue;
    if (ta) /* A is stored K × M */
        e = gb_transpose64(A, K, M, lda, g->tr), A = g->tr, lda = K;
    else if (tb) /* B is stored N × K */
        e = gb_transpose64(B, N, K, ldb, g->tr), B = g->tr, ldb = N;
    if (e != cudaSuccess)
        return (int)e;
    return (int)gb_dgemm(gb_stream(), &g->arch, M, N, K, A, lda, B, ldb, C, ldc);
}

static enum status cuda_prepare(struct impl_ctx *ctx) {
    const long *v = ctx->p->shape.v;
    const int f64 = ctx->p->dtype == DT_F64;
    const size_t B = (size_t)v[MLP_KEY_BATCH], I = (size_t)v[MLP_KEY_IN],
                 H = (size_t)v[MLP_KEY_HIDDEN], O = (size_t)v[MLP_KEY_OUT];
    const size_t ops[4] = {H * I, B * H, O * H, B * O}; /* what f64 transposes: W1, dH, W2, dZ */
    size_t tr = 0;
    struct mlp_gpu *g;
    enum status st;
    for (int k = 0; f64 && k < 4; k++)
        tr = ops[k] > tr ? ops[k] : tr;
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
    const int t = f64 ? gb_dgemm_tile_for(&g->arch) : gb_sgemm_tile_for(&g->arch, (int)B, (int)H);
    if (f64)
        snprintf(ctx->note, sizeof ctx->note,
                 "own DGEMM %dx%d tiles, transposed operands copied by an own kernel first", t, t);
    else
        snprintf(ctx->note, sizeof ctx->note, "own SGEMM %dx%d tiles for X*W1^T", t, t);
    return ST_OK;
}

const struct impl mlp_train_cuda_impl = {
    .name = "cuda",
    .kind = DEV_CUDA,
    .summary = "own SGEMM for the 5 GEMMs + own bias/ReLU, softmax-xent, reduction, SGD kernels; "
               "f64: own DGEMM",
    .prepare = cuda_prepare,
    .upload = gb_dev_upload,
    .run = step_run,
    .download = gb_dev_download,
    .release = gb_dev_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64),
};

/* --- cublas: cuBLAS's GEMMs ------------------------------------------------------------------ */
#ifdef GPUBENCH_HAVE_CUBLAS
enum status mlp_blas_handle(struct impl_ctx *ctx, cublasHandle_t *h, int *have, int tensor_ops,
                            const char **math) {
    CUBLAS_TRY(cublasCreate(h), ctx);
    *have = 1;
    CUBLAS_TRY(cublasSetStream(*h, gb_stream()), ctx);
#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11
    CUBLAS_TRY(cublasSetMathMode(*h, tensor_ops ? CUBLAS_DEFAULT_MATH : CUBLAS_PEDANTIC_MATH), ctx);
    *math = tensor_ops ? "default math" : "pedantic FP32";
#elif defined(CUDART_VERSION) && CUDART_VERSION >= 9000
    if (tensor_ops)
        CUBLAS_TRY(cublasSetMathMode(*h, CUBLAS_TENSOR_OP_MATH), ctx);
    *math = tensor_ops ? "tensor-op math" : "default math, FP32";
#else
    *math = "default math, FP32";
#endif
    return ST_OK;
}

/* A cuBLAS status as the step's ops return it, a failure's name kept for step_run's note. */
static int blas_rc(struct mlp_gpu *g, cublasStatus_t st) {
    if (st != CUBLAS_STATUS_SUCCESS)
        g->blas_error = gb_cublas_status_name(st);
    return st != CUBLAS_STATUS_SUCCESS;
}

/* Row-major C = op(A)·op(B) from column-major cuBLAS: the column-major view of a row-major
 * matrix is its transpose, so Cᵀ = op(B)ᵀ·op(A)ᵀ is computed: operands swapped, flags kept. */
static int cublas_gemm(void *c, int ta, int tb, int M, int N, int K, const float *A, int lda,
                       const float *B, int ldb, float *C, int ldc) {
    struct mlp_gpu *g = c;
    const float one = 1, zero = 0;
    return blas_rc(g,
                   cublasSgemm(g->h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                               N, M, K, &one, B, ldb, A, lda, &zero, C, ldc));
}
static int cublas_gemm64(void *c, int ta, int tb, int M, int N, int K, const double *A, int lda,
                         const double *B, int ldb, double *C, int ldc) {
    struct mlp_gpu *g = c;
    const double one = 1, zero = 0;
    return blas_rc(g,
                   cublasDgemm(g->h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                               N, M, K, &one, B, ldb, A, lda, &zero, C, ldc));
}

/* gb_dev_release's teardown: the handle, once the stream is idle. */
static void cublas_teardown(struct impl_ctx *ctx) {
    struct mlp_gpu *g = ctx->state;
    if (g->have_handle)
        CUBLAS_WARN(cublasDestroy(g->h));
}

static enum status cublas_prepare(struct impl_ctx *ctx) {
    const int f64 = ctx->p->dtype == DT_F64;
    const char *math;
    struct mlp_gpu *g;
    enum status st;
    if (ctx->p->dtype == DT_F16)
        return mlp_amp_prepare(ctx);
    if ((st = gb_check_kernels(ctx, gb_mlp_kernels)) != ST_OK ||
        (st = gb_impl_state(ctx, sizeof *g)) != ST_OK)
        return st;
    g = ctx->state;
    g->dev.teardown = cublas_teardown;
    if ((st = step_prepare(ctx, cublas_gemm, cublas_gemm64, 0,
                           "X, labels, parameters, loss, activations and gradients; cuBLAS's "
                           "workspace comes on top")) != ST_OK ||
        (st = mlp_blas_handle(ctx, &g->h, &g->have_handle, 0, &math)) != ST_OK)
        return st;
    if (f64)
        snprintf(ctx->note, sizeof ctx->note, "cublasDgemm + own f64 elementwise kernels");
    else
        snprintf(ctx->note, sizeof ctx->note, "cuBLAS GEMMs (%s) + own elementwise kernels", math);
    return ST_OK;
}

static enum status cublas_run(struct impl_ctx *ctx) {
    return ctx->p->dtype == DT_F16 ? mlp_amp_run(ctx) : step_run(ctx);
}

/* The f16 tier's FP16 copy of X (the layer's). */
static double cublas_host_bytes(const struct shape *sh) {
    return 2.0 * (double)sh->v[MLP_KEY_BATCH] * (double)sh->v[MLP_KEY_IN];
}

const struct impl mlp_train_cublas_impl = {
    .name = "cublas",
    .kind = DEV_CUDA,
    .summary = "cuBLAS GEMMs (pedantic FP32) + own elementwise kernels; f64: cublasDgemm + own "
               "kernels; f16: mixed precision (cc 7.0+)",
    .prepare = cublas_prepare,
    .upload = gb_dev_upload,
    .run = cublas_run,
    .download = gb_dev_download,
    .release = gb_dev_release,
    .host_bytes = cublas_host_bytes,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16),
};
#endif
