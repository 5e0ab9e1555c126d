/* wgmma_tile.cuh — one tier of the Hopper GEMM of wgmma.cuh (read it first: the scheme, the
 * twin, the index functions); included once per tier by wgmma.cuh, as
 * kernels/common/wmma_tile.cuh is by wmma.cuh. The element type and the PTX type name are macros;
 * the body is the same source for every tier.
 *
 * Parameters (defined by the includer, undefined at the end of this file):
 *   GB_WGT_NAME      kernel name, e.g. gb_hgemm_wgmma_128x128 (its helpers are named after it)
 *   GB_WGT_IN        element type of A and B: __half, __nv_bfloat16
 *   GB_WGT_FLOAT(x)  an element as float (the twin's FMAs)
 *   GB_WGT_PTX       wgmma's operand type: "f16", "bf16", "tf32"
 *   GB_WGT_TF32      1 for the tf32 tier (wgmma_tf32.cuh), 0 or undefined otherwise: 4-byte
 *                    elements (a slice 32 deep, a step 8: m64n128k8), B K-major as one
 *                    128-row box (the copy Bᵀ, N×K) read without the transpose flag; the 16-bit
 *                    tiers' B is N-major, two 64-column boxes, read with it
 */
#ifndef GB_WGT_TF32
#define GB_WGT_TF32 0
#endif
/* a slice's and a step's depth in elements: 128 bytes (the swizzle span) and 32 bytes */
#define GB_WGT_BK ((int)(GB_WG_ROW_BYTES / sizeof(GB_WGT_IN)))
#define GB_WGT_MK ((int)(32 / sizeof(GB_WGT_IN)))
#define GB_WGT_CAT2(a, b) a##_##b
#define GB_WGT_CAT(a, b) GB_WGT_CAT2(a, b)
#define GB_WGT_FN(suffix) GB_WGT_CAT(GB_WGT_NAME, suffix)

#if GB_WG_NATIVE
/* d += A·B for one m64n128k16 (tf32: k8) step: da, db the operands' descriptors (shared
 * addresses), scale-d 1 (d starts at zero); the 16-bit tiers' B N-major (imm-trans-b 1), tf32's
 * K-major (32-bit types have no transpose operands). */
#if GB_WGT_TF32
#define GB_WGT_INSTR "m64n128k8.f32.tf32.tf32"
#define GB_WGT_IMM "p, 1, 1"
#else
#define GB_WGT_INSTR "m64n128k16.f32." GB_WGT_PTX "." GB_WGT_PTX
#define GB_WGT_IMM "p, 1, 1, 0, 1"
#endif
static __device__ __forceinline__ void GB_WGT_FN(mma)(float *d, unsigned long long da,
                                                      unsigned long long db) {
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "setp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned." GB_WGT_INSTR " {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17,"
                 "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33,"
                 "%34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49,"
                 "%50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
                 "}, %64, %65, " GB_WGT_IMM ";\n"
                 "}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                   "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                   "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                   "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                   "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                   "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                   "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                   "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                   "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(da), "l"(db), "r"(1)
                 : "memory");
}
#endif

/* B's descriptor: the 16-bit tiers' N-major (gb_wg_desc_b), tf32's K-major (gb_wt_desc_b); the
 * bytes a stage's "full" barrier expects: the 16-bit tiers' second B box only where it holds a
 * column of B (gb_wg_stage_tx), tf32's whole stage (its one B box of 128 rows of Bᵀ starts at
 * n0 < N, inside) */
#if GB_WGT_TF32
#define GB_WGT_DESC_B(s, kk) gb_wt_desc_b(s, kk)
#define GB_WGT_STAGE_TX(N, n0) ((unsigned)GB_WG_STAGE_BYTES)
#else
#define GB_WGT_DESC_B(s, kk) gb_wg_desc_b(s, kk)
#define GB_WGT_STAGE_TX(N, n0) gb_wg_stage_tx(N, n0)
#endif

#if GB_WG_TWIN
/* The twin of one consumer thread's 4 mma steps on stage s: each of its accumulator elements
 * (gb_wg_d_elem) += the row of A times the column of B, read through the step's descriptors and
 * the swizzle, with FP32 FMAs (products of two 16-bit values, or of two TF32 values, are exact).
 */
