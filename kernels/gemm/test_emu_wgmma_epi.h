/* test_emu_wgmma_epi.h — the paired epilogue every wgmma kernel shares (wgmma.cuh's
 * gb_wg_pairs_ok and gb_wg_store2) in the emulation test of gemm (included once by
 * kernels/gemm/test_emu.c, after the wgmma, persistent and tf32 sections, whose run_wgcase,
 * run_wpcase and run_wtcase it uses):
 * - each wgmma kernel's twin (128×128 f16, bf16, tf32; persistent 128×256 f16, bf16, tf32) at odd M
 *   and N in three layouts of C: 8-byte aligned with ldc even, where every pair of columns c, c + 1
 *   (c even) with c + 1 < N must be one paired store, M·⌊N/2⌋ of them, the last odd column a
 *   single; ldc odd; and C 4 bytes off 8 with ldc even; where no pair may be stored at once (the
 *   twin traps on a misaligned pair, as a card faults). Every case must also be right, with the
 *   row padding and the element past C untouched;
 * - gb_wg_pairs_ok on its own.
 * The stores are counted through wgmma.cuh's GB_WG_TWIN_PAIRED hook (test_emu.c defines it).
 */

/* Run kernel k (0–2: the 128×128 f16, bf16, tf32 twins; 3–5: the persistent f16, bf16, tf32
 * ones, on 2 clusters) on one case; the wrong elements (or -1). */
static long wg_epi_run(int k, const struct gemm_case *c, enum emu_order order) {
    if (k < 2)
        return run_wgcase(k, c, order, 1);
    if (k == 2 || k == 5)
        return run_wtcase(c, k == 5 ? 4 : 0, order, 1);
    return run_wpcase(k - 3, c, 4, order);
}

/* Every kernel on every layout of C; returns the launches. */
static int wg_epi_cases(int drop) {
    static const char *const names[] = {
        "gb_hgemm_wgmma_128x128",         "gb_bgemm_wgmma_128x128",
        "gb_tgemm_wgmma_128x128",         "gb_hgemm_wgmma_persist_128x256",
        "gb_bgemm_wgmma_persist_128x256", "gb_tgemm_wgmma_persist_128x256",
    };
    /* odd M and N, K over one slice; pad 1: ldc 68 even, pad 0: 67 odd; misalign 1: C (and,
     * for tf32, A and B) one float off */
    static const struct gemm_case cases[] = {
        {131, 67, 40, 1, 0},
        {131, 67, 40, 0, 0},
        {131, 67, 40, 1, 1},
    };
    int k, ci, runs = 0;
    if (drop)
        return 0;
    for (k = 0; k < 6; k++)
        for (ci = 0; ci < 3; ci++) {
            const struct gemm_case *c = &cases[ci];
            const long want = ci == 0 ? (long)c->M * (c->N / 2) : 0;
            const enum emu_order o = (enum emu_order)((k + ci) % EMU_ORDERS);
            long bad;
            wg_pair_stores = 0;
            bad = wg_epi_run(k, c, o);
            runs++;
            EMU_CHECK(bad == 0 && wg_pair_stores == want,
                      "%s (twin) %dx%dx%d ldc %d, C %s: %ld wrong, %ld paired stores (want %ld)",
                      names[k], c->M, c->N, c->K, c->N + c->pad,
                      c->misalign ? "4 bytes off 8" : "8-byte aligned", bad, wg_pair_stores, want);
        }
    EMU_CHECK(gb_wg_pairs_ok((float *)(size_t)64, 10) && !gb_wg_pairs_ok((float *)(size_t)68, 10) &&
                  !gb_wg_pairs_ok((float *)(size_t)64, 9),
              "wgmma: gb_wg_pairs_ok");
    return runs;
}
