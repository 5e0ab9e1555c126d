/* mma_tile.cuh — one tier of the mma.sync GEMM of mma.cuh (read it first: the scheme, the
 * shared layout, the twin); included once per tier by mma.cuh, as kernels/common/wmma_tile.cuh
 * is by wmma.cuh.
 *
 * Parameters (defined by the includer, undefined at the end of this file):
 *   GB_MT_NAME      kernel name, e.g. gb_hgemm_mma_128x128 (its helpers are named after it)
 *   GB_MT_IN        element type of A and B, in global and shared memory: __half,
 *                   __nv_bfloat16, float (tf32)
 *   GB_MT_EC        elements a 16-byte chunk: 8 (16-bit), 4 (tf32)
 *   GB_MT_FLOAT(x)  a shared element as the float the tensor cores multiply (tf32: rounded by
 *                   gb_wm_tf32_bits) — the twin's FMAs
 *   GB_MT_MMA       the native mma of one m16n8 fragment: gb_mm_f16, gb_mm_bf16, gb_mm_tf32_mma
 *   GB_MT_TF32      1: m16n8k8 tf32 (operands rounded by cvt.rna, B by 32-bit shared loads);
 *                   0: m16n8k16 (B by ldmatrix.trans)
 *   GB_MT_WN        warp tile columns: GB_MM_WN (64×32 warps, 8 a block) or GB_MM_WN64 (64×64
 *                   warps, 4 a block: 16-bit tiers only)
 */
#define GB_MT_CAT2(a, b) a##_##b
#define GB_MT_CAT(a, b) GB_MT_CAT2(a, b)
#define GB_MT_FN(suffix) GB_MT_CAT(GB_MT_NAME, suffix)
#define GB_MT_ES ((int)sizeof(GB_MT_IN)) /* bytes an element: 2 (16-bit), 4 (tf32) */
#define GB_MT_BK (GB_MM_AC * GB_MT_EC)   /* slice depth: 32 (16-bit), 16 (tf32) */
#define GB_MT_BNC (GB_MM_BN / GB_MT_EC)  /* chunks a row of B's slice: 16, 32 */
#define GB_MT_NF (GB_MT_WN / 8)          /* n8 fragments a warp holds across: 4, 8 */
#define GB_MT_THREADS (32 * ((GB_MM_BM / GB_MM_WM) * (GB_MM_BN / GB_MT_WN))) /* 256, 128 */
#define GB_MT_COPIES (GB_MM_A_CHUNKS / GB_MT_THREADS) /* chunks of A (and of B) a thread: 2, 4 */

#if GB_HAVE_MMA
#if GB_MM_BODY
/* This thread's chunks of slice k0 of A (128×BK) and B (BK×128) into stage st (A's 512 chunks,
 * then B's), zero outside the matrices; one commit group. */
static __device__ __forceinline__ void GB_MT_FN(load_slice)(const GB_MT_IN *__restrict__ A,
                                                            int lda,
                                                            const GB_MT_IN *__restrict__ B,
                                                            int ldb, int M, int N, int K, int m0,
                                                            int n0, int k0, int tid,
                                                            GB_MT_IN *st) {
    int q, r, c, n;
    GB_UNROLL
    for (q = 0; q < GB_MT_COPIES; q++) {
        gb_mm_copy(tid + q * GB_MT_THREADS, GB_MM_AC, &r, &c);
        n = gb_mm_inside(m0 + r < M, k0 + c * GB_MT_EC, K, GB_MT_EC);
        gb_mm_chunk(st + gb_mm_swz(r, c, GB_MM_AC) * GB_MT_EC,
                    n ? A + (size_t)(m0 + r) * lda + k0 + c * GB_MT_EC : A, n, GB_MT_ES);
        gb_mm_copy(tid + q * GB_MT_THREADS, GB_MT_BNC, &r, &c);
        n = gb_mm_inside(k0 + r < K, n0 + c * GB_MT_EC, N, GB_MT_EC);
        gb_mm_chunk(st + (GB_MM_A_CHUNKS + gb_mm_swz(r, c, GB_MT_BNC)) * GB_MT_EC,
                    n ? B + (size_t)(k0 + r) * ldb + n0 + c * GB_MT_EC : B, n, GB_MT_ES);
    }
    gb_mm_group();
}

