/* test_cpu.c — conv2d/openblas against the direct double reference on odd shapes
 * (stride 2, no padding, 1×1 and 7×7 filters, odd H and W, a 5×20 speech filter with strides 2
 * and 8, several im2col chunks), the reference against a hand-countable case, the shape rules,
 * and verification failing on unwritten (NaN) outputs. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/registry.h"
#include "harness/core/inputs.h"
#include "kernels/conv2d/openblas.h"
#include "kernels/common/cpu_pool.h"
#include "tests/workloads/test_util_cpu.h"
#include "tests/testhelp.h"

static const struct workload *const w = &conv2d_workload;

static void test_openblas_odd_shapes(void) {
    static const char *const shapes[] = {
        "n=2,c=3,h=9,w=11,k=4,r=3,s=3,stride=2,pad=0",  /* stride 2, no padding, odd */
        "n=1,c=5,h=13,w=7,k=3,r=1,s=1",                 /* 1×1: no im2col at all */
        "n=2,c=4,h=10,w=9,k=3,r=1,s=1,stride=2",        /* 1×1 strided: im2col */
        "n=1,c=3,h=15,w=17,k=5,r=7,s=7,stride=1,pad=3", /* 7×7 */
        "n=2,c=3,h=16,w=16,k=8,r=7,s=7,stride=2,pad=3", /* 7×7 stride 2 (ResNet stem) */
        "n=2,c=2,h=31,w=101,k=3,r=5,s=20,stride_h=2,stride_w=8,pad_h=2,pad_w=0", /* speech */
        "n=1,c=3,h=7,w=7,k=2,r=3,s=3,stride_h=1,stride_w=2,pad_h=2,pad_w=1",     /* asymmetric */
        "n=1,c=2,h=5,w=4,k=2,r=1,s=2,stride=3,pad=2",     /* outputs entirely in padding */
        "n=1,c=1,h=1,w=1,k=1,r=1,s=1",                    /* 1 element */
        "n=2,c=128,h=64,w=64,k=4,r=3,s=3,stride=1,pad=1", /* several im2col chunks */
        "n=8,c=64,h=28,w=28,k=64,r=3,s=3,stride=1,pad=1", /* sampled reference */
    };
    const struct impl *im = tu_impl(w, "openblas");
    CHECK(im != NULL);
    for (size_t i = 0; im && i < sizeof shapes / sizeof *shapes; i++) {
        struct problem p;
        if (tu_make(w, shapes[i], 9, &p) != 0) {
            CHECK_MSG(0, "%s", shapes[i]);
            continue;
        }
        struct verify_report vr;
        enum status st = tu_run_verify(w, im, &p, &vr);
        CHECK_MSG(st == ST_OK, "conv2d/openblas %s: %s", shapes[i], vr.first_bad);
        CHECK_MSG(vr.checked > 0 && vr.max_rel_err < 1e-4, "%s: checked %zu max_rel_err %g",
                  shapes[i], vr.checked, vr.max_rel_err);
        w->free_problem(&p);
    }
}

/* All-ones input and filters: each output counts the taps that land inside the input, so a
 * 3×3 filter with pad 1 over 3×3 gives corners 4·c, edges 6·c, the centre 9·c. */
static void test_reference_counts_taps(void) {
    struct conv2d_dims d = {.n = 1,
                            .c = 2,
                            .h = 3,
                            .w = 3,
                            .k = 1,
                            .r = 3,
                            .s = 3,
                            .stride_h = 1,
                            .stride_w = 1,
                            .pad_h = 1,
                            .pad_w = 1};
    CHECK(conv2d_dims_finish(&d) == 0 && d.p == 3 && d.q == 3);
    float x[2 * 9], wt[2 * 9];
    for (int i = 0; i < 18; i++)
        x[i] = wt[i] = 1.0f;
    double y[9];
    conv2d_ref(&d, x, wt, NULL, 9, y);
    const double want[9] = {8, 12, 8, 12, 18, 12, 8, 12, 8};
    for (int i = 0; i < 9; i++)
        CHECK_MSG(y[i] == want[i], "y[%d] = %g, want %g", i, y[i], want[i]);
    float yf[9], scratch[512];
    CHECK(conv2d_cpu_scratch_floats(&d) <= 512);
    conv2d_cpu_forward(&d, x, wt, yf, scratch);
    for (int i = 0; i < 9; i++)
        CHECK_MSG(yf[i] == (float)want[i], "forward y[%d] = %g, want %g", i, yf[i], want[i]);
}

/* Output sizes along one axis, the way cuDNN documents them: (in + 2·pad − filt) / stride + 1. */
static void test_out_size(void) {
    CHECK(conv2d_out_size(56, 3, 1, 1) == 56);
    CHECK(conv2d_out_size(224, 7, 2, 3) == 112);
    CHECK(conv2d_out_size(101, 20, 8, 0) == 11);
    CHECK(conv2d_out_size(3, 5, 1, 0) <= 0);
    CHECK(conv2d_out_size(3, 5, 1, 1) == 1);
    /* An output wider than int is refused, not wrapped; a tensor of 2^31 elements is a valid
     * shape that int indexing (the CUDA kernel, cuDNN) cannot reach. */
    struct conv2d_dims big = {.n = 1, .c = 1, .h = 1, .w = 1, .k = 1, .r = 1, .s = 1,
                              .stride_h = 1, .stride_w = 1, .pad_h = INT_MAX, .pad_w = 0};
    CHECK(conv2d_dims_finish(&big) != 0);
    big.pad_h = 0, big.n = 65536, big.c = 32768;
    CHECK(conv2d_dims_finish(&big) == 0 && big.p == 1 && !conv2d_dims_int_indexed(&big));
    big.n = 65535;
    CHECK(conv2d_dims_int_indexed(&big));
}

