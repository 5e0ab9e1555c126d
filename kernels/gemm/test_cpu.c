/* test_cpu.c — gemm/openblas against the double reference on odd shapes, the reference
 * against hand-computed values, and verification failing on unwritten (NaN) or wrong outputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/blas.h"

#include "bench/registry.h"
#include "kernels/common/cpu_pool.h"
#include "bench/gemm.h"
#include "tests/workloads/test_util_cpu.h"
#include "tests/testhelp.h"

static const struct workload *const w = &gemm_workload;

/* --- fake implementations: what a buggy kernel might do ------------------------------------ */
static int shape_m(const struct problem *p) {
    return (int)p->shape.v[GEMM_KEY_M];
}
static int shape_n(const struct problem *p) {
    return (int)p->shape.v[GEMM_KEY_N];
}
static int shape_k(const struct problem *p) {
    return (int)p->shape.v[GEMM_KEY_K];
}

/* Computes all rows but the last (a missing partial tile): the last row stays NaN. */
static enum status skip_last_row_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    if (shape_m(p) > 1)
        gemm_cpu_sgemm(shape_m(p) - 1, shape_n(p), shape_k(p), p->in[GEMM_IN_A].data,
                       p->in[GEMM_IN_B].data, p->out[GEMM_OUT_C].data);
    return ST_OK;
}

/* Computes everything, then "forgets" one interior entry (restores the poison). */
static enum status skip_one_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    gemm_cpu_sgemm(shape_m(p), shape_n(p), shape_k(p), p->in[GEMM_IN_A].data, p->in[GEMM_IN_B].data,
                   p->out[GEMM_OUT_C].data);
    p->out[GEMM_OUT_C].data[p->out[GEMM_OUT_C].n / 2] = NAN;
    return ST_OK;
}

/* Drops the last term of the sum for every entry (an off-by-one in the k loop). */
static enum status short_k_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    int k = shape_k(p);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, shape_m(p), shape_n(p), k - 1, 1.0f,
                p->in[GEMM_IN_A].data, k, p->in[GEMM_IN_B].data, shape_n(p), 0.0f,
                p->out[GEMM_OUT_C].data, shape_n(p));
    return ST_OK;
}

static const struct impl skip_last_row = {.name = "skip_last_row", .run = skip_last_row_run};
static const struct impl skip_one = {.name = "skip_one", .run = skip_one_run};
static const struct impl short_k = {.name = "short_k", .run = short_k_run};

static void test_openblas_odd_shapes(void) {
    static const char *const shapes[] = {"m=1,n=1,k=1", "m=17,n=33,k=65", "m=1000,n=999,k=1001",
                                         "m=3,n=1,k=300"};
    const struct impl *im = tu_impl(w, "openblas");
    CHECK(im != NULL);
    for (size_t i = 0; im && i < sizeof shapes / sizeof *shapes; i++) {
        struct problem p;
        if (tu_make(w, shapes[i], 42, &p) != 0) {
            CHECK_MSG(0, "%s", shapes[i]);
            continue;
        }
        struct verify_report vr;
        enum status st = tu_run_verify(w, im, &p, &vr);
        CHECK_MSG(st == ST_OK, "gemm/openblas %s: %s", shapes[i], vr.first_bad);
        CHECK_MSG(vr.checked > 0 && vr.max_rel_err < 1e-4, "%s: checked %zu max_rel_err %g",
                  shapes[i], vr.checked, vr.max_rel_err);
        w->free_problem(&p);
    }
}

/* Small shapes check every entry; large ones a sample that includes the last row and column. */
static void test_reference_coverage(void) {
    struct problem p;
    struct verify_report vr;
    if (tu_make(w, "m=17,n=33,k=65", 1, &p) == 0) {
        tu_run_verify(w, tu_impl(w, "openblas"), &p, &vr);
        CHECK(vr.checked == 17 * 33);
        w->free_problem(&p);
    }
    if (tu_make(w, "m=1000,n=999,k=1001", 1, &p) == 0) {
        tu_run_verify(w, tu_impl(w, "openblas"), &p, &vr);
        CHECK(vr.checked >= 65536 + 1000 + 999 && vr.checked < 1000 * 999);
        w->free_problem(&p);
    }
    /* Above the full reference's 2^27 multiply-adds but with fewer output entries than a
     * sample (4,096 < 65,536 + m + n): every entry once, never a sample of repeats (m=8,n=8,
     * k=2^22 once checked 65,552 dot products of 2^22 terms, 81 s, for a C of 64) */
    if (tu_make(w, "m=64,n=64,k=32769", 1, &p) == 0) {
        tu_run_verify(w, tu_impl(w, "openblas"), &p, &vr);
        CHECK_MSG(vr.checked == 64 * 64, "checked %zu entries of a 64×64 C", vr.checked);
        w->free_problem(&p);
    }
}

