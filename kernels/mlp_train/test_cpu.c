/* test_cpu.c — mlp_train/openblas against the double reference on odd sizes; the reference's
 * gradients against finite differences; verification failing on an implementation that skips the
 * update (wholly or for one parameter), gets the gradient's sign wrong, or leaves an output
 * unwritten (NaN); and the loss falling over 50 steps on a separable data set. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/inputs.h"
#include "bench/registry.h"
#include "kernels/common/cpu_pool.h"
#define GB_MLP_F64 0
#include "kernels/mlp_train/openblas_t.h" /* the float32 step, as openblas.c compiles it */
#include "tests/workloads/test_util_cpu.h"
#include "tests/testhelp.h"

static const struct workload *const w = &mlp_train_workload;

static struct mlp_dims dims_of(const struct problem *p) {
    return (struct mlp_dims){p->shape.v[MLP_KEY_BATCH], p->shape.v[MLP_KEY_IN],
                             p->shape.v[MLP_KEY_HIDDEN], p->shape.v[MLP_KEY_OUT]};
}

static void test_openblas_odd_sizes(void) {
    static const char *const shapes[] = {
        "batch=7,in=13,hidden=29,out=3",     "batch=33,in=50,hidden=65,out=10",
        "batch=1,in=1,hidden=1,out=2",       "batch=5,in=17,hidden=600,out=7",
        "batch=64,in=784,hidden=256,out=10", /* the quick shape */
    };
    const struct impl *im = tu_impl(w, "openblas");
    CHECK(im != NULL);
    for (size_t i = 0; im && i < sizeof shapes / sizeof *shapes; i++) {
        struct problem p;
        if (tu_make(w, shapes[i], 11, &p) != 0) {
            CHECK_MSG(0, "%s", shapes[i]);
            continue;
        }
        struct verify_report vr;
        enum status st = tu_run_verify(w, im, &p, &vr);
        CHECK_MSG(st == ST_OK, "mlp_train/openblas %s: %s", shapes[i], vr.first_bad);
        struct mlp_dims d = dims_of(&p);
        size_t params = (size_t)(d.hidden * d.in + d.hidden + d.out * d.hidden + d.out);
        CHECK_MSG(vr.checked == params + 1, "%s: checked %zu of %zu", shapes[i], vr.checked,
                  params + 1);
        w->free_problem(&p);
    }
}

/* --- implementations that verification must reject ----------------------------------------- */
static float *scratch_for(const struct problem *p) {
    struct mlp_dims d = dims_of(p);
    return malloc(mlp_cpu_scratch_floats(&d) * sizeof(float));
}

static void copy_params(struct problem *p) {
    for (int k = 0; k < 4; k++)
        memcpy(p->out[MLP_OUT_W1 + k].data, p->in[MLP_IN_W1 + k].data,
               p->in[MLP_IN_W1 + k].n * sizeof(float));
}

static enum status step_with(struct impl_ctx *ctx, float lr) {
    struct problem *p = ctx->p;
    struct mlp_dims d = dims_of(p);
    float *scratch = scratch_for(p);
    if (!scratch)
        return ST_OOM;
    copy_params(p);
    p->out[MLP_OUT_LOSS].data[0] = mlp_cpu_step(
        &d, p->in[MLP_IN_X].data, p->in[MLP_IN_LABELS].data, p->out[MLP_OUT_W1].data,
        p->out[MLP_OUT_B1].data, p->out[MLP_OUT_W2].data, p->out[MLP_OUT_B2].data, lr, scratch);
    free(scratch);
    return ST_OK;
}

/* Right loss, parameters copied but never updated. */
static enum status no_update_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    struct mlp_dims d = dims_of(p);
    float *scratch = scratch_for(p);
    if (!scratch)
        return ST_OOM;
    copy_params(p);
    float *a = scratch, *z = a + d.batch * d.hidden;
    mlp_cpu_forward(&d, p->in[MLP_IN_X].data, p->in[MLP_IN_W1].data, p->in[MLP_IN_B1].data,
                    p->in[MLP_IN_W2].data, p->in[MLP_IN_B2].data, a, z);
    p->out[MLP_OUT_LOSS].data[0] = mlp_cpu_softmax_xent(&d, p->in[MLP_IN_LABELS].data, z);
    free(scratch);
    return ST_OK;
}

