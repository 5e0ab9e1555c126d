/* test_emu_mma.h — kernels/conv2d/test_emu.c's checks of conv2d/cuda_tc's sm_80+ kernel
 * (tc_mma.cuh), in a file of their own; included by test_emu.c after its helpers (ref_conv2d,
 * tc_fill, tc_bad), run in its arch-800 builds. Test-only.
 *
 * cmm_layout_checks: the host's placements (x NCHW → NHWC, filters KCRS → KRSC, channels padded
 * to 8) against the direct formulas, for channel counts 1, 3, 8, 9, 17: every element at its
 * place, no two at one, and the padding channels mapped by none (zero, as the host copy leaves
 * them).
 * Every check runs for both block tiles (tc_mma.cuh's gb_cmm_tile_of: 128×128 of 64×32 warps,
 * 64×256 of 32×64 warps).
 * cmm_gather_checks: a CPU model of the gather — every (pixel, 16-byte chunk) a thread copies
 * over the whole K loop, from the kernel's own pieces (gb_cmm_pixel, gb_cmm_tap_at, then
 * gb_cmm_step once a slice, gb_cmm_inside, the copy order gb_mm_copy) — against division: the
 * chunk's filter row, column and channels, whether it is inside the image (else zero), and its
 * offset in the padded NHWC x; strides, paddings, odd channel counts, 1×1 to 7×7 and 5×20
 * filters, pixels past n·p·q.
 * cmm_ldsm_checks: a CPU model of ldmatrix.x4 (non-transposed, per the PTX ISA) over the pixel
 * slice as the kernel places it (gb_mm_swz), at the lane addresses the kernel gives
 * (gb_cmm_ldsm_b): the registers, in order, must be mma.m16n8k16's col operands b0b1, b2b3 (k =
 * 2t, 2t+1, 2t+8, 2t+9 of column n = g) of two n8 fragments, for every warp, n16 pair and k step
 * — and must not be at A's lane order (gb_mm_ldsm_a); and the lane offsets the kernel computes
 * once plus its constant steps must be those addresses, and the warps must cover the tile once.
 * cmm_pair_checks: the epilogue's pairs of halves (gb_cmm_pairs): at an even p·q, for every
 * block, warp, lane and fragment, the pair's first place in y even and its second the next; no
 * pairs at an odd p·q or an odd y. Seen failing with pairs at every p·q.
 * cmm_pick_checks: the tile choice (gb_cmm_pick) at k = 1 … 192 and pixel counts on either side
 * of the ties. Seen failing with the ties going to 64×256.
 * cmm_cases: the kernel's twin on odd shapes against a direct double convolution of the same
 * halves (the tolerance of tc.cuh's cases): c = 1, 3, 9, 17 and multiples of 8, k not a multiple
 * of 8 or of the 128-filter tile, several pixel tiles, one slice (fewer than the stages) and
 * many, strides and paddings (wider than the filter too); nothing written outside y. With barrier
 * 1 (its only one) dropped, every case wrong; with barrier 2 dropped, right. Each case in both
 * tiles, y's pairs as the launcher decides them; the cases added for the 64×256 tile: k = 64 at
 * 260 pixels (ragged: 4 past a 256-pixel tile; p·q even, pairs), k = 40 at p·q = 49 (odd: a half
 * at a time), k = 100 and 127 (two 64-filter tiles), p·q = 12 (images inside a fragment). Seen
 * failing: the 64×256 twin reading its pixels at 128×128's offset in the stage; the epilogue's
 * filter row without the block's m0 (the cases past one filter tile wrong); pairs at odd p·q.
 */
#ifndef GPUBENCH_CONV2D_TEST_EMU_MMA_H
#define GPUBENCH_CONV2D_TEST_EMU_MMA_H

#include <stdint.h>

