/* gemm.c — workload `gemm`: C = A·B, row-major, A m×k, B k×n, C m×n, in every precision tier:
 * f32 and f64 (all in the tier), tf32 (float32 operands the tensor cores round to 10 mantissa
 * bits, FP32 accumulation), f16 and bf16 (16-bit operands, FP32 accumulation, C in float32).
 *
 * Compute-bound: the figure of merit is GFLOP/s. Implementations (kernels/gemm/): OpenBLAS
 * cblas_sgemm / cblas_dgemm / cblas_sbgemm (`openblas`); on CUDA devices a tiled kernel (`cuda`)
 * and cuBLAS (`cublas`).
 *
 * The reference is the double-precision sum of each checked entry. Checking all m·n entries
 * costs m·n·k multiply-adds — minutes at 4096³ — so large shapes check a deterministic sample
 * instead: GEMM_SAMPLES entries spread over the output, plus the whole last row and last column
 * (where partial tiles, and so most tiling bugs, live), plus the first and last entry. An output
 * with no more entries than that sample (m=8,n=8,k=2^22) is checked whole: the reference never
 * costs more than the row's own m·n·k (ref_sampled, harness/core/inputs.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/core/inputs.h"
#include "harness/core/interrupt.h"
#include "harness/core/verify.h"
#include "bench/gemm.h"

enum { M = GEMM_KEY_M, N = GEMM_KEY_N, K = GEMM_KEY_K }; /* shape key indices */
enum { IN_A = GEMM_IN_A, IN_B = GEMM_IN_B };
enum { OUT_C = GEMM_OUT_C };

/* Shapes with at most this many multiply-adds get a full reference; larger ones a sample. */
#define GEMM_FULL_MACS (1L << 27)
enum { GEMM_SAMPLES = 1 << 16 };

static const char *const keys[] = {"m", "n", "k", NULL};
static const char *const defaults[] = {"m=2048,n=2048,k=2048", NULL}; /* 48 MiB of operands */
static const char *const quick[] = {"m=256,n=256,k=256", NULL};
/* Not multiples of any tile (64, 128, 4·16); 67×45×33 also misaligns the float4 paths. */
static const char *const tests[] = {"m=1,n=1,k=1", "m=67,n=45,k=33", "m=130,n=129,k=7", NULL};
static const char *const sweep[] = {"m=128,n=128,k=128",
                                    "m=256,n=256,k=256",
                                    "m=512,n=512,k=512",
                                    "m=1024,n=1024,k=1024",
                                    "m=2048,n=2048,k=2048",
                                    "m=4096,n=4096,k=4096",
                                    NULL};

/* --- the reference: each checked entry as a dot product in double -------------------------- */
size_t gemm_ref_scratch_bytes(size_t m, size_t n, size_t k) {
    (void)m;
    return k * n * sizeof(float);
}

/* bt = Bᵀ (n×k), in 32×32 blocks so that both the reads and the writes stay in cache. */
static void gemm_ref_transpose(size_t n, size_t k, const float *b, float *bt) {
    enum { TB = 32 };
    for (size_t l0 = 0; l0 < k && !gb_interrupted; l0 += TB)
        for (size_t j0 = 0; j0 < n; j0 += TB) {
            size_t l1 = l0 + TB < k ? l0 + TB : k, j1 = j0 + TB < n ? j0 + TB : n;
            for (size_t l = l0; l < l1; l++)
                for (size_t j = j0; j < j1; j++)
                    bt[j * k + l] = b[l * n + j];
        }
}

int gemm_ref(size_t m, size_t n, size_t k, const float *a, const float *b, const size_t *idx,
             size_t count, double *ref) {
    float *bt = malloc(gemm_ref_scratch_bytes(m, n, k));
    if (!bt)
        return -1;
    gemm_ref_transpose(n, k, b, bt);
    for (size_t j = 0; j < count && !gb_interrupted; j++) {
        size_t e = idx ? idx[j] : j;
        const float *arow = a + (e / n) * k, *bcol = bt + (e % n) * k;
        /* Four partial sums: a single running sum is a serial chain of dependent adds, four
         * times slower, and the reference of a sampled 4096³ output is 300 M terms. */
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        size_t l = 0;
        for (; l + 4 <= k; l += 4) {
            s0 += (double)arow[l] * bcol[l];
            s1 += (double)arow[l + 1] * bcol[l + 1];
            s2 += (double)arow[l + 2] * bcol[l + 2];
            s3 += (double)arow[l + 3] * bcol[l + 3];
        }
        for (; l < k; l++)
            s0 += (double)arow[l] * bcol[l];
        ref[j] = (s0 + s1) + (s2 + s3);
    }
    free(bt);
    return 0;
}

