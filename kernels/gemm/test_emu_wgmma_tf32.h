/* test_emu_wgmma_tf32.h — tf32 on Hopper's wgmma (wgmma_tf32.cuh) in the emulation test of gemm
 * (included once by kernels/gemm/test_emu.c, after its wgmma section, whose ref_nn, count_bad and
 * pad_written it uses):
 * - the pass and the twins of both kernels (128×128; persistent 128×256 at 1, 2 and 3 clusters,
 *   its boxes wholly outside the matrix not issued and each stage's transactions counted, as
 *   test_emu_persist.h's 16-bit twins) together on odd shapes (k = 1, K not a multiple of 4 or
 *   of the 32-deep slice, many slices, ragged edges, leading dimensions of A and B not multiples
 *   of 4, a base one float off 16 bytes, K = 0) with every element outside A and B NaN and the
 *   copies' buffer NaN before the pass, against the row's reference and the tf32 tier's
 *   tolerance; its C must fail the FP32 tolerance (the operands are rounded or truncated). A is
 *   read in place where the host would (gb_wt_a_in_place: lda a multiple of 4, a 16-byte aligned
 *   base: the cases with lda 32, 300 and 200 and no offset), copied elsewhere;
 * - the pass on its own: the copies are exactly Bᵀ, and A where it is copied, rounded as cvt.rna
 *   rounds, their padding columns (K to ldk) never written, nothing past Bᵀ where A is not copied;
 * - truncation against rounding, bit for bit (wt_trunc_checks): the twins read operands as wgmma
 *   does (gb_wt_trunc), so A read in place is truncated and a copied A rounded;
 * - a CPU model of the tf32 layouts of both kernels, seen failing when broken on purpose: over
 *   every stage, consumer and k8 step, the K-major descriptors of A and Bᵀ read each element at
 *   the byte TMA's boxes wrote it (128-byte swizzle of 4-byte elements) and each byte of the
 *   stages once; the boxes deliver the stage's expect_tx bytes; the pass's grid and ldk.
 */

struct wt_args {
    int M, N, K, lda, ldb, ldk, ldc, in_place, sms; /* sms > 0: the persistent kernel on so many */
    const float *A, *B;
    float *copies, *ar, *bt, *C; /* ar: A's copy in copies, NULL where A is read in place */
    struct gb_wg_tmap ta, tb;
};

static void wt_prep_body(void *p) {
    const struct wt_args *a = p;
    gb_tgemm_wgmma_prep(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->ar, a->bt, a->ldk);
}

static void wt_body(void *p) {
    const struct wt_args *a = p;
    if (a->sms > 0)
        gb_tgemm_wgmma_persist_128x256(a->ta, a->tb, a->M, a->N, a->K, a->C, a->ldc);
    else
        gb_tgemm_wgmma_128x128(a->ta, a->tb, a->M, a->N, a->K, a->C, a->ldc);
}

static const char *wt_name(const struct wt_args *a) {
    return a->sms > 0 ? "gb_tgemm_wgmma_persist_128x256" : "gb_tgemm_wgmma_128x128";
}

/* One copy (rows × ldk) against its source rounded (gb_wm_tf32_bits, bit for bit): element
 * (r, k) of the source at src[r·rs + k·ks]; its padding (columns K to ldk) still NaN. The wrong
 * elements. */
static long wt_copy_bad(const float *copy, int rows, int K, int ldk, const float *src, size_t rs,
                        size_t ks) {
    long bad = 0;
    int r, k;
    for (r = 0; r < rows; r++)
        for (k = 0; k < ldk; k++) {
            const float v = copy[(size_t)r * ldk + k];
            const float want = k < K ? gb_wm_tf32_bits(src[r * rs + k * ks]) : 0.0f;
            bad += k < K ? memcmp(&v, &want, sizeof v) != 0 : !isnan(v);
        }
    return bad;
}

/* The copies: Ar against A (M×K, lda) where A is copied, Bt against Bᵀ (B: K×N, ldb); where A
 * is read in place, the buffer holds Bt alone and one NaN after it. */
static long wt_copies_bad(const struct wt_args *a) {
    return (a->ar ? wt_copy_bad(a->ar, a->M, a->K, a->ldk, a->A, (size_t)a->lda, 1) : 0) +
           wt_copy_bad(a->bt, a->N, a->K, a->ldk, a->B, 1, (size_t)a->ldb) +
           !isnan(a->bt[(size_t)a->N * a->ldk]);
}

