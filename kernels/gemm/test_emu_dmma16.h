/* test_emu_dmma16.h — kernels/gemm/test_emu.c's checks of the m16n8k16 .f64 kernel (dmma16.cuh,
 * gemm/cuda_tc's f64 on sm_90 code), in a file of their own; included by test_emu.c after its
 * DGEMM helpers (run_dcase_of, struct gemm_case), test-only.
 *
 * dmma16_cases: the twin on odd shapes (k = 1, K below one slice, one slice, as many slices as
 * the pipeline keeps in flight and as it has stages, many slices (stages reused), ragged 2×3
 * tiles with padded leading dimensions, thin edges, K = 0), in every thread order, against the
 * DGEMM check's long-double reference; the padding of C must stay untouched. With barrier 1 (its
 * only one) dropped, wrong wherever several warps share a stage; with barrier 2 dropped, right.
 *
 * dmma16_index_checks (that the warps' fragments tile the 128×128 block once is
 * mma_index_checks', test_emu_mma.h: the block tile, its warps and the C layout are
 * kernels/common/mma.cuh's): the copies cover each slice once and land inside the stage; every
 * fragment register's 16 lanes of a half-warp read 16 different 8-byte bank pairs (the pads'
 * claim); the host's refusals follow the guard; and a CPU model of mma.sync m16n8k16 .f64: the
 * registers the kernel's own loads fill (gb_d16_a_at, gb_d16_b_at, over the copies' placement)
 * are placed where the PTX ISA's fragment layouts say the hardware reads them, multiplied, and
 * the results taken from the ISA's C layout to where the kernel stores them (gb_mm_frag_c) —
 * every element of the block must come out as the exact product, and must not when A's k split
 * or C's row split is changed.
 */
#ifndef GPUBENCH_GEMM_TEST_EMU_DMMA16_H
#define GPUBENCH_GEMM_TEST_EMU_DMMA16_H

#include <math.h>
#include <string.h>

/* --- the twin on the emulation ------------------------------------------------------------- */
/* Every case in every order (test_emu.c's dmma_cases_of): right, and wrong with barrier 1
 * removed wherever several warps share a stage. Returns the launches. */
static int dmma16_cases(const struct gemm_case *cases, int ncases, int drop) {
    return dmma_cases_of(gb_dgemm_dmma16_128x128, "gb_dgemm_dmma16_128x128", GB_MM_THREADS,
                         GB_D16_SMEM, GB_MM_BM, cases, ncases, drop);
}

/* --- the PTX ISA's m16n8k16 .f64 fragments, written from its text --------------------------- */
/* "Matrix Fragments for mma.m16n8k16 with floating point type", .f64: groupID = laneid >> 2,
 * threadID_in_group = laneid % 4;
 *   A (a0..a7): row = groupID for ai with i even, groupID + 8 for i odd;
 *               col = threadID_in_group + 4·(i/2)     (a0,a1: k 0-3; a2,a3: 4-7; … a6,a7: 12-15)
 *   B (b0..b3): row = threadID_in_group + 4·i; col = groupID
 *   C (c0..c3): row = groupID for c0, c1; groupID + 8 for c2, c3;
 *               col = threadID_in_group·2 + (i & 1) */
static void isa_d16_a(int lane, int i, int *r, int *k) {
    const int g = lane / 4, t = lane % 4;
    *r = i % 2 == 0 ? g : g + 8;
    *k = t + 4 * (i / 2);
}
static void isa_d16_b(int lane, int i, int *k, int *n) {
    *k = lane % 4 + 4 * i;
    *n = lane / 4;
}
static void isa_d16_c(int lane, int i, int *r, int *n) {
    *r = i < 2 ? lane / 4 : lane / 4 + 8;
    *n = (lane % 4) * 2 + (i & 1);
}

typedef int (*d16_at_fn)(int origin, int f, int lane, int v);
typedef void (*d16_frag_fn)(int lane, int i, int *r, int *n);

/* Deliberately wrong layouts, which the model must reject: A with its k split the other way
 * (k = 4t + i/2: right for no B), C with its rows split on i's low bit. */