static enum status ascent_run(struct impl_ctx *ctx) {
    return step_with(ctx, -MLP_LR);
}
static enum status half_lr_run(struct impl_ctx *ctx) {
    return step_with(ctx, 0.5f * MLP_LR);
}

static int forgotten_param; /* which parameter forget_one_run leaves at its initial value */
static enum status forget_one_run(struct impl_ctx *ctx) {
    enum status st = step_with(ctx, MLP_LR);
    struct problem *p = ctx->p;
    memcpy(p->out[MLP_OUT_W1 + forgotten_param].data, p->in[MLP_IN_W1 + forgotten_param].data,
           p->in[MLP_IN_W1 + forgotten_param].n * sizeof(float));
    return st;
}

/* Correct step, but one weight, or the loss, is never written: it stays poisoned. */
static enum status skip_last_w1_run(struct impl_ctx *ctx) {
    enum status st = step_with(ctx, MLP_LR);
    ctx->p->out[MLP_OUT_W1].data[ctx->p->out[MLP_OUT_W1].n - 1] = NAN;
    return st;
}
static enum status skip_loss_run(struct impl_ctx *ctx) {
    float loss = ctx->p->out[MLP_OUT_LOSS].data[0];
    enum status st = step_with(ctx, MLP_LR);
    ctx->p->out[MLP_OUT_LOSS].data[0] = loss;
    return st;
}
static enum status correct_run(struct impl_ctx *ctx) {
    return step_with(ctx, MLP_LR);
}

static void test_verification_rejects(void) {
    static const char *const shapes[] = {"batch=33,in=50,hidden=65,out=10",
                                         "batch=256,in=784,hidden=1024,out=10"};
    const struct impl correct = {.name = "correct", .run = correct_run};
    const struct impl no_update = {.name = "no_update", .run = no_update_run};
    const struct impl ascent = {.name = "ascent", .run = ascent_run};
    const struct impl half_lr = {.name = "half_lr", .run = half_lr_run};
    const struct impl forget_one = {.name = "forget_one", .run = forget_one_run};
    const struct impl skip_w1 = {.name = "skip_w1", .run = skip_last_w1_run};
    const struct impl skip_loss = {.name = "skip_loss", .run = skip_loss_run};
    for (size_t i = 0; i < 2; i++) {
        struct problem p;
        if (tu_make(w, shapes[i], 5, &p) != 0) {
            CHECK(0);
            continue;
        }
        struct mlp_dims d = dims_of(&p);
        struct verify_report vr;
        CHECK_MSG(tu_run_verify(w, &correct, &p, &vr) == ST_OK, "%s: correct step: %s", shapes[i],
                  vr.first_bad);
        /* Skipping the update must fail on (nearly) every parameter, not on a lucky few. */
        CHECK_MSG(tu_run_verify(w, &no_update, &p, &vr) == ST_WRONG, "%s: no update passed",
                  shapes[i]);
        CHECK_MSG(vr.bad > (size_t)(d.hidden * d.in) / 2, "%s: no update: only %zu bad", shapes[i],
                  vr.bad);
        CHECK_MSG(tu_run_verify(w, &ascent, &p, &vr) == ST_WRONG && vr.bad > (size_t)d.hidden,
                  "%s: gradient ascent passed (%zu bad)", shapes[i], vr.bad);
        CHECK_MSG(tu_run_verify(w, &half_lr, &p, &vr) == ST_WRONG, "%s: half lr passed", shapes[i]);
        for (forgotten_param = 0; forgotten_param < 4; forgotten_param++)
            CHECK_MSG(tu_run_verify(w, &forget_one, &p, &vr) == ST_WRONG,
                      "%s: forgetting parameter %d passed", shapes[i], forgotten_param);
        CHECK(tu_run_verify(w, &skip_w1, &p, &vr) == ST_WRONG && vr.bad == 1 &&
              strstr(vr.first_bad, "nan"));
        CHECK(tu_run_verify(w, &skip_loss, &p, &vr) == ST_WRONG && vr.bad == 1 &&
              strstr(vr.first_bad, "loss"));
        w->free_problem(&p);
    }
}

