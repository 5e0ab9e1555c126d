/* test_emu.c — the SGEMM kernels (kernels/gemm/kernels.cuh) on the CPU emulation,
 * against a double-precision reference: both tile configurations, C = A·B, Aᵀ·B and A·Bᵀ, on
 * shapes that are not multiples of the tiles (with and without the float4 paths), with the
 * threads of each block scheduled forward, in reverse and shuffled.
 *
 * Built for GB_EMU_ARCH 750 (the paths of current cards: register prefetch, both tiles) and 200
 * (Fermi's: no prefetch; the 128×128 kernels are traps there and are skipped).
 * Built again with GB_TEST_DROP_BARRIER=1 or 2 (one barrier of the main loop removed): then
 * every case must come out WRONG in every order — the proof that the emulation catches a missing
 * __syncthreads() rather than passing by luck of scheduling.
 *
 * Emulation builds: arch 750 200; drop-barrier 1 2
 */
#include "tests/emu/emu.h"

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
                    else if (drop == 1 || c->K > (cfg ? 8 : 16)) /* barrier 2: ≥ 2 slices */
                        EMU_CHECK(bad > 0,
                                  "%s_%s %dx%dx%d %s: barrier %d removed, yet the result is "
                                  "right: the emulation would not catch it",
                                  cfg ? "gb_sgemm_128x128" : "gb_sgemm_64x64", variant_names[v],
                                  c->M, c->N, c->K, emu_order_name((enum emu_order)o), drop);
                }
            }
    printf("%d emulated SGEMM launches as for sm_%d (barrier removed: %d), %.0f ms, %d failures\n",
           runs, GB_ARCH / 10, drop, 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC,
           emu_failures);
    return emu_failures ? 1 : 0;
}