static void cmm_layout_checks(void) {
    static const int chans[] = {1, 3, 8, 9, 17};
    const int n = 2, h = 3, w = 5, k = 3, r = 2, s = 3;
    int ci;
    for (ci = 0; ci < (int)(sizeof chans / sizeof chans[0]); ci++) {
        const int c = chans[ci], cp = gb_cmm_pad8(c);
        const size_t nx = (size_t)n * c * h * w, nw = (size_t)k * c * r * s;
        char *hitx = calloc((size_t)n * h * w * cp, 1), *hitw = calloc((size_t)k * r * s * cp, 1);
        size_t i, bad = 0;
        for (i = 0; i < nx; i++) {
            const size_t img = i / ((size_t)c * h * w), ch = i / ((size_t)h * w) % c;
            const size_t hh = i / w % h, ww = i % w, at = gb_cmm_x_place(i, c, h, w);
            bad += at != ((img * h + hh) * w + ww) * cp + ch || hitx[at]++;
        }
        for (i = 0; i < nw; i++) {
            const size_t f = i / ((size_t)c * r * s), ch = i / ((size_t)r * s) % c;
            const size_t ri = i / s % r, si = i % s, at = gb_cmm_w_place(i, c, r, s);
            bad += at != ((f * r + ri) * s + si) * cp + ch || hitw[at]++;
        }
        for (i = 0; i < (size_t)n * h * w * cp; i++)
            bad += hitx[i] != ((int)(i % cp) < c);
        for (i = 0; i < (size_t)k * r * s * cp; i++)
            bad += hitw[i] != ((int)(i % cp) < c);
        EMU_CHECK(bad == 0, "mma layouts, c = %d: %zu elements misplaced or padding hit", c, bad);
        free(hitx), free(hitw);
    }
}

static void cmm_gather_checks(void) {
    /* n c h w  k r s  stride_h stride_w pad_h pad_w */
    static const struct conv2d_dims shapes[] = {
        {2, 3, 9, 11, 5, 3, 3, 1, 1, 1, 1, 0, 0},  {1, 1, 5, 5, 3, 2, 2, 3, 3, 2, 2, 0, 0},
        {1, 9, 12, 40, 7, 5, 20, 2, 8, 1, 3, 0, 0}, {3, 17, 7, 7, 4, 1, 1, 1, 1, 0, 0, 0, 0},
        {1, 16, 20, 19, 8, 7, 7, 2, 2, 3, 3, 0, 0}, {2, 40, 6, 5, 9, 3, 2, 1, 2, 0, 1, 0, 0},
    };
    enum { MAXC = 4 }; /* pixel chunks a thread copies: 2 (128×128), 4 (64×256) */
    int si, tid, q, sl;
    for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]) * GB_CMM_TILES; si++) {
        struct conv2d_dims d = shapes[si / GB_CMM_TILES];
        const struct gb_cmm_tile tt = gb_cmm_tile_of(si % GB_CMM_TILES);
        const int copies = tt.bn * GB_MM_AC / GB_MM_THREADS;
        struct gb_cmm_geom g;
        long bad = 0;
        EMU_CHECK(conv2d_dims_finish(&d) == 0 && gb_cmm_fits(&d), "mma gather: bad shape");
        gb_cmm_geom_init(&d, &g);
        const int npq = d.n * d.p * d.q, ns = (g.K + 31) / 32;
        for (tid = 0; tid < GB_MM_THREADS; tid++) {
            const int tile = tid % 3; /* pixel tiles 0, 1, 2: some past n·p·q */
            struct gb_cmm_tap t;
            int xoff[MAXC], h0[MAXC], w0[MAXC], pix[MAXC], r, c;
            for (q = 0; q < copies; q++) {
                gb_mm_copy(tid + q * GB_MM_THREADS, GB_MM_AC, &r, &c);
                pix[q] = tile * tt.bn + r;
                gb_cmm_pixel(&d, &g, pix[q], &xoff[q], &h0[q], &w0[q]);
            }
            gb_cmm_tap_at(tid % GB_MM_AC, &d, &g, &t);
            for (sl = 0; sl < ns + 1; sl++) {
                const int chunk = sl * GB_MM_AC + tid % GB_MM_AC, rs = chunk / g.c8;
                const int ri = rs / d.s, sc = rs % d.s, cc = chunk % g.c8;
                if (chunk < d.r * d.s * g.c8)
                    bad += t.ri != ri || t.si != sc || t.cc != cc ||
                           t.off != (ri * d.w + sc) * g.cp + 8 * cc;
                else
                    bad += t.ri < d.r; /* past the last tap: outside */
                for (q = 0; q < copies; q++) {
                    const int img = pix[q] / (d.p * d.q), oh = pix[q] % (d.p * d.q) / d.q;
                    const int ow = pix[q] % d.q;
                    const int hh = oh * d.stride_h - d.pad_h + ri,
                              ww = ow * d.stride_w - d.pad_w + sc;
                    const int in = pix[q] < npq && chunk < d.r * d.s * g.c8 && hh >= 0 &&
                                   hh < d.h && ww >= 0 && ww < d.w;
                    bad += gb_cmm_inside(&d, &t, h0[q], w0[q]) != in;
                    if (in)
                        bad += xoff[q] + t.off != ((img * d.h + hh) * d.w + ww) * g.cp + 8 * cc;
                }
                gb_cmm_step(&d, &g, &t);
            }
        }
        EMU_CHECK(bad == 0, "mma gather, %s tile, shape %d (c = %d, %dx%d): %ld chunks wrong",
                  tt.name, si / GB_CMM_TILES, d.c, d.r, d.s, bad);
    }
}