#if GB_MM_NATIVE
/* acc += the warp's 64×WN share of stage st's A·B: two k steps of 4 A fragments (ldmatrix.x4)
 * and FN = WN/8 B fragments (FN/2 ldmatrix.x4.trans, or 32-bit loads for tf32), 4·FN mma each
 * (16 for 64×32 warps, 32 for 64×64). la, lb: the lane's offsets, computed once
 * (gb_mm_lane_a; gb_mm_lane_b or gb_mm_lane_tf32_b — kernels/common/mma.cuh says why the steps
 * from them are constants), so the loop adds constants and XORs bits 5-6. */
static __device__ __forceinline__ void GB_MT_FN(mma_slice)(const GB_MT_IN *st, unsigned la,
                                                           unsigned lb,
                                                           float (*acc)[GB_MT_NF][GB_MM_PER_FRAG]) {
    const unsigned sa = (unsigned)__cvta_generic_to_shared(st);
    int ks, i, j;
    GB_UNROLL
    for (ks = 0; ks < 2; ks++) {
        unsigned a[GB_MM_FM][4], b[GB_MT_NF][2];
        GB_UNROLL
        for (i = 0; i < GB_MM_FM; i++) {
            gb_mm_ldsm_x4(sa + (la ^ ks * GB_MM_X2) + i * GB_MM_ROW16, a[i]);
#if GB_MT_TF32
            GB_UNROLL
            for (j = 0; j < 4; j++)
                a[i][j] = gb_mm_tf32(a[i][j]);
#endif
        }
#if GB_MT_TF32
        {
            const char *bw = (const char *)st;
            int v;
            GB_UNROLL
            for (j = 0; j < GB_MT_NF; j++)
                GB_UNROLL
                for (v = 0; v < 2; v++)
                    b[j][v] = gb_mm_tf32(*(const unsigned *)(bw + (lb ^ j * GB_MM_X2) +
                                                             (8 * ks + 4 * v) * GB_MM_TF32_K));
        }
#else
        GB_UNROLL
        for (j = 0; j < GB_MT_NF / 2; j++) {
            unsigned t[4];
            gb_mm_ldsm_x4_trans(sa + (lb ^ j * GB_MM_X2) + ks * GB_MM_B16_KS, t);
            b[2 * j][0] = t[0], b[2 * j][1] = t[1];
            b[2 * j + 1][0] = t[2], b[2 * j + 1][1] = t[3];
        }
#endif
        GB_MM_ISSUE(GB_MT_MMA, acc, a, b, GB_MT_NF, i, j);
    }
}
#else
/* The twin: each lane's own fragment elements, FP32 FMAs over the whole slice through the
 * swizzle (products of two values of the tier are exact in FP32). */
static __device__ __forceinline__ void GB_MT_FN(mma_slice)(const GB_MT_IN *st, int wr, int wc,
                                                           int lane,
                                                           float (*acc)[GB_MT_NF][GB_MM_PER_FRAG]) {
    const GB_MT_IN *bs = st + GB_MM_A_CHUNKS * GB_MT_EC;
    int i, j, v, k, r, c;
    for (i = 0; i < GB_MM_FM; i++)
        for (j = 0; j < GB_MT_NF; j++)
            for (v = 0; v < GB_MM_PER_FRAG; v++) {
                gb_mm_frag_c(lane, v, &r, &c);
                r += wr + 16 * i;
                c += wc + 8 * j;
                for (k = 0; k < GB_MT_BK; k++)
                    acc[i][j][v] += GB_MT_FLOAT(st[gb_mm_at(r, k, GB_MM_AC, GB_MT_EC)]) *
                                    GB_MT_FLOAT(bs[gb_mm_at(k, c, GB_MT_BNC, GB_MT_EC)]);
            }
}
#endif
#endif /* GB_MM_BODY */

/* the kernel's pipeline steps (kernels/common/mma_pipe.cuh's GB_MM_PIPELINE), on its variables:
 * slice k's copies into stage st; the warp's mma of stage st */
#define GB_MT_LOAD(k, st)                                                                          \
    GB_MT_FN(load_slice)(A, lda, B, ldb, M, N, K, m0, n0, (k) * GB_MT_BK, tid, st)