/* After A, B, lda, ldb, M, N, K, sms and copies are set: A read in place or copied (the host's
 * rule, gb_wt_a_in_place), the copies' places and the maps (Bᵀ's boxes 64 rows for the
 * persistent kernel, as the host's gb_tgemm_wgmma_encode); then the pass and the twin of the
 * 128×128 kernel (sms 0) or of the persistent one on a card of sms multiprocessors (its grid,
 * gb_wp_blocks), emulated in `order`. 0, or -1 where a launch failed. */
static int wt_launch(struct wt_args *a, enum emu_order order) {
    dim3 grid = emu_dim3(1, 1, 1);
    int pm, pn;
    a->in_place = gb_wt_a_in_place(a->A, a->lda);
    a->ar = a->in_place ? NULL : a->copies;
    a->bt = a->copies + (a->in_place ? 0 : (size_t)a->M * a->ldk);
    gb_wt_tmap(&a->ta, a->in_place ? a->A : a->ar, a->M, a->K, a->in_place ? a->lda : a->ldk);
    (a->sms > 0 ? gb_wt_tmap_bt4 : gb_wt_tmap)(&a->tb, a->bt, a->N, a->K, a->ldk);
    grid.z = a->in_place ? 1 : 2;
    if (a->K > 0 && (gb_wt_prep_grid(a->in_place ? 0 : a->M, a->N, a->K, &grid.x, &grid.y) != 0 ||
                     emu_launch(grid, emu_dim3(GB_WT_PREP_TILE, GB_WT_PREP_ROWS, 1), 0, order, 97,
                                wt_prep_body, a) != 0))
        return -1;
    if (a->sms > 0)
        return emu_launch(emu_dim3((unsigned)gb_wp_blocks(gb_wp_pairs(a->M, a->N, &pm, &pn),
                                                          a->sms),
                                   1, 1),
                          emu_dim3(GB_WG_THREADS, 1, 1), GB_WP_SMEM, order, 98, wt_body, a) == 0
                   ? 0
                   : -1;
    if (gb_wg_grid(a->M, a->N, &grid.x, &grid.y) != 0 ||
        emu_launch(emu_dim3(grid.x, grid.y, 1), emu_dim3(GB_WG_THREADS, 1, 1), GB_WG_SMEM, order,
                   99, wt_body, a) != 0)
        return -1;
    return 0;
}

/* One case: the pass, then the twin of the 128×128 kernel (sms 0) or of the persistent one on
 * sms multiprocessors, on the maps (A in place where TMA can read it), both emulated in
 * `order`; the wrong elements of C (or of the copies, or -1). */
static long run_wtcase(const struct gemm_case *c, int sms, enum emu_order order, int report) {
    const int M = c->M, N = c->N, K = c->K;
    struct wt_args a;
    const size_t na = (size_t)M * (K + c->pad) + 2, nb = (size_t)K * (N + c->pad) + 2;
    float *fa = emu_alloc(na * sizeof(float)), *fb = emu_alloc(nb * sizeof(float));
    size_t ncopies;
    double *ref = emu_alloc(((size_t)M * N + 1) * sizeof(double));
    struct tol tol = verify_tol(DT_TF32, K, 1.0, 0); /* |a·b| ≤ 1 */
    long bad = -1;
    float *cbuf;
    a.M = M, a.N = N, a.K = K, a.lda = K + c->pad, a.ldb = N + c->pad, a.ldc = N + c->pad;
    a.sms = sms;
    /* operands in [-1, 1) from one float past the buffers' start (misalign: 16-byte rule not
     * met, A copied whatever lda), NaN outside the matrices */
    w80_fill(fa, na, (size_t)c->misalign, M, K, a.lda, 1, 71);
    w80_fill(fb, nb, (size_t)c->misalign, K, N, a.ldb, 1, 72);
    a.A = fa + c->misalign, a.B = fb + c->misalign;
    ncopies = gb_wt_copies(M, N, K, gb_wt_a_in_place(a.A, a.lda), &a.ldk);
    a.copies = emu_alloc((ncopies + 1) * sizeof(float));
    cbuf = emu_alloc(((size_t)M * a.ldc + 1 + (size_t)c->misalign) * sizeof(float));
    a.C = cbuf + c->misalign; /* misalign: C 4 bytes off 8 too (single stores) */
    emu_poison(a.copies, ncopies + 1);
    emu_poison(a.C, (size_t)M * a.ldc + 1);
    ref_nn(a.A, a.lda, a.B, a.ldb, M, N, K, ref);
    if (wt_launch(&a, order) == 0) {
        bad = K > 0 ? wt_copies_bad(&a) : 0;
        EMU_CHECK(bad == 0, "gb_tgemm_wgmma_prep %dx%dx%d (A %s): %ld copied elements wrong", M, N,
                  K, a.in_place ? "in place" : "copied", bad);
        bad += count_bad(a.C, a.ldc, ref, M, N, tol, report);
        if (bad == 0)
            bad = pad_written(a.C, M, N, a.ldc) + !isnan(a.C[(size_t)M * a.ldc]);
        if (bad == 0 && K >= 32 && M * N >= 64 && order == EMU_FORWARD)
            EMU_CHECK(count_bad(a.C, a.ldc, ref, M, N, verify_tol(DT_F32, K, 1.0, 0), 0) > 0,
                      "%s (twin) %dx%dx%d: passes the FP32 tolerance, so its operands are not "
                      "rounded to TF32",
                      wt_name(&a), M, N, K);
    }
    free(fa), free(fb), free(a.copies), free(cbuf), free(ref);
    return bad;
}

