/* mlp_train.c — workload `mlp_train` (bench/mlp_train.h): one SGD step, compute-bound (two
 * batch×in×hidden GEMMs dominate). Inputs: X uniform in [-1, 1), labels uniform over the classes,
 * parameters uniform in ±1/√fan_in (as nn.Linear). Timed runs keep training; the first run after
 * prepare is verified, against the same step in double, on the loss and on EVERY parameter's
 * change (new − initial): one step moves W1 by ~0.2%, so a tolerance on new values would pass a
 * skipped update or a wrong sign, which fail on the changes (kernels/mlp_train/test_cpu.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/core/inputs.h"
#include "harness/core/interrupt.h"
#include "harness/core/verify.h"
#include "bench/mlp_train.h"

enum { BATCH = MLP_KEY_BATCH, IN = MLP_KEY_IN, HIDDEN = MLP_KEY_HIDDEN, OUT = MLP_KEY_OUT };
enum { NPARAMS = 4 }; /* W1, b1, W2, b2: in[MLP_IN_W1 + i] and out[MLP_OUT_W1 + i] */

static const char *const keys[] = {"batch", "in", "hidden", "out", NULL};
static const char *const defaults[] = {"batch=256,in=784,hidden=1024,out=10", NULL}; /* MNIST */
static const char *const quick[] = {"batch=64,in=784,hidden=256,out=10", NULL};
/* The default model over a batch ladder (the reference's cost stops it at 2048). */
static const char *const sweep[] = {
    "batch=32,in=784,hidden=1024,out=10",   "batch=64,in=784,hidden=1024,out=10",
    "batch=128,in=784,hidden=1024,out=10",  "batch=256,in=784,hidden=1024,out=10",
    "batch=512,in=784,hidden=1024,out=10",  "batch=1024,in=784,hidden=1024,out=10",
    "batch=2048,in=784,hidden=1024,out=10", NULL};
/* Odd sizes: not multiples of any tile, batch and hidden below and above one tile. */
static const char *const tests[] = {"batch=1,in=1,hidden=1,out=2", "batch=7,in=33,hidden=65,out=3",
                                    "batch=70,in=19,hidden=130,out=10", NULL};
static const char *const param_names[NPARAMS] = {"W1", "b1", "W2", "b2"};
static const char *const step_names[NPARAMS] = {"W1 step", "b1 step", "W2 step", "b2 step"};

/* The reference: loss, each parameter's change and its absolute tolerance, and room for an
 * implementation's changes (float32, double for f64), so that verify never allocates. */
struct mlp_ref_data {
    double loss, *delta[NPARAMS], atol[NPARAMS];
    void *got;
};

/* The reference: the same step in double. */
long mlp_label(const struct mlp_dims *d, const float *labels, long b) {
    long y = lrintf(labels[b]);
    return y < 0 ? 0 : y >= d->out ? d->out - 1 : y;
}

/* Σ a[i]·b[i] in double with four partial sums (a serial chain would make the reference slow). */
static double mlp_ref_dot(const float *a, const float *b, long n) {
    double s[4] = {0, 0, 0, 0};
    long i = 0;
    for (; i + 4 <= n; i += 4)
        for (int u = 0; u < 4; u++)
            s[u] += (double)a[i + u] * b[i + u];
    for (; i < n; i++)
        s[0] += (double)a[i] * b[i];
    return (s[0] + s[1]) + (s[2] + s[3]);
}

/* The f16 step's roundings, for its reference: with f16 set, the activations and the scaled dZ,
 * dH round to FP16 where the step rounds them; amax gets max |activation|. */
struct mlp_ref_round {
    int f16;
    double scale, amax;
};

static double ref_round(const struct mlp_ref_round *r, double v, double scale) {
    return r && r->f16 ? (double)dtype_round(DT_F16, (float)(v * scale)) / scale : v;
}

