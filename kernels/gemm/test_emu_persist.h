/* test_emu_persist.h — the persistent 128×256 Hopper kernel (wgmma_persist.cuh) in the
 * emulation test of gemm (included once by kernels/gemm/test_emu.c, after its wgmma section,
 * whose case setup and check wg_case_open and wg_case_close it uses):
 * - its twin on odd shapes, with 1, 2 and 3 clusters (a cluster walking several tiles, odd pair
 *   counts, the second block of a pair wholly below M, ragged edges, odd ldc: no paired store),
 *   where a box wholly outside the matrix is not issued and NaN stands in its place, and each
 *   stage's copies must deliver exactly the bytes its "full" barrier expects (or the twin traps);
 * - CPU models, each seen failing when broken on purpose: the grouped tile walk visits every
 *   pair tile exactly once over the clusters, for odd counts; the multicast delivers each
 *   block each of B's four boxes at most once, its "full" barrier's expected bytes are what the
 *   issued copies deliver, and every stored element reads issued boxes; the descriptors at
 *   n = 256 read each element of a stage once; the register and shared-memory budgets; the
 *   choice between the two kernels by modelled time.
 */

struct wp_args {
    int bf16, M, N, K, ldc;
    struct gb_wg_tmap ta, tb;
    float *C;
};

static void wp_body(void *p) {
    const struct wp_args *a = p;
    if (a->bf16)
        gb_bgemm_wgmma_persist_128x256(a->ta, a->tb, a->M, a->N, a->K, a->C, a->ldc);
    else
        gb_hgemm_wgmma_persist_128x256(a->ta, a->tb, a->M, a->N, a->K, a->C, a->ldc);
}

/* One case of a tier's twin on a card of `sms` multiprocessors (the persistent grid's size);
 * returns the wrong elements (or -1). */
static long run_wpcase(int bf16, const struct gemm_case *c, int sms, enum emu_order order) {
    struct wg_case w;
    struct wp_args args;
    int pm, pn, ok;
    wg_case_open(&w, bf16, c, 61, 62);
    args.bf16 = bf16, args.M = w.M, args.N = w.N, args.K = w.K, args.ldc = w.ldc, args.C = w.C;
    args.ta = w.ta, args.tb = w.tb;
    ok = emu_launch(emu_dim3((unsigned)gb_wp_blocks(gb_wp_pairs(w.M, w.N, &pm, &pn), sms), 1, 1),
                    emu_dim3(GB_WG_THREADS, 1, 1), GB_WP_SMEM, order, 98, wp_body, &args) == 0;
    return wg_case_close(&w, ok, 1);
}

/* Both tiers' twins on odd shapes, each at 1, 2 and 3 clusters (sms 2, 4, 6). Returns the
 * launches. The twin's barriers are not numbered: nothing to drop. */
static int wp_cases(int drop) {
    /* 1×1×1; one pair with its second block partial and two columns of tiles; three row tiles
     * (the second pair's second block wholly below M: A's box wholly outside, zeros) with K over
     * two slices; exact 256 columns; odd ldc (single stores) and k = 1; K = 0 */
    /* …; N = 136: B's last box (columns 192–255) outside, not issued, NaN in its place */
    static const struct gemm_case cases[] = {
        {1, 1, 1, 0, 0},     {129, 257, 65, 0, 0}, {300, 70, 130, 2, 0},
        {64, 256, 64, 0, 0}, {131, 65, 1, 1, 0},   {3, 70, 0, 0, 0},
        {131, 136, 72, 0, 0},
    };
    static const int sms[] = {2, 4, 6};
    int bf16, ci, si, runs = 0;
    if (drop)
        return 0;
    for (bf16 = 0; bf16 < 2; bf16++)
        for (ci = 0; ci < (int)(sizeof cases / sizeof cases[0]); ci++)
            for (si = 0; si < 3; si++) {
                const struct gemm_case *c = &cases[ci];
                const enum emu_order o = (enum emu_order)((ci + si) % EMU_ORDERS);
                long bad = run_wpcase(bf16, c, sms[si], o);
                runs++;
                EMU_CHECK(bad == 0, "%s (twin) %dx%dx%d pad %d on %d SMs %s: %ld wrong",
                          bf16 ? "gb_bgemm_wgmma_persist_128x256"
                               : "gb_hgemm_wgmma_persist_128x256",
                          c->M, c->N, c->K, c->pad, sms[si], emu_order_name(o), bad);
            }
    return runs;
}