/* A read in place is truncated, a copied A rounded, bit for bit: every element of A 1 + 3·2^-12
 * (truncated: 1; rounded: 1 + 2^-10), of B 1 (exact), K = 72: C must be exactly 72 where TMA
 * reads A in place (lda 72, a 16-byte aligned base) and 72·(1 + 2^-10) where it cannot (the same
 * A one float off 16 bytes, copied by the pass). Both sums are exact in FP32, and both lie within
 * the tf32 tolerance of the exact 72·(1 + 3·2^-12): only a bitwise check tells them apart. */
static void wt_trunc_checks(void) {
    enum { M = 3, N = 5, K = 72 };
    int misalign;
    for (misalign = 0; misalign < 4; misalign++) { /* bit 0: A misaligned, bit 1: persistent */
        struct wt_args a;
        float *fa = emu_alloc(((size_t)M * K + 1) * sizeof(float)),
              *fb = emu_alloc(((size_t)K * N) * sizeof(float));
        const float want = misalign & 1 ? (float)K * (1.0f + 0x1p-10f) : (float)K;
        size_t i, ncopies;
        long bad = 0;
        for (i = 0; i < (size_t)M * K + 1; i++)
            fa[i] = 1.0f + 3 * 0x1p-12f;
        for (i = 0; i < (size_t)K * N; i++)
            fb[i] = 1.0f;
        a.M = M, a.N = N, a.K = K, a.lda = K, a.ldb = N, a.ldc = N, a.sms = misalign & 2 ? 2 : 0;
        a.A = fa + (misalign & 1), a.B = fb;
        ncopies = gb_wt_copies(M, N, K, gb_wt_a_in_place(a.A, a.lda), &a.ldk);
        a.copies = emu_alloc((ncopies + 1) * sizeof(float));
        a.C = emu_alloc((size_t)M * N * sizeof(float));
        emu_poison(a.copies, ncopies + 1);
        emu_poison(a.C, (size_t)M * N);
        if (wt_launch(&a, EMU_FORWARD) != 0)
            bad = -1;
        else
            for (i = 0; i < (size_t)M * N; i++)
                bad += a.C[i] != want;
        EMU_CHECK(a.in_place == !(misalign & 1) && bad == 0,
                  "%s (twin), A %s: %ld of C not %.9g (A = 1 + 3*2^-12, B = 1, K = 72: wgmma "
                  "truncates A read in place to 1, the pass rounds a copy to 1 + 2^-10)",
                  wt_name(&a), a.in_place ? "in place" : "copied", bad, (double)want);
        free(fa), free(fb), free(a.copies), free(a.C);
    }
}

/* The pass and the twins on odd shapes: the 128×128 kernel's in every order, the persistent
 * kernel's at 1, 2 and 3 clusters (sms 2, 4, 6; one order each, in turn). No numbered barriers:
 * nothing to drop. Returns the launches. */