static int d16_a_at_wrong_k(int wr, int i, int lane, int v) {
    return gb_d16_a_place(wr + 16 * i + lane / 4 + 8 * (v & 1), 4 * (lane % 4) + v / 2);
}
static void d16_frag_c_wrong_rows(int lane, int i, int *r, int *n) {
    *r = lane / 4 + 8 * (i & 1);
    *n = 2 * (lane % 4) + (i & 1);
}

/* The model over one stage holding small-integer A (128×16) and B (16×128) slices placed as the
 * copies place them: for every warp and fragment, the registers the loads (a_at, b_at) fill go
 * where the ISA's layouts put them, the 16×16·16×8 product is taken, and each lane's C registers
 * (the ISA's C layout) are stored where c_frag says. Returns the wrong or missed elements of the
 * block (exact: small integers), plus loads outside the stage. */
static long d16_model_misses(d16_at_fn a_at, d16_at_fn b_at, d16_frag_fn c_frag) {
    static double st[GB_D16_STAGE], ref[GB_MM_BM][GB_MM_BN];
    static unsigned char seen[GB_MM_BM][GB_MM_BN];
    double areg[32][GB_D16_AREGS], breg[32][GB_D16_BREGS], ahw[16][16], bhw[16][8];
    int w, i, j, lane, v, r, k, n, wr, wc;
    long bad = 0;
    for (v = 0; v < GB_D16_STAGE; v++)
        st[v] = NAN;
    for (r = 0; r < GB_MM_BM; r++)
        for (k = 0; k < GB_D16_BK; k++)
            st[gb_d16_a_place(r, k)] = (double)((r * 7 + k * 3) % 11 - 5);
    for (k = 0; k < GB_D16_BK; k++)
        for (n = 0; n < GB_MM_BN; n++)
            st[gb_d16_b_place(k, n)] = (double)((k * 5 + n * 13) % 9 - 4);
    for (r = 0; r < GB_MM_BM; r++)
        for (n = 0; n < GB_MM_BN; n++) {
            double sum = 0;
            for (k = 0; k < GB_D16_BK; k++)
                sum += st[gb_d16_a_place(r, k)] * st[gb_d16_b_place(k, n)];
            ref[r][n] = sum;
        }
    memset(seen, 0, sizeof seen);
    for (w = 0; w < GB_MM_WARPS; w++) {
        gb_mm_warp_origin(w, GB_MM_WN, &wr, &wc);
        for (i = 0; i < GB_MM_FM; i++)
            for (j = 0; j < GB_MM_FN; j++) {
                for (lane = 0; lane < 32; lane++) {
                    for (v = 0; v < GB_D16_AREGS; v++) {
                        int at = a_at(wr, i, lane, v);
                        bad += at < 0 || at >= GB_D16_STAGE;
                        areg[lane][v] = at >= 0 && at < GB_D16_STAGE ? st[at] : NAN;
                    }
                    for (v = 0; v < GB_D16_BREGS; v++) {
                        int at = b_at(wc, j, lane, v);
                        bad += at < 0 || at >= GB_D16_STAGE;
                        breg[lane][v] = at >= 0 && at < GB_D16_STAGE ? st[at] : NAN;
                    }
                }
                /* the hardware's view of the registers (the ISA), then its product */
                for (lane = 0; lane < 32; lane++) {
                    for (v = 0; v < GB_D16_AREGS; v++) {
                        isa_d16_a(lane, v, &r, &k);
                        ahw[r][k] = areg[lane][v];
                    }
                    for (v = 0; v < GB_D16_BREGS; v++) {
                        isa_d16_b(lane, v, &k, &n);
                        bhw[k][n] = breg[lane][v];
                    }
                }
                for (lane = 0; lane < 32; lane++)
                    for (v = 0; v < GB_MM_PER_FRAG; v++) {
                        double d = 0;
                        int cr, cn;
                        isa_d16_c(lane, v, &r, &n);
                        for (k = 0; k < 16; k++)
                            d += ahw[r][k] * bhw[k][n];
                        c_frag(lane, v, &cr, &cn); /* where the kernel stores this register */
                        cr += wr + 16 * i;
                        cn += wc + 8 * j;
                        if (cr < 0 || cr >= GB_MM_BM || cn < 0 || cn >= GB_MM_BN) {
                            bad++;
                            continue;
                        }
                        seen[cr][cn]++;
                        bad += d != ref[cr][cn];
                    }
            }
    }
    for (r = 0; r < GB_MM_BM; r++)
        for (n = 0; n < GB_MM_BN; n++)
            bad += seen[r][n] != 1;
    return bad;
}