/* The tile walk: over the clusters of gb_wp_blocks (cluster q takes t = q, q + Q, …, as the
 * kernel), every pair tile of a pm×pn grid once, for every grid up to 13×11 (odd counts,
 * groups cut short) and card sizes 2, 7 (odd: 3 clusters), 132. */
static void wp_walk_checks(void) {
    static const int sms[] = {2, 7, 132};
    int pm, pn, si, bad = 0;
    static int seen[13 * 11];
    for (pm = 1; pm <= 13; pm++)
        for (pn = 1; pn <= 11; pn++)
            for (si = 0; si < 3; si++) {
                const int pairs = pm * pn;
                const int blocks = gb_wp_blocks(pairs, sms[si]), Q = blocks / GB_WP_CLUSTER;
                int q, t, i;
                bad += blocks % GB_WP_CLUSTER != 0 || Q < 1 || Q > pairs ||
                       (blocks > sms[si] && sms[si] >= GB_WP_CLUSTER);
                memset(seen, 0, sizeof seen);
                for (q = 0; q < Q; q++)
                    for (t = q; t < pairs; t += Q) {
                        int cm, cn;
                        gb_wp_tile(t, pm, pn, &cm, &cn);
                        if (cm < 0 || cm >= pm || cn < 0 || cn >= pn)
                            bad++;
                        else
                            seen[cm * pn + cn]++;
                    }
                for (i = 0; i < pairs; i++)
                    bad += seen[i] != 1;
            }
    EMU_CHECK(bad == 0, "wgmma_persist: the tile walk misses or repeats pair tiles (%d)", bad);
    {
        /* grouped: with 16 pair-rows, the first 8 tiles are column 0 of rows 0–7 */
        int cm, cn, t;
        bad = 0;
        for (t = 0; t < GB_WP_GROUP; t++) {
            gb_wp_tile(t, 16, 5, &cm, &cn);
            bad += cm != t || cn != 0;
        }
        gb_wp_tile(GB_WP_GROUP * 5, 16, 5, &cm, &cn);
        bad += cm != GB_WP_GROUP || cn != 0;
        EMU_CHECK(bad == 0, "wgmma_persist: the walk is not grouped column by column (%d)", bad);
    }
    {
        int pm2, pn2;
        EMU_CHECK(gb_wp_pairs(300, 70, &pm2, &pn2) == 2 && pm2 == 2 && pn2 == 1 &&
                      gb_wp_pairs(4096, 4096, &pm2, &pn2) == 256 && pm2 == 16 && pn2 == 16,
                  "wgmma_persist: pair tile counts");
    }
}

/* The multicast layout and the boxes left out (issue 46): each block receives, over both ranks'
 * copies, each of B's boxes at most once, at its own offset in the stage; for every M and N
 * from 1 to 600 (odd and even numbers of 128-row tiles, N mod 256 from 1 to 255) and every
 * pair tile, the bytes the issued copies deliver to a block (its A box, the B boxes each rank
 * issues, the sizes of the tensor maps' boxes) are the expect_tx of its "full" barrier, both
 * blocks' B parts alike; every element the epilogue stores (row < M, column < N) reads only
 * issued boxes; the "empty" barrier counts every consumer warpgroup of the cluster. */
