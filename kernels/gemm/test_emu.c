/* test_emu.c — the SGEMM kernels (kernels/gemm/kernels.cuh) on the CPU emulation,
 * against a double-precision reference: both tile configurations, C = A·B, Aᵀ·B and A·Bᵀ, on
 * shapes that are not multiples of the tiles (with and without the float4 paths), with the
 * threads of each block scheduled forward, in reverse and shuffled.
 *
 * Built for GB_EMU_ARCH 800 (the paths of current cards: register prefetch, both tiles, the
 * tensor-core twins) and 200 (Fermi's: no prefetch; the 128×128 kernels are traps there and are
 * skipped).
 * Built again with GB_TEST_DROP_BARRIER=1 or 2 (one barrier removed): then every case that needs
 * it (drop_shows) must come out WRONG in every order — the proof that the emulation catches a
 * missing __syncthreads() rather than passing by luck of scheduling. The SIMT tiles are
 * double-buffered: barrier 2 fences the first slice, barrier 1 every later one.
 *
 * The DGEMM kernels likewise (C = A·B in doubles, every tile where it exists: 128×128 and 64×64
 * from sm_35, 32×32 everywhere), against a long-double reference, on the SGEMM's cases and the
 * DMMA twin's (k = 1, leading dimensions not multiples of 8).
 *
 * The FP16 kernels (gb_hgemm_*_nn, from sm_53: the 800 build) likewise, on FP16 operands of the
 * f16 tier (tests/emu/emu_half.h converts), with bases off by one half and odd leading
 * dimensions (every half2 path: 8-byte, aligned pairs, the shifted pair of odd rows, a pair
 * straddling the edge), every half outside the matrices NaN (a read past an edge poisons C),
 * against a double reference with the f16 row's own tolerance (verify_tol); the same check must
 * reject a C accumulated in half. The tensor-core kernel (wmma.cuh) cannot run here — the
 * emulation has no warp-level fragments —, so its twin does (the same loads, zero padding,
 * shared-memory tiles and stores, FP32 FMAs in place of the fragments' mma, from sm_70: the 800
 * build), and its index arithmetic is checked on its own (wmma_index_checks).
 *
 * The FP64 tensor-core kernel (dmma.cuh, gemm/cuda_tc's f64) likewise as its twin (the same
 * cp.async slices, here plain copies, into two shared buffers, zero padding and stores; FP64 FMAs
 * in place of the 8×8×4 fragments' mma, from sm_80: the 800 build), on the DGEMM's check and on
 * shapes of its own (k = 1, one and many slices, leading dimensions not multiples of 8, 1×1);
 * its index arithmetic on its own (dmma_index_checks). It has one barrier a slice: removing
 * barrier 1 must make it wrong, removing barrier 2 must leave it right. Hopper's m16n8k16 .f64
 * kernel (dmma16.cuh) likewise, and a CPU model of its fragments: test_emu_dmma16.h.
 *
 * The BF16 and TF32 tiers of the same WMMA source (gb_bgemm_wmma_64x64, gb_tgemm_wmma_64x64,
 * from sm_80: the 800 build) likewise as their twins, against a double reference of the tier's
 * operands (BF16 values; FP32 values for tf32, which the twin rounds to TF32 as the hardware
 * does) with the tier's tolerance, on odd shapes (k = 1, leading dimensions not multiples of 8,
 * misaligned bases, edge tiles), with every element outside the matrices NaN; the tf32 twin's C
 * must fail the FP32 tolerance (it does round), and gb_wm_tf32_bits rounds as cvt.rna does.
 *
 * The sm_80+ mma.sync kernels (mma.cuh, gemm/cuda_tc's f16, bf16 and tf32 from 8.0): their twins
 * and a CPU model of their ldmatrix fragment loads, in test_emu_mma.h (read its header).
 *
 * The Hopper kernel (wgmma.cuh, gemm/cuda_tc's f16 and bf16 on sm_90a code) as its twin: the same
 * TMA boxes (zero outside the operands, 128-byte swizzle) into the same stages, the same
 * descriptors read back by the twin's wgmma, the same D layout and epilogue, in a synchronous loop
 * (the emulation has no mbarriers); on odd shapes (k = 1, k below one slice and below
 * stages·64, many slices, ragged edges, padded leading dimensions, K = 0) with every element
 * outside the operands NaN; its index arithmetic on its own (wgmma_index_checks: the swizzle,
 * the descriptor bits, layouts, D fragment, TMA box, phase parities, grid). The persistent
 * 128×256 kernel with its 2-CTA multicast cluster (wgmma_persist.cuh): its twin and CPU models
 * of its tile walk, multicast layout, n = 256 descriptors and budgets, in test_emu_persist.h.
 * tf32 on wgmma (wgmma_tf32.cuh): its pass and twin on odd shapes, the pass bit for bit, and a
 * model of its K-major 4-byte layout, in test_emu_wgmma_tf32.h. The paired epilogue all the wgmma
 * kernels share, at C layouts that allow pairs and that do not: test_emu_wgmma_epi.h.
 *
 * Emulation builds: arch 800 200; drop-barrier 1 2
 */
#include "tests/emu/emu.h"

#include "harness/core/verify.h"

/* the wgmma twins' paired epilogue stores, counted (wgmma.cuh's gb_wg_store2 calls this hook;
 * test_emu_wgmma_epi.h reads the count) */
static long wg_pair_stores;
#define GB_WG_TWIN_PAIRED(p) ((void)(p), wg_pair_stores++)

#include "kernels/gemm/kernels.cuh"
#include "kernels/gemm/test_emu.h"
#include "tests/emu/emu_test.h"

#include <string.h>
#include <time.h>

typedef void (*gemm_kernel)(int M, int N, int K, const float *A, int lda, const float *B, int ldb,
                            float *C, int ldc);

/* [configuration][nn, tn, nt] */
static const gemm_kernel kernels[2][3] = {
    {gb_sgemm_64x64_nn, gb_sgemm_64x64_tn, gb_sgemm_64x64_nt},
    {gb_sgemm_128x128_nn, gb_sgemm_128x128_tn, gb_sgemm_128x128_nt},
};
static const char *const variant_names[3] = {"nn", "tn", "nt"};

struct gemm_args {
    gemm_kernel fn;
    int M, N, K, lda, ldb, ldc;
    const float *A, *B;
    float *C;
};