/* gemm_ref for f64 operands: the same dot products over a transposed copy of B, in double. */
static int gemm_ref64(size_t m, size_t n, size_t k, const double *a, const double *b,
                      const size_t *idx, size_t count, double *ref) {
    (void)m; /* the rows are in idx */
    double *bt = malloc(k * n * sizeof *bt);
    if (!bt)
        return -1;
    for (size_t l = 0; l < k && !gb_interrupted; l++)
        for (size_t j = 0; j < n; j++)
            bt[j * k + l] = b[l * n + j];
    for (size_t j = 0; j < count && !gb_interrupted; j++) {
        size_t e = idx ? idx[j] : j;
        const double *arow = a + (e / n) * k, *bcol = bt + (e % n) * k;
        double s0 = 0, s1 = 0;
        size_t l = 0;
        for (; l + 2 <= k; l += 2) {
            s0 += arow[l] * bcol[l];
            s1 += arow[l + 1] * bcol[l + 1];
        }
        for (; l < k; l++)
            s0 += arow[l] * bcol[l];
        ref[j] = s0 + s1;
    }
    free(bt);
    return 0;
}

static int gemm_complete(struct shape *s, const int *given, char *err, size_t errlen) {
    for (int i = 0; keys[i]; i++) {
        if (!given[i]) {
            snprintf(err, errlen, "missing key '%s' for gemm", keys[i]);
            return -1;
        }
        /* cblas takes int sizes and leading dimensions. */
        if (s->v[i] <= 0 || s->v[i] > INT_MAX) {
            snprintf(err, errlen, "%s=%ld must be in 1..%d", keys[i], s->v[i], INT_MAX);
            return -1;
        }
    }
    return 0;
}

/* One multiply and one add per term of each output entry: 2·m·n·k. */
static double gemm_flops(const struct shape *s) {
    return 2.0 * (double)s->v[M] * (double)s->v[N] * (double)s->v[K];
}

/* Read A and B once, write C once: 4·(m·k + k·n + m·n) bytes (the least any implementation
 * moves; blocked GEMMs re-read operands from cache, which is not counted). */
static double gemm_bytes(const struct shape *s) {
    double m = (double)s->v[M], n = (double)s->v[N], k = (double)s->v[K];
    return 4.0 * (m * k + k * n + m * n);
}

/* In tier t: A and B of the tier's element size, C in FP32 (FP16, BF16, TF32: FP32 C and
 * accumulation) or FP64. */
static double gemm_tier_bytes(const struct shape *s, enum dtype t) {
    double m = (double)s->v[M], n = (double)s->v[N], k = (double)s->v[K];
    return dtype_bytes(t) * (m * k + k * n) + (t == DT_F64 ? 8.0 : 4.0) * m * n;
}

/* Number of reference entries, and whether they are a sample. */
static size_t gemm_ref_count(const struct shape *s, int *sampled) {
    size_t m = (size_t)s->v[M], n = (size_t)s->v[N];
    double macs = (double)m * (double)n * (double)s->v[K];
    *sampled = ref_sampled(macs, (double)GEMM_FULL_MACS, GEMM_SAMPLES + m + n, m * n);
    return *sampled ? GEMM_SAMPLES + m + n : m * n;
}

/* Operands, the reference (values and indices) and gemm_ref's transposed copy of B. */
static double gemm_host_bytes(const struct shape *s) {
    int sampled;
    double refs = (double)gemm_ref_count(s, &sampled);
    size_t m = (size_t)s->v[M], n = (size_t)s->v[N], k = (size_t)s->v[K];
    /* (an f64 problem holds twice this; the plan's host-memory check doubles it) */
    return gemm_bytes(s) + refs * (sampled ? 16.0 : 8.0) + (double)gemm_ref_scratch_bytes(m, n, k);
}

