/* test_gpu_cublas.c — on a real GPU (CTest label `gpu`): the CUDA backend finds and activates
 * cuda:0, a tiny cuBLAS GEMM with sizes that are not multiples of anything runs through the
 * gemm/cublas implementation and matches a double-precision reference, the backend times it with
 * events, a pinned device→host copy round-trips, and an allocation larger than free memory is an
 * `oom` status, not a crash. Exits 77 (skipped) when there is no usable GPU, after checking that
 * the backend said why in one line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/inputs.h"
#include "harness/device.h"
#include "kernels/cpu/gemm_cpu.h"
#include "kernels/cuda/cuda_runtime_helpers.h"
#include "kernels/cuda/host_impls.h"
#include "testhelp.h"

enum { SKIP = 77 };

/* C = A·B for A m×k, B k×n, row-major, through the gemm/cublas row; returns its status. */
static enum status run_gemm(const struct device *dev, int m, int n, int k) {
    struct problem p;
    memset(&p, 0, sizeof p);
    p.shape.v[GEMM_KEY_M] = m, p.shape.v[GEMM_KEY_N] = n, p.shape.v[GEMM_KEY_K] = k;
    p.nin = 2, p.nout = 1;
    if (buf_alloc(&p.in[GEMM_IN_A], "A", (size_t)m * k) ||
        buf_alloc(&p.in[GEMM_IN_B], "B", (size_t)k * n) ||
        buf_alloc(&p.out[GEMM_OUT_C], "C", (size_t)m * n)) {
        problem_free_bufs(&p);
        return ST_OOM;
    }
    fill_uniform(p.in[GEMM_IN_A].data, p.in[GEMM_IN_A].n, 42, 1, -1.0f, 1.0f);
    fill_uniform(p.in[GEMM_IN_B].data, p.in[GEMM_IN_B].n, 42, 2, -1.0f, 1.0f);
    for (size_t i = 0; i < p.out[GEMM_OUT_C].n; i++)
        p.out[GEMM_OUT_C].data[i] = NAN;

    struct impl_ctx ctx = {.p = &p, .dev = dev, .threads = 1};
    const struct impl *im = &gemm_cublas_impl;
    enum status st = im->prepare(&ctx);
    if (st == ST_OK)
        st = im->upload(&ctx);
    if (st == ST_OK)
        st = im->run(&ctx);
    if (st == ST_OK)
        st = im->download(&ctx);
    if (st == ST_OK)
        st = dev->be->sync(dev, ctx.note, sizeof ctx.note);
    printf("gemm/cublas %dx%dx%d: %s %s\n", m, n, k, status_name(st), ctx.note);
    if (st == ST_OK) {
        size_t bad = 0;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                double ref = 0, mag = 0;
                for (int l = 0; l < k; l++) {
                    double t = (double)p.in[GEMM_IN_A].data[(size_t)i * k + l] *
                               (double)p.in[GEMM_IN_B].data[(size_t)l * n + j];
                    ref += t;
                    mag += fabs(t);
                }
                double got = p.out[GEMM_OUT_C].data[(size_t)i * n + j];
                /* FP32 accumulation of k terms: a few ulps of the magnitude sum per term. */
                if (!(fabs(got - ref) <= 1e-6 + 4.0 * k * 1.2e-7 * mag))
                    bad++;
            }
        CHECK_MSG(bad == 0, "%zu of %d entries wrong", bad, m * n);
        double ms = -1;
        enum status ts = dev->be->time_run(im, &ctx, &ms);
        CHECK_MSG(ts == ST_OK && ms > 0, "time_run: %s, %.4f ms: %s", status_name(ts), ms,
                  ctx.note);
    }
    im->release(&ctx);
    problem_free_bufs(&p);
    return st;
}