/* The 8-byte bank pairs (16 of 8 bytes: 32 banks of 4) the 16 lanes of a half-warp hit with
 * register v of a fragment (at: gb_d16_a_at or _b_at at origin o, fragment f): how many lanes
 * beyond one share a pair, over both half-warps (0: conflict-free). */
static int d16_conflicts(d16_at_fn at, int o, int f, int v) {
    int h, lane, extra = 0;
    for (h = 0; h < 2; h++) {
        int hits[16] = {0};
        for (lane = 16 * h; lane < 16 * h + 16; lane++)
            extra += hits[at(o, f, lane, v) % 16]++ > 0;
    }
    return extra;
}

static void dmma16_index_checks(void) {
    static unsigned char placed[GB_D16_STAGE];
    int w, i, j, v, r, c, q, t, wr, wc, bad = 0;
    long miss;
    /* the copies: A's 128×16 and B's 16×128 slices, each element once, to distinct places
     * inside the stage */
    memset(placed, 0, sizeof placed);
    for (t = 0; t < 2; t++)
        for (i = 0; i < GB_MM_THREADS; i++)
            for (q = 0; q < GB_D16_COPIES; q++) {
                int at;
                gb_dm_elem(i + q * GB_MM_THREADS, t ? GB_MM_BN : GB_D16_BK, &r, &c);
                if (t ? r >= GB_D16_BK : r >= GB_MM_BM) {
                    bad++;
                    continue;
                }
                at = t ? gb_d16_b_place(r, c) : gb_d16_a_place(r, c);
                if (at < 0 || at >= GB_D16_STAGE || placed[at]++)
                    bad++;
            }
    EMU_CHECK(bad == 0 && GB_D16_COPIES * GB_MM_THREADS == GB_MM_BM * GB_D16_BK,
              "dmma16: the copies do not fill the stage's slices once (%d)", bad);
    /* conflict-free fragment loads */
    bad = 0;
    for (w = 0; w < GB_MM_WARPS; w++) {
        gb_mm_warp_origin(w, GB_MM_WN, &wr, &wc);
        for (i = 0; i < GB_MM_FM; i++)
            for (v = 0; v < GB_D16_AREGS; v++)
                bad += d16_conflicts(gb_d16_a_at, wr, i, v);
        for (j = 0; j < GB_MM_FN; j++)
            for (v = 0; v < GB_D16_BREGS; v++)
                bad += d16_conflicts(gb_d16_b_at, wc, j, v);
    }
    EMU_CHECK(bad == 0, "dmma16: fragment loads with bank conflicts (%d lanes)", bad);
    /* the model: right with the kernel's layouts, wrong with either mutation */
    miss = d16_model_misses(gb_d16_a_at, gb_d16_b_at, gb_mm_frag_c);
    EMU_CHECK(miss == 0,
              "dmma16: the mma.m16n8k16 .f64 model over the kernel's loads and stores "
              "gives %ld wrong elements",
              miss);
    miss = d16_model_misses(d16_a_at_wrong_k, gb_d16_b_at, gb_mm_frag_c);
    EMU_CHECK(miss > 0, "dmma16: the model accepts A with its k split the other way");
    miss = d16_model_misses(gb_d16_a_at, gb_d16_b_at, d16_frag_c_wrong_rows);
    EMU_CHECK(miss > 0, "dmma16: the model accepts C with its rows split on i's low bit");
    /* sm_90 code alone has the body (CUDA 11.8+); the host's rule follows the guard */
    EMU_CHECK(!gb_dgemm_dmma16_body_at(80) && !gb_dgemm_dmma16_body_at(89) &&
                  gb_dgemm_dmma16_body_at(90) && !gb_dgemm_dmma16_body_at(100) &&
                  !gb_dgemm_dmma16_body_at(120) && !gb_d16_body_at(0, 90),
              "dmma16: body taken or refused at the wrong code");
    EMU_CHECK(GB_D16_SMEM <= 227u * 1024 && GB_D16_SMEM == GB_D16_STAGES * GB_D16_STAGE * 8u,
              "dmma16: %u bytes of shared memory a block", GB_D16_SMEM);
}

#endif