static int wt_cases(int drop) {
    /* 1×1×1; k = 1 with odd padded leading dimensions; K below a slice and not a multiple of 4
     * (ldk > K: padding the maps must stop at); one exact slice and tile; many slices (stages
     * reused) with ragged 2×3 tiles; a misaligned base with K % 4 = 3; K = 0 */
    /* …; A read in place: 128×128×32 (one slice), 130×70×300 (lda 300, stages reused, ragged
     * tiles) and 300×136×200 (3 tile rows: the persistent kernel's second pair has its second
     * block's A box wholly below M, B's last 64-row box of Bᵀ wholly past N; 7 slices) */
    static const struct gemm_case cases[] = {
        {1, 1, 1, 0, 0},       {130, 129, 1, 1, 0}, {70, 60, 50, 3, 0}, {128, 128, 32, 0, 0},
        {129, 257, 165, 1, 0}, {67, 45, 35, 0, 1},  {3, 70, 0, 0, 0},   {130, 70, 300, 0, 0},
        {300, 136, 200, 0, 0},
    };
    static const int sms[] = {2, 4, 6};
    int ci, o, runs = 0;
    if (drop)
        return 0;
    for (ci = 0; ci < (int)(sizeof cases / sizeof cases[0]); ci++) {
        const struct gemm_case *c = &cases[ci];
        for (o = 0; o < EMU_ORDERS + 3; o++) {
            const int persist = o >= EMU_ORDERS;
            const enum emu_order order =
                (enum emu_order)(persist ? (ci + o) % EMU_ORDERS : o);
            const int n = persist ? sms[o - EMU_ORDERS] : 0;
            long bad = run_wtcase(c, n, order, 1);
            runs += 2;
            EMU_CHECK(bad == 0, "%s (twin) %dx%dx%d pad %d misalign %d on %d SMs %s: %ld wrong",
                      persist ? "gb_tgemm_wgmma_persist_128x256" : "gb_tgemm_wgmma_128x128",
                      c->M, c->N, c->K, c->pad, c->misalign, n, emu_order_name(order), bad);
        }
    }
    return runs;
}

/* The tf32 layout of the 128×128 kernel (persist 0: 32 KiB stages, Bᵀ 128 rows) or of the
 * persistent one (1: 48 KiB stages, Bᵀ 256 rows in four 64-row boxes): every stage, both
 * consumers' A and the shared Bᵀ over the 4 k8 steps of a slice read element (row, k) at the
 * byte TMA's boxes put it (row·128 + k·4, swizzled, at the operand's place in the stage), and
 * together each byte of the stages once. The wrong reads and bytes. */
static int wt_layout_bad(int persist) {
    static unsigned char hit[GB_WG_STAGES * GB_WP_STAGE_BYTES];
    const unsigned stage = persist ? GB_WP_STAGE_BYTES : GB_WG_STAGE_BYTES;
    const int brows = persist ? GB_WP_BN : GB_WG_BN;
    int s, kk, c, r, k, b, bad = 0;
    memset(hit, 0, sizeof hit);
    for (s = 0; s < GB_WG_STAGES; s++)
        for (kk = 0; kk < GB_WT_BK / GB_WT_MK; kk++) {
            const unsigned st = (unsigned)s * stage;
            const struct gb_wg_desc_fields fb =
                gb_wg_desc_decode(persist ? gb_wp_desc_bt(s, kk) : gb_wt_desc_b(s, kk));
            for (c = 0; c < GB_WG_CONSUMERS; c++) {
                const struct gb_wg_desc_fields fa = gb_wg_desc_decode(
                    persist ? gb_wp_desc_a(s, c, kk) : gb_wg_desc_a(s, c, kk));
                for (r = 0; r < 64; r++)
                    for (k = 0; k < GB_WT_MK; k++) {
                        const unsigned off =
                            gb_wg_swizzle128(gb_wg_kmajor_offset_e(fa, r, k, 4u));
                        bad += off != st + gb_wg_swizzle128((unsigned)((64 * c + r) * 128 +
                                                                       (GB_WT_MK * kk + k) * 4));
                        for (b = 0; b < 4; b++)
                            if (off + b < GB_WG_STAGES * stage)
                                hit[off + b]++;
                    }
            }
            for (r = 0; r < brows; r++)
                for (k = 0; k < GB_WT_MK; k++) {
                    const unsigned off = gb_wg_swizzle128(gb_wg_kmajor_offset_e(fb, r, k, 4u));
                    bad +=
                        off != st + GB_WG_A_BYTES +
                                   gb_wg_swizzle128((unsigned)(r * 128 + (GB_WT_MK * kk + k) * 4));
                    for (b = 0; b < 4; b++)
                        if (off + b < GB_WG_STAGES * stage)
                            hit[off + b]++;
                }
        }
    for (s = 0; s < (int)(GB_WG_STAGES * stage); s++)
        bad += hit[s] != 1;
    return bad;
}