static void gemm_body(void *p) {
    const struct gemm_args *a = p;
    a->fn(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
}

struct gemm_case {
    int M, N, K;
    int pad;      /* extra elements per row of every operand (lda = cols + pad) */
    int misalign; /* 1: operands start one float past a 16-byte boundary (scalar loads) */
};

/* Must a case of K values with bk-deep slices come out wrong when barrier `drop` is removed?
 * The double-buffered SIMT tiles (tile.cuh, dgemm.cuh): barrier 2 fences the first slice (every
 * case), barrier 1 each later one (from 2 slices). The single-buffered WMMA twin: barrier 1
 * fences each slice (every case), barrier 2 guards its overwrite (from 2 slices). */
static int drop_shows(int double_buffered, int drop, int K, int bk) {
    if (drop == 0 || K == 0)
        return 0;
    return (drop == (double_buffered ? 2 : 1)) || K > bk;
}

/* Run one case; returns the number of wrong elements of C (0 = correct), or -1 when the
 * emulation itself failed. */
static long run_case(int cfg, int variant, const struct gemm_case *c, enum emu_order order,
                     int report) {
    const int ta = variant == 1, tb = variant == 2;
    const int M = c->M, N = c->N, K = c->K;
    /* stored shapes: A is M×K (K×M when transposed), B is K×N (N×K when transposed) */
    const int arows = ta ? K : M, acols = ta ? M : K, brows = tb ? N : K, bcols = tb ? K : N;
    const int lda = acols + c->pad, ldb = bcols + c->pad, ldc = N + c->pad;
    float *abuf = emu_alloc(((size_t)arows * lda + 4) * sizeof(float));
    float *bbuf = emu_alloc(((size_t)brows * ldb + 4) * sizeof(float));
    float *cbuf = emu_alloc(((size_t)M * ldc + 4) * sizeof(float));
    float *A = abuf + c->misalign, *B = bbuf + c->misalign, *C = cbuf + c->misalign;
    double *ref = emu_alloc((size_t)M * N * sizeof(double));
    double *scale = emu_alloc((size_t)M * N * sizeof(double));
    float *got = emu_alloc((size_t)M * N * sizeof(float));
    struct gemm_args args;
    enum gb_gemm_cfg gc = cfg ? GB_GEMM_128 : GB_GEMM_64;
    dim3 grid;
    long bad;
    int i, j;

    emu_fill(abuf, (size_t)arows * lda + 4, 11, -1.0f, 1.0f);
    emu_fill(bbuf, (size_t)brows * ldb + 4, 12, -1.0f, 1.0f);
    emu_poison(cbuf, (size_t)M * ldc + 4);
    ref_sgemm(ta, tb, M, N, K, A, lda, B, ldb, ref, scale);

    args.fn = kernels[cfg][variant];
    args.M = M, args.N = N, args.K = K, args.lda = lda, args.ldb = ldb, args.ldc = ldc;
    args.A = A, args.B = B, args.C = C;
    if (gb_sgemm_grid(gc, 35, M, N, &grid) != 0 ||
        emu_launch(grid, emu_dim3(GB_GEMM_THREADS, 1, 1), 0, order, 1234, gemm_body, &args))
        bad = -1;
    else {
        for (i = 0; i < M; i++)
            memcpy(got + (size_t)i * N, C + (size_t)i * ldc, (size_t)N * sizeof(float));
        bad = (long)emu_mismatches("C", got, ref, scale, (size_t)M * N, 1e-6, report);
        /* the padding between rows must be untouched (still NaN) */
        for (i = 0; i < M && bad == 0; i++)
            for (j = N; j < ldc; j++)
                if (!isnan(C[(size_t)i * ldc + j])) {
                    if (report)
                        fprintf(stderr, "  C[%d][%d] written outside the matrix\n", i, j);
                    bad = 1;
                    break;
                }
    }
    free(abuf), free(bbuf), free(cbuf), free(ref), free(scale), free(got);
    return bad;
}

/* --- DGEMM ------------------------------------------------------------------------------- */
typedef void (*dgemm_kernel)(int M, int N, int K, const double *A, int lda, const double *B,
                             int ldb, double *C, int ldc);

struct dgemm_args {
    dgemm_kernel fn;
    int M, N, K, lda, ldb, ldc;
    const double *A, *B;
    double *C;
};

static void dgemm_body(void *p) {
    const struct dgemm_args *a = p;
    a->fn(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
}

/* Doubles in [-1, 1) with 53 random bits, from the float generator's stream. */
static void dfill(double *x, size_t n, uint64_t seed) {
    float *hi = emu_alloc(n * sizeof *hi), *lo = emu_alloc(n * sizeof *lo);
    size_t i;
    emu_fill(hi, n, seed, -1.0f, 1.0f);
    emu_fill(lo, n, seed + 1000, 0.0f, 1.0f);
    for (i = 0; i < n; i++)
        x[i] = (double)hi[i] + (double)lo[i] * 0x1p-24;
    free(hi), free(lo);
}

/* One DGEMM case with tile edge t and `smem` bytes of dynamic shared memory; returns the wrong
 * elements of C (or -1: emulation failed).
 * The error bound is 4·K·2^-53·Σ|a·b| + tiny: FMA-or-not and any summation order fit in it, a
 * missing term (≈ 0.25) or a stale tile does not. */
static long run_dcase_of(dgemm_kernel fn, unsigned threads, unsigned smem, int t,
                         const struct gemm_case *c, enum emu_order order, int report) {
    const int M = c->M, N = c->N, K = c->K;
    const int lda = K + c->pad, ldb = N + c->pad, ldc = N + c->pad;
    double *A = emu_alloc(((size_t)M * lda + 1) * sizeof(double));
    double *B = emu_alloc(((size_t)K * ldb + 1) * sizeof(double));
    double *C = emu_alloc(((size_t)M * ldc + 1) * sizeof(double));
    struct dgemm_args args = {fn, M, N, K, lda, ldb, ldc, A, B, C};
    dim3 grid;
    long bad = 0;
    int i, j, l;
    dfill(A, (size_t)M * lda + 1, 21);
    dfill(B, (size_t)K * ldb + 1, 22);
    for (i = 0; i < M * ldc + 1; i++)
        C[i] = NAN;
    if (gb_dgemm_grid(t, 35, M, N, &grid) != 0 ||
        emu_launch(grid, emu_dim3(threads, 1, 1), smem, order, 77, dgemm_body, &args))
        bad = -1;
    for (i = 0; i < M && bad >= 0; i++)
        for (j = 0; j < ldc; j++) {
            long double ref = 0, mag = 0;
            double got = C[(size_t)i * ldc + j];
            for (l = 0; l < K && j < N; l++) {
                long double term = (long double)A[(size_t)i * lda + l] * B[(size_t)l * ldb + j];
                ref += term;
                mag += term < 0 ? -term : term;
            }
            int ok = j < N ? fabsl((long double)got - ref) <= 4.0L * K * 0x1p-53L * mag + 1e-300L
                           : isnan(got); /* the padding stays untouched */
            if (!ok && report && bad < 3)
                fprintf(stderr, "  C[%d][%d] = %.17g, want %.17Lg\n", i, j, got, ref);
            bad += !ok;
        }
    free(A), free(B), free(C);
    return bad;
}

/* The SIMT DGEMM with tile edge t. */
static long run_dcase(int t, const struct gemm_case *c, enum emu_order order, int report) {
    return run_dcase_of(t == 128  ? gb_dgemm_128x128
                        : t == 64 ? gb_dgemm_64x64
                                  : gb_dgemm_32x32,
                        GB_GEMM_THREADS, 0, t, c, order, report);
}

/* Every DGEMM tile on every case in every order; with a barrier dropped, every case that uses
 * it must fail. Returns the number of launches. */
static int dgemm_cases(const struct gemm_case *cases, int ncases, int drop) {
    int ti, ci, o, runs = 0;
    for (ti = 0; ti < (GB_ARCH >= 350 ? 3 : 1); ti++) { /* 64 and 128 exist from sm_35 */
        const int t = 32 << ti, bk = ti ? 8 : 16;
        for (ci = 0; ci < ncases; ci++) {
            const struct gemm_case *c = &cases[ci];
            if (c->misalign || (drop && (c->M < t / 2 || c->N < t / 2)))
                continue; /* doubles have no vector path to misalign */
            for (o = 0; o < EMU_ORDERS; o++) {
                long bad = run_dcase(t, c, (enum emu_order)o, !drop);
                runs++;
                EMU_CHECK(bad >= 0, "emulation failed");
                if (drop == 0)
                    EMU_CHECK(bad == 0, "gb_dgemm_%dx%d %dx%dx%d pad %d %s: %ld wrong", t, t, c->M,
                              c->N, c->K, c->pad, emu_order_name((enum emu_order)o), bad);
                else if (drop_shows(1, drop, c->K, bk))
                    EMU_CHECK(bad > 0, "gb_dgemm_%dx%d %dx%dx%d %s: barrier %d removed, yet right",
                              t, t, c->M, c->N, c->K, emu_order_name((enum emu_order)o), drop);
            }
        }
    }
    return runs;
}

/* --- FP64 tensor cores (dmma.cuh: the twin) --------------------------------------------- */
/* A DMMA twin (fn, `name`, with its threads, dynamic shared memory and tile edge) on every case
 * in every order, from sm_80: right, and wrong with barrier 1 (its only one) removed wherever
 * several warps share the tiles; removing barrier 2 changes nothing. Returns the launches. */
static int dmma_cases_of(dgemm_kernel fn, const char *name, unsigned threads, unsigned smem,
                         int tile, const struct gemm_case *cases, int ncases, int drop) {
    int ci, o, runs = 0;
    if (GB_ARCH < GB_DMMA_MIN_ARCH)
        return 0;
    for (ci = 0; ci < ncases; ci++) {
        const struct gemm_case *c = &cases[ci];
        if (c->misalign || (drop == 1 && (c->M < 32 || c->N < 32 || c->K == 0)))
            continue;
        for (o = 0; o < EMU_ORDERS; o++) {
            long bad = run_dcase_of(fn, threads, smem, tile, c, (enum emu_order)o, drop != 1);
            runs++;
            EMU_CHECK(bad >= 0, "emulation failed");
            if (drop != 1)
                EMU_CHECK(bad == 0, "%s (twin) %dx%dx%d pad %d %s: %ld wrong", name, c->M, c->N,
                          c->K, c->pad, emu_order_name((enum emu_order)o), bad);
            else
                EMU_CHECK(bad > 0, "%s (twin) %dx%dx%d %s: barrier 1 removed, yet right", name,
                          c->M, c->N, c->K, emu_order_name((enum emu_order)o));
        }
    }
    return runs;
}

/* The 64×64 DMMA.8x8x4 twin (dmma.cuh). */
static int dmma_cases(const struct gemm_case *cases, int ncases, int drop) {
    return dmma_cases_of(gb_dgemm_dmma_64x64, "gb_dgemm_dmma_64x64", GB_DM_THREADS, 0, GB_DM_BM,
                         cases, ncases, drop);
}

/* The DMMA kernel's index arithmetic: the 4 warps' 4×4 fragments tile the 64×64 block once; the
 * 128 threads' 8 elements cover each 64×16 slice of A and 16×64 slice of B once; the 32 lanes' 2
 * elements cover an 8×8 fragment once; fragment origins are 32-byte aligned in the shared tiles
 * (wmma's load_matrix_sync needs it) and the pitches even (ldm a multiple of 16 bytes). */
/* How far the 32 lanes' per_lane elements each (elem: gb_dm_frag_elem, gb_wm_frag_elem) are from
 * covering an f×f fragment exactly once: elements outside it, plus entries not hit once. */
static int frag_cover_misses(void (*elem)(int lane, int q, int *r, int *c), int per_lane, int f) {
    unsigned char seen[32][32];
    int lane, q, r, c, bad = f > 32;
    memset(seen, 0, sizeof seen);
    for (lane = 0; lane < 32; lane++)
        for (q = 0; q < per_lane; q++) {
            elem(lane, q, &r, &c);
            if (r >= 0 && r < f && c >= 0 && c < f && f <= 32)
                seen[r][c]++;
            else
                bad++;
        }
    for (r = 0; r < f && r < 32; r++)
        for (c = 0; c < f && c < 32; c++)
            bad += seen[r][c] != 1;
    return bad;
}

static void dmma_index_checks(void) {
    static unsigned char seen[GB_DM_BM][GB_DM_BN];
    int w, i, j, r, c, q, t, rr, cc, bad = 0;
    memset(seen, 0, sizeof seen);
    for (w = 0; w < GB_DM_WARPS; w++)
        for (i = 0; i < GB_DM_WF; i++)
            for (j = 0; j < GB_DM_WF; j++) {
                gb_dm_frag_origin(w, i, j, &r, &c);
                bad += (r * GB_DM_PA) % 4 != 0 || c % 4 != 0; /* 4 doubles: 32 bytes */
                for (rr = 0; rr < GB_DM_F; rr++)
                    for (cc = 0; cc < GB_DM_F; cc++)
                        if (r + rr < GB_DM_BM && c + cc < GB_DM_BN)
                            seen[r + rr][c + cc]++;
                        else
                            bad++;
            }
    for (r = 0; r < GB_DM_BM; r++)
        for (c = 0; c < GB_DM_BN; c++)
            bad += seen[r][c] != 1;
    EMU_CHECK(bad == 0 && GB_DM_PA % 2 == 0 && GB_DM_PB % 2 == 0 && GB_DM_PC % 2 == 0,
              "dmma: fragments do not tile the block once, aligned (%d)", bad);
    for (t = 0; t < 2; t++) { /* A's slice (64×16), then B's (16×64) */
        const int rows = t ? GB_DM_BK : GB_DM_BM, cols = t ? GB_DM_BN : GB_DM_BK;
        memset(seen, 0, sizeof seen);
        bad = 0;
        for (i = 0; i < GB_DM_THREADS; i++)
            for (q = 0; q < GB_DM_PER_THREAD; q++) {
                gb_dm_elem(i + q * GB_DM_THREADS, cols, &r, &c);
                if (r < rows && c < cols)
                    seen[r][c]++;
                else
                    bad++;
            }
        for (r = 0; r < rows; r++)
            for (c = 0; c < cols; c++)
                bad += seen[r][c] != 1;
        EMU_CHECK(bad == 0, "dmma: the copies do not cover the %s slice once (%d)", t ? "B" : "A",
                  bad);
    }
    bad = frag_cover_misses(gb_dm_frag_elem, GB_DM_PER_LANE, GB_DM_F);
    EMU_CHECK(bad == 0, "dmma: the lanes do not copy a fragment once (%d)", bad);
}

/* the m16n8k16 .f64 kernel (dmma16.cuh): its twin and a CPU model of its fragments */
#include "kernels/gemm/test_emu_dmma16.h"

/* --- FP16 GEMM --------------------------------------------------------------------------- */
typedef void (*hgemm_kernel)(int M, int N, int K, const __half *A, int lda, const __half *B,
                             int ldb, float *C, int ldc);

struct hgemm_args {
    hgemm_kernel fn;
    int M, N, K, lda, ldb, ldc;
    const __half *A, *B;
    float *C;
};

static void hgemm_body(void *p) {
    const struct hgemm_args *a = p;
    a->fn(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
}

/* n values of the f16 tier as the harness draws them (harness/core/inputs.c): uniform in
 * [-1, 1), rounded to FP16, none below 2^-6 in magnitude. */
static void hfill(__half *h, size_t n, uint64_t seed) {
    float *x = emu_alloc(n * sizeof *x);
    size_t i;
    emu_fill(x, n, seed, -1.0f, 1.0f);
    for (i = 0; i < n; i++) {
        float v = __half2float(__float2half_rn(x[i]));
        h[i] = __float2half_rn(fabsf(v) < 0x1p-6f ? (v < 0 ? -0x1p-6f : 0x1p-6f) : v);
    }
    free(x);
}

/* Every half of buf (n of them) outside the rows×cols matrix at buf + off with leading dimension
 * ld becomes NaN: a kernel that reads past an edge — even to multiply by a zero fill — then
 * writes NaN into C. */
static void hpoison_outside(__half *buf, size_t n, size_t off, int rows, int cols, int ld) {
    size_t i;
    for (i = 0; i < n; i++) {
        size_t r = ld ? (i - off) / (size_t)ld : 0, c = ld ? (i - off) % (size_t)ld : 0;
        if (i < off || ld == 0 || r >= (size_t)rows || c >= (size_t)cols)
            buf[i].bits = 0x7e00; /* NaN */
    }
}

/* C accumulated in half (each partial sum rounded to FP16): what the tier must not accept. */
static void half_accumulated(int M, int N, int K, const __half *A, int lda, const __half *B,
                             int ldb, float *C) {
    int i, j, l;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            float acc = 0.0f;
            for (l = 0; l < K; l++)
                acc = __half2float(__float2half_rn(acc + __half2float(A[(size_t)i * lda + l]) *
                                                             __half2float(B[(size_t)l * ldb + j])));
            C[(size_t)i * N + j] = acc;
        }
}

/* Entries of got (M×N, ld) outside |got − ref| ≤ atol + rtol·|ref| (NaN fails). */
static long count_bad(const float *got, int ld, const double *ref, int M, int N, struct tol t,
                      int report) {
    long bad = 0;
    int i, j;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            double g = got[(size_t)i * ld + j], r = ref[(size_t)i * N + j];
            if (!(fabs(g - r) <= t.atol + t.rtol * fabs(r))) {
                if (report && bad < 3)
                    fprintf(stderr, "  C[%d][%d] = %.9g, want %.9g\n", i, j, g, r);
                bad++;
            }
        }
    return bad;
}

/* The FP16 kernels: the two half2 tiles and the tensor-core kernel's twins (wmma.cuh), the
 * last two with A (ta) or B (tb) stored transposed. */
struct hkernel {
    const char *name;
    hgemm_kernel fn;
    int tile, bk, threads, min_arch, ta, tb;
};
static const struct hkernel hkernels[] = {
    {"gb_hgemm_64x64_nn", gb_hgemm_64x64_nn, 64, 16, GB_GEMM_THREADS, GB_HALF_MIN_ARCH, 0, 0},
    {"gb_hgemm_128x128_nn", gb_hgemm_128x128_nn, 128, 8, GB_GEMM_THREADS, GB_HALF_MIN_ARCH, 0, 0},
    {"gb_hgemm_wmma_64x64 (twin)", gb_hgemm_wmma_64x64, GB_WM_BM, GB_WM_BK, GB_WM_THREADS,
     GB_WMMA_MIN_ARCH, 0, 0},
    {"gb_hgemm_wmma_64x64_nt (twin)", gb_hgemm_wmma_64x64_nt, GB_WM_BM, GB_WM_BK, GB_WM_THREADS,
     GB_WMMA_MIN_ARCH, 0, 1},
    {"gb_hgemm_wmma_64x64_tn (twin)", gb_hgemm_wmma_64x64_tn, GB_WM_BM, GB_WM_BK, GB_WM_THREADS,
     GB_WMMA_MIN_ARCH, 1, 0},
};

/* One FP16 case of kernel hk; returns the wrong elements of C (or -1: emulation failed).
 * misalign shifts A and B by one half (2 bytes): no 8-byte load, pairs shifted. A transposed
 * operand is stored as such (A: K×M, B: N×K), its leading dimension padded the same. */
static long run_hcase(const struct hkernel *hk, const struct gemm_case *c, enum emu_order order,
                      int report) {
    const int M = c->M, N = c->N, K = c->K;
    const int ar = hk->ta ? K : M, ac = hk->ta ? M : K, br = hk->tb ? N : K, bc = hk->tb ? K : N;
    const int lda = ac + c->pad, ldb = bc + c->pad, ldc = N + c->pad;
    __half *abuf = emu_alloc(((size_t)ar * lda + 4) * sizeof(__half));
    __half *bbuf = emu_alloc(((size_t)br * ldb + 4) * sizeof(__half));
    float *C = emu_alloc(((size_t)M * ldc + 1) * sizeof(float));
    float *halfacc = emu_alloc(((size_t)M * N + 1) * sizeof(float));
    double *ref = emu_alloc(((size_t)M * N + 1) * sizeof(double));
    const __half *A = abuf + c->misalign, *B = bbuf + c->misalign;
    struct hgemm_args args = {hk->fn, M, N, K, lda, ldb, ldc, A, B, C};
    struct tol tol = verify_tol(DT_F16, K, 1.0, 0); /* |a·b| ≤ 1 */
    dim3 grid;
    long bad = 0;
    int i, j, l;
    hfill(abuf, (size_t)ar * lda + 4, 31);
    hfill(bbuf, (size_t)br * ldb + 4, 32);
    hpoison_outside(abuf, (size_t)ar * lda + 4, (size_t)c->misalign, ar, ac, lda);
    hpoison_outside(bbuf, (size_t)br * ldb + 4, (size_t)c->misalign, br, bc, ldb);
    emu_poison(C, (size_t)M * ldc + 1);
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            double r = 0;
            for (l = 0; l < K; l++)
                r += (double)__half2float(hk->ta ? A[(size_t)l * lda + i] : A[(size_t)i * lda + l]) *
                     __half2float(hk->tb ? B[(size_t)j * ldb + l] : B[(size_t)l * ldb + j]);
            ref[(size_t)i * N + j] = r;
        }
    grid = emu_dim3(1, 1, 1);
    if ((hk->threads == GB_WM_THREADS
             ? gb_wm_grid(M, N, &grid.x, &grid.y)
             : gb_sgemm_grid(hk->tile == 128 ? GB_GEMM_128 : GB_GEMM_64, 53, M, N, &grid)) != 0 ||
        emu_launch(grid, emu_dim3((unsigned)hk->threads, 1, 1), 0, order, 99, hgemm_body, &args))
        bad = -1;
    else {
        bad = count_bad(C, ldc, ref, M, N, tol, report);
        for (i = 0; i < M && bad == 0; i++) /* the padding between rows stays untouched */
            for (j = N; j < ldc; j++)
                bad += !isnan(C[(size_t)i * ldc + j]);
        /* the tolerance has the power to tell: a half accumulator fails it (K ≥ 16 and enough
         * entries that some partial sum loses bits) */
        if (bad == 0 && K >= 16 && M * N >= 64 && order == EMU_FORWARD && !GB_TEST_DROP_BARRIER &&
            !hk->ta && !hk->tb) {
            half_accumulated(M, N, K, A, lda, B, ldb, halfacc);
            EMU_CHECK(count_bad(halfacc, N, ref, M, N, tol, 0) > 0,
                      "%dx%dx%d: C accumulated in half passes the f16 tolerance", M, N, K);
        }
    }
    free(abuf), free(bbuf), free(C), free(halfacc), free(ref);
    return bad;
}

