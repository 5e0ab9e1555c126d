/* test_gpu_kernels.c — the hand-written kernels on a real GPU (cuda:0), through their launchers
 * (kernels/cuda/cuda_kernels.h), against the same double-precision references as the emulation
 * tests: vecadd, the SGEMM in both tile configurations and all three operand layouts, conv2d,
 * and the MLP step. Label `gpu`; exits 77 (skipped) when no GPU is usable or this build has no
 * code for it, so `ctest -L gpu` is safe anywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "kernels/cpu/mlp_cpu.h"
#include "kernels/cuda/conv2d_dims.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/mlp_step.h"
#include "tests/emu/emu_ref.h"
#include "tests/emu/emu_test.h"

/* Stop the test on a CUDA error: a failed call leaves nothing sensible to compare. */
#define GPU(call)                                                                                  \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
                    cudaGetErrorName(e_));                                                         \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static struct gb_arch arch;

/* Device copy of n host floats (n == 0: a 1-float buffer). */
static float *to_dev(const float *h, size_t n) {
    float *d;
    GPU(cudaMalloc((void **)&d, (n ? n : 1) * sizeof(float)));
    if (n)
        GPU(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

static void to_host(float *h, const float *d, size_t n) {
    GPU(cudaDeviceSynchronize());
    GPU(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
}

/* 77 unless every kernel of every family has code for this device. */
static void check_images(void) {
    int (*const families[])(const struct gb_kernel_ref **) = {gb_vecadd_kernels, gb_sgemm_kernels,
                                                              gb_conv2d_kernels, gb_mlp_kernels};
    size_t f;
    for (f = 0; f < sizeof families / sizeof families[0]; f++) {
        const struct gb_kernel_ref *refs;
        int n = families[f](&refs), i;
        for (i = 0; i < n; i++) {
            struct cudaFuncAttributes fa;
            cudaError_t e = cudaFuncGetAttributes(&fa, refs[i].fn);
            if (e != cudaSuccess) {
                printf("skipped: %s: %s (this build has no code for sm_%d)\n", refs[i].name,
                       cudaGetErrorName(e), arch.sm);
                exit(77);
            }
        }
    }
}

static void test_vecadd(void) {
    static const size_t sizes[] = {1, 4099, 1000003};
    size_t s, i;
    for (s = 0; s < 3; s++) {
        size_t n = sizes[s];
        float *a = emu_alloc(n * sizeof(float)), *b = emu_alloc(n * sizeof(float));
        float *c = emu_alloc(n * sizeof(float));
        double *ref = emu_alloc(n * sizeof(double));
        float *da, *db, *dc;
        emu_fill(a, n, 1, -1, 1);
        emu_fill(b, n, 2, -1, 1);
        for (i = 0; i < n; i++)
            ref[i] = (double)(a[i] + b[i]);
        da = to_dev(a, n), db = to_dev(b, n), dc = to_dev(NULL, n + 1);
        GPU(gb_vecadd(0, da, db, dc, n));
        to_host(c, dc, n);
        EMU_CHECK(emu_mismatches("c", c, ref, NULL, n, 0, 1) == 0, "vecadd n=%zu", n);
        GPU(gb_vecadd(0, da + 1, db, dc + 1, n - 1)); /* misaligned: the scalar path */
        to_host(c, dc + 1, n - 1);
        for (i = 0; i + 1 < n; i++)
            ref[i] = (double)(a[i + 1] + b[i]);
        EMU_CHECK(emu_mismatches("c", c, ref, NULL, n - 1, 0, 1) == 0, "vecadd misaligned");
        GPU(cudaFree(da));
        GPU(cudaFree(db));
        GPU(cudaFree(dc));
        free(a), free(b), free(c), free(ref);
    }
}

static void test_sgemm(void) {
    static const int shapes[][3] = {{37, 45, 53}, {300, 257, 129}, {1, 513, 64}, {260, 260, 260}};
    /* force each configuration: many SMs → 64×64; one SM → 128×128 (sm_35+ only) */
    const int sms_of[2] = {1 << 20, 1};
    int s, v, c;
    for (s = 0; s < 4; s++)
        for (v = 0; v < 3; v++)
            for (c = 0; c < (arch.sm >= 35 ? 2 : 1); c++) {
                const int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
                const int ta = v == 1, tb = v == 2;
                const int lda = ta ? M : K, ldb = tb ? K : N;
                const size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
                float *a = emu_alloc(na * 4), *b = emu_alloc(nb * 4), *got = emu_alloc(nc * 4);
                double *ref = emu_alloc(nc * 8), *scale = emu_alloc(nc * 8);
                struct gb_arch forced = arch;
                float *da, *db, *dc;
                emu_fill(a, na, 3, -1, 1);
                emu_fill(b, nb, 4, -1, 1);
                ref_sgemm(ta, tb, M, N, K, a, lda, b, ldb, ref, scale);
                da = to_dev(a, na), db = to_dev(b, nb), dc = to_dev(NULL, nc);
                forced.sms = sms_of[c];
                GPU(gb_sgemm(0, &forced, ta, tb, M, N, K, da, lda, db, ldb, dc, N));
                to_host(got, dc, nc);
                EMU_CHECK(emu_mismatches("C", got, ref, scale, nc, 1e-6, 1) == 0,
                          "sgemm %s %dx%dx%d, %dx%d tiles",
                          v == 0   ? "nn"
                          : v == 1 ? "tn"
                                   : "nt",
                          M, N, K, gb_sgemm_tile_for(&forced, M, N),
                          gb_sgemm_tile_for(&forced, M, N));
                GPU(cudaFree(da));
                GPU(cudaFree(db));
                GPU(cudaFree(dc));
                free(a), free(b), free(got), free(ref), free(scale);
            }
}

static void test_conv2d(void) {
    static const struct gb_conv2d_dims cases[] = {
        {2, 3, 9, 11, 5, 3, 3, 1, 1, 1, 1, 0, 0},
        {1, 2, 12, 40, 7, 5, 20, 2, 8, 1, 3, 0, 0},
        {3, 5, 7, 7, 66, 1, 1, 1, 1, 0, 0, 0, 0},
        {8, 16, 28, 28, 32, 3, 3, 1, 1, 1, 1, 0, 0},
    };
    size_t ci;
    for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        struct gb_conv2d_dims d = cases[ci];
        size_t nx, nw, ny;
        float *x, *w, *y, *dx, *dw, *dy;
        double *ref, *scale;
        if (gb_conv2d_dims_finish(&d) != 0) {
            EMU_CHECK(0, "conv2d case %zu: bad shape", ci);
            continue;
        }
        nx = (size_t)d.n * d.c * d.h * d.w, nw = (size_t)d.k * d.c * d.r * d.s;
        ny = (size_t)d.n * d.k * d.p * d.q;
        x = emu_alloc(nx * 4), w = emu_alloc(nw * 4), y = emu_alloc(ny * 4);
        ref = emu_alloc(ny * 8), scale = emu_alloc(ny * 8);
        emu_fill(x, nx, 5, -1, 1);
        emu_fill(w, nw, 6, -1, 1);
        ref_conv2d(&d, x, w, ref, scale);
        dx = to_dev(x, nx), dw = to_dev(w, nw), dy = to_dev(NULL, ny);
        GPU(gb_conv2d(0, &arch, &d, dx, dw, dy));
        to_host(y, dy, ny);
        EMU_CHECK(emu_mismatches("y", y, ref, scale, ny, 1e-6, 1) == 0, "conv2d case %zu", ci);
        GPU(cudaFree(dx));
        GPU(cudaFree(dw));
        GPU(cudaFree(dy));
        free(x), free(w), free(y), free(ref), free(scale);
    }
}

/* --- the MLP step through the launchers, as mlp_train_cuda.c runs it ------------------------ */
static int op_sgemm(void *c, int ta, int tb, int M, int N, int K, const float *A, int lda,
                    const float *B, int ldb, float *C, int ldc) {
    return (int)gb_sgemm(0, c, ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
}
static int op_bias_relu(void *c, float *z, const float *bias, int rows, int cols) {
    (void)c;
    return (int)gb_bias_relu(0, z, bias, rows, cols);
}
static int op_relu_backward(void *c, float *dh, const float *h, size_t n) {
    (void)c;
    return (int)gb_relu_backward(0, dh, h, n);
}
static int op_softmax_xent(void *c, const float *l, const float *b, const float *labels, float *dl,
                           float *rowloss, int rows, int cols, float scale) {
    (void)c;
    return (int)gb_softmax_xent(0, l, b, labels, dl, rowloss, rows, cols, scale);
}
static int op_colsum(void *c, const float *x, float *out, int rows, int cols, float scale) {
    (void)c;
    return (int)gb_colsum(0, x, out, rows, cols, scale);
}
static int op_sgd(void *c, float *w, const float *g, size_t n, float lr) {
    (void)c;
    return (int)gb_sgd(0, w, g, n, lr);
}
static const struct gb_mlp_ops gpu_ops = {op_sgemm,        op_bias_relu, op_relu_backward,
                                          op_softmax_xent, op_colsum,    op_sgd};

static void test_mlp(void) {
    static const struct gb_mlp_dims dims[] = {{33, 20, 70, 10, 0.1f}, {256, 784, 300, 10, 0.1f}};
    size_t di, i;
    int k;
    for (di = 0; di < 2; di++) {
        const struct gb_mlp_dims *d = &dims[di];
        const struct mlp_dims md = {d->batch, d->in, d->hidden, d->out};
        const size_t sizes[4] = {(size_t)d->hidden * d->in, (size_t)d->hidden,
                                 (size_t)d->out * d->hidden, (size_t)d->out};
        float *x = emu_alloc((size_t)d->batch * d->in * 4), *lab = emu_alloc(d->batch * 4);
        float *p[4], *now[4], *dp[4], *scratch, loss = NAN;
        struct gb_mlp_bufs b;
        long bad;
        emu_fill(x, (size_t)d->batch * d->in, 7, -1, 1);
        emu_fill(lab, (size_t)d->batch, 8, 0, (float)d->out);
        for (i = 0; i < (size_t)d->batch; i++)
            lab[i] = floorf(lab[i]);
        for (k = 0; k < 4; k++) {
            p[k] = emu_alloc(sizes[k] * 4);
            now[k] = emu_alloc(sizes[k] * 4);
            emu_fill(p[k], sizes[k], 9 + (uint64_t)k, -0.1f, 0.1f);
        }
        EMU_CHECK(mlp_ref_clear_kinks(&md, x, p[0], p[1]) >= 0, "out of memory");
        for (k = 0; k < 4; k++)
            dp[k] = to_dev(p[k], sizes[k]);
        b.x = to_dev(x, (size_t)d->batch * d->in);
        b.labels = to_dev(lab, (size_t)d->batch);
        b.loss = to_dev(NULL, 1);
        b.w1 = dp[0], b.b1 = dp[1], b.w2 = dp[2], b.b2 = dp[3];
        scratch = to_dev(NULL, gb_mlp_scratch_floats(d));
        gb_mlp_carve(d, scratch, &b);
        GPU((cudaError_t)gb_mlp_step(&gpu_ops, &arch, d, &b));
        to_host(&loss, b.loss, 1);
        for (k = 0; k < 4; k++)
            to_host(now[k], dp[k], sizes[k]);
        bad = ref_mlp_check(&md, d->lr, x, lab, p, now, loss);
        EMU_CHECK(bad == 0, "mlp step %d/%d/%d/%d: %ld wrong", d->batch, d->in, d->hidden, d->out,
                  bad);
        for (k = 0; k < 4; k++) {
            GPU(cudaFree(dp[k]));
            free(p[k]), free(now[k]);
        }
        GPU(cudaFree(scratch));
        GPU(cudaFree((void *)b.x));
        GPU(cudaFree((void *)b.labels));
        GPU(cudaFree(b.loss));
        free(x), free(lab);
    }
}

int main(void) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        printf("skipped: no usable GPU (%s)\n",
               e != cudaSuccess ? cudaGetErrorName(e) : "0 devices");
        return 77;
    }
    GPU(cudaSetDevice(0));
    GPU(gb_arch_query(&arch));
    check_images();
    test_vecadd();
    test_sgemm();
    test_conv2d();
    test_mlp();
    printf("hand-written kernels on cuda:0 (sm_%d, %d SMs): %d failures\n", arch.sm, arch.sms,
           emu_failures);
    return emu_failures ? 1 : 0;
}
