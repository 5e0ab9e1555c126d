/* tc_mma_tile.cuh — one block tile of conv2d/cuda_tc's mma.sync kernel (kernels/conv2d/tc_mma.cuh:
 * read it first, the scheme, the tiles and the choice between them); included once per tile by
 * tc_mma.cuh, as kernels/gemm/mma_tile.cuh is once per tier by kernels/gemm/mma.cuh.
 *
 * Parameters (defined by the includer, undefined at the end of this file):
 *   GB_CT_NAME  kernel name (its helpers are named after it)
 *   GB_CT_BM    filters a block tile: 128, 64
 *   GB_CT_BN    pixels a block tile: 128, 256
 *   GB_CT_WM    filters a warp tile: 64, 32
 *   GB_CT_WN    pixels a warp tile: 32, 64 (8 warps a block either way: GB_MM_THREADS)
 */
#define GB_CT_CAT2(a, b) a##_##b
#define GB_CT_CAT(a, b) GB_CT_CAT2(a, b)
#define GB_CT_FN(suffix) GB_CT_CAT(GB_CT_NAME, suffix)
#define GB_CT_FM (GB_CT_WM / 16)                          /* m16 fragments a warp: 4, 2 */
#define GB_CT_NF (GB_CT_WN / 8)                           /* n8 fragments a warp: 4, 8 */
#define GB_CT_A_CHUNKS (GB_CT_BM * GB_MM_AC)              /* the filter slice's chunks */
#define GB_CT_CA (GB_CT_A_CHUNKS / GB_MM_THREADS)         /* of them a thread copies: 2, 1 */
#define GB_CT_CB (GB_CT_BN * GB_MM_AC / GB_MM_THREADS)    /* pixel chunks a thread copies: 2, 4 */
#define GB_CT_STAGE ((GB_CT_BM + GB_CT_BN) * GB_MM_AC * 8) /* halves a stage */

#if GB_HAVE_MMA
#if GB_MM_BODY
/* This thread's chunks of the slice its walk is at into stage st — filters (A: rows m0 + r of
 * W, chunk column tid % 4) and the gathered pixels (B: its pixels' xoff, h0, w0, same chunk
 * column) — then the walk one slice on; one commit group. */
static __device__ __forceinline__ void
GB_CT_FN(load_slice)(const __half *__restrict__ x, const __half *__restrict__ wt,
                     const struct conv2d_dims *d, const struct gb_cmm_geom *g, int m0, int tid,
                     const int *xoff, const int *h0, const int *w0, struct gb_cmm_tap *t, int *wk,
                     __half *st) {
    int q, r, c, in;
    GB_UNROLL
    for (q = 0; q < GB_CT_CA; q++) {
        gb_mm_copy(tid + q * GB_MM_THREADS, GB_MM_AC, &r, &c);
        in = m0 + r < d->k && *wk < g->K; /* outside: the base, never read (src-size 0) */
        gb_mm_chunk(st + gb_mm_swz(r, c, GB_MM_AC) * 8, in ? wt + ((m0 + r) * g->K + *wk) : wt,
                    in ? 8 : 0, (int)sizeof(__half));
    }
    GB_UNROLL
    for (q = 0; q < GB_CT_CB; q++) {
        gb_mm_copy(tid + q * GB_MM_THREADS, GB_MM_AC, &r, &c);
        in = gb_cmm_inside(d, t, h0[q], w0[q]);
        gb_mm_chunk(st + (GB_CT_A_CHUNKS + gb_mm_swz(r, c, GB_MM_AC)) * 8,
                    in ? x + (xoff[q] + t->off) : x, in ? 8 : 0, (int)sizeof(__half));
    }
    *wk += GB_MM_AC * 8;
    gb_cmm_step(d, g, t);
    gb_mm_group();
}

#if GB_MM_NATIVE
/* acc += the warp's WM×WN share of stage st: two k16 steps of FM A fragments (ldmatrix.x4) and
 * NF B fragments (NF/2 ldmatrix.x4 over pixel rows), FM·NF mma each (16 in both tiles); la, lb:
 * gb_cmm_lane_offsets. */
