/* test_cpu.c — gemm/openblas against the double reference on odd shapes, the reference
 * against hand-computed values, and verification failing on unwritten (NaN) or wrong outputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "bench/registry.h"
#include "kernels/common/cpu_pool.h"
#include "kernels/gemm/layout.h"
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

static void test_shape_rules(void) {
    struct shape s;
    char err[256];
    CHECK(shape_parse(w, "m=2,n=3,k=4", &s, err, sizeof err) == 0);
    CHECK(s.v[GEMM_KEY_M] == 2 && s.v[GEMM_KEY_N] == 3 && s.v[GEMM_KEY_K] == 4);
    CHECK(shape_parse(w, "m=2,n=3", &s, err, sizeof err) != 0 && strstr(err, "'k'"));
    CHECK(shape_parse(w, "m=0,n=3,k=4", &s, err, sizeof err) != 0 && strstr(err, "m=0"));
    CHECK(shape_parse(w, "m=2,n=3,k=2^31", &s, err, sizeof err) != 0 && strstr(err, "k="));
    CHECK(shape_parse(w, "m=2048,n=2048,k=2048", &s, err, sizeof err) == 0);
    CHECK(w->flops(&s) == 2.0 * 2048.0 * 2048.0 * 2048.0);
    CHECK(w->bytes(&s) == 4.0 * 3 * 2048.0 * 2048.0);
    CHECK(w->host_bytes(&s) >= w->bytes(&s));
}

int main(void) {
    pool_start(2, NULL, NULL); /* exercise the threaded paths as the harness runs them */
    test_reference_values();
    test_openblas_odd_shapes();
    test_reference_coverage();
    test_unwritten_and_wrong_fail();
    test_shape_rules();
    pool_stop();
    return TEST_END();
}
