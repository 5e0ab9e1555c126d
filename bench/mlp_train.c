/* mlp_train.c — workload `mlp_train`: one SGD step (learning rate MLP_LR) of
 * Linear(in→hidden) → ReLU → Linear(hidden→out) → softmax cross-entropy averaged over the batch:
 * forward, backward and in-place update of W1, b1, W2, b2 (model and layouts: mlp_cpu.h).
 *
 * Compute-bound (two batch×in×hidden GEMMs dominate): the figure of merit is GFLOP/s.
 * Implementations: OpenBLAS GEMMs + fused threaded C loops (`openblas`); on CUDA devices own
 * kernels and cuBLAS (kernels/cuda/).
 *
 * Inputs (read-only, shared by every implementation): X uniform in [-1, 1), labels uniform over
 * the classes, parameters uniform in ±1/√fan_in (PyTorch's nn.Linear initialization). Outputs:
 * the parameters, which prepare copies from the inputs and each run updates in place — so timed
 * runs keep training, and only the first run after prepare is verified — and the loss.
 *
 * Verification: the same step in double, compared on the loss and on EVERY parameter's change
 * (new − initial) rather than its new value. One step moves W1's weights by ~0.2% of their size
 * (W2's by ~2%, default shape), so a tolerance on the new values would have to sit far below that
 * to catch, on every entry, an implementation that skipped the update or got a gradient's sign
 * wrong; on the changes, both fail everywhere (tests/test_mlp_cpu.c proves it) at a tolerance
 * float32 rounding never approaches.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/inputs.h"
#include "harness/verify.h"
#include "kernels/cpu/mlp_cpu.h"
#ifdef GPUBENCH_HAVE_CUDA
#include "kernels/cuda/host_impls.h"
#include "kernels/cuda/kernel_rows.h"
#endif

enum { BATCH = MLP_KEY_BATCH, IN = MLP_KEY_IN, HIDDEN = MLP_KEY_HIDDEN, OUT = MLP_KEY_OUT };
enum { NPARAMS = 4 }; /* W1, b1, W2, b2: in[MLP_IN_W1 + i] and out[MLP_OUT_W1 + i] */

static const char *const keys[] = {"batch", "in", "hidden", "out", NULL};
/* MNIST-sized: 0.84 GFLOP per step. */
static const char *const defaults[] = {"batch=256,in=784,hidden=1024,out=10", NULL};
static const char *const quick[] = {"batch=64,in=784,hidden=256,out=10", NULL};
/* The default model over a batch ladder (the reference step costs ~batch·in·hidden doubles, so
 * the ladder stops at 2048). */
static const char *const sweep[] = {
    "batch=32,in=784,hidden=1024,out=10",   "batch=64,in=784,hidden=1024,out=10",
    "batch=128,in=784,hidden=1024,out=10",  "batch=256,in=784,hidden=1024,out=10",
    "batch=512,in=784,hidden=1024,out=10",  "batch=1024,in=784,hidden=1024,out=10",
    "batch=2048,in=784,hidden=1024,out=10", NULL};

static const char *const param_names[NPARAMS] = {"W1", "b1", "W2", "b2"};
static const char *const step_names[NPARAMS] = {"W1 step", "b1 step", "W2 step", "b2 step"};

/* The reference: the loss, each parameter's change (new − initial) in double, a per-parameter
 * absolute tolerance, and float scratch for the implementation's changes (so verify never
 * allocates). */
struct mlp_ref_data {
    double loss;
    double *delta[NPARAMS];
    double atol[NPARAMS];
    float *got;
};

static struct mlp_dims mlp_dims_of(const struct shape *s) {
    return (struct mlp_dims){s->v[BATCH], s->v[IN], s->v[HIDDEN], s->v[OUT]};
}

static int mlp_complete(struct shape *s, const int *given, char *err, size_t errlen) {
    for (int i = 0; keys[i]; i++) {
        if (!given[i]) {
            snprintf(err, errlen, "missing key '%s' for mlp_train", keys[i]);
            return -1;
        }
        /* cblas takes int sizes. */
        if (s->v[i] <= 0 || s->v[i] > 2147483647L) {
            snprintf(err, errlen, "%s=%ld must be in 1..2147483647", keys[i], s->v[i]);
            return -1;
        }
    }
    if (s->v[OUT] < 2) {
        snprintf(err, errlen, "out=%ld: a classifier needs at least 2 classes", s->v[OUT]);
        return -1;
    }
    return 0;
}

/* Multiply-adds: forward X·W1ᵀ (b·i·h) and A·W2ᵀ (b·h·o); backward dZᵀ·A (b·h·o), dZ·W2
 * (b·h·o) and dHᵀ·X (b·i·h); no dX (the input needs no gradient). Two flops each:
 * 2·(2·b·i·h + 3·b·h·o). Bias, ReLU, softmax and the update are O(b·h + i·h) and not counted. */