/* gemm_ref on values small enough to do by hand, and sampled == full at the same entries. */
static void test_reference_values(void) {
    const float a[2 * 3] = {1, 2, 3, 4, 5, 6};    /* 2×3 */
    const float b[3 * 2] = {7, 8, 9, 10, 11, 12}; /* 3×2 */
    const double want[4] = {58, 64, 139, 154};    /* 2×2 */
    double got[4];
    CHECK(gemm_ref(2, 2, 3, a, b, NULL, 4, got) == 0);
    for (int i = 0; i < 4; i++)
        CHECK_MSG(got[i] == want[i], "C[%d] = %g, want %g", i, got[i], want[i]);
    const size_t idx[2] = {1, 2};
    double some[2];
    CHECK(gemm_ref(2, 2, 3, a, b, idx, 2, some) == 0);
    CHECK(some[0] == 64 && some[1] == 139);
}

static void test_unwritten_and_wrong_fail(void) {
    static const char *const shapes[] = {"m=17,n=33,k=65", "m=1000,n=999,k=1001"};
    for (size_t i = 0; i < 2; i++) {
        struct problem p;
        if (tu_make(w, shapes[i], 7, &p) != 0) {
            CHECK(0);
            continue;
        }
        struct verify_report vr;
        CHECK_MSG(tu_run_verify(w, &skip_last_row, &p, &vr) == ST_WRONG,
                  "%s: unwritten last row passed", shapes[i]);
        CHECK_MSG(strstr(vr.first_bad, "nan") != NULL, "%s: report '%s' lacks the NaN", shapes[i],
                  vr.first_bad);
        CHECK_MSG(tu_run_verify(w, &short_k, &p, &vr) == ST_WRONG, "%s: a missing k term passed",
                  shapes[i]);
        if (i == 0) /* every entry is checked only at small shapes */
            CHECK_MSG(tu_run_verify(w, &skip_one, &p, &vr) == ST_WRONG && vr.bad == 1,
                      "one unwritten entry: status/bad %zu", vr.bad);
        w->free_problem(&p);
    }
}

/* C from A and B rounded to tf32 (what tensor cores do to float32 operands), in double. */
static void tf32_product(struct problem *p) {
    int m = shape_m(p), n = shape_n(p), k = shape_k(p);
    const float *a = p->in[GEMM_IN_A].data, *b = p->in[GEMM_IN_B].data;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double sum = 0;
            for (int l = 0; l < k; l++)
                sum += (double)dtype_round(DT_TF32, a[(size_t)i * k + l]) *
                       dtype_round(DT_TF32, b[(size_t)l * n + j]);
            p->out[GEMM_OUT_C].data[(size_t)i * n + j] = (float)sum;
        }
}

/* The wrong tier is caught: a TF32 result in an f32 row is `wrong`, while the same output passes
 * as a tf32 row; an f64 row computed in float32 (cblas_sgemm on the rounded operands) is wrong. */