/* mlp_ref_step with the roundings r describes (NULL: none). */
static int ref_step_r(const struct mlp_dims *d, const float *x, const float *labels,
                      const float *w1, const float *b1, const float *w2, const float *b2,
                      double lr, struct mlp_ref_round *r, double *w1n, double *b1n, double *w2n,
                      double *b2n, double *loss) {
    const long nb = d->batch, ni = d->in, nh = d->hidden, no = d->out;
    const double sc = r ? r->scale : 1.0;
    double *h = malloc(sizeof(double) * (size_t)(2 * nb * nh + nb * no)), total = 0;
    double *act = h + nb * nh, *z = act + nb * nh; /* h then dH, z: logits then dZ */
    if (!h)
        return -1;
    /* forward: h = X·W1ᵀ + b1, act = ReLU(h) (rounded as r says), z = act·W2ᵀ + b2; the two
     * b·i·h loops stop early once gb_interrupted is set (the caller then keeps nothing) */
    for (long b = 0; b < nb && !gb_interrupted; b++)
        for (long j = 0; j < nh; j++) {
            double v = b1[j] + mlp_ref_dot(x + b * ni, w1 + j * ni, ni);
            h[b * nh + j] = v;
            act[b * nh + j] = ref_round(r, v > 0 ? v : 0, 1.0);
            if (r)
                r->amax = fmax(r->amax, act[b * nh + j]);
        }
    for (long b = 0; b < nb; b++)
        for (long o = 0; o < no; o++) {
            double v = b2[o];
            for (long j = 0; j < nh; j++)
                v += act[b * nh + j] * w2[o * nh + j];
            z[b * no + o] = v;
        }
    /* z becomes dZ = (softmax − onehot) / batch; the loss is the mean */
    for (long b = 0; b < nb; b++) {
        double *row = z + b * no, m = row[0], sum = 0;
        long y = mlp_label(d, labels, b);
        for (long o = 1; o < no; o++)
            m = fmax(m, row[o]);
        for (long o = 0; o < no; o++)
            sum += exp(row[o] - m);
        double lse = m + log(sum);
        total += lse - row[y];
        for (long o = 0; o < no; o++)
            row[o] = (exp(row[o] - lse) - (o == y)) / (double)nb;
    }
    *loss = total / (double)nb;
    /* layer 2: b2n, w2n; h becomes dH = (dZr·W2) ⊙ [H > 0] with the old W2, dZr being dZ
     * rounded as r says (db2 sums the unrounded dZ, as the step does) */
    for (long o = 0; o < no; o++) {
        double gb = 0;
        for (long b = 0; b < nb; b++)
            gb += z[b * no + o];
        b2n[o] = b2[o] - lr * gb;
        for (long j = 0; j < nh; j++) {
            double g = 0;
            for (long b = 0; b < nb; b++)
                g += ref_round(r, z[b * no + o], sc) * act[b * nh + j];
            w2n[o * nh + j] = w2[o * nh + j] - lr * g;
        }
    }
    for (long b = 0; b < nb; b++)
        for (long j = 0; j < nh; j++) {
            double g = 0;
            for (long o = 0; o < no; o++)
                g += ref_round(r, z[b * no + o], sc) * w2[o * nh + j];
            h[b * nh + j] = h[b * nh + j] > 0 ? g : 0;
        }
    /* layer 1: b1n, w1n from dW1 = dHrᵀ·X (dHr: dH rounded as r says; summed in w1n's row) */
    for (long j = 0; j < nh && !gb_interrupted; j++) {
        double *row = w1n + j * ni, gb = 0;
        for (long i = 0; i < ni; i++)
            row[i] = 0;
        for (long b = 0; b < nb; b++) {
            double g = ref_round(r, h[b * nh + j], sc);
            gb += h[b * nh + j];
            if (g != 0)
                for (long i = 0; i < ni; i++)
                    row[i] += g * x[b * ni + i];
        }
        for (long i = 0; i < ni; i++)
            row[i] = w1[j * ni + i] - lr * row[i];
        b1n[j] = b1[j] - lr * gb;
    }
    free(h);
    return 0;
}

int mlp_ref_step(const struct mlp_dims *d, const float *x, const float *labels, const float *w1,
                 const float *b1, const float *w2, const float *b2, double lr, double *w1n,
                 double *b1n, double *w2n, double *b2n, double *loss) {
    return ref_step_r(d, x, labels, w1, b1, w2, b2, lr, NULL, w1n, b1n, w2n, b2n, loss);
}

