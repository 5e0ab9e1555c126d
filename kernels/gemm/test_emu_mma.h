/* test_emu_mma.h — kernels/gemm/test_emu.c's checks of the sm_80+ mma.sync kernels (mma.cuh),
 * in a file of their own; included by test_emu.c after its helpers (count_bad, struct
 * gemm_case), test-only.
 *
 * mma_cases: the five twins (f16, bf16, tf32 with 64×32 warps; f16, bf16 with 64×64 warps) on odd
 * shapes — m, n, k not multiples of the
 * tile, k = 1, k not a multiple of the slice, one slice and fewer slices than stages, many
 * slices, K = 0, padded leading dimensions (rounded up to the kernel's 16-byte rows), ldc odd —
 * with every element outside the matrices NaN (a chunk reads only its inside elements), against
 * a double reference of the tier's operands with the tier's tolerance (verify_tol); tf32's C must
 * fail the FP32 tolerance (it does round). With barrier 1 (the only one) dropped, wrong; with
 * barrier 2 dropped, right.
 *
 * mma_index_checks, for both warp shapes (64×32 with 256 threads, 64×64 with 128): the copies
 * cover every stage once; the warps' fragments tile the block once; the shared stores, ldmatrix
 * row reads and tf32 B loads are free of bank conflicts; the edge and alignment predicates; the
 * pick between the two; and a CPU model of ldmatrix (.x4 and .x4.trans, per the PTX ISA) over
 * the kernel's own copy placement and lane addresses, whose registers must equal the PTX ISA's
 * operand layouts of mma.m16n8k16 (f16/bf16) and m16n8k8 (tf32) — and must not when one lane's
 * address is off by a chunk or a row; and the native kernels' per-lane offsets plus their
 * constant steps (mm_offset_bad) equal those lane addresses.
 */
#ifndef GPUBENCH_GEMM_TEST_EMU_MMA_H
#define GPUBENCH_GEMM_TEST_EMU_MMA_H

#include <stdint.h>

/* --- the twins on the emulation ------------------------------------------------------------ */
enum { MM_F16, MM_BF16, MM_TF32 };
static const char *const mm_names[2][3] = {
    {"gb_hgemm_mma_128x128", "gb_bgemm_mma_128x128", "gb_tgemm_mma_128x128"},
    {"gb_hgemm_mma_128x128_w64", "gb_bgemm_mma_128x128_w64", NULL}};

/* warp tile columns of the 64×32 (w64 0) and 64×64 (w64 1) kernels */
static int mm_wn(int w64) {
    return w64 ? GB_MM_WN64 : GB_MM_WN;
}

struct mm_args {
    int tier, w64;
    int M, N, K, lda, ldb, ldc;
    const void *A, *B;
    float *C;
};

