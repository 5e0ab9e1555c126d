/* wgmma_persist_tile.cuh — one tier of the persistent 128×256 Hopper GEMM of wgmma_persist.cuh
 * (read it first: the structure, the cluster, the twin); included once per tier, as
 * wgmma_tile.cuh is by wgmma.cuh.
 *
 * Parameters (defined by the includer, undefined at the end of this file):
 *   GB_WPT_NAME      kernel name, e.g. gb_hgemm_wgmma_persist_128x256
 *   GB_WPT_IN        element type of A and B: __half, __nv_bfloat16, float (tf32)
 *   GB_WPT_FLOAT(x)  an element as the tensor cores read it, as float (the twin's FMAs)
 *   GB_WPT_PTX       wgmma's operand type: "f16", "bf16", "tf32"
 *   GB_WPT_TF32      1 for the tf32 tier (wgmma_tf32.cuh), 0 or undefined otherwise: 4-byte
 *                    elements (a slice 32 deep, a step 8: m64n256k8) and B K-major, the copy Bᵀ
 *                    (N×K) in four boxes of 64 n-rows × 32 k (8 KiB each, as the 16-bit tiers'
 *                    64 k-rows × 64 n), read without the transpose flag; the 16-bit tiers' B is
 *                    N-major, read with it. A stage's bytes, boxes and barriers are the same.
 */
#ifndef GB_WPT_TF32
#define GB_WPT_TF32 0
#endif
#define GB_WPT_CAT2(a, b) a##_##b
#define GB_WPT_CAT(a, b) GB_WPT_CAT2(a, b)
#define GB_WPT_FN(suffix) GB_WPT_CAT(GB_WPT_NAME, suffix)
/* a slice's and a step's depth in elements: 128 bytes (the swizzle span) and 32 bytes */
#define GB_WPT_BK ((int)(GB_WG_ROW_BYTES / sizeof(GB_WPT_IN)))
#define GB_WPT_MK ((int)(32 / sizeof(GB_WPT_IN)))
/* the instruction and its immediates (scale-d from p, scale-a, scale-b 1; the 16-bit tiers'
 * imm-trans-a 0, imm-trans-b 1: B N-major; 32-bit types have no transpose operands); B's
 * descriptor (gb_wp_desc_b N-major, gb_wp_desc_bt K-major) and B box j's TMA coordinates of
 * slice kt (x inner, y rows: the 16-bit tiers' B is K×N, tf32's Bᵀ N×K) */
#if GB_WPT_TF32
#define GB_WPT_INSTR "m64n256k8.f32.tf32.tf32"
#define GB_WPT_IMM "p, 1, 1"
#define GB_WPT_DESC_B(s, kk) gb_wp_desc_bt(s, kk)
#define GB_WPT_B_XY(col, kt) (kt) * GB_WPT_BK, (col)
#else
#define GB_WPT_INSTR "m64n256k16.f32." GB_WPT_PTX "." GB_WPT_PTX
#define GB_WPT_IMM "p, 1, 1, 0, 1"
#define GB_WPT_DESC_B(s, kk) gb_wp_desc_b(s, kk)
#define GB_WPT_B_XY(col, kt) (col), (kt) * GB_WPT_BK
#endif

#if GB_WG_NATIVE
/* d += A·B for one m64n256k16 (tf32: k8) step. */
static __device__ __forceinline__ void GB_WPT_FN(mma)(float *d, unsigned long long da,
                                                      unsigned long long db) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned." GB_WPT_INSTR " {"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
        "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
        "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
        "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, "
        "%111,"
        "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, "
        "%127"
        "}, %128, %129, " GB_WPT_IMM ";\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
          "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
          "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
          "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
          "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
          "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
          "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
          "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
          "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
          "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
          "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
          "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
          "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
          "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),
          "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db), "r"(1)
        : "memory");
}
#endif

#if GB_WG_TWIN
/* The twin of one consumer thread's mma steps on stage s (wgmma_tile.cuh's, 256 columns). */
static void GB_WPT_FN(twin_mma)(float *d, const unsigned char *base, int s, int c, int w,
                                int lane) {
    int kk, i, k, r, col;
    for (kk = 0; kk < GB_WPT_BK / GB_WPT_MK; kk++) {
        struct gb_wg_desc_fields fa = gb_wg_desc_decode(gb_wp_desc_a(s, c, kk));
        struct gb_wg_desc_fields fb = gb_wg_desc_decode(GB_WPT_DESC_B(s, kk));
        for (i = 0; i < GB_WP_ACC; i++) {
            gb_wg_d_elem(w, lane, i, &r, &col);
            for (k = 0; k < GB_WPT_MK; k++) {
                const GB_WPT_IN *a =
                    (const GB_WPT_IN *)(base + gb_wg_swizzle128(gb_wg_kmajor_offset_e(
                                                   fa, r, k, sizeof(GB_WPT_IN))));
#if GB_WPT_TF32
                const GB_WPT_IN *b =
                    (const GB_WPT_IN *)(base + gb_wg_swizzle128(gb_wg_kmajor_offset_e(
                                                   fb, col, k, sizeof(GB_WPT_IN))));
#else
                const GB_WPT_IN *b =
                    (const GB_WPT_IN *)(base + gb_wg_swizzle128(gb_wg_mnmajor_offset(fb, k, col)));
#endif
                d[i] += GB_WPT_FLOAT(*a) * GB_WPT_FLOAT(*b);
            }
        }
    }
}
#endif