/* The reference's gradients, (P − P_new) / lr, against central differences of its loss. */
static void test_reference_gradients(void) {
    const struct mlp_dims d = {5, 4, 6, 3};
    float x[5 * 4], labels[5], w1[6 * 4], b1[6], w2[3 * 6], b2[3];
    float *params[4] = {w1, b1, w2, b2};
    const size_t sizes[4] = {24, 6, 18, 3};
    fill_uniform(x, 20, 1, 1, -1.0f, 1.0f);
    for (int b = 0; b < 5; b++)
        labels[b] = (float)(b % 3);
    for (int k = 0; k < 4; k++)
        fill_uniform(params[k], sizes[k], 1, 2 + (uint64_t)k, -0.5f, 0.5f);
    CHECK(mlp_ref_clear_kinks(&d, x, w1, b1) >= 0);
    double n1[24], nb1[6], n2[18], nb2[3], loss, lp, lm;
    double *news[4] = {n1, nb1, n2, nb2};
    CHECK(mlp_ref_step(&d, x, labels, w1, b1, w2, b2, 1.0, n1, nb1, n2, nb2, &loss) == 0);
    CHECK(fabs(loss - log(3.0)) < 1.0); /* near chance for small weights */
    double scratch[24 + 6 + 18 + 3];
    int bad = 0;
    for (int k = 0; k < 4; k++)
        for (size_t i = 0; i < sizes[k]; i++) {
            float keep = params[k][i], hi = keep + 0x1p-17f, lo = keep - 0x1p-17f;
            params[k][i] = hi;
            mlp_ref_step(&d, x, labels, w1, b1, w2, b2, 1.0, scratch, scratch + 24, scratch + 30,
                         scratch + 48, &lp);
            params[k][i] = lo;
            mlp_ref_step(&d, x, labels, w1, b1, w2, b2, 1.0, scratch, scratch + 24, scratch + 30,
                         scratch + 48, &lm);
            params[k][i] = keep;
            double fd = (lp - lm) / ((double)hi - (double)lo), grad = (double)keep - news[k][i];
            if (fabs(fd - grad) > 1e-7 + 1e-4 * fabs(grad)) {
                if (bad++ < 3)
                    fprintf(stderr, "param %d[%zu]: gradient %g, finite difference %g\n", k, i,
                            grad, fd);
            }
        }
    CHECK_MSG(bad == 0, "%d gradients disagree with finite differences", bad);
}

/* Four well-separated classes in 20 dimensions: full-batch SGD must drive the loss down. */
static void test_loss_falls(void) {
    const struct mlp_dims d = {64, 20, 32, 4};
    float x[64 * 20], labels[64], centers[4 * 20], w1[32 * 20], b1[32], w2[4 * 32], b2[4];
    fill_uniform(centers, 80, 3, 1, -1.0f, 1.0f);
    fill_uniform(x, 64 * 20, 3, 2, -0.3f, 0.3f); /* noise around each class centre */
    for (int b = 0; b < 64; b++) {
        labels[b] = (float)(b % 4);
        for (int i = 0; i < 20; i++)
            x[b * 20 + i] += centers[(b % 4) * 20 + i];
    }
    fill_uniform(w1, 640, 3, 3, -1 / sqrtf(20), 1 / sqrtf(20));
    fill_uniform(b1, 32, 3, 4, -1 / sqrtf(20), 1 / sqrtf(20));
    fill_uniform(w2, 128, 3, 5, -1 / sqrtf(32), 1 / sqrtf(32));
    fill_uniform(b2, 4, 3, 6, -1 / sqrtf(32), 1 / sqrtf(32));
    float *scratch = malloc(mlp_cpu_scratch_floats(&d) * sizeof(float));
    if (!scratch) {
        CHECK(0);
        return;
    }
    float first = 0, last = 0;
    int rises = 0;
    for (int step = 0; step < 50; step++) {
        float loss = mlp_cpu_step(&d, x, labels, w1, b1, w2, b2, MLP_LR, scratch);
        CHECK(isfinite(loss));
        if (step == 0)
            first = loss;
        else if (loss > last)
            rises++;
        last = loss;
    }
    free(scratch);
    printf("loss over 50 steps: %.4f -> %.4f\n", first, last);
    CHECK_MSG(first > 1.0f && last < 0.25f * first, "loss %g -> %g", first, last);
    CHECK_MSG(rises == 0, "the loss rose in %d of 49 steps", rises);
}

