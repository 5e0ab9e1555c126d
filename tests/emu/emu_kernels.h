/* emu_kernels.h — emulated launches of our CUDA kernels with the same grids the launchers of
 * kernels/cuda use, for the emulation tests. Include after tests/emu/emu.h and the kernel
 * .cuh files the test needs; each section compiles only when its kernels were included.
 * Test-only code. */
#ifndef GPUBENCH_EMU_KERNELS_H
#define GPUBENCH_EMU_KERNELS_H

#include "tests/emu/emu.h"

/* The scheduling of every launch of a test case. */
struct emu_run {
    enum emu_order order;
    uint64_t seed;
    int sm, sms; /* the device the launchers' choices are made for (gb_arch) */
};

#ifdef GPUBENCH_GEMM_KERNELS_CUH
struct emu_gemm_args {
    void (*fn)(int, int, int, const float *, int, const float *, int, float *, int);
    int M, N, K, lda, ldb, ldc;
    const float *A, *B;
    float *C;
};

static void emu_gemm_body(void *p) {
    const struct emu_gemm_args *a = p;
    a->fn(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
}

/* gb_sgemm (kernels/cuda/gemm.cu) on the emulation, through the same gb_sgemm_plan. Returns 0
 * or -1. */
static inline int emu_sgemm(const struct emu_run *r, int trans_a, int trans_b, int M, int N, int K,
                            const float *A, int lda, const float *B, int ldb, float *C, int ldc) {
    static void (*const fns[2][3])(int, int, int, const float *, int, const float *, int, float *,
                                   int) = {
        {gb_sgemm_64x64_nn, gb_sgemm_64x64_tn, gb_sgemm_64x64_nt},
        {gb_sgemm_128x128_nn, gb_sgemm_128x128_tn, gb_sgemm_128x128_nt},
    };
    struct emu_gemm_args a;
    enum gb_gemm_cfg cfg;
    int variant, rc;
    dim3 grid;
    rc = gb_sgemm_plan(r->sm, r->sms, trans_a, trans_b, M, N, K, lda, ldb, ldc, &cfg, &variant,
                       &grid);
    if (rc != 0)
        return rc == 1 ? 0 : -1;
    a.fn = fns[cfg][variant];
    a.M = M, a.N = N, a.K = K, a.lda = lda, a.ldb = ldb, a.ldc = ldc;
    a.A = A, a.B = B, a.C = C;
    return emu_launch(grid, emu_dim3(GB_GEMM_THREADS, 1, 1), 0, r->order, r->seed, emu_gemm_body,
                      &a);
}
#endif

#ifdef GPUBENCH_MLP_KERNELS_CUH
struct emu_mlp_args {
    const float *cx, *cy, *cz;
    float *x, *y;
    int rows, cols;
    size_t n;
    float f;
};

static void emu_bias_relu_body(void *p) {
    const struct emu_mlp_args *a = p;
    gb_bias_relu_kernel(a->x, a->cx, a->rows, a->cols);
}
static void emu_relu_backward_body(void *p) {
    const struct emu_mlp_args *a = p;
    gb_relu_backward_kernel(a->x, a->cx, a->n);
}
static void emu_softmax_body(void *p) {
    const struct emu_mlp_args *a = p;
    gb_softmax_xent_kernel(a->cx, a->cy, a->cz, a->x, a->y, a->rows, a->cols, a->f);
}
static void emu_colsum_body(void *p) {
    const struct emu_mlp_args *a = p;
    gb_colsum_kernel(a->cx, a->x, a->rows, a->cols, a->f);
}
static void emu_sgd_body(void *p) {
    const struct emu_mlp_args *a = p;
    gb_sgd_kernel(a->x, a->cx, a->n, a->f);
}

/* Element-wise grid: the launchers' gb_ew_blocks, or `blocks` when nonzero (a test may shrink
 * the grid so that every thread strides several times). */
static inline dim3 emu_ew_grid(size_t n, unsigned blocks) {
    return emu_dim3(blocks ? blocks : gb_ew_blocks(n), 1, 1);
}

/* The launchers of kernels/cuda/mlp.cu on the emulation, same grids and blocks. */
static inline int emu_bias_relu(const struct emu_run *r, unsigned blocks, float *z,
                                const float *bias, int rows, int cols) {
    struct emu_mlp_args a = {.x = z, .cx = bias, .rows = rows, .cols = cols};
    return emu_launch(emu_ew_grid((size_t)rows * cols, blocks), emu_dim3(GB_EW_THREADS, 1, 1), 0,
                      r->order, r->seed, emu_bias_relu_body, &a);
}
static inline int emu_relu_backward(const struct emu_run *r, unsigned blocks, float *dh,
                                    const float *h, size_t n) {
    struct emu_mlp_args a = {.x = dh, .cx = h, .n = n};
    return emu_launch(emu_ew_grid(n, blocks), emu_dim3(GB_EW_THREADS, 1, 1), 0, r->order, r->seed,
                      emu_relu_backward_body, &a);
}
static inline int emu_softmax_xent(const struct emu_run *r, unsigned blocks, const float *logits,
                                   const float *bias, const float *labels, float *dlogits,
                                   float *rowloss, int rows, int cols, float scale) {
    struct emu_mlp_args a = {.cx = logits,
                             .cy = bias,
                             .cz = labels,
                             .x = dlogits,
                             .y = rowloss,
                             .rows = rows,
                             .cols = cols,
                             .f = scale};
    return emu_launch(emu_dim3(blocks ? blocks : gb_softmax_blocks(rows), 1, 1),
                      emu_dim3(GB_SMX_THREADS, 1, 1), 0, r->order, r->seed, emu_softmax_body, &a);
}
static inline int emu_colsum(const struct emu_run *r, unsigned blocks, const float *x, float *out,
                             int rows, int cols, float scale) {
    struct emu_mlp_args a = {.cx = x, .x = out, .rows = rows, .cols = cols, .f = scale};
    return emu_launch(emu_dim3(blocks ? blocks : gb_colsum_blocks(cols), 1, 1),
                      emu_dim3(GB_COLSUM_X, GB_COLSUM_Y, 1),
                      GB_COLSUM_X * GB_COLSUM_Y * sizeof(float), r->order, r->seed, emu_colsum_body,
                      &a);
}
static inline int emu_sgd(const struct emu_run *r, unsigned blocks, float *w, const float *g,
                          size_t n, float lr) {
    struct emu_mlp_args a = {.x = w, .cx = g, .n = n, .f = lr};
    return emu_launch(emu_ew_grid(n, blocks), emu_dim3(GB_EW_THREADS, 1, 1), 0, r->order, r->seed,
                      emu_sgd_body, &a);
}
#endif

#endif