long mlp_ref_clear_kinks(const struct mlp_dims *d, const float *x, const float *w1, float *b1) {
    const long nb = d->batch, ni = d->in;
    double *dot = malloc(sizeof(double) * 2 * nb), *margin = dot + nb;
    if (!dot)
        return -1;
    long changed = 0;
    for (long j = 0; j < d->hidden && !gb_interrupted; j++) {
        const float *w = w1 + j * ni;
        double mmax = 0;
        for (long b = 0; b < nb; b++) {
            const float *xb = x + b * ni;
            /* Two partial sums of each kind, so the adds are not one serial chain. */
            double s[2] = {0, 0}, sabs[2] = {fabs((double)b1[j]), 0};
            long i = 0;
            for (; i + 2 <= ni; i += 2)
                for (int u = 0; u < 2; u++) {
                    double t = (double)xb[i + u] * w[i + u];
                    s[u] += t;
                    sabs[u] += fabs(t);
                }
            for (; i < ni; i++) {
                double t = (double)xb[i] * w[i];
                s[0] += t;
                sabs[0] += fabs(t);
            }
            dot[b] = s[0] + s[1];
            margin[b] = MLP_KINK_MARGIN * (sabs[0] + sabs[1]);
            mmax = fmax(mmax, margin[b]);
        }
        /* Steps of 3·mmax: an exclusion band (≤ 2·mmax wide) holds one candidate at most, so at
         * most batch + 1 tries (a step below float resolution moves by one ulp instead). */
        const float orig = b1[j];
        float bias = orig;
        for (;;) {
            long b = 0;
            while (b < nb && fabs(dot[b] + bias) >= margin[b])
                b++;
            if (b == nb)
                break;
            float next = (float)((double)bias + 3.0 * mmax);
            bias = next > bias ? next : nextafterf(bias, INFINITY);
        }
        changed += bias != orig;
        b1[j] = bias;
    }
    free(dot);
    return changed;
}

struct mlp_dims mlp_dims_of(const struct shape *s) {
    return (struct mlp_dims){s->v[BATCH], s->v[IN], s->v[HIDDEN], s->v[OUT]};
}

static int mlp_complete(struct shape *s, const int *given, char *err, size_t errlen) {
    for (int i = 0; keys[i]; i++)
        if (!given[i]) {
            snprintf(err, errlen, "missing key '%s' for mlp_train", keys[i]);
            return -1;
        } else if (s->v[i] <= 0 || s->v[i] > 2147483647L) { /* cblas takes int sizes */
            snprintf(err, errlen, "%s=%ld must be in 1..2147483647", keys[i], s->v[i]);
            return -1;
        }
    if (s->v[OUT] < 2) {
        snprintf(err, errlen, "out=%ld: a classifier needs at least 2 classes", s->v[OUT]);
        return -1;
    }
    return 0;
}

/* Multiply-adds X·W1ᵀ and dHᵀ·X (b·i·h each), A·W2ᵀ, dZᵀ·A, dZ·W2 (b·h·o each; no dX), two
 * flops each; bias, ReLU, softmax and the update are O(b·h + i·h), not counted. */