/* The layouts (wt_layout_bad) and the boxes, descriptors, ldk and grid of the pass, each seen
 * failing when broken on purpose. */
static void wt_layout_checks(void) {
    struct gb_wg_tmap ta, tb;
    int bad = wt_layout_bad(0);
    EMU_CHECK(bad == 0, "wgmma tf32: the K-major descriptors do not read each stage once, where "
                        "TMA wrote it (%d)",
              bad);
    bad = wt_layout_bad(1);
    EMU_CHECK(bad == 0, "wgmma tf32 persistent: the K-major descriptors of A and of Bᵀ's 256 rows "
                        "do not read each stage once, where TMA wrote it (%d)",
              bad);
    /* the persistent kernel's boxes: A's 32 × 128 and Bᵀ's 32 × 64, the 16-bit tiers' bytes */
    gb_wt_tmap_bt4(&tb, (const float *)(size_t)256, 1000, 1000, 1000);
    EMU_CHECK(tb.box[0] * tb.box[1] * tb.elem_bytes == GB_WG_B_BOX_BYTES &&
                  tb.box[1] == GB_WG_BOX_N,
              "wgmma tf32 persistent: Bᵀ's box is not a quarter of 256 rows, 8 KiB");
    {
        /* a descriptor's swizzle mode and base offset as the 16-bit tiers' */
        const struct gb_wg_desc_fields f = gb_wg_desc_decode(gb_wt_desc_b(1, 3));
        EMU_CHECK(f.swizzle == GB_WG_SWIZZLE_128B && f.base_offset == 0 && f.sbo == GB_WG_ATOM &&
                      f.addr == GB_WG_STAGE_BYTES + GB_WG_A_BYTES + 3 * 32,
                  "wgmma tf32: gb_wt_desc_b's fields");
    }
    gb_wt_tmap(&ta, (const float *)(size_t)256, 1000, 1000, 1000);
    gb_wt_tmap(&tb, (const float *)(size_t)256, 1000, 1000, 1000);
    EMU_CHECK(ta.box[0] * ta.elem_bytes == GB_WG_ROW_BYTES && ta.box[1] == GB_WG_BM &&
                  ta.box[0] * ta.box[1] * ta.elem_bytes + tb.box[0] * tb.box[1] * tb.elem_bytes ==
                      GB_WG_STAGE_BYTES &&
                  GB_WT_B_BYTES == GB_WG_STAGE_BYTES - GB_WG_A_BYTES && ta.stride == 4000,
              "wgmma tf32: the boxes do not fill a stage's expect_tx bytes with 128-byte rows");
    {
        unsigned gx = 0, gy = 0;
        int ldk;
        EMU_CHECK(gb_wt_ldk(1) == 4 && gb_wt_ldk(4) == 4 && gb_wt_ldk(5) == 8 &&
                      gb_wt_ldk(0) == 4 && gb_wt_copies(3, 5, 7, 0, &ldk) == 64 && ldk == 8 &&
                      gb_wt_copies(3, 5, 7, 1, &ldk) == 40,
                  "wgmma tf32: the copies' leading dimension and size");
        /* TMA's rules for reading A in place: a 16-byte aligned base, rows of whole 16 bytes */
        EMU_CHECK(gb_wt_a_in_place((const float *)(size_t)4096, 8) &&
                      !gb_wt_a_in_place((const float *)(size_t)4100, 8) &&
                      !gb_wt_a_in_place((const float *)(size_t)4096, 6) &&
                      !gb_wt_a_in_place((const float *)(size_t)4096, 0),
                  "wgmma tf32: gb_wt_a_in_place");
        EMU_CHECK(
            gb_wt_trunc(1.0f + 0x1.ffep-11f) == 1.0f && gb_wt_trunc(-1.0f - 0x1p-11f) == -1.0f &&
                gb_wt_trunc(1.0f + 0x1p-10f) == 1.0f + 0x1p-10f && isinf(gb_wt_trunc(INFINITY)),
            "wgmma tf32: gb_wt_trunc is not a truncation to 10 mantissa bits");
        EMU_CHECK(gb_wt_prep_grid(33, 70, 65, &gx, &gy) == 0 && gx == 3 && gy == 3 &&
                      gb_wt_prep_grid(1, 1, 0, &gx, &gy) == -1 &&
                      gb_wt_prep_grid(65535 * 32 + 1, 1, 1, &gx, &gy) == -1,
                  "wgmma tf32: the pass's grid");
    }
}