static double mlp_flops(const struct shape *s) {
    double b = (double)s->v[BATCH], i = (double)s->v[IN], h = (double)s->v[HIDDEN];
    double o = (double)s->v[OUT];
    return 2.0 * (2.0 * b * i * h + 3.0 * b * h * o);
}

static double mlp_param_floats(const struct shape *s) {
    double i = (double)s->v[IN], h = (double)s->v[HIDDEN], o = (double)s->v[OUT];
    return h * i + h + o * h + o;
}

/* Read X and labels, read and write every parameter once: 4·(b·i + b + 2·params) bytes. */
static double mlp_bytes(const struct shape *s) {
    double b = (double)s->v[BATCH], i = (double)s->v[IN];
    return 4.0 * (b * i + b + 2.0 * mlp_param_floats(s));
}

/* Inputs, outputs (the parameters twice, and the loss), the reference (double changes, float
 * scratch and mlp_ref_step's scratch) and the `openblas` scratch. */
static double mlp_host_bytes(const struct shape *s) {
    struct mlp_dims d = mlp_dims_of(s);
    double params = mlp_param_floats(s), b = (double)d.batch, i = (double)d.in;
    return 4.0 * (b * i + b + 2.0 * params + 1.0) + 12.0 * params +
           (double)mlp_ref_scratch_bytes(&d) + 4.0 * (double)mlp_cpu_scratch_floats(&d);
}

static void mlp_free(struct problem *p) {
    struct mlp_ref_data *ref = p->ref;
    if (ref) {
        for (int k = 0; k < NPARAMS; k++)
            free(ref->delta[k]);
        free(ref->got);
        free(ref);
        p->ref = NULL;
    }
    problem_free_bufs(p);
}

static double max_abs_f(const float *x, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs((double)x[i]));
    return m;
}

static double max_abs_d(const double *x, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs(x[i]));
    return m;
}

static int mlp_make(struct problem *p, char *err, size_t errlen) {
    const struct mlp_dims d = mlp_dims_of(&p->shape);
    const size_t sizes[NPARAMS] = {(size_t)(d.hidden * d.in), (size_t)d.hidden,
                                   (size_t)(d.out * d.hidden), (size_t)d.out};
    const float scale[NPARAMS] = {1.0f / sqrtf((float)d.in), 1.0f / sqrtf((float)d.in),
                                  1.0f / sqrtf((float)d.hidden), 1.0f / sqrtf((float)d.hidden)};
    p->nin = MLP_IN_B2 + 1;
    p->nout = MLP_OUT_LOSS + 1;
    struct mlp_ref_data *ref = calloc(1, sizeof *ref);
    p->ref = ref;
    if (!ref || buf_alloc(&p->in[MLP_IN_X], "X", (size_t)(d.batch * d.in)) ||
        buf_alloc(&p->in[MLP_IN_LABELS], "labels", (size_t)d.batch) ||
        buf_alloc(&p->out[MLP_OUT_LOSS], "loss", 1))
        goto oom;
    for (int k = 0; k < NPARAMS; k++)
        if (buf_alloc(&p->in[MLP_IN_W1 + k], param_names[k], sizes[k]) ||
            buf_alloc(&p->out[MLP_OUT_W1 + k], param_names[k], sizes[k]) ||
            !(ref->delta[k] = malloc(sizes[k] * sizeof(double))))
            goto oom;
    /* W1 or W2 is the largest parameter (b1 ≤ W1, b2 ≤ W2). */
    if (!(ref->got = malloc((sizes[0] > sizes[2] ? sizes[0] : sizes[2]) * sizeof(float))))
        goto oom;

    float *labels = p->in[MLP_IN_LABELS].data;
    fill_uniform(p->in[MLP_IN_X].data, p->in[MLP_IN_X].n, p->seed, 1, -1.0f, 1.0f);
    fill_uniform(labels, (size_t)d.batch, p->seed, 2, 0.0f, (float)d.out);
    for (long b = 0; b < d.batch; b++)
        labels[b] = floorf(labels[b]) < (float)d.out ? floorf(labels[b]) : (float)(d.out - 1);
    for (int k = 0; k < NPARAMS; k++)
        fill_uniform(p->in[MLP_IN_W1 + k].data, sizes[k], p->seed, 3 + (uint64_t)k, -scale[k],
                     scale[k]);
    const float *x = p->in[MLP_IN_X].data, *w1 = p->in[MLP_IN_W1].data;
    if (mlp_ref_clear_kinks(&d, x, w1, p->in[MLP_IN_B1].data) < 0)
        goto oom;

    const float *b1 = p->in[MLP_IN_B1].data, *w2 = p->in[MLP_IN_W2].data;
    const float *b2 = p->in[MLP_IN_B2].data;
    if (mlp_ref_step(&d, x, labels, w1, b1, w2, b2, MLP_LR, ref->delta[0], ref->delta[1],
                     ref->delta[2], ref->delta[3], &ref->loss))
        goto oom;
    for (int k = 0; k < NPARAMS; k++) {
        const float *init = p->in[MLP_IN_W1 + k].data;
        for (size_t i = 0; i < sizes[k]; i++)
            ref->delta[k][i] -= init[i];
        /* Two float32 roundings of the new value (≤ 2^-24·|P| each) plus 1e-4 of the largest
         * change, for changes that cancel to almost nothing; rtol (verify) covers the rest. */
        ref->atol[k] = 0x1p-22 * (max_abs_f(init, sizes[k]) + max_abs_d(ref->delta[k], sizes[k])) +
                       1e-4 * max_abs_d(ref->delta[k], sizes[k]);
    }
    return 0;
oom:
    snprintf(err, errlen, "out of host memory for mlp_train");
    mlp_free(p);
    return -1;
}