/* ldmatrix.sync.aligned.m8n8.x4.shared.b16 per the PTX ISA: lanes 8i..8i+7 give the row
 * addresses (b16 units) of matrix i; lane l receives from matrix i the 32-bit word (row l/4,
 * word l%4), low half first. */
static void cmm_ldsm_model(const uint16_t *sh, const int *addr, uint32_t d[32][4]) {
    int l, i;
    for (l = 0; l < 32; l++)
        for (i = 0; i < 4; i++)
            d[l][i] = sh[addr[8 * i + l / 4] + 2 * (l % 4)] |
                      (uint32_t)sh[addr[8 * i + l / 4] + 2 * (l % 4) + 1] << 16;
}

/* Registers that differ from the col operand's layout over every warp, n16 pair and k step of
 * tile tile, the ldmatrix registers taken in order as b[2jj] and b[2jj + 1], as the kernel does;
 * broken: the lane addresses of A's order (gb_mm_ldsm_a) instead of gb_cmm_ldsm_b. */
static long cmm_ldsm_bad(int tile, int broken) {
    const struct gb_cmm_tile tt = gb_cmm_tile_of(tile);
    static uint16_t sh[256 * GB_MM_AC * 8]; /* the widest pixel slice: 64×256's */
    int p, r, c, e, wq, jj, ks, lane, addr[32];
    long bad = 0;
    /* the pixel slice as the kernel's copies place it: element (pixel n, tap k) holds n·32 + k */
    for (p = 0; p < tt.bn * GB_MM_AC; p++) {
        gb_mm_copy(p, GB_MM_AC, &r, &c);
        for (e = 0; e < 8; e++)
            sh[gb_mm_swz(r, c, GB_MM_AC) * 8 + e] = (uint16_t)(r * 32 + c * 8 + e);
    }
    for (wq = 0; wq < GB_MM_WARPS; wq++) {
        int wr, wc;
        gb_mm_warp_origin_in(wq, tt.bn, tt.wm, tt.wn, &wr, &wc);
        for (jj = 0; jj < tt.wn / 16; jj++)
            for (ks = 0; ks < 2; ks++) {
                uint32_t d[32][4];
                for (lane = 0; lane < 32; lane++) {
                    if (broken)
                        gb_mm_ldsm_a(lane, wc, jj, ks, &r, &c);
                    else
                        gb_cmm_ldsm_b(lane, wc, jj, ks, &r, &c);
                    addr[lane] = gb_mm_swz(r, c, GB_MM_AC) * 8;
                }
                cmm_ldsm_model(sh, addr, d);
                for (lane = 0; lane < 32; lane++) {
                    int f, v;
                    for (f = 0; f < 2; f++)
                        for (v = 0; v < 2; v++) {
                            const int n = wc + 16 * jj + 8 * f + lane / 4;
                            const int k = 16 * ks + 2 * (lane % 4) + 8 * v;
                            bad += d[lane][2 * f + v] !=
                                   ((uint32_t)(n * 32 + k) | (uint32_t)(n * 32 + k + 1) << 16);
                        }
                }
            }
    }
    return bad;
}