static void wp_multicast_checks(void) {
    struct gb_wg_tmap ta, tb;
    int got[GB_WP_B_BOXES] = {0}, src, i, bad = 0, M, N, bad_tx = 0, bad_read = 0;
    gb_wg_tmap_a(&ta, (void *)(size_t)256, 1000, 1000, 1000);
    gb_wg_tmap_b(&tb, (void *)(size_t)256, 1000, 1000, 1000);
    for (src = 0; src < GB_WP_CLUSTER; src++)
        for (i = 0; i < GB_WP_B_BOXES / GB_WP_CLUSTER; i++) {
            const int j = gb_wp_b_box(src, i);
            if (j < 0 || j >= GB_WP_B_BOXES)
                bad++;
            else
                got[j]++;
        }
    for (i = 0; i < GB_WP_B_BOXES; i++)
        bad += got[i] != 1;
    EMU_CHECK(bad == 0, "wgmma_persist: multicast does not deliver each B box once (%d)", bad);
    for (M = 1; M <= 600; M += 7)
        for (N = 1; N <= 600; N++) {
            int pm, pn, cm, cn, rank;
            gb_wp_pairs(M, N, &pm, &pn);
            for (cm = 0; cm < pm; cm++)
                for (cn = 0; cn < pn; cn++) {
                    unsigned bpart[GB_WP_CLUSTER];
                    for (rank = 0; rank < GB_WP_CLUSTER; rank++) {
                        /* what reaches block `rank`: its A box, every rank's issued B boxes */
                        const unsigned own = gb_wp_issue(rank, M, N, cm, cn);
                        unsigned bytes = own & 1u ? ta.box[0] * ta.box[1] * ta.elem_bytes : 0u;
                        int c, b = 0;
                        for (src = 0; src < GB_WP_CLUSTER; src++)
                            for (i = 0; i < GB_WP_B_BOXES / GB_WP_CLUSTER; i++)
                                if (gb_wp_issue(src, M, N, cm, cn) & (2u << i)) {
                                    bytes += tb.box[0] * tb.box[1] * tb.elem_bytes;
                                    b |= 1 << gb_wp_b_box(src, i);
                                }
                        bad_tx += bytes != gb_wp_stage_tx(M, N, cm, cn, rank);
                        bpart[rank] = gb_wp_stage_tx(M, N, cm, cn, rank) -
                                      (own & 1u ? (unsigned)GB_WG_A_BYTES : 0u);
                        /* the epilogue stores an element of this block's tile inside C; a
                         * box's first row and column are its least, so a box feeds a stored
                         * element where its first one is stored */
                        for (c = 0; c < GB_WP_BN; c += GB_WG_BOX_N)
                            if ((GB_WP_CLUSTER * cm + rank) * GB_WP_BM < M && cn * GB_WP_BN + c < N)
                                bad_read += !(own & 1u) || !(b >> (c / GB_WG_BOX_N) & 1);
                    }
                    bad_tx += bpart[0] != bpart[1];
                }
        }
    EMU_CHECK(bad_tx == 0,
              "wgmma_persist: a block's full barrier expects other bytes than its issued copies "
              "deliver, or the blocks of a cluster expect different B bytes (%d)",
              bad_tx);
    EMU_CHECK(bad_read == 0,
              "wgmma_persist: a stored element reads a box that is not issued (%d)", bad_read);
    EMU_CHECK(gb_wp_stage_tx(4096, 4096, 3, 5, 1) == GB_WP_STAGE_BYTES &&
                  GB_WP_STAGE_BYTES == 49152 && gb_wp_stage_tx(300, 70, 1, 0, 1) == 2 * 8192 &&
                  gb_wp_stage_tx(300, 70, 1, 0, 0) == 16384 + 2 * 8192,
              "wgmma_persist: the full barrier's bytes at 4096x4096 and 300x70");
    EMU_CHECK(GB_WP_EMPTY_ARRIVALS == GB_WG_CONSUMERS * GB_WP_CLUSTER,
              "wgmma_persist: empty barrier arrivals");
}

/* The descriptors at n = 256: over every stage and step, A's (both consumers) and B's read
 * each byte of the stages once, at the element TMA wrote there. */