static void test_shape_rules(void) {
    struct shape s;
    char err[256];
    CHECK(shape_parse(w, "n=1,c=2,h=5,w=6,k=3,r=3,s=3", &s, err, sizeof err) == 0);
    CHECK(s.v[CONV2D_KEY_STRIDE_H] == 1 && s.v[CONV2D_KEY_STRIDE_W] == 1); /* defaults */
    CHECK(s.v[CONV2D_KEY_PAD_H] == 1 && s.v[CONV2D_KEY_PAD_W] == 1); /* the default shape's */
    CHECK(shape_parse(w, "n=1,c=2,h=31,w=101,k=3,r=5,s=20,stride_h=2,stride_w=8", &s, err,
                      sizeof err) == 0);
    CHECK(s.v[CONV2D_KEY_STRIDE_H] == 2 && s.v[CONV2D_KEY_STRIDE_W] == 8);
    CHECK(shape_parse(w, "n=1,c=2,h=5,w=6,k=3,r=3,s=3,stride=2,pad=1", &s, err, sizeof err) == 0);
    CHECK(s.v[CONV2D_KEY_STRIDE_W] == 2 && s.v[CONV2D_KEY_PAD_H] == 1);
    CHECK(shape_parse(w, "n=1,c=2,h=5,w=6,r=3,s=3", &s, err, sizeof err) == 0 &&
          s.v[CONV2D_KEY_K] == 64); /* a key left out: the default shape's */
    CHECK(shape_parse(w, "n=1,c=2,h=5,w=6,k=3,r=3,s=3,stride=0", &s, err, sizeof err) != 0 &&
          strstr(err, "stride_h=0"));
    CHECK(shape_parse(w, "n=1,c=1,h=3,w=3,k=1,r=5,s=1,pad=0", &s, err, sizeof err) != 0 &&
          strstr(err, "does not fit") && !strchr(err, '\n'));
    CHECK(shape_parse(w, "n=1,c=1,h=3,w=3,k=1,r=1,s=4,pad=0", &s, err, sizeof err) != 0 &&
          strstr(err, "w=3"));
    CHECK(shape_parse(w, "n=0,c=1,h=3,w=3,k=1,r=1,s=1", &s, err, sizeof err) != 0);
    /* The default layer: 2·n·k·p·q·c·r·s = 7.4 GFLOP. */
    CHECK(shape_parse(w, w->default_shapes[0], &s, err, sizeof err) == 0);
    CHECK(w->flops(&s) == 2.0 * 32 * 64 * 56 * 56 * 64 * 9);
    CHECK(w->bytes(&s) == 4.0 * (2.0 * 32 * 64 * 56 * 56 + 64 * 64 * 9));
}

/* Leaves the last row of every output plane of the last image NaN (a missing edge tile). */
static enum status skip_edge_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    struct conv2d_dims d;
    conv2d_dims_of(&p->shape, &d);
    static float scratch[1 << 22];
    if (conv2d_cpu_scratch_floats(&d) > sizeof scratch / sizeof *scratch)
        return ST_ERROR;
    float *y = p->out[CONV2D_OUT_Y].data;
    conv2d_cpu_forward(&d, p->in[CONV2D_IN_X].data, p->in[CONV2D_IN_W].data, y, scratch);
    for (long k = 0; k < d.k; k++)
        for (long q = 0; q < d.q; q++)
            y[(((d.n - 1) * d.k + k) * d.p + d.p - 1) * d.q + q] = NAN;
    return ST_OK;
}

static const struct impl skip_edge = {.name = "skip_edge", .run = skip_edge_run};

static void test_unwritten_fails(void) {
    static const char *const shapes[] = {"n=2,c=3,h=9,w=11,k=4,r=3,s=3,stride=2,pad=1",
                                         "n=8,c=64,h=28,w=28,k=64,r=3,s=3,stride=1,pad=1"};
    for (size_t i = 0; i < 2; i++) {
        struct problem p;
        if (tu_make(w, shapes[i], 3, &p) != 0) {
            CHECK(0);
            continue;
        }
        struct verify_report vr;
        CHECK_MSG(tu_run_verify(w, &skip_edge, &p, &vr) == ST_WRONG,
                  "%s: unwritten edge row passed", shapes[i]);
        CHECK(strstr(vr.first_bad, "nan") != NULL);
        w->free_problem(&p);
    }
}

/* The reference never checks more entries than the output has: above the full reference's
 * 2^27 multiply-adds, an output of 4·64·64 = 16,384 entries (fewer than the 65,536 sampled plus
 * every filter's border) is checked whole, each entry once. */
static void test_reference_never_exceeds_output(void) {
    struct problem p;
    if (tu_make(w, "n=1,c=1024,h=64,w=64,k=4,r=3,s=3,stride=1,pad=1", 1, &p) != 0) {
        CHECK(0);
        return;
    }
    const struct sampled_ref *ref = p.ref;
    CHECK_MSG(ref->count == p.out[0].n && ref->idx == NULL,
              "%zu reference entries (%s) for an output of %zu", ref->count,
              ref->idx ? "sampled" : "whole", p.out[0].n);
    w->free_problem(&p);
}

int main(void) {
    pool_start(2, NULL, NULL); /* exercise the threaded paths as the harness runs them */
    test_out_size();
    test_reference_never_exceeds_output();
    test_reference_counts_taps();
    test_shape_rules();
    test_openblas_odd_shapes();
    test_unwritten_fails();
    pool_stop();
    return TEST_END();
}