/* Every FP16 kernel this architecture has (half2 from sm_53, the WMMA twin from sm_70; below,
 * they are traps) on every case in every order; with a barrier dropped, every case that uses it
 * must fail. Returns the number of launches. */
static int hgemm_cases(const struct gemm_case *cases, int ncases, int drop) {
    int hi, ci, o, runs = 0;
    for (hi = 0; hi < (int)(sizeof hkernels / sizeof hkernels[0]); hi++) {
        const struct hkernel *hk = &hkernels[hi];
        if (GB_ARCH < hk->min_arch)
            continue;
        for (ci = 0; ci < ncases; ci++) {
            const struct gemm_case *c = &cases[ci];
            if (drop && (c->M < 32 || c->N < 32))
                continue;
            for (o = 0; o < EMU_ORDERS; o++) {
                long bad = run_hcase(hk, c, (enum emu_order)o, !drop);
                runs++;
                EMU_CHECK(bad >= 0, "emulation failed");
                if (drop == 0)
                    EMU_CHECK(bad == 0, "%s %dx%dx%d pad %d misalign %d %s: %ld wrong", hk->name,
                              c->M, c->N, c->K, c->pad, c->misalign,
                              emu_order_name((enum emu_order)o), bad);
                else if (drop_shows(hk->threads != GB_WM_THREADS, drop, c->K, hk->bk))
                    EMU_CHECK(bad > 0, "%s %dx%dx%d %s: barrier %d removed, yet right", hk->name,
                              c->M, c->N, c->K, emu_order_name((enum emu_order)o), drop);
            }
        }
    }
    return runs;
}