static __device__ __forceinline__ void
GB_CT_FN(mma_slice)(const __half *st, unsigned la, unsigned lb,
                    float (*acc)[GB_CT_NF][GB_MM_PER_FRAG]) {
    const unsigned sa = (unsigned)__cvta_generic_to_shared(st);
    int ks, i, j;
    GB_UNROLL
    for (ks = 0; ks < 2; ks++) {
        unsigned a[GB_CT_FM][4], b[GB_CT_NF][2];
        GB_UNROLL
        for (i = 0; i < GB_CT_FM; i++)
            gb_mm_ldsm_x4(sa + (la ^ ks * GB_MM_X2) + i * GB_MM_ROW16, a[i]);
        GB_UNROLL
        for (j = 0; j < GB_CT_NF / 2; j++)
            gb_mm_ldsm_x4(sa + (lb ^ ks * GB_MM_X2) + j * GB_MM_ROW16, b[2 * j]); /* 2j, 2j+1 */
        GB_MM_ISSUE_FM(gb_mm_f16, acc, a, b, GB_CT_FM, GB_CT_NF, i, j);
    }
}
#else
/* The twin: each lane's own fragment elements, FP32 FMAs over the slice through the swizzle. */
static __device__ __forceinline__ void
GB_CT_FN(mma_slice_twin)(const __half *st, int wr, int wc, int lane,
                         float (*acc)[GB_CT_NF][GB_MM_PER_FRAG]) {
    const __half *bs = st + GB_CT_A_CHUNKS * 8;
    int i, j, v, k, r, c;
    for (i = 0; i < GB_CT_FM; i++)
        for (j = 0; j < GB_CT_NF; j++)
            for (v = 0; v < GB_MM_PER_FRAG; v++) {
                gb_mm_frag_c(lane, v, &r, &c);
                r += wr + 16 * i;
                c += wc + 8 * j;
                for (k = 0; k < GB_MM_AC * 8; k++)
                    acc[i][j][v] += __half2float(st[gb_mm_at(r, k, GB_MM_AC, 8)]) *
                                    __half2float(bs[gb_mm_at(c, k, GB_MM_AC, 8)]);
            }
}
#endif
#endif /* GB_MM_BODY */

/* the kernel's pipeline steps (kernels/common/mma_pipe.cuh's GB_MM_PIPELINE), on its variables:
 * the next slice's copies (the walk's: k unused) into stage st; the warp's mma of stage st */
#define GB_CT_LOAD(k, st)                                                                          \
    GB_CT_FN(load_slice)(x, wt, &d, &g, m0, tid, xoff, h0, w0, &t, &wk, st)
#if GB_MM_NATIVE
#define GB_CT_SLICE(st) GB_CT_FN(mma_slice)(st, la, lb, acc)
#else
#define GB_CT_SLICE(st) GB_CT_FN(mma_slice_twin)(st, wr, wc, lane, acc)
#endif

/* y = conv(x, wt) (tc_mma.cuh's file comment). Grid: gb_mm_grid_in(k, n·p·q, BM, BN) — x over
 * BN-pixel tiles, y over BM-filter tiles; GB_MM_THREADS threads; gb_cmm_smem(BM, BN) bytes of
 * dynamic shared memory (its 16-byte chunks 128-byte aligned: no static shared memory precedes
 * it); d as filled by conv2d_dims_finish and within gb_cmm_fits; g = gb_cmm_geom_init(d), its pair
 * gb_cmm_pairs(d, y); x and wt in the padded NHWC and KRSC layouts, 16-byte aligned. Two blocks
 * an SM (up to 128 registers). */