static void GB_WGT_FN(twin_mma)(float *d, const unsigned char *base, int s, int c, int w,
                                int lane) {
    int kk, i, k, r, col;
    for (kk = 0; kk < GB_WGT_BK / GB_WGT_MK; kk++) {
        struct gb_wg_desc_fields fa = gb_wg_desc_decode(gb_wg_desc_a(s, c, kk));
        struct gb_wg_desc_fields fb = gb_wg_desc_decode(GB_WGT_DESC_B(s, kk));
        for (i = 0; i < GB_WG_ACC; i++) {
            gb_wg_d_elem(w, lane, i, &r, &col);
            for (k = 0; k < GB_WGT_MK; k++) {
                const GB_WGT_IN *a = (const GB_WGT_IN *)(base + gb_wg_swizzle128(gb_wg_kmajor_offset_e(
                                                                    fa, r, k, sizeof(GB_WGT_IN))));
#if GB_WGT_TF32
                const GB_WGT_IN *b = (const GB_WGT_IN *)(base + gb_wg_swizzle128(gb_wg_kmajor_offset_e(
                                                                    fb, col, k, sizeof(GB_WGT_IN))));
#else
                const GB_WGT_IN *b =
                    (const GB_WGT_IN *)(base + gb_wg_swizzle128(gb_wg_mnmajor_offset(fb, k, col)));
#endif
                d[i] += GB_WGT_FLOAT(*a) * GB_WGT_FLOAT(*b);
            }
        }
    }
}
#endif