static void test_wrong_tier_caught(void) {
    static const char *const shapes[] = {"m=67,n=45,k=33", "m=130,n=129,k=7", "m=256,n=256,k=256",
                                         "m=16,n=16,k=2048"};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        struct problem p;
        struct verify_report vr;
        if (tu_make(w, shapes[i], 3, &p) != 0) {
            CHECK(0);
            continue;
        }
        tf32_product(&p);
        verify_begin(&vr);
        CHECK_MSG(w->verify(&p, &vr) == ST_WRONG, "%s: a TF32 result passed the f32 check "
                  "(max_rel_err %g)", shapes[i], vr.max_rel_err);
        p.dtype = DT_TF32; /* the same operands and output, checked as the tier it is */
        verify_begin(&vr);
        CHECK_MSG(w->verify(&p, &vr) == ST_OK, "%s: the TF32 result fails the tf32 check: %s",
                  shapes[i], vr.first_bad);
        w->free_problem(&p);
    }
    struct problem p;
    memset(&p, 0, sizeof p);
    p.seed = 5;
    p.dtype = DT_F64;
    char err[256];
    if (shape_parse(w, "m=67,n=45,k=33", &p.shape, err, sizeof err) ||
        w->make_problem(&p, err, sizeof err)) {
        CHECK_MSG(0, "%s", err);
        return;
    }
    size_t na = p.in[GEMM_IN_A].n, nb = p.in[GEMM_IN_B].n, nc = p.out[GEMM_OUT_C].n;
    float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c = malloc(nc * sizeof *c);
    if (a && b && c) {
        for (size_t j = 0; j < na; j++)
            a[j] = (float)p.in[GEMM_IN_A].data64[j];
        for (size_t j = 0; j < nb; j++)
            b[j] = (float)p.in[GEMM_IN_B].data64[j];
        gemm_cpu_sgemm(shape_m(&p), shape_n(&p), shape_k(&p), a, b, c);
        for (size_t j = 0; j < nc; j++)
            p.out[GEMM_OUT_C].data64[j] = c[j];
        struct verify_report vr;
        verify_begin(&vr);
        CHECK_MSG(w->verify(&p, &vr) == ST_WRONG, "an f32 result passed the f64 check");
        gemm_cpu_dgemm(shape_m(&p), shape_n(&p), shape_k(&p), p.in[GEMM_IN_A].data64,
                       p.in[GEMM_IN_B].data64, p.out[GEMM_OUT_C].data64);
        verify_begin(&vr);
        CHECK_MSG(w->verify(&p, &vr) == ST_OK && vr.max_rel_err < 1e-12,
                  "cblas_dgemm fails the f64 check: %s (max_rel_err %g)", vr.first_bad,
                  vr.max_rel_err);
    }
    free(a);
    free(b);
    free(c);
    w->free_problem(&p);
}

static void test_shape_rules(void) {
    struct shape s;
    char err[256];
    CHECK(shape_parse(w, "m=2,n=3,k=4", &s, err, sizeof err) == 0);
    CHECK(s.v[GEMM_KEY_M] == 2 && s.v[GEMM_KEY_N] == 3 && s.v[GEMM_KEY_K] == 4);
    /* a key left out takes the default shape's value (harness/core/shape.c) */
    CHECK(shape_parse(w, "m=2,n=3", &s, err, sizeof err) == 0 && s.v[GEMM_KEY_K] == 2048);
    CHECK(shape_parse(w, "m=0,n=3,k=4", &s, err, sizeof err) != 0 && strstr(err, "m=0"));
    CHECK(shape_parse(w, "m=2,n=3,k=2^31", &s, err, sizeof err) != 0 && strstr(err, "k="));
    CHECK(shape_parse(w, "m=2048,n=2048,k=2048", &s, err, sizeof err) == 0);
    CHECK(w->flops(&s) == 2.0 * 2048.0 * 2048.0 * 2048.0);
    CHECK(w->bytes(&s) == 4.0 * 3 * 2048.0 * 2048.0);
    /* FP16/BF16: halves in, FP32 C out (not 2 bytes for C); f64 all doubles */
    CHECK(w->tier_bytes(&s, DT_F16) == (2.0 * 2 + 4.0) * 2048.0 * 2048.0);
    CHECK(w->tier_bytes(&s, DT_BF16) == (2.0 * 2 + 4.0) * 2048.0 * 2048.0);
    CHECK(w->tier_bytes(&s, DT_F64) == 8.0 * 3 * 2048.0 * 2048.0);
    CHECK(w->tier_bytes(&s, DT_F32) == w->bytes(&s));
    CHECK(w->host_bytes(&s) >= w->bytes(&s));
}

int main(void) {
    pool_start(2, NULL, NULL); /* exercise the threaded paths as the harness runs them */
    test_reference_values();
    test_openblas_odd_shapes();
    test_reference_coverage();
    test_unwritten_and_wrong_fail();
    test_wrong_tier_caught();
    test_shape_rules();
    pool_stop();
    return TEST_END();
}