/* one block a multiprocessor (192 KiB of stages): 168 registers a thread at entry */
GB_LAUNCH_BOUNDS_MIN(GB_WG_THREADS, 1)
__global__ void GB_WP_CLUSTER_DIMS GB_WPT_NAME(GB_WG_TMAP_PARAM(tma), GB_WG_TMAP_PARAM(tmb), int M,
                                               int N, int K, float *__restrict__ C, int ldc) {
#if GB_WG_NATIVE || GB_WG_TWIN
    GB_EXTERN_SHARED(unsigned char, gb_wp_raw);
    unsigned char *base =
        gb_wp_raw + ((GB_WG_ATOM - ((size_t)gb_wp_raw & (GB_WG_ATOM - 1))) & (GB_WG_ATOM - 1));
    const int tid = (int)threadIdx.x, wg = tid / 128, w = (tid % 128) / 32, lane = tid % 32;
    const int nk = (K + GB_WPT_BK - 1) / GB_WPT_BK;
    const int clusters = (int)gridDim.x / GB_WP_CLUSTER, q = (int)blockIdx.x / GB_WP_CLUSTER;
    const int pairs_ok = gb_wg_pairs_ok(C, ldc);
    int pm, pn, t, kt, i;
    const int npairs = (int)gb_wp_pairs(M, N, &pm, &pn);
#if GB_WG_NATIVE
    const unsigned rank = gb_wp_rank();
    const unsigned sbase = gb_wg_smem(base);
    const unsigned full = sbase + GB_WG_STAGES * GB_WP_STAGE_BYTES, empty = full + 8 * GB_WG_STAGES;
    int it = 0; /* slices this block has gone through, over all its tiles: stage and parity */
    if (tid == 0) {
        for (i = 0; i < GB_WG_STAGES; i++) {
            gb_wg_bar_init(full + 8 * i, 1);
            gb_wg_bar_init(empty + 8 * i, GB_WP_EMPTY_ARRIVALS);
        }
        gb_wg_bar_fence_init();
    }
    gb_wp_cluster_sync(); /* both blocks' barriers exist before any multicast or remote arrive */
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 " GB_WP_STR(GB_WP_REGS_PRODUCER) ";");
        if (tid == 0) {
            gb_wg_prefetch_tmap(&tma); /* the maps in the TMA unit's cache before the first copy */
            gb_wg_prefetch_tmap(&tmb);
            for (t = q; t < npairs; t += clusters) {
                int cm, cn;
                unsigned tx, issue;
                gb_wp_tile(t, pm, pn, &cm, &cn);
                /* this tile's slices' bytes and boxes, once a tile: the producer has 40
                 * registers, and M and N live through its slice loop spilled */
                tx = gb_wp_stage_tx(M, N, cm, cn, (int)rank);
                issue = gb_wp_issue((int)rank, M, N, cm, cn);
                for (kt = 0; kt < nk; kt++, it++) {
                    const int s = it % GB_WG_STAGES;
                    const unsigned st = sbase + s * GB_WP_STAGE_BYTES;
                    if (it >= GB_WG_STAGES)
                        gb_wg_bar_wait(empty + 8 * s, gb_wg_empty_parity(it));
                    gb_wg_bar_expect(full + 8 * s, tx);
                    if (issue & 1u)
                        gb_wg_tma_2d(st, &tma, kt * GB_WPT_BK,
                                     (GB_WP_CLUSTER * cm + (int)rank) * GB_WP_BM, full + 8 * s);
                    for (i = 0; i < GB_WP_B_BOXES / GB_WP_CLUSTER; i++) {
                        const int j = gb_wp_b_box((int)rank, i);
                        if (issue & (2u << i))
                            gb_wp_tma_mc(st + GB_WG_A_BYTES + j * GB_WG_B_BOX_BYTES, &tmb,
                                         GB_WPT_B_XY(cn * GB_WP_BN + j * GB_WG_BOX_N, kt),
                                         full + 8 * s,
                                         (unsigned short)((1u << GB_WP_CLUSTER) - 1u));
                    }
                }
            }
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 " GB_WP_STR(GB_WP_REGS_CONSUMER) ";");
        for (t = q; t < npairs; t += clusters) {
            int cm, cn, r, c;
            float d[GB_WP_ACC];
            GB_UNROLL
            for (i = 0; i < GB_WP_ACC; i++)
                d[i] = 0.0f;
            gb_wp_tile(t, pm, pn, &cm, &cn);
            for (kt = 0; kt < nk; kt++, it++) {
                const int s = it % GB_WG_STAGES;
                gb_wg_bar_wait(full + 8 * s, gb_wg_full_parity(it));
                gb_wg_fence();
                GB_UNROLL
                for (i = 0; i < GB_WPT_BK / GB_WPT_MK; i++)
                    GB_WPT_FN(mma)
                (d, gb_wp_desc_a(s, wg - 1, i) + (sbase >> 4), GB_WPT_DESC_B(s, i) + (sbase >> 4));
                gb_wg_commit();
                gb_wg_wait1(); /* the slice before is done: its stage back to both producers, */
                if (kt > 0 && tid % 128 < GB_WP_CLUSTER) /* lane r arriving at block r's */
                    gb_wp_arrive_at(empty + 8 * ((it - 1) % GB_WG_STAGES), (unsigned)(tid % 128));
            }
            gb_wg_wait0();
            if (nk > 0 && tid % 128 < GB_WP_CLUSTER)
                gb_wp_arrive_at(empty + 8 * ((it - 1) % GB_WG_STAGES), (unsigned)(tid % 128));
            /* the epilogue, while the producer already loads this block's next tile */
            GB_UNROLL
            for (i = 0; i < GB_WP_ACC; i += 2) {
                gb_wg_d_elem(w, lane, i, &r, &c);
                r += (GB_WP_CLUSTER * cm + (int)rank) * GB_WP_BM + (wg - 1) * 64;
                c += cn * GB_WP_BN;
                gb_wg_store2(C, ldc, M, N, r, c, d[i], d[i + 1], pairs_ok);
            }
        }
    }
    gb_wp_cluster_sync(); /* no multicast or remote arrive reaches an exited block */
#else
    /* the twin: rank and cluster from the block index, every copy synchronous */
    const int rank = (int)blockIdx.x % GB_WP_CLUSTER;
    float d[GB_WP_ACC];
    for (t = q; t < npairs; t += clusters) {
        int cm, cn, r, c, src;
        gb_wp_tile(t, pm, pn, &cm, &cn);
        for (i = 0; i < GB_WP_ACC; i++)
            d[i] = 0.0f;
        for (kt = 0; kt < nk; kt++) {
            const int s = kt % GB_WG_STAGES;
            const unsigned st = (unsigned)(s * GB_WP_STAGE_BYTES);
            if (tid == 0) {
                /* this block's "full" barrier expects its count; the copies take theirs off */
                long left = (long)gb_wp_stage_tx(M, N, cm, cn, rank);
                if (gb_wp_issue(rank, M, N, cm, cn) & 1u)
                    gb_wg_twin_copy(&tma, kt * GB_WPT_BK, (GB_WP_CLUSTER * cm + rank) * GB_WP_BM,
                                    base, st, &left);
                else
                    gb_wg_twin_stale(&tma, base, st);
                /* what multicast delivers here: the boxes of B each rank issues */
                for (src = 0; src < GB_WP_CLUSTER; src++)
                    for (i = 0; i < GB_WP_B_BOXES / GB_WP_CLUSTER; i++) {
                        const int j = gb_wp_b_box(src, i);
                        const unsigned dst = st + GB_WG_A_BYTES + (unsigned)j * GB_WG_B_BOX_BYTES;
                        if (gb_wp_issue(src, M, N, cm, cn) & (2u << i))
                            gb_wg_twin_copy(&tmb, GB_WPT_B_XY(cn * GB_WP_BN + j * GB_WG_BOX_N, kt),
                                            base, dst, &left);
                        else
                            gb_wg_twin_stale(&tmb, base, dst);
                    }
                gb_wg_twin_full(left);
            }
            __syncthreads(); /* "full" */
            if (wg > 0)
                GB_WPT_FN(twin_mma)(d, base, s, wg - 1, w, lane);
            __syncthreads(); /* "empty" */
        }
        if (wg == 0)
            continue;
        for (i = 0; i < GB_WP_ACC; i += 2) {
            gb_wg_d_elem(w, lane, i, &r, &c);
            r += (GB_WP_CLUSTER * cm + rank) * GB_WP_BM + (wg - 1) * 64;
            c += cn * GB_WP_BN;
            gb_wg_store2(C, ldc, M, N, r, c, d[i], d[i + 1], pairs_ok);
        }
    }
#endif
#else
    (void)tma, (void)tmb, (void)M, (void)N, (void)K, (void)C, (void)ldc;
    __trap(); /* no wgmma outside sm_90a code: never launched there (gb_wg_body_at) */
#endif
}
GB_SIM_KERNEL(GB_WPT_NAME, GB_WG_TMAP_TYPE, GB_WG_TMAP_TYPE, int, int, int, float *, int)

#undef GB_WPT_FN
#undef GB_WPT_CAT
#undef GB_WPT_CAT2
#undef GB_WPT_NAME
#undef GB_WPT_IN
#undef GB_WPT_FLOAT
#undef GB_WPT_PTX
#undef GB_WPT_TF32
#undef GB_WPT_BK
#undef GB_WPT_MK
#undef GB_WPT_INSTR
#undef GB_WPT_IMM
#undef GB_WPT_DESC_B
#undef GB_WPT_B_XY