/* one block an SM (128 KiB of stages): up to 168 registers a thread */
GB_LAUNCH_BOUNDS_MIN(GB_WG_THREADS, 1)
__global__ void GB_WGT_NAME(GB_WG_TMAP_PARAM(tma), GB_WG_TMAP_PARAM(tmb), int M, int N, int K,
                            float *__restrict__ C, int ldc) {
#if GB_WG_NATIVE || GB_WG_TWIN
    GB_EXTERN_SHARED(unsigned char, gb_wg_raw);
    /* the stages, 1024-byte aligned (the swizzle's period), then the mbarriers */
    unsigned char *base =
        gb_wg_raw + ((GB_WG_ATOM - ((size_t)gb_wg_raw & (GB_WG_ATOM - 1))) & (GB_WG_ATOM - 1));
    const int tid = (int)threadIdx.x, wg = tid / 128, w = (tid % 128) / 32, lane = tid % 32;
    const int m0 = (int)blockIdx.y * GB_WG_BM, n0 = (int)blockIdx.x * GB_WG_BN;
    const int nk = (K + GB_WGT_BK - 1) / GB_WGT_BK;
    const unsigned tx = GB_WGT_STAGE_TX(N, n0); /* a stage's bytes: the same every slice */
    float d[GB_WG_ACC];
    int kt, i, r, c;
    GB_UNROLL
    for (i = 0; i < GB_WG_ACC; i++)
        d[i] = 0.0f;
#if GB_WG_NATIVE
    {
        const unsigned sbase = gb_wg_smem(base);
        const unsigned full = sbase + GB_WG_STAGES * GB_WG_STAGE_BYTES,
                       empty = full + 8 * GB_WG_STAGES;
        if (tid == 0) {
            for (i = 0; i < GB_WG_STAGES; i++) {
                gb_wg_bar_init(full + 8 * i, 1);
                gb_wg_bar_init(empty + 8 * i, GB_WG_CONSUMERS);
            }
            gb_wg_bar_fence_init();
        }
        __syncthreads();
        if (wg == 0) {
            /* the producer: one thread issues every slice's copies, the maps prefetched first */
            if (tid == 0) {
                gb_wg_prefetch_tmap(&tma);
                gb_wg_prefetch_tmap(&tmb);
                for (kt = 0; kt < nk; kt++) {
                    const int s = kt % GB_WG_STAGES;
                    const unsigned st = sbase + s * GB_WG_STAGE_BYTES;
                    if (kt >= GB_WG_STAGES)
                        gb_wg_bar_wait(empty + 8 * s, gb_wg_empty_parity(kt));
                    gb_wg_bar_expect(full + 8 * s, tx);
                    gb_wg_tma_2d(st, &tma, kt * GB_WGT_BK, m0, full + 8 * s);
#if GB_WGT_TF32
                    gb_wg_tma_2d(st + GB_WG_A_BYTES, &tmb, kt * GB_WGT_BK, n0, full + 8 * s);
#else
                    gb_wg_tma_2d(st + GB_WG_A_BYTES, &tmb, n0, kt * GB_WG_BK, full + 8 * s);
                    if (gb_wg_box_in((long)n0 + GB_WG_BOX_N, N)) /* else not expected either */
                        gb_wg_tma_2d(st + GB_WG_A_BYTES + GB_WG_B_BOX_BYTES, &tmb,
                                     n0 + GB_WG_BOX_N, kt * GB_WG_BK, full + 8 * s);
#endif
                }
            }
            return; /* no barrier follows: the consumers alone write C */
        }
        for (kt = 0; kt < nk; kt++) {
            const int s = kt % GB_WG_STAGES;
            gb_wg_bar_wait(full + 8 * s, gb_wg_full_parity(kt));
            gb_wg_fence();
            GB_UNROLL
            for (i = 0; i < GB_WGT_BK / GB_WGT_MK; i++)
                GB_WGT_FN(mma)
                (d, gb_wg_desc_a(s, wg - 1, i) + (sbase >> 4), GB_WGT_DESC_B(s, i) + (sbase >> 4));
            gb_wg_commit();
            /* this slice's mmas stay in flight while the next slice is awaited and issued (the
             * accumulators may be shared by wgmmas of one shape in flight, PTX ISA); the slice
             * before is done, so its stage goes back to the producer */
            gb_wg_wait1();
            if (kt > 0 && tid % 128 == 0)
                gb_wg_bar_arrive(empty + 8 * ((kt - 1) % GB_WG_STAGES));
        }
        gb_wg_wait0(); /* the accumulators are final before the epilogue reads them */
    }
#else
    for (kt = 0; kt < nk; kt++) {
        const int s = kt % GB_WG_STAGES;
        const unsigned st = (unsigned)(s * GB_WG_STAGE_BYTES);
        if (tid == 0) { /* the producer's copies, synchronous, counted off the expected bytes */
            long left = (long)tx;
            gb_wg_twin_copy(&tma, kt * GB_WGT_BK, m0, base, st, &left);
#if GB_WGT_TF32
            gb_wg_twin_copy(&tmb, kt * GB_WGT_BK, n0, base, st + GB_WG_A_BYTES, &left);
#else
            gb_wg_twin_copy(&tmb, n0, kt * GB_WG_BK, base, st + GB_WG_A_BYTES, &left);
            if (gb_wg_box_in((long)n0 + GB_WG_BOX_N, N))
                gb_wg_twin_copy(&tmb, n0 + GB_WG_BOX_N, kt * GB_WG_BK, base,
                                st + GB_WG_A_BYTES + GB_WG_B_BOX_BYTES, &left);
            else
                gb_wg_twin_stale(&tmb, base, st + GB_WG_A_BYTES + GB_WG_B_BOX_BYTES);
#endif
            gb_wg_twin_full(left);
        }
        __syncthreads(); /* "full" */
        if (wg > 0)
            GB_WGT_FN(twin_mma)(d, base, s, wg - 1, w, lane);
        __syncthreads(); /* "empty" */
    }
    if (wg == 0)
        return;
#endif
    /* the epilogue: each pair of adjacent accumulator columns (d[i], d[i + 1]) as one 8-byte
     * store where C and ldc allow it, single floats where not and at the edges (gb_wg_store2) */
    {
        const int pairs_ok = gb_wg_pairs_ok(C, ldc);
        GB_UNROLL
        for (i = 0; i < GB_WG_ACC; i += 2) {
            gb_wg_d_elem(w, lane, i, &r, &c);
            gb_wg_store2(C, ldc, M, N, r + m0 + (wg - 1) * 64, c + n0, d[i], d[i + 1], pairs_ok);
        }
    }
#else
    (void)tma, (void)tmb, (void)M, (void)N, (void)K, (void)C, (void)ldc;
    __trap(); /* no wgmma outside sm_90a code: never launched there (gb_wg_body_at) */
#endif
}
GB_SIM_KERNEL(GB_WGT_NAME, GB_WG_TMAP_TYPE, GB_WG_TMAP_TYPE, int, int, int, float *, int)

#undef GB_WGT_FN
#undef GB_WGT_CAT
#undef GB_WGT_CAT2
#undef GB_WGT_NAME
#undef GB_WGT_IN
#undef GB_WGT_FLOAT
#undef GB_WGT_PTX
#undef GB_WGT_TF32
#undef GB_WGT_BK
#undef GB_WGT_MK
#undef GB_WGT_INSTR
#undef GB_WGT_IMM
#undef GB_WGT_DESC_B
#undef GB_WGT_STAGE_TX