static void wp_desc_checks(void) {
    static unsigned char hit[GB_WG_STAGES * GB_WP_STAGE_BYTES];
    int s, kk, c, r, k, n, bad = 0;
    memset(hit, 0, sizeof hit);
    for (s = 0; s < GB_WG_STAGES; s++)
        for (kk = 0; kk < GB_WG_BK / GB_WG_MK; kk++) {
            const struct gb_wg_desc_fields fb = gb_wg_desc_decode(gb_wp_desc_b(s, kk));
            const unsigned st = (unsigned)(s * GB_WP_STAGE_BYTES);
            for (c = 0; c < GB_WG_CONSUMERS; c++) {
                const struct gb_wg_desc_fields fa = gb_wg_desc_decode(gb_wp_desc_a(s, c, kk));
                for (r = 0; r < 64; r++)
                    for (k = 0; k < GB_WG_MK; k++) {
                        const unsigned off = gb_wg_swizzle128(gb_wg_kmajor_offset(fa, r, k));
                        /* TMA's A box: row 64c + r, column 16kk + k */
                        bad += off != st + gb_wg_swizzle128(
                                               (unsigned)((64 * c + r) * 128 + (16 * kk + k) * 2));
                        if (off + 1 < sizeof hit)
                            hit[off]++, hit[off + 1]++;
                    }
            }
            for (k = 0; k < GB_WG_MK; k++)
                for (n = 0; n < GB_WP_BN; n++) {
                    const unsigned off = gb_wg_swizzle128(gb_wg_mnmajor_offset(fb, k, n));
                    /* B's box n / 64 at its offset: k-row 16kk + k, column n % 64 */
                    bad +=
                        off != st + GB_WG_A_BYTES + (unsigned)(n / 64) * GB_WG_B_BOX_BYTES +
                                   gb_wg_swizzle128((unsigned)((16 * kk + k) * 128 + (n % 64) * 2));
                    if (off + 1 < sizeof hit)
                        hit[off]++, hit[off + 1]++;
                }
        }
    for (s = 0; s < (int)sizeof hit; s++)
        bad += hit[s] != 1;
    EMU_CHECK(bad == 0, "wgmma_persist: the n = 256 descriptors do not read each stage once (%d)",
              bad);
}

/* Registers (setmaxnreg: multiples of 8 in 24–256; the block's 384 threads within 64 K after
 * the moves; the consumers hold 128 accumulators), shared memory (227 KiB a block on 9.0), and
 * the choice between the kernels. */
static void wp_budget_checks(void) {
    EMU_CHECK(GB_WP_REGS_PRODUCER % 8 == 0 && GB_WP_REGS_CONSUMER % 8 == 0 &&
                  GB_WP_REGS_PRODUCER >= 24 && GB_WP_REGS_CONSUMER <= 256 &&
                  128 * GB_WP_REGS_PRODUCER + 128 * GB_WG_CONSUMERS * GB_WP_REGS_CONSUMER <=
                      65536 &&
                  GB_WP_REGS_CONSUMER >= GB_WP_ACC + 64,
              "wgmma_persist: setmaxnreg budget");
    /* the entry count the moves assume, and the host's test of numRegs (gb_wp_regs_ok) */
    EMU_CHECK(GB_WG_THREADS * GB_WP_REGS_ENTRY ==
                      128 * GB_WP_REGS_PRODUCER + 128 * GB_WG_CONSUMERS * GB_WP_REGS_CONSUMER &&
                  gb_wp_regs_ok(GB_WP_REGS_ENTRY) && !gb_wp_regs_ok(GB_WP_REGS_ENTRY - 8) &&
                  !gb_wp_regs_ok(128),
              "wgmma_persist: registers at entry (%d) and gb_wp_regs_ok", GB_WP_REGS_ENTRY);
    EMU_CHECK(GB_WP_SMEM <= 232448, "wgmma_persist: %d bytes of shared memory a block",
              (int)GB_WP_SMEM);
    /* the choice by modelled time on an H100's or H200's 132 SMs (docs/ARCHITECTURE.md's table):
     * 2048² 1.8 < 2 rounds, 2304² 3.6 > 3, 3072² 5.4 > 5, 4096² 7.2 < 8, 5120² 12.6 < 13; one
     * tile each, 1.8 > 1; no SMs known, 128×128 */
    {
        long r128, r256;
        gb_wp_rounds(2304, 2304, 132, &r128, &r256);
        EMU_CHECK(r128 == 3 && r256 == 2, "wgmma_persist: gb_wp_rounds(2304²) %ld, %ld", r128,
                  r256);
    }
    EMU_CHECK(gb_wp_pick(2048, 2048, 132) && !gb_wp_pick(2304, 2304, 132) &&
                  !gb_wp_pick(3072, 3072, 132) && gb_wp_pick(4096, 4096, 132) &&
                  gb_wp_pick(5120, 5120, 132) && !gb_wp_pick(128, 256, 132) &&
                  !gb_wp_pick(4096, 4096, 0) && GB_WP_TILE_COST_X10 == 18,
              "wgmma_persist: gb_wp_pick");
}

static void wgmma_persist_checks(void) {
    wp_walk_checks();
    wp_multicast_checks();
    wp_desc_checks();
    wp_budget_checks();
}