/* The lane offsets the kernel computes once (gb_cmm_lane_offsets) plus its constant steps equal
 * the swizzled addresses of every fragment and pair of tile tile; every warp's rows and columns
 * cover the tile once. */
static long cmm_offset_bad(int tile) {
    const struct gb_cmm_tile tt = gb_cmm_tile_of(tile);
    static char hit[256 * 256];
    int wq, lane, ks, i, r, c;
    long bad = 0;
    memset(hit, 0, sizeof hit);
    for (wq = 0; wq < GB_MM_WARPS; wq++) {
        int wr, wc;
        gb_mm_warp_origin_in(wq, tt.bn, tt.wm, tt.wn, &wr, &wc);
        for (r = wr; r < wr + tt.wm; r++)
            for (c = wc; c < wc + tt.wn; c++)
                bad += r >= tt.bm || c >= tt.bn || hit[r * 256 + c]++;
        for (lane = 0; lane < 32; lane++)
            for (ks = 0; ks < 2; ks++) {
                unsigned la, lb;
                gb_cmm_lane_offsets(lane, wr, wc, tt.bm * GB_MM_AC, &la, &lb);
                la ^= (unsigned)(ks * GB_MM_X2), lb ^= (unsigned)(ks * GB_MM_X2);
                for (i = 0; i < tt.wm / 16; i++) {
                    gb_mm_ldsm_a(lane, wr, i, ks, &r, &c);
                    bad += la + (unsigned)(i * GB_MM_ROW16) !=
                           (unsigned)(gb_mm_swz(r, c, GB_MM_AC) * GB_MM_CH);
                }
                for (i = 0; i < tt.wn / 16; i++) {
                    gb_cmm_ldsm_b(lane, wc, i, ks, &r, &c);
                    bad += lb + (unsigned)(i * GB_MM_ROW16) !=
                           (unsigned)((tt.bm * GB_MM_AC + gb_mm_swz(r, c, GB_MM_AC)) * GB_MM_CH);
                }
            }
    }
    for (r = 0; r < tt.bm; r++)
        for (c = 0; c < tt.bn; c++)
            bad += hit[r * 256 + c] != 1;
    return bad;
}

static void cmm_ldsm_checks(void) {
    int t;
    for (t = 0; t < GB_CMM_TILES; t++) {
        const char *name = gb_cmm_tile_of(t).name;
        long bad = cmm_ldsm_bad(t, 0);
        EMU_CHECK(bad == 0,
                  "mma B fragments, %s: %ld registers differ from the m16n8k16 col operand", name,
                  bad);
        EMU_CHECK(cmm_ldsm_bad(t, 1) > 0, "mma B fragments, %s: the model misses A's lane order",
                  name);
        bad = cmm_offset_bad(t);
        EMU_CHECK(bad == 0, "mma lane offsets, %s: %ld ldmatrix addresses or warp cells off", name,
                  bad);
    }
}

/* The epilogue's pairs (gb_cmm_pairs, gb_cmm_store2): wherever it pairs, for every tile, block
 * tile, warp, lane and fragment, the pair's first place in y is even (4-byte aligned for an
 * aligned y) and its second the next element, of the same filter and image; and it pairs at
 * every even p·q, never at an odd one or at an odd y. */