static double mlp_flops(const struct shape *s) {
    const double b = s->v[BATCH], i = s->v[IN], h = s->v[HIDDEN], o = s->v[OUT];
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

/* Inputs, outputs and the reference: changes, room for an implementation's, h, act and z. */
static double mlp_host_bytes(const struct shape *s) {
    struct mlp_dims d = mlp_dims_of(s);
    double params = mlp_param_floats(s), b = (double)d.batch, i = (double)d.in;
    return 4.0 * (b * i + b + 2.0 * params + 1.0) + 12.0 * params +
           8.0 * (double)(d.batch * d.hidden * 2 + d.batch * d.out);
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

/* max |x[i]| of floats f, or of doubles d when f is NULL. */
static double max_abs(const float *f, const double *d, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs(f ? (double)f[i] : d[i]));
    return m;
}

/* An f64 problem's input: the float32 values it was drawn as, in doubles (data64). */
static int widen(struct buf *b) {
    struct buf w;
    if (buf_alloc_dt(&w, b->name, b->n, DT_F64))
        return -1;
    for (size_t i = 0; i < b->n; i++)
        w.data64[i] = b->data[i];
    free(b->data);
    *b = w;
    return 0;
}

/* f16 problems: the reference rounds to FP16 where the step does, but from doubles where the
 * step rounds float32 values; when the two straddle a rounding boundary one FP16 value differs
 * by an ulp (≤ 2u of it, or 2^-24/S for a subnormal scaled gradient). MLP_FLIPS such rare flips
 * per sum are allowed, each at its largest effect (docs/precision.md, "Mixed precision"). */
enum { MLP_FLIPS = 4 };
static void mlp_flip_tol(struct problem *p, double amax, const double *init_max) {
    struct mlp_ref_data *ref = p->ref;
    const struct mlp_dims d = mlp_dims_of(&p->shape);
    const double u = dtype_unit_roundoff(DT_F16), B = (double)d.batch, lr = MLP_LR;
    const double xmax = max_abs(p->in[MLP_IN_X].data, NULL, p->in[MLP_IN_X].n), w2max = init_max[2];
    const double tiny = 0x1p-24 / MLP_LOSS_SCALE; /* a subnormal ulp, unscaled */
    const double ulp_a = 2 * u * amax + 0x1p-24, ulp_dz = 2 * u / B + tiny;
    const double ulp_dh = 2 * u * 2 * w2max / B + tiny; /* |dH| ≤ Σ_o |dZ|·|W2| ≤ 2·w2max/B */
    const double flip[NPARAMS] = {ulp_dh * xmax + ulp_dz * w2max * xmax, ulp_dz * w2max,
                                  ulp_a / B + ulp_dz * amax, 0};
    for (int k = 0; k < NPARAMS; k++)
        ref->atol[k] += lr * MLP_FLIPS * flip[k];
}

static int mlp_make(struct problem *p, char *err, size_t errlen) {
    const struct mlp_dims d = mlp_dims_of(&p->shape);
    const size_t sizes[NPARAMS] = {(size_t)(d.hidden * d.in), (size_t)d.hidden,
                                   (size_t)(d.out * d.hidden), (size_t)d.out};
    const float scale[NPARAMS] = {1.0f / sqrtf((float)d.in), 1.0f / sqrtf((float)d.in),
                                  1.0f / sqrtf((float)d.hidden), 1.0f / sqrtf((float)d.hidden)};
    p->nin = MLP_IN_B2 + 1, p->nout = MLP_OUT_LOSS + 1;
    double init_max[NPARAMS];
    struct mlp_ref_data *ref = calloc(1, sizeof *ref);
    p->ref = ref;
    /* ref->got: room for W1 or W2, the largest parameter (b1 ≤ W1, b2 ≤ W2) */
    if (!ref || buf_alloc(&p->in[MLP_IN_X], "X", (size_t)(d.batch * d.in)) ||
        buf_alloc(&p->in[MLP_IN_LABELS], "labels", (size_t)d.batch) ||
        buf_alloc_dt(&p->out[MLP_OUT_LOSS], "loss", 1, p->dtype) ||
        !(ref->got = malloc((sizes[0] > sizes[2] ? sizes[0] : sizes[2]) *
                            (p->dtype == DT_F64 ? sizeof(double) : sizeof(float)))))
        goto oom;
    for (int k = 0; k < NPARAMS; k++)
        if (buf_alloc(&p->in[MLP_IN_W1 + k], param_names[k], sizes[k]) ||
            buf_alloc_dt(&p->out[MLP_OUT_W1 + k], param_names[k], sizes[k], p->dtype) ||
            !(ref->delta[k] = malloc(sizes[k] * sizeof(double))))
            goto oom;

    float *labels = p->in[MLP_IN_LABELS].data;
    fill_uniform(p->in[MLP_IN_X].data, p->in[MLP_IN_X].n, p->seed, 1, -1.0f, 1.0f);
    fill_uniform(labels, (size_t)d.batch, p->seed, 2, 0.0f, (float)d.out);
    for (long b = 0; b < d.batch; b++)
        labels[b] = floorf(labels[b]) < (float)d.out ? floorf(labels[b]) : (float)(d.out - 1);
    for (int k = 0; k < NPARAMS; k++)
        fill_uniform(p->in[MLP_IN_W1 + k].data, sizes[k], p->seed, 3 + (uint64_t)k, -scale[k],
                     scale[k]);
    struct mlp_ref_round rr = {p->dtype == DT_F16, MLP_LOSS_SCALE, 0};
    /* f16: X, W1, W2 as FP16 values, so that the step's FP16 copies of them are exact (b1, b2
     * stay float32: the step adds them in FP32) */
    for (int k = 0, f16_in[] = {MLP_IN_X, MLP_IN_W1, MLP_IN_W2}; rr.f16 && k < 3; k++)
        for (size_t i = 0; i < p->in[f16_in[k]].n; i++)
            p->in[f16_in[k]].data[i] = dtype_round(DT_F16, p->in[f16_in[k]].data[i]);
    const float *x = p->in[MLP_IN_X].data, *w1 = p->in[MLP_IN_W1].data;
    float *b1 = p->in[MLP_IN_B1].data; /* the kinks cleared first, then the reference */
    if (mlp_ref_clear_kinks(&d, x, w1, b1) < 0 ||
        ref_step_r(&d, x, labels, w1, b1, p->in[MLP_IN_W2].data, p->in[MLP_IN_B2].data, MLP_LR, &rr,
                   ref->delta[0], ref->delta[1], ref->delta[2], ref->delta[3], &ref->loss))
        goto oom;
    for (int k = 0; k < NPARAMS; k++) {
        const float *init = p->in[MLP_IN_W1 + k].data;
        for (size_t i = 0; i < sizes[k]; i++)
            ref->delta[k][i] -= init[i];
        /* Two roundings of the new value plus 1e-4 (f64: 1e-10) of the largest change, for
         * changes that cancel to almost nothing; verify's rtol covers the rest. */
        const double dmax = max_abs(NULL, ref->delta[k], sizes[k]);
        init_max[k] = max_abs(init, NULL, sizes[k]);
        ref->atol[k] = p->dtype == DT_F64 ? 0x1p-50 * (init_max[k] + dmax) + 1e-10 * dmax
                                          : 0x1p-22 * (init_max[k] + dmax) + 1e-4 * dmax;
    }
    if (gb_interrupted) { /* the inputs or the reference stopped early */
        snprintf(err, errlen, "interrupted");
        mlp_free(p);
        return -1;
    }
    if (rr.f16)
        mlp_flip_tol(p, rr.amax, init_max);
    /* f64 problems: X and the initial parameters in doubles (the labels stay float32) */
    for (int k = MLP_IN_X; p->dtype == DT_F64 && k <= MLP_IN_B2; k++)
        if (k != MLP_IN_LABELS && widen(&p->in[k]))
            goto oom;
    return 0;
oom:
    snprintf(err, errlen, "out of host memory for mlp_train");
    mlp_free(p);
    return -1;
}

/* The loss and each parameter's change: float32 to 1e-4 (float32 softmax and a batch mean) and
 * 1e-3 relative above the change's floor ref->atol; f64 to 1e-12 and 1e-9. */
static enum status mlp_verify(const struct problem *p, struct verify_report *r) {
    struct mlp_ref_data *ref = p->ref;
    const int f64 = p->dtype == DT_F64;
    float *gf = f64 ? NULL : ref->got;
    double *gd = f64 ? ref->got : NULL;
    verify_buf(r, &p->out[MLP_OUT_LOSS], &ref->loss, NULL, 1, f64 ? 1e-12 : 1e-5,
               f64 ? 1e-12 : 1e-4);
    for (int k = 0; k < NPARAMS; k++) {
        const struct buf *got = &p->out[MLP_OUT_W1 + k], *init = &p->in[MLP_IN_W1 + k];
        /* A NaN left in `got` stays NaN here, so a poisoned, unwritten parameter fails. */
        for (size_t i = 0; i < got->n; i++)
            if (f64)
                gd[i] = got->data64[i] - init->data64[i];
            else
                gf[i] = (float)((double)got->data[i] - (double)init->data[i]);
        struct buf change = {step_names[k], gf, got->n, gd};
        verify_buf(r, &change, ref->delta[k], NULL, got->n, ref->atol[k], f64 ? 1e-9 : 1e-3);
    }
    return verify_status(r);
}

const struct workload mlp_train_workload = {
    .name = "mlp_train", .summary = "one SGD step of Linear→ReLU→Linear→softmax cross-entropy",
    .keys = keys, .default_shapes = defaults, .quick_shapes = quick, .sweep_shapes = sweep,
    .test_shapes = tests, .complete = mlp_complete, .flops = mlp_flops, .bytes = mlp_bytes,
    .host_bytes = mlp_host_bytes, .make_problem = mlp_make, .verify = mlp_verify,
    .free_problem = mlp_free, .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16)};