#if GB_MM_NATIVE
#define GB_MT_SLICE(st) GB_MT_FN(mma_slice)(st, la, lb, acc)
#else
#define GB_MT_SLICE(st) GB_MT_FN(mma_slice)(st, wr, wc, lane, acc)
#endif

/* two blocks an SM: up to 128 registers a thread (64×32 warps; 255 for the 128-thread 64×64
 * ones), 2 × 48 KiB of shared memory (sm_86/89 have 100 KiB an SM) */
GB_LAUNCH_BOUNDS_MIN(GB_MT_THREADS, 2)
__global__ void GB_MT_NAME(int M, int N, int K, const GB_MT_IN *__restrict__ A, int lda,
                           const GB_MT_IN *__restrict__ B, int ldb, float *__restrict__ C,
                           int ldc) {
#if GB_MM_BODY
    __shared__ __align__(128) GB_MT_IN S[GB_MM_STAGES][GB_MM_STAGE_CHUNKS * GB_MT_EC];
    const int tid = (int)threadIdx.x, w = tid / 32, lane = tid % 32;
    const int m0 = (int)blockIdx.y * GB_MM_BM, n0 = (int)blockIdx.x * GB_MM_BN;
    const int ns = (K + GB_MT_BK - 1) / GB_MT_BK;
    float acc[GB_MM_FM][GB_MT_NF][GB_MM_PER_FRAG];
    int wr, wc, s, i, j, v, r, c;
    gb_mm_warp_origin(w, GB_MT_WN, &wr, &wc);
#if GB_MM_NATIVE
    /* the lane's fragment offsets, once */
    const unsigned la = gb_mm_lane_a(lane, wr);
#if GB_MT_TF32
    const unsigned lb = gb_mm_lane_tf32_b(lane, wc);
#else
    const unsigned lb = gb_mm_lane_b(lane, wc);
#endif
#endif
    GB_MM_ACC_ZERO(acc, GB_MT_NF, i, j, v);
    GB_MM_PIPELINE(S, ns, s, GB_MT_LOAD, GB_MT_SLICE);
    /* unrolled: the accumulators are registers, indexed by constants only. Each lane's pair
     * (c0, c1), then (c2, c3), is one 8-byte store where both are inside and aligned (even ldc),
     * else one store per element inside C. */
    GB_UNROLL
    for (i = 0; i < GB_MM_FM; i++)
        GB_UNROLL
        for (j = 0; j < GB_MT_NF; j++)
            GB_UNROLL
            for (v = 0; v < GB_MM_PER_FRAG; v += 2) {
                float *p;
                gb_mm_frag_c(lane, v, &r, &c);
                r += m0 + wr + 16 * i;
                c += n0 + wc + 8 * j;
                if (r >= M || c >= N)
                    continue;
                p = C + (size_t)r * ldc + c;
                if (c + 1 < N && GB_ALIGNED8(p)) {
                    float2 pair;
                    pair.x = acc[i][j][v];
                    pair.y = acc[i][j][v + 1];
                    *(float2 *)p = pair;
                } else {
                    p[0] = acc[i][j][v];
                    if (c + 1 < N)
                        p[1] = acc[i][j][v + 1];
                }
            }
#else
    (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)C, (void)ldc;
    __trap(); /* no mma.sync, ldmatrix or cp.async below sm_80: never launched here */
#endif
}
GB_SIM_KERNEL(GB_MT_NAME, int, int, int, const GB_MT_IN *, int, const GB_MT_IN *, int, float *, int)
#endif /* GB_HAVE_MMA */

#undef GB_MT_LOAD
#undef GB_MT_SLICE
#undef GB_MT_BK
#undef GB_MT_ES
#undef GB_MT_NF
#undef GB_MT_THREADS
#undef GB_MT_COPIES
#undef GB_MT_WN
#undef GB_MT_BNC
#undef GB_MT_FN
#undef GB_MT_CAT
#undef GB_MT_CAT2
#undef GB_MT_NAME
#undef GB_MT_IN
#undef GB_MT_EC
#undef GB_MT_FLOAT
#undef GB_MT_MMA
#undef GB_MT_TF32