/* The sampled entries: sample_indices' spread, then the last row and the last column. */
static size_t *gemm_sample(size_t m, size_t n, uint64_t seed, size_t count) {
    size_t *idx = sample_indices(m * n, GEMM_SAMPLES, seed), *all;
    if (!idx || !(all = realloc(idx, count * sizeof *idx))) {
        free(idx);
        return NULL;
    }
    size_t j = GEMM_SAMPLES;
    for (size_t c = 0; c < n; c++)
        all[j++] = (m - 1) * n + c;
    for (size_t r = 0; r < m; r++)
        all[j++] = r * n + n - 1;
    sort_indices(all, count);
    return all;
}

/* The reference of the checked entries, in double, from the problem's operands. */
static int gemm_make_ref(struct problem *p, struct sampled_ref *ref, size_t m, size_t n, size_t k) {
    const struct buf *a = &p->in[IN_A], *b = &p->in[IN_B];
    if (!(ref->val = malloc(ref->count * sizeof *ref->val)))
        return -1;
    if (p->dtype == DT_F64)
        return gemm_ref64(m, n, k, a->data64, b->data64, ref->idx, ref->count, ref->val);
    return gemm_ref(m, n, k, a->data, b->data, ref->idx, ref->count, ref->val);
}

static int gemm_make(struct problem *p, char *err, size_t errlen) {
    size_t m = (size_t)p->shape.v[M], n = (size_t)p->shape.v[N], k = (size_t)p->shape.v[K];
    enum dtype t = p->dtype, out_t = t == DT_F64 ? DT_F64 : DT_F32; /* C is FP32 but in f64 */
    p->nin = 2;
    p->nout = 1;
    struct sampled_ref *ref = calloc(1, sizeof *ref);
    p->ref = ref;
    if (!ref || buf_alloc_dt(&p->in[IN_A], "A", m * k, t) ||
        buf_alloc_dt(&p->in[IN_B], "B", k * n, t) ||
        buf_alloc_dt(&p->out[OUT_C], "C", m * n, out_t))
        goto oom;
    fill_uniform_dt(&p->in[IN_A], t, p->seed, 1, -1.0f, 1.0f);
    fill_uniform_dt(&p->in[IN_B], t, p->seed, 2, -1.0f, 1.0f);
    int sampled;
    ref->count = gemm_ref_count(&p->shape, &sampled);
    if (sampled && !(ref->idx = gemm_sample(m, n, p->seed, ref->count)))
        goto oom;
    if (gemm_make_ref(p, ref, m, n, k))
        goto oom;
    if (gb_interrupted) { /* the inputs or the reference stopped early */
        snprintf(err, errlen, "interrupted");
        problem_free_sampled(p);
        return -1;
    }
    return 0;
oom:
    snprintf(err, errlen, "out of host memory for gemm m=%zu n=%zu k=%zu", m, n, k);
    problem_free_sampled(p);
    return -1;
}

/* Inputs are uniform in [-1, 1), so each of the k terms of an entry is at most 1 in size: the
 * tolerance is verify_tol's for k terms of size 1 in the row's tier (harness/core/verify.h;
 * f32: atol ≈ 1.9e-6·k, which still catches a single missing or doubled term, typically ~0.25,
 * and a TF32 result in an f32 row — kernels/gemm/test_cpu.c proves both). C is float32 in every
 * tier but f64, so the output adds no rounding of the tier's own. */
static enum status gemm_verify(const struct problem *p, struct verify_report *r) {
    const struct sampled_ref *ref = p->ref;
    struct tol tl = verify_tol(p->dtype, (double)p->shape.v[K], 1.0, 0);
    verify_buf(r, &p->out[OUT_C], ref->val, ref->idx, ref->count, tl.atol, tl.rtol);
    return verify_status(r);
}

const struct workload gemm_workload = {
    .name = "gemm",
    .summary = "C = A·B, row-major M×N×K (compute)",
    .keys = keys,
    .default_shapes = defaults,
    .quick_shapes = quick,
    .sweep_shapes = sweep,
    .test_shapes = tests,
    .complete = gemm_complete,
    .flops = gemm_flops,
    .bytes = gemm_bytes,
    .tier_bytes = gemm_tier_bytes,
    .host_bytes = gemm_host_bytes,
    .make_problem = gemm_make,
    .verify = gemm_verify,
    .free_problem = problem_free_sampled,
    .dtypes = DT_ALL,
};