/* The loss to 1e-4 relative (float32 softmax and a batch mean), each parameter's change to
 * 1e-3 relative above its floor ref->atol. */
static enum status mlp_verify(const struct problem *p, struct verify_report *r) {
    struct mlp_ref_data *ref = p->ref;
    verify_close(r, "loss", p->out[MLP_OUT_LOSS].data, &ref->loss, NULL, 1, 1e-5, 1e-4);
    for (int k = 0; k < NPARAMS; k++) {
        const struct buf *got = &p->out[MLP_OUT_W1 + k], *init = &p->in[MLP_IN_W1 + k];
        /* A NaN left in `got` stays NaN here, so a poisoned, unwritten parameter fails. */
        for (size_t i = 0; i < got->n; i++)
            ref->got[i] = (float)((double)got->data[i] - (double)init->data[i]);
        verify_close(r, step_names[k], ref->got, ref->delta[k], NULL, got->n, ref->atol[k], 1e-3);
    }
    return verify_status(r);
}

/* --- openblas: two SGEMMs + fused threaded passes (kernels/cpu/mlp_cpu.c) ------------------ */
static enum status openblas_prepare(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct mlp_dims d = mlp_dims_of(&p->shape);
    size_t bytes = (mlp_cpu_scratch_floats(&d) * sizeof(float) + 63) / 64 * 64;
    if (!(ctx->state = aligned_alloc(64, bytes))) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory for %zu MiB of activations",
                 bytes >> 20);
        return ST_OOM;
    }
    for (int k = 0; k < NPARAMS; k++)
        memcpy(p->out[MLP_OUT_W1 + k].data, p->in[MLP_IN_W1 + k].data,
               p->in[MLP_IN_W1 + k].n * sizeof(float));
    return ST_OK;
}

static enum status openblas_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    const struct mlp_dims d = mlp_dims_of(&p->shape);
    p->out[MLP_OUT_LOSS].data[0] =
        mlp_cpu_step(&d, p->in[MLP_IN_X].data, p->in[MLP_IN_LABELS].data, p->out[MLP_OUT_W1].data,
                     p->out[MLP_OUT_B1].data, p->out[MLP_OUT_W2].data, p->out[MLP_OUT_B2].data,
                     MLP_LR, ctx->state);
    return ST_OK;
}

static void openblas_release(struct impl_ctx *ctx) {
    free(ctx->state);
    ctx->state = NULL;
}

static const struct impl mlp_train_openblas_impl = {
    .name = "openblas",
    .kind = DEV_CPU,
    .summary = "OpenBLAS SGEMMs + fused threaded loops, W1 update fused into its SGEMM",
    .prepare = openblas_prepare,
    .run = openblas_run,
    .release = openblas_release};

static const struct impl *const impls[] = {
    &mlp_train_openblas_impl,
#ifdef GPUBENCH_HAVE_CUDA
    &mlp_train_cuda_impl,
    &mlp_train_cublas_impl,
#endif
    NULL};

const struct workload mlp_train_workload = {
    .name = "mlp_train",
    .summary = "one SGD step of Linear→ReLU→Linear→softmax cross-entropy, float32",
    .keys = keys,
    .default_shapes = defaults,
    .quick_shapes = quick,
    .sweep_shapes = sweep,
    .complete = mlp_complete,
    .flops = mlp_flops,
    .bytes = mlp_bytes,
    .host_bytes = mlp_host_bytes,
    .make_problem = mlp_make,
    .verify = mlp_verify,
    .free_problem = mlp_free,
    .impls = impls,
};