static void cmm_pair_checks(void) {
    /* n c h w  k r s  stride_h stride_w pad_h pad_w */
    static const struct conv2d_dims shapes[] = {
        {2, 8, 10, 13, 64, 3, 3, 1, 1, 1, 1, 0, 0}, /* p·q = 130 */
        {3, 5, 7, 7, 40, 3, 3, 1, 1, 1, 1, 0, 0},   /* p·q = 49: no pairs */
        {5, 1, 3, 4, 70, 1, 1, 1, 1, 0, 0, 0, 0},   /* p·q = 12, images inside a fragment */
        {1, 2, 9, 4, 3, 2, 2, 1, 1, 0, 0, 0, 0},    /* p·q = 24 */
    };
    int si, t, bx, wq, lane, j, v, f;
    for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]); si++) {
        struct conv2d_dims d = shapes[si];
        const int pq = (conv2d_dims_finish(&d), d.p * d.q), npq = d.n * pq;
        const int pair = gb_cmm_pairs(&d, 64);
        long bad = (pair != (pq % 2 == 0)) + gb_cmm_pairs(&d, 66);
        for (t = 0; t < GB_CMM_TILES && pair; t++) {
            const struct gb_cmm_tile tt = gb_cmm_tile_of(t);
            for (bx = 0; bx * tt.bn < npq; bx++)
                for (wq = 0; wq < GB_MM_WARPS; wq++) {
                    int wr, wc, r, c;
                    gb_mm_warp_origin_in(wq, tt.bn, tt.wm, tt.wn, &wr, &wc);
                    for (lane = 0; lane < 32; lane++)
                        for (j = 0; j < tt.wn / 8; j++) {
                            int yo[2];
                            for (v = 0; v < 2; v++) {
                                gb_mm_frag_c(lane, v, &r, &c);
                                yo[v] = gb_cmm_y_at(&d, bx * tt.bn + wc + 8 * j + c);
                            }
                            if (yo[0] < 0)
                                continue;
                            for (f = 0; f < d.k; f++)
                                bad += (yo[0] + f * pq) % 2 != 0 || yo[1] != yo[0] + 1 ||
                                       yo[0] % pq == pq - 1;
                        }
                }
        }
        EMU_CHECK(bad == 0, "mma y pairs, shape %d (p*q = %d): %ld misaligned or split", si, pq,
                  bad);
    }
}

/* The tile choice (gb_cmm_pick): on an SM of 164 or 228 KiB (sm_80, sm_90), 64×256 at k ≤ 64
 * beyond 128 pixels; 128×128 at 65 ≤ k ≤ 127 (the same 128 padded filter rows), from k = 128,
 * and where the work ties; on a 100 KiB SM (sm_86, sm_89, sm_120: one 64×256 block) 128×128. */
static void cmm_pick_checks(void) {
    static const struct {
        int k;
        long long npq;
        int smem_kib, want;
    } cases[] = {
        {64, 100352, 228, GB_CMM_T64},   {1, 129, 164, GB_CMM_T64},
        {64, 128, 228, GB_CMM_T128},     {33, 1, 228, GB_CMM_T128},
        {65, 100352, 228, GB_CMM_T128},  {127, 300, 164, GB_CMM_T128},
        {128, 100352, 228, GB_CMM_T128}, {192, 100352, 228, GB_CMM_T128},
        {8, 257, 228, GB_CMM_T64},       {64, 100352, 100, GB_CMM_T128},
        {8, 257, 100, GB_CMM_T128},      {64, 100352, 122, GB_CMM_T64},
        {64, 100352, 121, GB_CMM_T128},
    };
    int i;
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        const int t = gb_cmm_pick(cases[i].k, cases[i].npq, cases[i].smem_kib * 1024);
        EMU_CHECK(t == cases[i].want, "mma tile pick, k = %d, %lld pixels, %d KiB an SM: %s",
                  cases[i].k, cases[i].npq, cases[i].smem_kib, gb_cmm_tile_of(t).name);
    }
    EMU_CHECK(gb_cmm_blocks_an_sm(GB_CMM_T128, 100 * 1024) == 2 &&
                  gb_cmm_blocks_an_sm(GB_CMM_T64, 100 * 1024) == 1 &&
                  gb_cmm_blocks_an_sm(GB_CMM_T64, 228 * 1024) == 2,
              "blocks an SM: 128x128 on 100 KiB %d, 64x256 on 100 KiB %d, on 228 KiB %d",
              gb_cmm_blocks_an_sm(GB_CMM_T128, 100 * 1024),
              gb_cmm_blocks_an_sm(GB_CMM_T64, 100 * 1024),
              gb_cmm_blocks_an_sm(GB_CMM_T64, 228 * 1024));
}