GB_LAUNCH_BOUNDS_MIN(GB_MM_THREADS, 2)
__global__ void GB_CT_NAME(struct conv2d_dims d, struct gb_cmm_geom g,
                           const __half *__restrict__ x, const __half *__restrict__ wt,
                           __half *__restrict__ y) {
#if GB_MM_BODY
    GB_EXTERN_SHARED(__half, GB_CT_FN(smem));
    __half(*S)[GB_CT_STAGE] = (__half(*)[GB_CT_STAGE])GB_CT_FN(smem);
    const int tid = (int)threadIdx.x, w = tid / 32, lane = tid % 32;
    const int m0 = (int)blockIdx.y * GB_CT_BM, n0 = (int)blockIdx.x * GB_CT_BN;
    const int ns = (g.K + GB_MM_AC * 8 - 1) / (GB_MM_AC * 8), pq = d.p * d.q;
    float acc[GB_CT_FM][GB_CT_NF][GB_MM_PER_FRAG];
    int xoff[GB_CT_CB], h0[GB_CT_CB], w0[GB_CT_CB], yo[GB_CT_NF][2];
    struct gb_cmm_tap t;
    int wr, wc, s, i, j, v, r, c, wk;
    gb_mm_warp_origin_in(w, GB_CT_BN, GB_CT_WM, GB_CT_WN, &wr, &wc);
#if GB_MM_NATIVE
    unsigned la, lb; /* the lane's ldmatrix offsets, once */
    gb_cmm_lane_offsets(lane, wr, wc, GB_CT_A_CHUNKS, &la, &lb);
#endif
    GB_MM_ACC_ZERO_FM(acc, GB_CT_FM, GB_CT_NF, i, j, v);
    /* this thread's gather: its pixels (rows of its copies) and its chunk column's walk */
    GB_UNROLL
    for (i = 0; i < GB_CT_CB; i++) {
        gb_mm_copy(tid + i * GB_MM_THREADS, GB_MM_AC, &r, &c);
        gb_cmm_pixel(&d, &g, n0 + r, &xoff[i], &h0[i], &w0[i]);
    }
    gb_cmm_tap_at(tid % GB_MM_AC, &d, &g, &t);
    wk = (tid % GB_MM_AC) * 8; /* this thread's column of W's slice */
    GB_MM_PIPELINE(S, ns, s, GB_CT_LOAD, GB_CT_SLICE);
    /* the places in y of the lane's pixel pairs (columns 2·(lane % 4), + 1 of fragment j) */
    GB_UNROLL
    for (j = 0; j < GB_CT_NF; j++)
        GB_UNROLL
        for (v = 0; v < 2; v++) {
            gb_mm_frag_c(lane, v, &r, &c);
            yo[j][v] = gb_cmm_y_at(&d, n0 + wc + 8 * j + c);
        }
    /* unrolled: the accumulators are registers, indexed by constants only; v = 0, 2: the rows
     * g and g + 8 of a fragment, each with its pixel pair (elements v, v + 1) */
    GB_UNROLL
    for (i = 0; i < GB_CT_FM; i++)
        GB_UNROLL
        for (j = 0; j < GB_CT_NF; j++)
            GB_UNROLL
            for (v = 0; v < GB_MM_PER_FRAG; v += 2) {
                gb_mm_frag_c(lane, v, &r, &c);
                r += m0 + wr + 16 * i;
                if (r < d.k)
                    gb_cmm_store2(y, g.pair, yo[j], r * pq, acc[i][j][v], acc[i][j][v + 1]);
            }
#else
    (void)d, (void)g, (void)x, (void)wt, (void)y;
    __trap(); /* no mma.sync, ldmatrix or cp.async below sm_80: never launched here */
#endif
}
GB_SIM_KERNEL(GB_CT_NAME, struct conv2d_dims, struct gb_cmm_geom, const __half *, const __half *,
              __half *)
#undef GB_CT_LOAD
#undef GB_CT_SLICE
#endif /* GB_HAVE_MMA */

#undef GB_CT_CAT2
#undef GB_CT_CAT
#undef GB_CT_FN
#undef GB_CT_FM
#undef GB_CT_NF
#undef GB_CT_A_CHUNKS
#undef GB_CT_CA
#undef GB_CT_CB
#undef GB_CT_STAGE
#undef GB_CT_NAME
#undef GB_CT_BM
#undef GB_CT_BN
#undef GB_CT_WM
#undef GB_CT_WN