/* A pinned device→host copy of 1000 floats, through the memcpy/d2h_pinned row. */
static void run_copy(const struct device *dev) {
    struct problem p;
    memset(&p, 0, sizeof p);
    p.shape.v[0] = 4000;
    p.nin = p.nout = 1;
    if (buf_alloc(&p.in[0], "src", 1000) || buf_alloc(&p.out[0], "dst", 1000)) {
        CHECK_MSG(0, "out of host memory");
        problem_free_bufs(&p);
        return;
    }
    fill_uniform(p.in[0].data, 1000, 7, 1, -1.0f, 1.0f);
    for (size_t i = 0; i < 1000; i++)
        p.out[0].data[i] = NAN;
    struct impl_ctx ctx = {.p = &p, .dev = dev, .threads = 1};
    const struct impl *im = &memcpy_d2h_pinned_impl;
    enum status st = im->prepare(&ctx);
    if (st == ST_OK)
        st = im->upload(&ctx);
    if (st == ST_OK)
        st = im->run(&ctx);
    if (st == ST_OK)
        st = im->download(&ctx);
    if (st == ST_OK)
        st = dev->be->sync(dev, ctx.note, sizeof ctx.note);
    CHECK_MSG(st == ST_OK, "d2h_pinned: %s %s", status_name(st), ctx.note);
    CHECK(st != ST_OK || memcmp(p.in[0].data, p.out[0].data, 1000 * sizeof(float)) == 0);
    im->release(&ctx);
    problem_free_bufs(&p);
}

/* Every host-side CUDA row is complete (and linked: this test is built in every CUDA build, so
 * a missing symbol fails the build even where no GPU runs it). */
static void check_rows(void) {
    const struct impl *rows[] = {
        &vecadd_cublas_impl,     &gemm_cublas_impl,         &conv2d_cudnn_impl,
        &mlp_train_cublas_impl,  &memcpy_h2d_pinned_impl,   &memcpy_h2d_pageable_impl,
        &memcpy_d2h_pinned_impl, &memcpy_d2h_pageable_impl, &memcpy_d2d_impl};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        CHECK_MSG(rows[i]->kind == DEV_CUDA && rows[i]->name && rows[i]->summary &&
                      rows[i]->prepare && rows[i]->run,
                  "row %zu (%s) incomplete", i, rows[i]->name ? rows[i]->name : "?");
}

int main(void) {
    check_rows();
    struct device_list list;
    memset(&list, 0, sizeof list);
    char why[600] = "";
    int n = cuda_backend.discover(&list, 1, why, sizeof why);
    if (n == 0) {
        /* No GPU is not a failure, but the reason must be there, in one line. */
        CHECK_MSG(why[0] != '\0' && strchr(why, '\n') == NULL, "why: \"%s\"", why);
        printf("no usable GPU: %s\n", why);
        return test_failed ? 1 : SKIP;
    }
    const struct device *dev = &list.d[0];
    printf("%s %s cc=%s driver=%s runtime=%s\n  %s\n  %s\n  %s\n  peak %.0f GFLOP/s %.0f GB/s\n",
           dev->id, dev->name, dev->cc, dev->driver, dev->runtime, dev->blas_lib, dev->dnn_lib,
           dev->extra, dev->peak_gflops, dev->peak_gbps);
    CHECK(strcmp(dev->id, "cuda:0") == 0 && dev->kind == DEV_CUDA && dev->cc[0] && dev->name[0]);
    CHECK_MSG(dev->peak_gflops > 0 && dev->peak_gbps > 0, "peaks %.1f %.1f", dev->peak_gflops,
              dev->peak_gbps);
    char note[NOTE_LEN] = "";
    enum status st = dev->be->activate(dev, note, sizeof note);
    if (st != ST_OK) {
        printf("cuda:0 cannot be used: %s %s\n", status_name(st), note);
        return SKIP;
    }
    CHECK(gb_stream() != NULL);

    st = run_gemm(dev, 37, 45, 53);
    if (st == ST_UNSUPPORTED) {
        printf("cuBLAS cannot run on this device: skipped\n");
        dev->be->shutdown(dev);
        return SKIP;
    }
    CHECK_MSG(st == ST_OK, "gemm: %s", status_name(st));
    run_copy(dev);

    /* More than the device has: an oom status with numbers, nothing allocated. */
    struct problem p;
    memset(&p, 0, sizeof p);
    struct impl_ctx ctx = {.p = &p, .dev = dev, .threads = 1};
    void *big = NULL;
    st = gb_malloc(&ctx, &big, dev->mem_bytes + ((size_t)1 << 30), "too big");
    CHECK_MSG(st == ST_OOM && big == NULL && strstr(ctx.note, "too big"), "%s: %s", status_name(st),
              ctx.note);
    /* The device is still fine for the next row. */
    CHECK_MSG(dev->be->activate(dev, note, sizeof note) == ST_OK, "%s", note);
    dev->be->shutdown(dev);
    return TEST_END();
}