static void test_shape_rules(void) {
    struct shape s;
    char err[256];
    CHECK(shape_parse(w, "batch=2,in=3,hidden=4,out=5", &s, err, sizeof err) == 0);
    /* a key left out takes the default shape's value (harness/core/shape.c) */
    CHECK(shape_parse(w, "batch=2,in=3,hidden=4", &s, err, sizeof err) == 0 &&
          s.v[MLP_KEY_OUT] == 10);
    CHECK(shape_parse(w, "batch=2,in=3,hidden=4,out=1", &s, err, sizeof err) != 0 &&
          strstr(err, "2 classes"));
    CHECK(shape_parse(w, w->default_shapes[0], &s, err, sizeof err) == 0);
    CHECK(w->flops(&s) == 2.0 * (2.0 * 256 * 784 * 1024 + 3.0 * 256 * 1024 * 10));
}

/* The f64 tier: mlp_cpu_step64 passes the f64 check, and the float32 step on the same values
 * (narrowed, stepped, widened back) is caught by it. */
static void test_f64_tier(void) {
    static const char *const shapes[] = {"batch=33,in=50,hidden=65,out=10",
                                         "batch=64,in=784,hidden=256,out=10"};
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
        struct problem p;
        char err[256];
        memset(&p, 0, sizeof p);
        p.seed = 11;
        p.dtype = DT_F64;
        if (shape_parse(w, shapes[si], &p.shape, err, sizeof err) ||
            w->make_problem(&p, err, sizeof err)) {
            CHECK_MSG(0, "%s: %s", shapes[si], err);
            continue;
        }
        struct mlp_dims d = dims_of(&p);
        struct verify_report vr;
        CHECK_MSG(tu_run_verify(w, tu_impl(w, "openblas"), &p, &vr) == ST_OK,
                  "%s: the f64 step fails the f64 check: %s", shapes[si], vr.first_bad);
        /* the float32 step on the same inputs */
        float *f[6];
        const int ins[6] = {MLP_IN_X, MLP_IN_W1, MLP_IN_B1, MLP_IN_W2, MLP_IN_B2, MLP_IN_X};
        for (int k = 0; k < 5; k++) {
            const struct buf *b = &p.in[ins[k]];
            f[k] = malloc(b->n * sizeof(float));
            for (size_t i = 0; f[k] && i < b->n; i++)
                f[k][i] = (float)b->data64[i];
        }
        f[5] = scratch_for(&p);
        int ok = f[0] && f[1] && f[2] && f[3] && f[4] && f[5];
        if (ok) {
            float loss = mlp_cpu_step(&d, f[0], p.in[MLP_IN_LABELS].data, f[1], f[2], f[3], f[4],
                                      MLP_LR, f[5]);
            p.out[MLP_OUT_LOSS].data64[0] = loss;
            for (int k = 0; k < 4; k++)
                for (size_t i = 0; i < p.out[MLP_OUT_W1 + k].n; i++)
                    p.out[MLP_OUT_W1 + k].data64[i] = f[k + 1][i];
            verify_begin(&vr);
            CHECK_MSG(w->verify(&p, &vr) == ST_WRONG, "%s: a float32 step passed the f64 check",
                      shapes[si]);
        }
        for (int k = 0; k < 6; k++)
            free(f[k]);
        w->free_problem(&p);
    }
}

int main(void) {
    pool_start(2, NULL, NULL); /* exercise the threaded paths as the harness runs them */
    test_shape_rules();
    test_reference_gradients();
    test_openblas_odd_sizes();
    test_verification_rejects();
    test_loss_falls();
    test_f64_tier();
    pool_stop();
    return TEST_END();
}