struct cmm_args {
    struct conv2d_dims d;
    struct gb_cmm_geom g;
    const __half *x, *wt;
    __half *y;
};

static void cmm_body(void *p) {
    const struct cmm_args *a = p;
    gb_conv2d_mma_f16(a->d, a->g, a->x, a->wt, a->y);
}

static void cmm_body_64x256(void *p) {
    const struct cmm_args *a = p;
    gb_conv2d_mma_f16_64x256(a->d, a->g, a->x, a->wt, a->y);
}

/* One case of the twin in tile tile: the wrong outputs (-1: the emulation failed), as
 * run_tc_case, with x and the filters placed as the host places them (zero padding channels),
 * y's pairs as the launcher decides them (gb_cmm_pairs). */
static long run_cmm_case(const struct conv2d_dims *d0, int tile, enum emu_order order,
                         int report) {
    const struct gb_cmm_tile tt = gb_cmm_tile_of(tile);
    struct conv2d_dims d = *d0;
    size_t nx, nw, ny, i;
    __half *xh, *wh, *xp, *wp, *yh;
    float *xf, *wf;
    double *ref, *scale;
    struct cmm_args a;
    dim3 grid = emu_dim3(1, 1, 1);
    long bad = 0;
    if (conv2d_dims_finish(&d) != 0 || !gb_cmm_fits(&d))
        return -1;
    gb_cmm_geom_init(&d, &a.g);
    nx = (size_t)d.n * d.c * d.h * d.w;
    nw = (size_t)d.k * d.c * d.r * d.s;
    ny = (size_t)d.n * d.k * d.p * d.q;
    xh = emu_alloc(nx * sizeof *xh), wh = emu_alloc(nw * sizeof *wh);
    xp = emu_alloc((size_t)d.n * d.h * d.w * a.g.cp * sizeof *xp);
    wp = emu_alloc((size_t)d.k * a.g.K * sizeof *wp);
    yh = emu_alloc((ny + 1) * sizeof *yh);
    xf = emu_alloc(nx * sizeof *xf), wf = emu_alloc(nw * sizeof *wf);
    ref = emu_alloc(ny * sizeof *ref), scale = emu_alloc(ny * sizeof *scale);
    tc_fill(xh, xf, nx, 61);
    tc_fill(wh, wf, nw, 62);
    memset(xp, 0, (size_t)d.n * d.h * d.w * a.g.cp * sizeof *xp);
    memset(wp, 0, (size_t)d.k * a.g.K * sizeof *wp);
    for (i = 0; i < nx; i++)
        xp[gb_cmm_x_place(i, d.c, d.h, d.w)] = xh[i];
    for (i = 0; i < nw; i++)
        wp[gb_cmm_w_place(i, d.c, d.r, d.s)] = wh[i];
    for (i = 0; i <= ny; i++)
        yh[i].bits = 0x7e00; /* NaN */
    ref_conv2d(&d, xf, wf, ref, scale);
    a.d = d, a.x = xp, a.wt = wp, a.y = yh;
    a.g.pair = gb_cmm_pairs(&d, (size_t)yh);
    if (gb_mm_grid_in(d.k, d.n * d.p * d.q, tt.bm, tt.bn, &grid.x, &grid.y) != 0 ||
        emu_launch(grid, emu_dim3(GB_MM_THREADS, 1, 1), (size_t)gb_cmm_smem(tt.bm, tt.bn), order,
                   78, tile == GB_CMM_T64 ? cmm_body_64x256 : cmm_body, &a) != 0) {
        bad = -1;
    } else {
        bad = tc_bad(yh, ref, scale, ny, report);
    }
    free(xh), free(wh), free(xp), free(wp), free(yh), free(xf), free(wf), free(ref), free(scale);
    return bad;
}