/* ref (M×N) = A (M×K, lda) · B (K×N, ldb) in double, the tensor-core twins' reference. */
static void ref_nn(const float *A, int lda, const float *B, int ldb, int M, int N, int K,
                   double *ref) {
    int i, j, l;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            double r = 0;
            for (l = 0; l < K; l++)
                r += (double)A[(size_t)i * lda + l] * B[(size_t)l * ldb + j];
            ref[(size_t)i * N + j] = r;
        }
}

/* The elements of C's row padding (columns N to ldc, poisoned with NaN) a kernel wrote. */
static long pad_written(const float *C, int M, int N, int ldc) {
    long bad = 0;
    int i, j;
    for (i = 0; i < M; i++)
        for (j = N; j < ldc; j++)
            bad += !isnan(C[(size_t)i * ldc + j]);
    return bad;
}

/* --- BF16 and TF32 tensor cores (wmma.cuh's other tiers: their twins) ------------------ */
struct w80_args {
    int tf32;
    int M, N, K, lda, ldb, ldc;
    const void *A, *B;
    float *C;
};

static void w80_body(void *p) {
    const struct w80_args *a = p;
    if (a->tf32)
        gb_tgemm_wmma_64x64(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    else
        gb_bgemm_wmma_64x64(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
}

/* A rows×cols operand (ld, n stored floats from base + off) in [-1, 1), rounded to BF16 unless
 * tf32 (the tf32 tier hands FP32 values to the device, which rounds them), NaN outside. */
static void w80_fill(float *x, size_t n, size_t off, int rows, int cols, int ld, int tf32,
                     uint64_t seed) {
    size_t i;
    emu_fill(x, n, seed, -1.0f, 1.0f);
    for (i = 0; i < n; i++) {
        long e = (long)i - (long)off;
        if (e < 0 || e >= (long)rows * ld || e % ld >= cols)
            x[i] = NAN; /* a read past an edge poisons C */
        else if (!tf32)
            x[i] = __bfloat162float(__float2bfloat16(x[i]));
    }
}

/* One case of the BF16 (tf32 = 0) or TF32 twin against a double reference of the tier's
 * operands with the tier's tolerance (verify_tol); returns the wrong elements (or -1). misalign
 * shifts A and B by one element: no paired load on even rows. */
static long run_w80case(int tf32, const struct gemm_case *c, enum emu_order order, int report) {
    const int M = c->M, N = c->N, K = c->K;
    const int lda = K + c->pad, ldb = N + c->pad, ldc = N + c->pad;
    const size_t na = (size_t)M * lda + 4, nb = (size_t)K * ldb + 4;
    float *fa = emu_alloc(na * sizeof(float)), *fb = emu_alloc(nb * sizeof(float));
    __nv_bfloat16 *ba = emu_alloc(na * sizeof *ba), *bb = emu_alloc(nb * sizeof *bb);
    float *C = emu_alloc(((size_t)M * ldc + 1) * sizeof(float));
    double *ref = emu_alloc(((size_t)M * N + 1) * sizeof(double));
    const float *A = fa + c->misalign, *B = fb + c->misalign;
    struct w80_args args = {tf32, M, N, K, lda, ldb, ldc, NULL, NULL, C};
    struct tol tol = verify_tol(tf32 ? DT_TF32 : DT_BF16, K, 1.0, 0); /* |a·b| ≤ 1 */
    dim3 grid = emu_dim3(1, 1, 1);
    long bad = 0;
    size_t e;
    w80_fill(fa, na, (size_t)c->misalign, M, K, lda, tf32, 41);
    w80_fill(fb, nb, (size_t)c->misalign, K, N, ldb, tf32, 42);
    for (e = 0; e < na; e++)
        ba[e] = __float2bfloat16(fa[e]);
    for (e = 0; e < nb; e++)
        bb[e] = __float2bfloat16(fb[e]);
    args.A = tf32 ? (const void *)A : (const void *)(ba + c->misalign);
    args.B = tf32 ? (const void *)B : (const void *)(bb + c->misalign);
    emu_poison(C, (size_t)M * ldc + 1);
    ref_nn(A, lda, B, ldb, M, N, K, ref);
    if (gb_wm_grid(M, N, &grid.x, &grid.y) != 0 ||
        emu_launch(grid, emu_dim3(GB_WM_THREADS, 1, 1), 0, order, 99, w80_body, &args))
        bad = -1;
    else {
        bad = count_bad(C, ldc, ref, M, N, tol, report);
        if (bad == 0)
            bad = pad_written(C, M, N, ldc);
        /* the tf32 twin rounds its operands as the tensor cores do: its C is too coarse for the
         * FP32 tier's tolerance (K ≥ 32: enough terms that the rounding shows) */
        if (tf32 && bad == 0 && K >= 32 && M * N >= 64 && order == EMU_FORWARD &&
            !GB_TEST_DROP_BARRIER)
            EMU_CHECK(count_bad(C, ldc, ref, M, N, verify_tol(DT_F32, K, 1.0, 0), 0) > 0,
                      "gb_tgemm_wmma_64x64 (twin) %dx%dx%d: passes the FP32 tolerance, so it does "
                      "not round to TF32",
                      M, N, K);
    }
    free(fa), free(fb), free(ba), free(bb), free(C), free(ref);
    return bad;
}

/* Both twins, from sm_80, on every case in every order; with a barrier dropped, every case that
 * uses it must fail (barrier 2: two slices or more). Returns the number of launches. */
static int w80_cases(const struct gemm_case *cases, int ncases, int drop) {
    int tf32, ci, o, runs = 0;
    if (GB_ARCH < GB_WMMA_80_MIN_ARCH)
        return 0;
    for (tf32 = 0; tf32 < 2; tf32++)
        for (ci = 0; ci < ncases; ci++) {
            const struct gemm_case *c = &cases[ci];
            const char *name = tf32 ? "gb_tgemm_wmma_64x64" : "gb_bgemm_wmma_64x64";
            if (drop && (c->M < 32 || c->N < 32 || c->K == 0))
                continue;
            for (o = 0; o < EMU_ORDERS; o++) {
                long bad = run_w80case(tf32, c, (enum emu_order)o, !drop);
                runs++;
                EMU_CHECK(bad >= 0, "emulation failed");
                if (drop == 0)
                    EMU_CHECK(bad == 0, "%s (twin) %dx%dx%d pad %d misalign %d %s: %ld wrong",
                              name, c->M, c->N, c->K, c->pad, c->misalign,
                              emu_order_name((enum emu_order)o), bad);
                else if (drop == 1 || c->K > GB_WM_BK)
                    EMU_CHECK(bad > 0, "%s (twin) %dx%dx%d %s: barrier %d removed, yet right",
                              name, c->M, c->N, c->K, emu_order_name((enum emu_order)o), drop);
            }
        }
    return runs;
}

/* The twin's TF32 rounding is the hardware's cvt.rna.tf32.f32: to nearest, ties away from
 * zero, 10 mantissa bits kept; infinities and NaN pass. */
static void tf32_round_checks(void) {
    const float one = 1.0f, ulp = 0x1p-10f; /* TF32's unit in the last place at 1 */
    EMU_CHECK(gb_wm_tf32_bits(one + ulp * 0.5f) == one + ulp &&
                  gb_wm_tf32_bits(-(one + ulp * 0.5f)) == -(one + ulp) &&
                  gb_wm_tf32_bits(one + ulp * 0.49f) == one &&
                  gb_wm_tf32_bits(one + ulp * 1.5f) == one + 2 * ulp &&
                  gb_wm_tf32_bits(one + ulp) == one + ulp && gb_wm_tf32_bits(INFINITY) == INFINITY &&
                  isnan(gb_wm_tf32_bits(NAN)),
              "gb_wm_tf32_bits does not round to TF32 as cvt.rna does");
}

/* A tensor-core kernel's grid (bm×bn tiles): M×N covered, no block wholly outside, at shapes on
 * and off the tile, and refused beyond 65535 rows of blocks. */
static void grid_checks(const char *what, int (*grid)(int, int, unsigned *, unsigned *), int bm,
                        int bn) {
    const int shapes[][2] = {{1, 1}, {bm, bn}, {bm + 1, bn - 1}, {2 * bm - 1, 2 * bn + 1},
                             {1000, 3}};
    int i;
    for (i = 0; i < 5; i++) {
        unsigned gx = 0, gy = 0;
        const int M = shapes[i][0], N = shapes[i][1];
        EMU_CHECK(grid(M, N, &gx, &gy) == 0 && (long)gx * bn >= N && (long)(gx - 1) * bn < N &&
                      (long)gy * bm >= M && (long)(gy - 1) * bm < M,
                  "%s: grid %ux%u for %dx%d", what, gx, gy, M, N);
    }
    EMU_CHECK(grid(65536 * bm, 1, &(unsigned){0}, &(unsigned){0}) == -1,
              "%s: a grid beyond 65535 rows of blocks is accepted", what);
}

/* The tensor-core kernel's index arithmetic (wmma.cuh), which the emulation cannot check through
 * real fragments: the 4 warps' 2×2 fragments tile the 64×64 block once; the 128 threads' 8 pairs
 * cover each 64×32 slice of A and 32×64 slice of B once; the 32 lanes' 8 elements cover a 16×16
 * fragment once; the pair test pads exactly the outside; the grid covers M×N with no block
 * wholly outside. */
static void wmma_index_checks(void) {
    static unsigned char seen[GB_WM_BM][GB_WM_BN];
    int w, i, j, r, c, q, t, rr, cc, bad = 0;
    memset(seen, 0, sizeof seen);
    for (w = 0; w < GB_WM_WARPS; w++)
        for (i = 0; i < 2; i++)
            for (j = 0; j < 2; j++) {
                gb_wm_frag_origin(w, i, j, &r, &c);
                for (rr = 0; rr < GB_WM_F; rr++)
                    for (cc = 0; cc < GB_WM_F; cc++)
                        if (r + rr < GB_WM_BM && c + cc < GB_WM_BN)
                            seen[r + rr][c + cc]++;
                        else
                            bad++;
            }
    for (r = 0; r < GB_WM_BM; r++)
        for (c = 0; c < GB_WM_BN; c++)
            bad += seen[r][c] != 1;
    EMU_CHECK(bad == 0, "wmma: fragments do not tile the block once (%d)", bad);
    for (t = 0; t < 2; t++) { /* A's slice (64×32), then B's (32×64) */
        const int rows = t ? GB_WM_BK : GB_WM_BM, cols = t ? GB_WM_BN : GB_WM_BK;
        memset(seen, 0, sizeof seen);
        bad = 0;
        for (i = 0; i < GB_WM_THREADS; i++)
            for (q = 0; q < GB_WM_PAIRS; q++) {
                gb_wm_pair(i + q * GB_WM_THREADS, cols, &r, &c);
                if (r < rows && c + 1 < cols && c % 2 == 0)
                    seen[r][c]++, seen[r][c + 1]++;
                else
                    bad++;
            }
        for (r = 0; r < rows; r++)
            for (c = 0; c < cols; c++)
                bad += seen[r][c] != 1;
        EMU_CHECK(bad == 0, "wmma: the pairs do not cover the %s slice once (%d)", t ? "B" : "A",
                  bad);
    }
    bad = frag_cover_misses(gb_wm_frag_elem, GB_WM_PER_LANE, GB_WM_F);
    EMU_CHECK(bad == 0, "wmma: the lanes do not copy a fragment once (%d)", bad);
    /* 7 columns: (0,1) and (2,3), (4,5) inside, (6,7) straddles, (8,9) outside; row 5 of 5 out */
    EMU_CHECK(gb_wm_pair_inside(4, 0, 5, 7) == 2 && gb_wm_pair_inside(4, 6, 5, 7) == 1 &&
                  gb_wm_pair_inside(4, 8, 5, 7) == 0 && gb_wm_pair_inside(5, 0, 5, 7) == 0,
              "wmma: gb_wm_pair_inside pads the wrong elements");
    grid_checks("wmma", gb_wm_grid, GB_WM_BM, GB_WM_BN);
}

/* --- Hopper: wgmma with TMA (wgmma.cuh): its twin and its index arithmetic ---------------- */
struct wg_args {
    int bf16, M, N, K, ldc;
    struct gb_wg_tmap ta, tb;
    float *C;
};

static void wg_body(void *p) {
    const struct wg_args *a = p;
    if (a->bf16)
        gb_bgemm_wgmma_128x128(a->ta, a->tb, a->M, a->N, a->K, a->C, a->ldc);
    else
        gb_hgemm_wgmma_128x128(a->ta, a->tb, a->M, a->N, a->K, a->C, a->ldc);
}

/* A rows×cols operand of the tier (ld elements a row, n stored) in [-1, 1) as 16-bit bits in
 * x16 and their values in xf; NaN outside the matrix (the padding of each row and past the
 * end): TMA's box must read zeros there, never the memory beyond the tensor's sizes. */
static void wg_fill(uint16_t *x16, float *xf, size_t n, int rows, int cols, int ld, int bf16,
                    uint64_t seed) {
    size_t i;
    emu_fill(xf, n, seed, -1.0f, 1.0f);
    for (i = 0; i < n; i++) {
        const int inside = i < (size_t)rows * ld && (int)(i % (size_t)ld) < cols;
        float v = inside ? xf[i] : NAN;
        if (bf16) {
            __nv_bfloat16 b = __float2bfloat16(v);
            memcpy(&x16[i], &b, 2);
            xf[i] = __bfloat162float(b);
        } else {
            __half h = __float2half_rn(v);
            memcpy(&x16[i], &h, 2);
            xf[i] = __half2float(h);
        }
    }
}

/* the mma.sync kernels' checks (mma_cases, mma_index_checks) */
#include "kernels/gemm/test_emu_mma.h"

/* One case of a wgmma twin, before and after its launch (run_wgcase, and run_wpcase of
 * test_emu_persist.h): the tier's operands A (M×K) and B (K×N) filled by wg_fill (seeds sa, sb),
 * their tensor maps, C poisoned, the double reference and the tier's tolerance. Leading
 * dimensions as TMA needs them (multiples of 8: the columns rounded up, plus 8·pad), C's any
 * (N + pad), starting c->misalign floats past its buffer's (8-byte aligned) start. */
struct wg_case {
    int M, N, K, ldc;
    uint16_t *a16, *b16;
    float *af, *bf, *C, *cbuf;
    double *ref;
    struct tol tol;
    struct gb_wg_tmap ta, tb;
};

static void wg_case_open(struct wg_case *w, int bf16, const struct gemm_case *c, uint64_t sa,
                         uint64_t sb) {
    const int M = c->M, N = c->N, K = c->K;
    const int lda = (K + 7) / 8 * 8 + 8 * c->pad, ldb = (N + 7) / 8 * 8 + 8 * c->pad;
    const size_t na = (size_t)M * lda + 8, nb = (size_t)K * ldb + 8;
    w->M = M, w->N = N, w->K = K, w->ldc = N + c->pad;
    w->a16 = emu_alloc(na * 2 + 16), w->b16 = emu_alloc(nb * 2 + 16);
    w->af = emu_alloc(na * sizeof(float)), w->bf = emu_alloc(nb * sizeof(float));
    w->cbuf = emu_alloc(((size_t)M * w->ldc + 1 + (size_t)c->misalign) * sizeof(float));
    w->C = w->cbuf + c->misalign;
    w->ref = emu_alloc(((size_t)M * N + 1) * sizeof(double));
    w->tol = verify_tol(bf16 ? DT_BF16 : DT_F16, K, 1.0, 0); /* |a·b| ≤ 1 */
    wg_fill(w->a16, w->af, na, M, K, lda, bf16, sa);
    wg_fill(w->b16, w->bf, nb, K, N, ldb, bf16, sb);
    EMU_CHECK(gb_wg_tma_ok(w->a16, lda) && gb_wg_tma_ok(w->b16, ldb),
              "wgmma: operands TMA cannot read");
    gb_wg_tmap_a(&w->ta, w->a16, M, K, lda);
    gb_wg_tmap_b(&w->tb, w->b16, K, N, ldb);
    emu_poison(w->C, (size_t)M * w->ldc + 1);
    ref_nn(w->af, lda, w->bf, ldb, M, N, K, w->ref);
}

/* After the launch (launched: it ran): the wrong elements of C, or the row padding and the
 * element past the end it wrote, or -1; frees the case. */
static long wg_case_close(struct wg_case *w, int launched, int report) {
    long bad = -1;
    if (launched) {
        bad = count_bad(w->C, w->ldc, w->ref, w->M, w->N, w->tol, report);
        if (bad == 0)
            bad = pad_written(w->C, w->M, w->N, w->ldc) + !isnan(w->C[(size_t)w->M * w->ldc]);
    }
    free(w->a16), free(w->b16), free(w->af), free(w->bf), free(w->cbuf), free(w->ref);
    return bad;
}

/* One case of the f16 or bf16 twin against a double reference with the tier's tolerance;
 * returns the wrong elements (or -1). */
static long run_wgcase(int bf16, const struct gemm_case *c, enum emu_order order, int report) {
    struct wg_case w;
    struct wg_args args;
    dim3 grid = emu_dim3(1, 1, 1);
    int ok;
    wg_case_open(&w, bf16, c, 51, 52);
    args.bf16 = bf16, args.M = w.M, args.N = w.N, args.K = w.K, args.ldc = w.ldc, args.C = w.C;
    args.ta = w.ta, args.tb = w.tb;
    ok = gb_wg_grid(w.M, w.N, &grid.x, &grid.y) == 0 &&
         emu_launch(grid, emu_dim3(GB_WG_THREADS, 1, 1), GB_WG_SMEM, order, 99, wg_body, &args) ==
             0;
    return wg_case_close(&w, ok, report);
}

/* Both tiers' twins on every case in every order (the unmodified kernels only: the twin's
 * barriers are not the tiled kernels' numbered ones). Returns the number of launches. */
static int wg_cases(const struct gemm_case *cases, int ncases, int drop) {
    int bf16, ci, o, runs = 0;
    if (drop)
        return 0;
    for (bf16 = 0; bf16 < 2; bf16++)
        for (ci = 0; ci < ncases; ci++) {
            const struct gemm_case *c = &cases[ci];
            for (o = 0; o < EMU_ORDERS; o++) {
                long bad = run_wgcase(bf16, c, (enum emu_order)o, 1);
                runs++;
                EMU_CHECK(bad == 0, "%s (twin) %dx%dx%d pad %d %s: %ld wrong",
                          bf16 ? "gb_bgemm_wgmma_128x128" : "gb_hgemm_wgmma_128x128", c->M, c->N,
                          c->K, c->pad, emu_order_name((enum emu_order)o), bad);
            }
        }
    return runs;
}

/* the persistent 128×256 kernel's twin and models (wp_cases, wgmma_persist_checks) */
#include "kernels/gemm/test_emu_persist.h"
/* tf32 on wgmma: the pass and the twin, the layout model (wt_cases, wt_layout_checks) */
#include "kernels/gemm/test_emu_wgmma_tf32.h"
/* the wgmma kernels' paired epilogue: pairs where C allows, singles where not (wg_epi_cases) */
#include "kernels/gemm/test_emu_wgmma_epi.h"

/* The index arithmetic of wgmma.cuh on its own: the swizzle (its known pattern, an involution
 * on each 1024-byte atom that keeps 16-byte chunks whole), the descriptor's fields (PTX ISA
 * "Matrix Descriptor Format": bit positions of a known value, and the decode of every
 * descriptor the kernel builds), the descriptors' layouts (A's and B's operands of every stage,
 * consumer and step cover their part of the stage once, inside it), the D fragment layout (each
 * warpgroup's 64×128 tile once), the TMA twin's box (zero outside, swizzled inside), the phase
 * parities and the grid. */
static void wgmma_index_checks(void) {
    static unsigned char seen[GB_WG_STAGES * GB_WG_STAGE_BYTES];
    int s, c, kk, r, k, n, w, lane, i, bad = 0;
    unsigned off;
    /* the swizzle: row 0 unchanged, row 1's chunk 0 ↔ 1, row 7's chunk 0 ↔ 7, bytes within a
     * chunk kept, the next atom the same pattern */
    EMU_CHECK(gb_wg_swizzle128(0) == 0 && gb_wg_swizzle128(5) == 5 &&
                  gb_wg_swizzle128(128) == 128 + 16 && gb_wg_swizzle128(128 + 16) == 128 &&
                  gb_wg_swizzle128(7 * 128 + 3) == 7 * 128 + 7 * 16 + 3 &&
                  gb_wg_swizzle128(1024 + 128 + 16 * 2) == 1024 + 128 + 16 * 3,
              "wgmma: gb_wg_swizzle128 is not the 128-byte swizzle");
    for (off = 0; off < 2048; off++) {
        const unsigned x = gb_wg_swizzle128(off);
        bad += gb_wg_swizzle128(x) != off || x / 1024 != off / 1024 || x % 16 != off % 16 ||
               x / 128 != off / 128;
    }
    EMU_CHECK(bad == 0, "wgmma: the swizzle leaves its row or atom, or is not an involution (%d)",
              bad);
    /* the descriptor: address 0x1400 → 0x140 in bits 0–13, LBO 8192 → 0x200 at 16, SBO 1024
     * → 0x40 at 32, base offset 0, swizzle mode 1 (128-byte) in bits 62–63 */
    EMU_CHECK(gb_wg_desc(0x1400, 8192, 1024) ==
                  (0x140ULL | 0x200ULL << 16 | 0x40ULL << 32 | 1ULL << 62),
              "wgmma: descriptor bits %#llx", gb_wg_desc(0x1400, 8192, 1024));
    {
        const struct gb_wg_desc_fields f = gb_wg_desc_decode(gb_wg_desc(0x3fff0, 0x3fff0, 16));
        EMU_CHECK(f.addr == 0x3fff0 && f.lbo == 0x3fff0 && f.sbo == 16 && f.base_offset == 0 &&
                      f.swizzle == GB_WG_SWIZZLE_128B,
                  "wgmma: descriptor fields do not round-trip at their widths");
    }
    /* every stage × consumer × step: A's 64×16 operand within consumer c's rows of stage s's A
     * tile, B's 16×128 within its B, each element once over the 4 steps (then the slice is
     * covered once) */
    memset(seen, 0, sizeof seen);
    bad = 0;
    for (s = 0; s < GB_WG_STAGES; s++) {
        const unsigned a0 = (unsigned)(s * GB_WG_STAGE_BYTES), b0 = a0 + GB_WG_A_BYTES;
        for (kk = 0; kk < GB_WG_BK / GB_WG_MK; kk++) {
            const struct gb_wg_desc_fields fb = gb_wg_desc_decode(gb_wg_desc_b(s, kk));
            bad += fb.base_offset != 0 || fb.swizzle != GB_WG_SWIZZLE_128B;
            for (c = 0; c < GB_WG_CONSUMERS; c++) {
                const struct gb_wg_desc_fields fa = gb_wg_desc_decode(gb_wg_desc_a(s, c, kk));
                bad += fa.base_offset != 0 || fa.swizzle != GB_WG_SWIZZLE_128B;
                for (r = 0; r < 64; r++)
                    for (k = 0; k < GB_WG_MK; k++) {
                        off = gb_wg_swizzle128(gb_wg_kmajor_offset(fa, r, k));
                        /* element (64c + r, 16kk + k) of the TMA box: row-major, swizzled */
                        bad += off != a0 + gb_wg_swizzle128(
                                               (unsigned)((64 * c + r) * 128 + (16 * kk + k) * 2));
                        if (off >= a0 && off + 1 < b0)
                            seen[off]++, seen[off + 1]++;
                        else
                            bad++;
                    }
            }
            for (k = 0; k < GB_WG_MK; k++)
                for (n = 0; n < GB_WG_BN; n++) {
                    off = gb_wg_swizzle128(gb_wg_mnmajor_offset(fb, k, n));
                    /* element (16kk + k, n) of box n / 64 of B: row-major, swizzled */
                    bad += off !=
                           b0 + (unsigned)(n / 64) * GB_WG_B_BOX_BYTES +
                               gb_wg_swizzle128((unsigned)((16 * kk + k) * 128 + (n % 64) * 2)) -
                               0u;
                    if (off >= b0 && off + 1 < a0 + GB_WG_STAGE_BYTES)
                        seen[off]++, seen[off + 1]++;
                    else
                        bad++;
                }
        }
    }
    for (off = 0; off < sizeof seen; off++)
        bad += seen[off] != 1;
    EMU_CHECK(bad == 0, "wgmma: the descriptors do not read each stage's tiles once (%d)", bad);
    /* D layout: the 4 warps × 32 lanes × 64 elements cover 64×128 once */
    {
        static unsigned char d[64][GB_WG_BN];
        memset(d, 0, sizeof d);
        bad = 0;
        for (w = 0; w < 4; w++)
            for (lane = 0; lane < 32; lane++)
                for (i = 0; i < GB_WG_ACC; i++) {
                    gb_wg_d_elem(w, lane, i, &r, &c);
                    if (r >= 0 && r < 64 && c >= 0 && c < GB_WG_BN)
                        d[r][c]++;
                    else
                        bad++;
                }
        for (r = 0; r < 64; r++)
            for (c = 0; c < GB_WG_BN; c++)
                bad += d[r][c] != 1;
        gb_wg_d_elem(1, 6, 5, &r, &c); /* g = 1, t = 2, j = 1, q = 1: row 17, column 13 */
        bad += r != 17 || c != 13;
        gb_wg_d_elem(3, 31, 63, &r, &c); /* g = 7, t = 3, j = 15, q = 3: row 63, column 127 */
        bad += r != 63 || c != 127;
        EMU_CHECK(bad == 0, "wgmma: the D fragment layout does not cover 64x128 once (%d)", bad);
    }
    /* the TMA twin: a 3×5 tensor of 2-byte elements (stride 16 bytes), the box at (−1, 1) of
     * 64×8: zero left of and below the tensor, the tensor's elements inside, swizzled rows */
    {
        static uint16_t g[3 * 8];
        static unsigned char box[GB_WG_ATOM];
        struct gb_wg_tmap t;
        uint16_t v;
        for (i = 0; i < 3 * 8; i++)
            g[i] = (uint16_t)(100 + i);
        gb_wg_tmap_2d(&t, g, 3, 5, 8, 64, 8);
        memset(box, 0xff, sizeof box);
        gb_wg_tma_box(&t, -1, 1, box, 0);
        bad = 0;
        for (r = 0; r < 8; r++)
            for (c = 0; c < 64; c++) {
                const int gy = 1 + r, gx = c - 1;
                const uint16_t want =
                    gy < 3 && gx >= 0 && gx < 5 ? (uint16_t)(100 + gy * 8 + gx) : 0;
                memcpy(&v, box + gb_wg_swizzle128((unsigned)(r * 128 + c * 2)), 2);
                bad += v != want;
            }
        EMU_CHECK(bad == 0, "wgmma: the TMA twin's box is wrong (%d)", bad);
    }
    /* the boxes issued and the bytes expected (issue 46): for every N from 1 to 600 and column
     * tile n0, the "full" barrier expects what the issued boxes deliver (A's, B's at n0, B's at
     * n0 + 64 where it holds a column), and a box not issued holds no stored column */
    {
        struct gb_wg_tmap ta, tb;
        int n, n0;
        bad = 0;
        gb_wg_tmap_a(&ta, (void *)(size_t)256, 1000, 1000, 1000);
        gb_wg_tmap_b(&tb, (void *)(size_t)256, 1000, 1000, 1000);
        for (n = 1; n <= 600; n++)
            for (n0 = 0; n0 < n; n0 += GB_WG_BN) {
                const int second = gb_wg_box_in((long)n0 + GB_WG_BOX_N, n);
                const unsigned bytes =
                    ta.box[0] * ta.box[1] * ta.elem_bytes +
                    (1u + (unsigned)second) * tb.box[0] * tb.box[1] * tb.elem_bytes;
                bad += bytes != gb_wg_stage_tx(n, n0) || (!second && n0 + GB_WG_BOX_N < n);
            }
        EMU_CHECK(bad == 0 && gb_wg_stage_tx(4096, 0) == GB_WG_STAGE_BYTES &&
                      gb_wg_stage_tx(136, 128) == GB_WG_A_BYTES + GB_WG_B_BOX_BYTES,
                  "wgmma: the full barrier expects other bytes than the issued boxes deliver (%d)",
                  bad);
    }
    /* phases: slice kt waits for phase kt / stages of its stage's "full" barrier; the producer
     * reuses a stage once the previous use's "empty" phase has completed */
    EMU_CHECK(
        gb_wg_full_parity(0) == 0 && gb_wg_full_parity(GB_WG_STAGES - 1) == 0 &&
            gb_wg_full_parity(GB_WG_STAGES) == 1 && gb_wg_full_parity(2 * GB_WG_STAGES) == 0 &&
            gb_wg_empty_parity(GB_WG_STAGES) == 0 && gb_wg_empty_parity(2 * GB_WG_STAGES + 1) == 1,
        "wgmma: mbarrier phase parities");
    grid_checks("wgmma", gb_wg_grid, GB_WG_BM, GB_WG_BN);
    /* the host's choice: sm_90a code on a 9.0 card only; TMA's alignment rules */
    EMU_CHECK(gb_wg_body_at(1, 90, 1) && !gb_wg_body_at(1, 90, 0) && !gb_wg_body_at(0, 90, 1) &&
                  !gb_wg_body_at(1, 100, 1) && !gb_wg_body_at(1, 80, 0),
              "wgmma: body taken or refused at the wrong code");
    EMU_CHECK(gb_wg_tma_ok((void *)(size_t)256, 8) && !gb_wg_tma_ok((void *)(size_t)258, 8) &&
                  !gb_wg_tma_ok((void *)(size_t)256, 12),
              "wgmma: TMA's alignment rules");
}

int main(void) {
    /* None a multiple of 64 or 128 in M or N, nor of 8 or 16 in K. pad 0 with K % 4 == 0 and
     * aligned bases takes the float4 paths for A (and B when N % 4 == 0); misalign forces the
     * scalar ones; 1×N and M×1 exercise the thinnest edges. */
    static const struct gemm_case cases[] = {
        {37, 45, 53, 0, 0},   /* the example: one tile, ragged everywhere */
        {36, 44, 52, 0, 0},   /* float4 loads and stores with partial tiles */
        {130, 133, 19, 0, 0}, /* 2×2 tiles of 128 (3×3 of 64), 3 slices of K */
        {132, 68, 20, 3, 0},  /* padded leading dimensions */
        {67, 70, 36, 0, 1},   /* multiples of 4 but misaligned bases: scalar paths */
        {1, 129, 9, 0, 0},    {65, 1, 17, 0, 0}, {3, 70, 0, 0, 0}, /* K = 0: C = 0 */
    };
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    const int drop = GB_TEST_DROP_BARRIER;
    int cfg, v, ci, o, runs = 0;
    clock_t t0 = clock();

    const int ncfg = GB_ARCH >= 350 ? 2 : 1; /* 128×128 exists from sm_35 */

    for (cfg = 0; cfg < ncfg; cfg++)
        for (v = 0; v < 3; v++)
            for (ci = 0; ci < ncases; ci++) {
                const struct gemm_case *c = &cases[ci];
                /* a missing barrier shows where several threads share the tiles */
                if (drop && (c->M < 32 || c->N < 32))
                    continue;
                for (o = 0; o < EMU_ORDERS; o++) {
                    long bad = run_case(cfg, v, c, (enum emu_order)o, !drop);
                    runs++;
                    EMU_CHECK(bad >= 0, "emulation failed");
                    if (drop == 0)
                        EMU_CHECK(bad == 0, "%s_%s %dx%dx%d pad %d misalign %d %s: %ld wrong",
                                  cfg ? "gb_sgemm_128x128" : "gb_sgemm_64x64", variant_names[v],
                                  c->M, c->N, c->K, c->pad, c->misalign,
                                  emu_order_name((enum emu_order)o), bad);
                    else if (drop_shows(1, drop, c->K, cfg ? 8 : 16))
                        EMU_CHECK(bad > 0,
                                  "%s_%s %dx%dx%d %s: barrier %d removed, yet the result is "
                                  "right: the emulation would not catch it",
                                  cfg ? "gb_sgemm_128x128" : "gb_sgemm_64x64", variant_names[v],
                                  c->M, c->N, c->K, emu_order_name((enum emu_order)o), drop);
                }
            }
    runs += dgemm_cases(cases, ncases, drop);
    {
        /* odd everything: 1×1×1, ragged single tiles, odd k and n (half2 pairs straddling the
         * edge, odd rows of B shifted), 2×2 tiles of 128, 8-byte loads with partial tiles,
         * misaligned bases with odd padded leading dimensions, K = 0, k = 1 with leading
         * dimensions not multiples of 8 */
        static const struct gemm_case hcases[] = {
            {1, 1, 1, 0, 0},    {33, 17, 65, 0, 0}, {127, 129, 31, 0, 0}, {130, 133, 19, 0, 0},
            {36, 44, 52, 0, 0}, {67, 70, 36, 3, 1}, {40, 37, 33, 0, 1},   {3, 70, 0, 0, 0},
            {65, 63, 1, 5, 0},
        };
        runs += hgemm_cases(hcases, (int)(sizeof hcases / sizeof hcases[0]), drop);
    }
    {
        /* the DMMA twin: 1×1×1, k = 1 with ld not a multiple of 8, one full slice, many slices
         * (both buffers reused), exact tiles, ragged edges with padded leading dimensions */
        static const struct gemm_case dcases[] = {
            {1, 1, 1, 0, 0},     {65, 63, 1, 5, 0},   {33, 40, 16, 0, 0}, {64, 64, 64, 0, 0},
            {127, 129, 53, 3, 0}, {70, 9, 100, 1, 0}, {40, 37, 33, 7, 0}, {3, 70, 0, 0, 0},
        };
        runs += dmma_cases(dcases, (int)(sizeof dcases / sizeof dcases[0]), drop);
        runs += dgemm_cases(dcases, (int)(sizeof dcases / sizeof dcases[0]), drop); /* SIMT too */
        runs += dmma_cases(cases, ncases, drop);
    }
    {
        /* the m16n8k16 .f64 twin: 1×1×1, k = 1 with ragged edges, K below one slice, one exact
         * slice, 3 slices (those in flight) and 4 (the stages), many (stages reused) on 2×3
         * ragged tiles, thin edges, K = 0; padded leading dimensions */
        static const struct gemm_case d16cases[] = {
            {1, 1, 1, 0, 0},      {129, 65, 1, 5, 0},    {130, 129, 15, 3, 0},
            {128, 128, 16, 0, 0}, {70, 140, 48, 1, 0},   {129, 257, 64, 2, 0},
            {40, 37, 100, 7, 0},  {1, 130, 33, 0, 0},    {3, 70, 0, 0, 0},
        };
        runs += dmma16_cases(d16cases, (int)(sizeof d16cases / sizeof d16cases[0]), drop);
    }
    {
        /* the BF16 and TF32 twins: 1×1×1, k = 1 with ld not a multiple of 8, ragged edges with
         * padded leading dimensions, misaligned bases (no paired loads), one and many slices,
         * exact tiles, K = 0 */
        static const struct gemm_case wcases[] = {
            {1, 1, 1, 0, 0},    {65, 63, 1, 5, 0},    {33, 17, 65, 0, 0}, {127, 129, 31, 3, 0},
            {40, 37, 33, 0, 1}, {64, 64, 64, 0, 0},   {67, 70, 36, 3, 1}, {3, 70, 0, 0, 0},
        };
        runs += w80_cases(wcases, (int)(sizeof wcases / sizeof wcases[0]), drop);
    }
    /* The DGEMM tile the launcher picks (gb_dgemm_tile): 32 before sm_35; 128 for products with
     * a 128×128 tile per multiprocessor, else 64; never 128 where that kernel is a trap (sm_53/62:
     * GB_DGEMM_NO_128), and the kernel is a trap nowhere else from sm_35. */
    EMU_CHECK(gb_dgemm_tile(30, 1, 4096, 4096) == 32 && gb_dgemm_tile(35, 15, 4096, 4096) == 128 &&
                  gb_dgemm_tile(90, 132, 1024, 1024) == 64 &&
                  gb_dgemm_tile(90, 132, 2048, 2048) == 128 &&
                  gb_dgemm_tile(53, 2, 4096, 4096) == 64 && gb_dgemm_tile(62, 2, 4096, 4096) == 64 &&
                  gb_dgemm_tile(61, 2, 4096, 4096) == 128,
              "gb_dgemm_tile picks the wrong DGEMM tile");
    EMU_CHECK(GB_DGEMM_NO_128 == (gb_dgemm_tile(GB_ARCH / 10, 1, 4096, 4096) != 128),
              "gb_dgemm_tile(%d) disagrees with GB_DGEMM_NO_128", GB_ARCH / 10);
    {
        /* the mma.sync twins: 1×1×1, k = 1, k not a multiple of the slice (32; tf32 16) with
         * ragged 2×2 tiles and padded leading dimensions (ldc odd and even: the scalar and the
         * 8-byte stores), one slice and two (fewer than the 3 stages), many slices of exact
         * tiles, thin edges, K = 0 */
        static const struct gemm_case mcases[] = {
            {1, 1, 1, 0, 0},       {65, 63, 1, 5, 0},  {130, 133, 19, 4, 0}, {40, 37, 33, 1, 0},
            {128, 128, 128, 0, 0}, {129, 257, 72, 7, 0}, {1, 130, 9, 0, 0},  {3, 70, 0, 0, 0},
        };
        runs += mma_cases(mcases, (int)(sizeof mcases / sizeof mcases[0]), drop);
    }
    mma_index_checks();
    {
        /* the wgmma twins: 1×1×1, k = 1, k below one slice and below stages·64 (zero-filled
         * rest of the slice), exact tiles, many slices (stages reused), ragged edges with padded
         * leading dimensions, K = 0; N = 1, 60, 129, 136: B's second box of the last column tile
         * wholly outside, not issued (NaN in its place in the twin) */
        static const struct gemm_case gcases[] = {
            {1, 1, 1, 0, 0},       {130, 129, 1, 1, 0},   {70, 60, 50, 0, 0}, {128, 128, 64, 0, 0},
            {129, 257, 300, 1, 0}, {200, 140, 100, 2, 0}, {3, 70, 0, 0, 0}, {131, 136, 72, 0, 0},
        };
        runs += wg_cases(gcases, (int)(sizeof gcases / sizeof gcases[0]), drop);
        runs += wp_cases(drop);
        runs += wt_cases(drop);
        runs += wg_epi_cases(drop);
    }
    wmma_index_checks();
    wgmma_index_checks();
    wgmma_persist_checks();
    wt_layout_checks();
    wt_trunc_checks();
    dmma_index_checks();
    dmma16_index_checks();
    tf32_round_checks();
    /* The tensor-core kernels' host refusals (gb_hgemm_wmma_runs, gb_dgemm_dmma_runs) follow
     * their guards: WMMA from sm_70, DMMA from sm_80 code. */
    EMU_CHECK(!gb_hgemm_wmma_body_at(61) && gb_hgemm_wmma_body_at(70) &&
                  gb_hgemm_wmma_body_at(90) && !gb_dgemm_dmma_body_at(75) &&
                  gb_dgemm_dmma_body_at(80) && gb_dgemm_dmma_body_at(90) &&
                  !gb_wmma80_body_at(75) && gb_wmma80_body_at(80) && gb_wmma80_body_at(90),
              "tensor-core bodies taken or refused at the wrong architectures");
    EMU_CHECK(gb_dgemm_dmma_body_at(GB_ARCH / 10) == GB_DMMA_BODY &&
                  gb_hgemm_wmma_body_at(GB_ARCH / 10) == GB_WMMA_BODY,
              "gb_*_body_at(%d) disagrees with GB_DMMA_BODY / GB_WMMA_BODY", GB_ARCH / 10);
    /* The host's refusal (gb_hgemm_has_body, kernels/gemm/cuda.cu) follows the kernels' guard:
     * code below sm_53 has a trap for a body and must never be launched (issue 23's sm_53). */
    EMU_CHECK(!gb_hgemm_body_at(50) && !gb_hgemm_body_at(52), "FP16 body taken for sm_50/52 code");
    EMU_CHECK(gb_hgemm_body_at(53) && gb_hgemm_body_at(61) && gb_hgemm_body_at(90),
              "FP16 body refused for sm_53/61/90 code");
    EMU_CHECK(gb_hgemm_body_at(GB_ARCH / 10) == GB_HALF_BODY,
              "gb_hgemm_body_at(%d) disagrees with GB_HALF_BODY", GB_ARCH / 10);
    printf("%d emulated SGEMM, DGEMM (SIMT, DMMA twin), FP16 GEMM (half2, WMMA twin), BF16, "
           "TF32 GEMM (WMMA and mma.sync twins) and FP16, BF16, TF32 GEMM (wgmma twins) launches "
           "as for sm_%d "
           "(barrier removed: %d), "
           "%.0f ms, %d "
           "failures\n",
           runs, GB_ARCH / 10, drop, 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC,
           emu_failures);
    return emu_failures ? 1 : 0;
}