static void mm_body(void *p) {
    const struct mm_args *a = p;
    if (a->w64 && a->tier == MM_BF16)
        gb_bgemm_mma_128x128_w64(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    else if (a->w64)
        gb_hgemm_mma_128x128_w64(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    else if (a->tier == MM_TF32)
        gb_tgemm_mma_128x128(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    else if (a->tier == MM_BF16)
        gb_bgemm_mma_128x128(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    else
        gb_hgemm_mma_128x128(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
}

/* n values in [-1, 1) of the tier (FP16 or BF16 values; FP32 for tf32, which the kernel rounds),
 * every element outside the rows×cols matrix of leading dimension ld NaN. */
static void mm_fill(float *x, size_t n, int rows, int cols, int ld, int tier, uint64_t seed) {
    size_t i;
    emu_fill(x, n, seed, -1.0f, 1.0f);
    for (i = 0; i < n; i++) {
        if (i >= (size_t)rows * ld || (int)(i % ld) >= cols)
            x[i] = NAN;
        else if (tier == MM_F16)
            x[i] = __half2float(__float2half_rn(x[i]));
        else if (tier == MM_BF16)
            x[i] = __bfloat162float(__float2bfloat16(x[i]));
    }
}

/* The n values of x as the tier's elements at dst (FP16, BF16 or FP32). */
static void mm_to_tier(void *dst, const float *x, size_t n, int tier) {
    size_t e;
    for (e = 0; e < n; e++)
        if (tier == MM_TF32)
            ((float *)dst)[e] = x[e];
        else if (tier == MM_BF16)
            ((__nv_bfloat16 *)dst)[e] = __float2bfloat16(x[e]);
        else
            ((__half *)dst)[e] = __float2half_rn(x[e]);
}

/* One case of tier's twin (64×64 warps: w64); returns the wrong elements of C (or -1: emulation
 * failed). Leading dimensions of A and B: K + pad and N + pad rounded up to 16 bytes (the kernel's
 * contract, gb_mm_fits); ldc = N + pad. */
static long run_mmcase(int tier, int w64, const struct gemm_case *c, enum emu_order order,
                       int report) {
    const int M = c->M, N = c->N, K = c->K, ec = tier == MM_TF32 ? 4 : 8;
    const int lda = (K + c->pad + ec - 1) / ec * ec, ldb = (N + c->pad + ec - 1) / ec * ec;
    const int ldc = N + c->pad, es = tier == MM_TF32 ? 4 : 2;
    const size_t na = (size_t)M * lda + 8, nb = (size_t)K * ldb + 8;
    float *fa = emu_alloc(na * sizeof(float)), *fb = emu_alloc(nb * sizeof(float));
    void *ta = aligned_alloc(16, (na * es + 15) / 16 * 16);
    void *tb = aligned_alloc(16, (nb * es + 15) / 16 * 16);
    float *C = emu_alloc(((size_t)M * ldc + 1) * sizeof(float));
    double *ref = emu_alloc(((size_t)M * N + 1) * sizeof(double));
    struct mm_args args = {tier, w64, M, N, K, lda, ldb, ldc, ta, tb, C};
    struct tol tol = verify_tol(tier == MM_TF32   ? DT_TF32
                                : tier == MM_BF16 ? DT_BF16
                                                  : DT_F16,
                                K, 1.0, 0); /* |a·b| ≤ 1 */
    dim3 grid = emu_dim3(1, 1, 1);
    long bad = 0;
    int i, j, l;
    if (!ta || !tb) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    mm_fill(fa, na, M, K, lda, tier, 51);
    mm_fill(fb, nb, K, N, ldb, tier, 52);
    mm_to_tier(ta, fa, na, tier);
    mm_to_tier(tb, fb, nb, tier);
    emu_poison(C, (size_t)M * ldc + 1);
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            double r = 0;
            for (l = 0; l < K; l++)
                r += (double)fa[(size_t)i * lda + l] * fb[(size_t)l * ldb + j];
            ref[(size_t)i * N + j] = r;
        }
    if (!gb_mm_fits(es, (size_t)ta, lda, (size_t)tb, ldb) ||
        gb_mm_grid(M, N, &grid.x, &grid.y) != 0 ||
        emu_launch(grid, emu_dim3(32 * (unsigned)gb_mm_warps(mm_wn(w64)), 1, 1), 0, order, 99,
                   mm_body, &args))
        bad = -1;
    else {
        bad = count_bad(C, ldc, ref, M, N, tol, report);
        for (i = 0; i < M && bad == 0; i++) /* the padding between rows stays untouched */
            for (j = N; j < ldc; j++)
                bad += !isnan(C[(size_t)i * ldc + j]);
        /* the tf32 twin rounds as cvt.rna does: too coarse for the FP32 tolerance */
        if (tier == MM_TF32 && bad == 0 && K >= 32 && M * N >= 64 && order == EMU_FORWARD &&
            !GB_TEST_DROP_BARRIER)
            EMU_CHECK(count_bad(C, ldc, ref, M, N, verify_tol(DT_F32, K, 1.0, 0), 0) > 0,
                      "%s (twin) %dx%dx%d: passes the FP32 tolerance, so it does not round to "
                      "TF32",
                      mm_names[w64][tier], M, N, K);
    }
    free(fa), free(fb), free(ta), free(tb), free(C), free(ref);
    return bad;
}

/* The five twins, from sm_80, on every case in every order; barrier 1 dropped: every case with
 * several warps on a tile and K > 0 wrong; barrier 2 (there is none) dropped: right. Returns the
 * number of launches. */
static int mma_cases(const struct gemm_case *cases, int ncases, int drop) {
    int tier, w64, ci, o, runs = 0;
    if (GB_ARCH < GB_MMA_MIN_ARCH)
        return 0;
    for (w64 = 0; w64 < 2; w64++)
        for (tier = 0; tier < 3; tier++)
            for (ci = 0; ci < ncases && mm_names[w64][tier]; ci++) {
                const struct gemm_case *c = &cases[ci];
                if (drop == 1 && (c->M < 32 || c->N < 32 || c->K == 0))
                    continue;
                for (o = 0; o < EMU_ORDERS; o++) {
                    long bad = run_mmcase(tier, w64, c, (enum emu_order)o, drop != 1);
                    runs++;
                    EMU_CHECK(bad >= 0, "emulation failed");
                    if (drop != 1)
                        EMU_CHECK(bad == 0, "%s (twin) %dx%dx%d pad %d %s: %ld wrong",
                                  mm_names[w64][tier], c->M, c->N, c->K, c->pad,
                                  emu_order_name((enum emu_order)o), bad);
                    else
                        EMU_CHECK(bad > 0, "%s (twin) %dx%dx%d %s: barrier 1 removed, yet right",
                                  mm_names[w64][tier], c->M, c->N, c->K,
                                  emu_order_name((enum emu_order)o));
                }
            }
    return runs;
}

/* --- a CPU model of ldmatrix over the kernel's shared layout --------------------------------- */
/* A stage part as b16 units; the slice element (r, col) of a 16-bit tier holds the id
 * r·cols + col, of tf32 the 32-bit word r·cols + col (two b16 units, low first). Placed as the
 * kernel's copies place them: copy p's chunk (gb_mm_copy) at gb_mm_swz. */
static void mm_place(uint16_t *sh, int rows, int w, int ec) {
    const int cols = w * ec, per = ec == 8 ? 1 : 2; /* b16 units an element */
    int p, r, c, e;
    for (p = 0; p < rows * w; p++) {
        gb_mm_copy(p, w, &r, &c);
        for (e = 0; e < ec; e++) {
            uint32_t id = (uint32_t)(r * cols + c * ec + e);
            uint16_t *d = sh + (gb_mm_swz(r, c, w) * ec + e) * per;
            d[0] = (uint16_t)id;
            if (per == 2)
                d[1] = (uint16_t)(id >> 16);
        }
    }
}

/* ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16 per the PTX ISA: lanes 8i..8i+7 give the
 * row addresses (here in b16 units) of matrix i, 8 b16 a row; lane l receives in d[l][i] from
 * matrix i the 32-bit word (row l/4, word l%4), or with .trans that of the transposed matrix:
 * elements (row 2(l%4), column l/4) and (row 2(l%4)+1, column l/4), low half first. */
static void mm_ldsm_model(const uint16_t *sh, const int *addr, int trans, uint32_t d[32][4]) {
    int l, i;
    for (l = 0; l < 32; l++)
        for (i = 0; i < 4; i++) {
            const int *a = addr + 8 * i;
            uint32_t lo, hi;
            if (trans) {
                lo = sh[a[2 * (l % 4)] + l / 4];
                hi = sh[a[2 * (l % 4) + 1] + l / 4];
            } else {
                lo = sh[a[l / 4] + 2 * (l % 4)];
                hi = sh[a[l / 4] + 2 * (l % 4) + 1];
            }
            d[l][i] = lo | hi << 16;
        }
}

/* Registers of the model that differ from the PTX ISA's operand layouts for the kernel's
 * fragment loads of one slice (tier tf32 or 16-bit; warps 64×wn), every warp, fragment and k
 * step; bad_lane (−1: none) gives an address off by off_b16 b16 units, to show that the check
 * can fail. */
static long mm_fragment_misses(int tf32, int wn, int bad_lane, int off_b16) {
    static uint16_t sa[GB_MM_A_CHUNKS * 8], sb[GB_MM_A_CHUNKS * 8];
    const int ec = tf32 ? 4 : 8, bk = gb_mm_bk(ec), bnc = gb_mm_bnc(ec);
    const int u = 8 / ec; /* b16 units an element */
    int w, ks, i, j, l, addr[32], r, c, v;
    uint32_t d[32][4];
    long miss = 0;
    mm_place(sa, GB_MM_BM, GB_MM_AC, ec);
    mm_place(sb, bk, bnc, ec);
    for (w = 0; w < gb_mm_warps(wn); w++) {
        int wr, wc;
        gb_mm_warp_origin(w, wn, &wr, &wc);
        for (ks = 0; ks < 2; ks++) {
            /* A: ldmatrix.x4 of fragment i; a_q of lane l (g = l/4, t = l%4) */
            for (i = 0; i < GB_MM_FM; i++) {
                for (l = 0; l < 32; l++) {
                    gb_mm_ldsm_a(l, wr, i, ks, &r, &c);
                    addr[l] = gb_mm_swz(r, c, GB_MM_AC) * 8 + (l == bad_lane ? off_b16 : 0);
                }
                mm_ldsm_model(sa, addr, 0, d);
                for (l = 0; l < 32; l++)
                    for (v = 0; v < 4; v++) {
                        const int g = l / 4, t = l % 4, row = wr + 16 * i + g + 8 * (v & 1);
                        uint32_t want;
                        if (tf32) /* a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4) */
                            want = (uint32_t)(row * bk + 8 * ks + t + 4 * (v >> 1));
                        else { /* a0a1 (g, 2t..), a2a3 (g+8, 2t..), a4a5 (g, 2t+8..), a6a7 */
                            const int k = 16 * ks + 2 * t + 8 * (v >> 1);
                            want = (uint32_t)(row * bk + k) | (uint32_t)(row * bk + k + 1) << 16;
                        }
                        miss += d[l][v] != want;
                    }
            }
            if (tf32) { /* B: 32-bit loads of b0 (k = t, n = g), b1 (k = t+4, n = g) */
                for (j = 0; j < wn / 8; j++)
                    for (l = 0; l < 32; l++)
                        for (v = 0; v < 2; v++) {
                            int k, n, at;
                            uint32_t got;
                            gb_mm_tf32_b(l, wc, j, ks, v, &k, &n);
                            at = gb_mm_at(k, n, bnc, ec) * u + (l == bad_lane ? off_b16 : 0);
                            got = sb[at] | (uint32_t)sb[at + 1] << 16;
                            miss += got != (uint32_t)((8 * ks + l % 4 + 4 * v) * GB_MM_BN + wc +
                                                      8 * j + l / 4);
                        }
                continue;
            }
            /* 16-bit B: ldmatrix.x4.trans of the n16 pair jj: b0b1 (k = 2t.., n = g), b2b3
             * (k = 2t+8.., n = g) of n8 fragments 2jj (registers 0, 1) and 2jj+1 (2, 3) */
            for (j = 0; j < wn / 16; j++) {
                for (l = 0; l < 32; l++) {
                    gb_mm_ldsm_b(l, wc, j, ks, &r, &c);
                    addr[l] = gb_mm_swz(r, c, bnc) * 8 + (l == bad_lane ? off_b16 : 0);
                }
                mm_ldsm_model(sb, addr, 1, d);
                for (l = 0; l < 32; l++)
                    for (v = 0; v < 4; v++) {
                        const int n = wc + 16 * j + 8 * (v >> 1) + l / 4;
                        const int k = 16 * ks + 2 * (l % 4) + 8 * (v & 1);
                        const uint32_t want =
                            (uint32_t)(k * GB_MM_BN + n) | (uint32_t)((k + 1) * GB_MM_BN + n) << 16;
                        miss += d[l][v] != want;
                    }
            }
        }
    }
    return miss;
}

/* Distinct 16-byte bank groups (chunk % 8) among 8 physical chunks: 8 is conflict-free. */
static int mm_groups(const int *chunk) {
    int seen = 0, i;
    for (i = 0; i < 8; i++)
        seen |= 1 << (chunk[i] & 7);
    return __builtin_popcount((unsigned)seen);
}

/* The checks of one warp shape (64×wn, 32·gb_mm_warps(wn) threads) that do not involve a
 * tier's copy widths alone: the copies, the fragments' tiling, the shared reads' banks. */
static void mma_shape_checks(int wn) {
    static unsigned char seen[GB_MM_BM][GB_MM_BN];
    const int threads = 32 * gb_mm_warps(wn), copies = GB_MM_A_CHUNKS / threads;
    int ec, w, i, j, v, r, c, q, p, l, chunk[8], bchunk[8], bad = 0;
    EMU_CHECK(copies * threads == GB_MM_A_CHUNKS &&
                  (wn == GB_MM_WN ? threads == GB_MM_THREADS : threads == GB_MM_THREADS64),
              "mma 64x%d: %d threads do not copy the 512 chunks evenly or disagree with the "
              "launch's",
              wn, threads);
    /* the copies: a permutation of each stage part's chunks, 8 consecutive threads a full
     * 128-byte line without conflict */
    for (ec = 4; ec <= 8; ec += 4) {
        const int widths[2] = {GB_MM_AC, gb_mm_bnc(ec)};
        EMU_CHECK(gb_mm_bk(ec) * gb_mm_bnc(ec) == GB_MM_A_CHUNKS,
                  "mma: B's slice is not 512 chunks (ec %d)", ec);
        for (i = 0; i < 2; i++) {
            static unsigned char hit[GB_MM_A_CHUNKS];
            memset(hit, 0, sizeof hit);
            bad = 0;
            for (q = 0; q < copies; q++)
                for (p = 0; p < threads; p++) {
                    gb_mm_copy(p + q * threads, widths[i], &r, &c);
                    hit[gb_mm_swz(r, c, widths[i])]++;
                    chunk[p % 8] = gb_mm_swz(r, c, widths[i]);
                    if (p % 8 == 7)
                        bad += mm_groups(chunk) != 8;
                }
            for (p = 0; p < GB_MM_A_CHUNKS; p++)
                bad += hit[p] != 1;
            EMU_CHECK(bad == 0, "mma 64x%d: the copies of %s (ec %d) miss, repeat or conflict (%d)",
                      wn, i ? "B" : "A", ec, bad);
        }
    }
    /* the warps' fragments tile the block once */
    memset(seen, 0, sizeof seen);
    bad = 0;
    for (w = 0; w < gb_mm_warps(wn); w++) {
        int wr, wc;
        gb_mm_warp_origin(w, wn, &wr, &wc);
        for (i = 0; i < GB_MM_FM; i++)
            for (j = 0; j < wn / 8; j++)
                for (l = 0; l < 32; l++)
                    for (v = 0; v < GB_MM_PER_FRAG; v++) {
                        gb_mm_frag_c(l, v, &r, &c);
                        r += wr + 16 * i, c += wc + 8 * j;
                        if (r < GB_MM_BM && c < GB_MM_BN)
                            seen[r][c]++;
                        else
                            bad++;
                    }
    }
    for (r = 0; r < GB_MM_BM; r++)
        for (c = 0; c < GB_MM_BN; c++)
            bad += seen[r][c] != 1;
    EMU_CHECK(bad == 0, "mma 64x%d: the fragments do not tile the block once (%d)", wn, bad);
    /* ldmatrix: the 8 row addresses of each matrix in 8 bank groups (A's 4 fragments, B's wn/16
     * n16 pairs); tf32 B's 32 loads of a fragment register in 32 banks */
    bad = 0;
    for (ec = 4; ec <= 8; ec += 4)
        for (w = 0; w < gb_mm_warps(wn); w++) {
            int wr, wc, ks;
            gb_mm_warp_origin(w, wn, &wr, &wc);
            for (ks = 0; ks < 2; ks++)
                for (i = 0; i < GB_MM_FM; i++) {
                    for (l = 0; l < 32; l++) {
                        gb_mm_ldsm_a(l, wr, i, ks, &r, &c);
                        chunk[l % 8] = gb_mm_swz(r, c, GB_MM_AC);
                        if (l % 8 == 7)
                            bad += mm_groups(chunk) != 8;
                        if (ec == 8 && i < wn / 16) {
                            gb_mm_ldsm_b(l, wc, i, ks, &r, &c);
                            bchunk[l % 8] = gb_mm_swz(r, c, 16);
                            if (l % 8 == 7)
                                bad += mm_groups(bchunk) != 8;
                        }
                    }
                    if (ec == 4 && wn == GB_MM_WN) /* tf32: 64×32 warps only */
                        for (v = 0; v < 2; v++) {
                            unsigned long long banks = 0;
                            for (l = 0; l < 32; l++) {
                                int k, n;
                                gb_mm_tf32_b(l, wc, i, ks, v, &k, &n);
                                banks |= 1ull << (gb_mm_at(k, n, 32, 4) % 32);
                            }
                            bad += __builtin_popcountll(banks) != 32;
                        }
                }
        }
    EMU_CHECK(bad == 0, "mma 64x%d: %d shared reads with bank conflicts", wn, bad);
}

/* The lane offsets the native kernels compute once (gb_mm_lane_a, gb_mm_lane_b,
 * gb_mm_lane_tf32_b) plus their constant steps (mma_tile.cuh's mma_slice) equal the swizzled
 * addresses of every A fragment, B pair (16-bit) and tf32 B word, in bytes from the stage, for
 * every warp and lane of either warp shape. */
static long mm_offset_bad(int wn) {
    const int nf = wn / 8;
    int wq, lane, ks, i, v, r, c;
    long bad = 0;
    for (wq = 0; wq < gb_mm_warps(wn); wq++) {
        int wr, wc;
        gb_mm_warp_origin(wq, wn, &wr, &wc);
        for (lane = 0; lane < 32; lane++)
            for (ks = 0; ks < 2; ks++) {
                const unsigned la = gb_mm_lane_a(lane, wr) ^ (unsigned)(ks * GB_MM_X2);
                const unsigned lb = gb_mm_lane_b(lane, wc), lt = gb_mm_lane_tf32_b(lane, wc);
                for (i = 0; i < GB_MM_FM; i++) {
                    gb_mm_ldsm_a(lane, wr, i, ks, &r, &c);
                    bad += la + (unsigned)(i * GB_MM_ROW16) !=
                           (unsigned)(gb_mm_swz(r, c, GB_MM_AC) * GB_MM_CH);
                }
                for (i = 0; i < nf / 2; i++) {
                    gb_mm_ldsm_b(lane, wc, i, ks, &r, &c);
                    bad += (lb ^ (unsigned)(i * GB_MM_X2)) + (unsigned)(ks * GB_MM_B16_KS) !=
                           (unsigned)((GB_MM_A_CHUNKS + gb_mm_swz(r, c, gb_mm_bnc(8))) * GB_MM_CH);
                }
                for (i = 0; wn == GB_MM_WN && i < nf; i++) /* tf32: 64×32 warps only */
                    for (v = 0; v < 2; v++) {
                        gb_mm_tf32_b(lane, wc, i, ks, v, &r, &c);
                        bad += (lt ^ (unsigned)(i * GB_MM_X2)) +
                                   (unsigned)((8 * ks + 4 * v) * GB_MM_TF32_K) !=
                               (unsigned)(GB_MM_A_CHUNKS * GB_MM_CH +
                                          gb_mm_at(r, c, gb_mm_bnc(4), 4) * 4);
                    }
            }
    }
    return bad;
}

static void mma_index_checks(void) {
    int i;
    mma_shape_checks(GB_MM_WN);
    mma_shape_checks(GB_MM_WN64);
    /* the edges: 13 columns, chunks of 8 at 0 (whole), 8 (5 inside), 16 (none); rows outside */
    EMU_CHECK(gb_mm_inside(1, 0, 13, 8) == 8 && gb_mm_inside(1, 8, 13, 8) == 5 &&
                  gb_mm_inside(1, 16, 13, 8) == 0 && gb_mm_inside(0, 0, 13, 8) == 0 &&
                  gb_mm_inside(1, 12, 13, 4) == 1,
              "mma: gb_mm_inside copies the wrong elements");
    EMU_CHECK(gb_mm_fits(2, 0x1000, 64, 0x2000, 8) && !gb_mm_fits(2, 0x1000, 60, 0x2000, 8) &&
                  !gb_mm_fits(2, 0x1000, 64, 0x2002, 8) && gb_mm_fits(4, 0x10, 4, 0x20, 12) &&
                  !gb_mm_fits(4, 0x10, 6, 0x20, 12),
              "mma: gb_mm_fits takes or refuses the wrong operands");
    {
        unsigned gx = 0, gy = 0;
        EMU_CHECK(gb_mm_grid(129, 1, &gx, &gy) == 0 && gx == 1 && gy == 2 &&
                      gb_mm_grid(128, 257, &gx, &gy) == 0 && gx == 3 && gy == 1 &&
                      gb_mm_grid(65536 * GB_MM_BM, 1, &gx, &gy) == -1,
                  "mma: wrong grid");
    }
    /* which kernel: the 64×64 warps from 2 tiles of 128×128 an SM (18×12 = 216 on 108 SMs) */
    EMU_CHECK(gb_mm_pick(4096, 4096, 108) && gb_mm_pick(256, 128, 1) && !gb_mm_pick(128, 128, 1) &&
                  !gb_mm_pick(1024, 1024, 108) && gb_mm_pick(2304, 1536, 108) &&
                  !gb_mm_pick(2176, 1536, 108),
              "mma: gb_mm_pick picks the wrong warp shape");
    /* the fragment loads against the PTX ISA's layouts, both warp shapes (tf32: 64×32 only); an
     * address off by a chunk (8 b16) or by one element must show */
    for (i = 0; i < 3; i++) {
        const int tf32 = i == 2, wn = i == 1 ? GB_MM_WN64 : GB_MM_WN;
        long miss = mm_fragment_misses(tf32, wn, -1, 0);
        EMU_CHECK(miss == 0,
                  "mma 64x%d: %s fragment registers differ from the PTX ISA layout (%ld)", wn,
                  tf32 ? "tf32" : "16-bit", miss);
        EMU_CHECK(mm_fragment_misses(tf32, wn, 9, 8) > 0 &&
                      mm_fragment_misses(tf32, wn, 20, tf32 ? 2 : 1) > 0,
                  "mma 64x%d: the ldmatrix model does not notice an address off (%s)", wn,
                  tf32 ? "tf32" : "16-bit");
    }
    for (i = 0; i < 2; i++) {
        const int wn = i ? GB_MM_WN64 : GB_MM_WN;
        long bad = mm_offset_bad(wn);
        EMU_CHECK(bad == 0, "mma 64x%d: %ld lane-offset fragment addresses off", wn, bad);
    }
    EMU_CHECK(!gb_mm_body_at(75) && gb_mm_body_at(80) && gb_mm_body_at(90) &&
                  gb_mm_body_at(GB_ARCH / 10) == GB_MM_BODY,
              "mma: bodies taken or refused at the wrong architectures");
}

#endif