static int cmm_cases(int drop) {
    /* n c h w  k r s  stride_h stride_w pad_h pad_w */
    static const struct conv2d_dims cases[] = {
        {2, 1, 9, 11, 5, 3, 3, 1, 1, 1, 1, 0, 0},    /* c = 1, 3×3 same padding: one slice */
        {3, 5, 7, 7, 130, 1, 1, 1, 1, 0, 0, 0, 0},   /* 1×1, two filter tiles, 147 pixels */
        {2, 19, 10, 9, 33, 3, 3, 1, 1, 1, 1, 0, 0},  /* c = 19 (cp 24), 3×3: 7 slices */
        {1, 9, 13, 12, 17, 5, 5, 2, 2, 2, 2, 0, 0},  /* 5×5, stride 2, padding 2 */
        {1, 2, 12, 40, 7, 5, 20, 2, 8, 1, 3, 0, 0},  /* speech layer: 5×20, strides 2, 8 */
        {1, 1, 5, 5, 3, 2, 2, 3, 3, 2, 2, 0, 0},     /* padding wider than the filter */
        {4, 3, 10, 9, 9, 3, 2, 1, 2, 0, 1, 0, 0},    /* rectangular filter, strides 1, 2 */
        {1, 32, 8, 8, 64, 3, 3, 1, 1, 1, 1, 0, 0},   /* c a multiple of 32: one carry a slice */
        {1, 3, 20, 19, 8, 7, 7, 2, 2, 3, 3, 0, 0},   /* 7×7 stride 2 padding 3, c = 3 */
        {2, 17, 6, 5, 70, 1, 1, 1, 1, 0, 0, 0, 0},   /* 1×1, c = 17: 3 chunks, one slice */
        {2, 8, 10, 13, 64, 3, 3, 1, 1, 1, 1, 0, 0},  /* k = 64, 260 pixels: one past 256, pairs */
        {3, 5, 7, 7, 40, 3, 3, 1, 1, 1, 1, 0, 0},    /* k = 40, p·q = 49 odd: no pairs */
        {1, 3, 9, 9, 100, 3, 3, 1, 1, 1, 1, 0, 0},   /* k = 100 (65..127), p·q = 81 odd */
        {2, 4, 16, 17, 127, 1, 1, 1, 1, 0, 0, 0, 0}, /* k = 127, 544 pixels, pairs */
        {5, 1, 3, 4, 70, 1, 1, 1, 1, 0, 0, 0, 0},    /* p·q = 12: images inside a fragment */
    };
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    int ci, o, t, runs = 0;
    for (ci = 0; ci < ncases; ci++)
        for (t = 0; t < GB_CMM_TILES; t++)
            for (o = 0; o < EMU_ORDERS; o++) {
                const char *tn = gb_cmm_tile_of(t).name;
                long bad = run_cmm_case(&cases[ci], t, (enum emu_order)o, !drop);
                runs++;
                EMU_CHECK(bad >= 0, "emulation failed");
                if (drop == 1)
                    EMU_CHECK(bad > 0, "conv2d mma %s case %d %s: barrier 1 removed, yet right", tn,
                              ci, emu_order_name((enum emu_order)o));
                else
                    EMU_CHECK(bad == 0, "conv2d mma %s case %d %s: %ld wrong", tn, ci,
                              emu_order_name((enum emu_order)o), bad);
            }
    return runs;
}

#endif
