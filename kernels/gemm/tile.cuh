/* tile.cuh — one tile configuration of the SGEMM kernel; included once per configuration by
 * kernels.cuh (C has no templates: the tile sizes are macros, the operand layouts are
 * constant arguments of an inlined body).
 *
 * Parameters (defined by the includer, undefined at the end of this file):
 *   GB_GT_NAME      kernel name prefix, e.g. gb_sgemm_128x128
 *   GB_GT_BM/BN/BK  block tile: BM rows × BN columns of C, BK-deep slices of A and B
 *   GB_GT_TM/TN     thread tile: each thread computes TM × TN elements of C (multiples of 4)
 *   GB_GT_MIN_ARCH  smallest GB_ARCH that gets the real body (others trap: the launcher never
 *                   picks this configuration there, and ptxas then has nothing to spill)
 *   GB_GT_MIN_BLOCKS  blocks per SM the register allocation must allow (__launch_bounds__)
 *   GB_GT_PREFETCH  1: load the next slice into registers before computing the current one
 *                   (hides global latency, costs 4 registers per float4 in flight); 0: load it
 *                   after the compute, where there are registers to spare only for the tile
 *   GB_GT_HALF      optional, 1: A and B are FP16 (__half, half.cuh; the f16 tier), C and the
 *                   accumulation FP32. Each group of 4 halves is read with half2 (or 8-byte)
 *                   loads — half the bytes of the FP32 tile — and converted to FP32 once, on
 *                   its way into shared memory: a value is used there by BM/TM or BN/TN threads,
 *                   so converting after the shared load would cost that many conversions. From
 *                   there on the tile is the SGEMM's. Only the nn entry point; its body exists
 *                   from sm_53 (GB_HALF_BODY), a trap below.
 * Threads per block: (BM/TM)·(BN/TN) = GB_GEMM_THREADS (256) for every configuration.
 *
 * Scheme (the classic register-blocked SGEMM):
 *   - the block walks K in BK-deep slices; each slice of A (BM×BK) and B (BK×BN) is copied to
 *     shared memory k-major (As[k][m], Bs[k][n]) so that the inner loop reads 4 consecutive
 *     floats with one 128-bit shared load;
 *   - the shared slices are double-buffered: each thread loads its share of slice t+1 from global
 *     memory into registers — while it computes slice t when GB_GT_PREFETCH, after it otherwise —
 *     and stores it into the buffer that slice t is not in, then one barrier (1) a slice: the
 *     buffer it overwrites was last read in the pass before, which ended at that pass's barrier.
 *     Barrier 2 fences the first slice, before the loop;
 *   - a thread's rows are TM/4 groups of 4 consecutive rows, BM/(TM/4) apart (likewise columns),
 *     so the 16 threads of a half-warp read 16 consecutive float4s: no bank conflicts;
 *   - global loads are float4 when the leading dimension is a multiple of 4 and the base is
 *     16-byte aligned (tile origins are multiples of 4); edges are loaded element by element
 *     with zero fill, so any M, N, K is correct.
 * Rows of the shared tiles are padded by 4 floats: keeps 16-byte alignment and spreads the
 * transposing stores of k-contiguous operands over distinct banks.
 */

#define GB_GT_CAT2(a, b) a##_##b
#define GB_GT_CAT(a, b) GB_GT_CAT2(a, b)
#define GB_GT_FN(suffix) GB_GT_CAT(GB_GT_NAME, suffix)
#define GB_GT_PM (GB_GT_BM + 4)                                 /* shared row pitch of As */
#define GB_GT_PN (GB_GT_BN + 4)                                 /* shared row pitch of Bs */
#define GB_GT_NVA (GB_GT_BM * GB_GT_BK / (4 * GB_GEMM_THREADS)) /* float4s of A per thread */
#define GB_GT_NVB (GB_GT_BN * GB_GT_BK / (4 * GB_GEMM_THREADS)) /* float4s of B per thread */
#define GB_GT_GM (GB_GT_TM / 4)                                 /* row groups of a thread */
#define GB_GT_GN (GB_GT_TN / 4)                                 /* column groups of a thread */
#ifndef GB_GT_HALF
#define GB_GT_HALF 0
#endif
#if GB_GT_HALF
#define GB_GT_IN __half /* the element type of A and B in global memory */
#else
#define GB_GT_IN float
#endif

/* Fetch float4 number q of a BX×BK operand slice from global memory, zero-filled outside the
 * matrix. The operand's element (x, k) — x a row of C for A, a column of C for B — lives at
 * src[x·ld + k] when kc (k contiguous: A as stored, or B transposed) and at src[k·ld + x]
 * otherwise. vec: ld % 4 == 0 and src 16-byte aligned (uniform over the launch). */
#if GB_GT_HALF
/* The FP16 version: the same 4 elements (a run along k when kc, along x otherwise), read by
 * gb_load_half4, which checks the alignment of each run (an odd leading dimension aligns every
 * other row) and zero-fills past the edge; vec is not needed. */
static __device__ __forceinline__ float4 GB_GT_FN(fetch)(const __half *__restrict__ src, int ld,
                                                         int kc, int vec, int bx, int xext,
                                                         int kext, int x0, int k0, int q) {
    int x, k, avail;
    (void)vec;
    if (kc) {
        x = x0 + q / (GB_GT_BK / 4);
        k = k0 + (q % (GB_GT_BK / 4)) * 4;
        avail = x < xext ? kext - k : 0;
        return gb_load_half4(src + (size_t)x * ld + k, avail);
    }
    k = k0 + q / (bx / 4);
    x = x0 + (q % (bx / 4)) * 4;
    avail = k < kext ? xext - x : 0;
    return gb_load_half4(src + (size_t)k * ld + x, avail);
}
#else
static __device__ __forceinline__ float4 GB_GT_FN(fetch)(const float *__restrict__ src, int ld,
                                                         int kc, int vec, int bx, int xext,
                                                         int kext, int x0, int k0, int q) {
    float4 v;
    float t[4];
    int j, x, k;
    size_t off;
    if (kc) { /* the slice is BX rows of BK/4 float4s along k */
        x = x0 + q / (GB_GT_BK / 4);
        k = k0 + (q % (GB_GT_BK / 4)) * 4;
        off = (size_t)x * ld + k;
        if (vec && x < xext && k + 3 < kext)
            return *(const float4 *)(src + off);
        for (j = 0; j < 4; j++)
            t[j] = (x < xext && k + j < kext) ? GB_LDG(src + off + j) : 0.0f;
    } else { /* BK rows of BX/4 float4s along x */
        k = k0 + q / (bx / 4);
        x = x0 + (q % (bx / 4)) * 4;
        off = (size_t)k * ld + x;
        if (vec && k < kext && x + 3 < xext)
            return *(const float4 *)(src + off);
        for (j = 0; j < 4; j++)
            t[j] = (k < kext && x + j < xext) ? GB_LDG(src + off + j) : 0.0f;
    }
    v.x = t[0];
    v.y = t[1];
    v.z = t[2];
    v.w = t[3];
    return v;
}
#endif

/* Store float4 number q (as fetched above) into the k-major shared slice xs[k·pitch + x]. */
static __device__ __forceinline__ void GB_GT_FN(stash)(float *xs, int pitch, int kc, int bx, int q,
                                                       float4 v) {
    if (kc) { /* a run along k becomes a column of the k-major slice */
        int x = q / (GB_GT_BK / 4), k = (q % (GB_GT_BK / 4)) * 4;
        xs[(k + 0) * pitch + x] = v.x;
        xs[(k + 1) * pitch + x] = v.y;
        xs[(k + 2) * pitch + x] = v.z;
        xs[(k + 3) * pitch + x] = v.w;
    } else {
        int k = q / (bx / 4), x = (q % (bx / 4)) * 4;
        *(float4 *)(xs + k * pitch + x) = v;
    }
}

/* Fetch this thread's share of slice k0 of both operands into registers. */
static __device__ __forceinline__ void
GB_GT_FN(fetch_slice)(const GB_GT_IN *__restrict__ A, int lda, int a_kc, int veca,
                      const GB_GT_IN *__restrict__ B, int ldb, int b_kc, int vecb, int M, int N,
                      int K, int m0, int n0, int k0, int tid, float4 *pa, float4 *pb) {
    int i;
    GB_UNROLL
    for (i = 0; i < GB_GT_NVA; i++)
        pa[i] =
            GB_GT_FN(fetch)(A, lda, a_kc, veca, GB_GT_BM, M, K, m0, k0, tid + i * GB_GEMM_THREADS);
    GB_UNROLL
    for (i = 0; i < GB_GT_NVB; i++)
        pb[i] =
            GB_GT_FN(fetch)(B, ldb, b_kc, vecb, GB_GT_BN, N, K, n0, k0, tid + i * GB_GEMM_THREADS);
}

/* Store the fetched share into the shared slices. */
static __device__ __forceinline__ void GB_GT_FN(stash_slice)(float *As, int a_kc, float *Bs,
                                                             int b_kc, int tid, const float4 *pa,
                                                             const float4 *pb) {
    int i;
    GB_UNROLL
    for (i = 0; i < GB_GT_NVA; i++)
        GB_GT_FN(stash)(As, GB_GT_PM, a_kc, GB_GT_BM, tid + i * GB_GEMM_THREADS, pa[i]);
    GB_UNROLL
    for (i = 0; i < GB_GT_NVB; i++)
        GB_GT_FN(stash)(Bs, GB_GT_PN, b_kc, GB_GT_BN, tid + i * GB_GEMM_THREADS, pb[i]);
}

/* The pieces of the body below take the thread's register arrays by pointer; they are
 * __forceinline__ and fully unrolled, so the arrays are indexed with constants only and stay in
 * registers (scripts/ptxas-report: no stack frame). */

/* acc = 0. */
static __device__ __forceinline__ void GB_GT_FN(zero_acc)(float (*acc)[GB_GT_TN]) {
    int i, j;
    GB_UNROLL
    for (i = 0; i < GB_GT_TM; i++) {
        GB_UNROLL
        for (j = 0; j < GB_GT_TN; j++)
            acc[i][j] = 0.0f;
    }
}

/* acc += this thread's rows of the shared A slice times its columns of the B slice, over the
 * slice's BK values of k, one float4 shared load per group of 4 rows or columns. a and b: scratch
 * for the k-th column of A and row of B. They are the body's arrays, declared beside acc: an
 * array local to an inlined function is hoisted ahead of the caller's own, which renumbers nvcc's
 * virtual registers and reshuffles the SASS; this way it is byte for byte that of the single body
 * this was. */
static __device__ __forceinline__ void GB_GT_FN(compute_slice)(const float *As, const float *Bs,
                                                               int tx, int ty,
                                                               float (*acc)[GB_GT_TN], float *a,
                                                               float *b) {
    int i, j, g, kk;
    GB_UNROLL
    for (kk = 0; kk < GB_GT_BK; kk++) {
        GB_UNROLL
        for (g = 0; g < GB_GT_GM; g++) {
            float4 v = *(const float4 *)(As + kk * GB_GT_PM + g * (GB_GT_BM / GB_GT_GM) + ty * 4);
            a[4 * g + 0] = v.x;
            a[4 * g + 1] = v.y;
            a[4 * g + 2] = v.z;
            a[4 * g + 3] = v.w;
        }
        GB_UNROLL
        for (g = 0; g < GB_GT_GN; g++) {
            float4 v = *(const float4 *)(Bs + kk * GB_GT_PN + g * (GB_GT_BN / GB_GT_GN) + tx * 4);
            b[4 * g + 0] = v.x;
            b[4 * g + 1] = v.y;
            b[4 * g + 2] = v.z;
            b[4 * g + 3] = v.w;
        }
        GB_UNROLL
        for (i = 0; i < GB_GT_TM; i++) {
            GB_UNROLL
            for (j = 0; j < GB_GT_TN; j++)
                acc[i][j] += a[i] * b[j];
        }
    }
}

/* Write this thread's tile acc of the block tile at (m0, n0) into C (M×N, ldc): float4 stores
 * where ldc and C allow and the 4 columns are inside N, element by element at the edges. */
static __device__ __forceinline__ void GB_GT_FN(store_tile)(float *__restrict__ C, int ldc, int M,
                                                            int N, int m0, int n0, int tx, int ty,
                                                            float (*acc)[GB_GT_TN]) {
    const int vecc = (ldc % 4 == 0) && GB_ALIGNED16(C);
    int i, j, g;
    GB_UNROLL
    for (i = 0; i < GB_GT_TM; i++) {
        const int row = m0 + (i / 4) * (GB_GT_BM / GB_GT_GM) + ty * 4 + i % 4;
        if (row >= M)
            continue;
        GB_UNROLL
        for (g = 0; g < GB_GT_GN; g++) {
            const int col = n0 + g * (GB_GT_BN / GB_GT_GN) + tx * 4;
            float *c = C + (size_t)row * ldc + col;
            if (vecc && col + 3 < N) {
                float4 v;
                v.x = acc[i][4 * g + 0];
                v.y = acc[i][4 * g + 1];
                v.z = acc[i][4 * g + 2];
                v.w = acc[i][4 * g + 3];
                *(float4 *)c = v;
            } else {
                GB_UNROLL
                for (j = 0; j < 4; j++)
                    if (col + j < N)
                        c[j] = acc[i][4 * g + j];
            }
        }
    }
}

/* C (M×N, ldc) = op(A) · op(B), op(A) M×K, op(B) K×N, all row-major; a_kc / b_kc: see fetch
 * (A as stored: a_kc = 1; Aᵀ stored K×M: a_kc = 0; B as stored: b_kc = 0; Bᵀ stored N×K:
 * b_kc = 1). Block (blockIdx.y, blockIdx.x) computes the BM×BN tile of C at that position. */
static __device__ __forceinline__ void
GB_GT_FN(body)(int M, int N, int K, const GB_GT_IN *__restrict__ A, int lda, int a_kc,
               const GB_GT_IN *__restrict__ B, int ldb, int b_kc, float *__restrict__ C, int ldc) {
    /* two buffers of each slice: slice t is read from one while slice t+1 is stored into the
     * other, so one barrier a slice suffices (see the file comment) */
    __shared__ __align__(16) float As[2 * GB_GT_BK * GB_GT_PM];
    __shared__ __align__(16) float Bs[2 * GB_GT_BK * GB_GT_PN];
    float acc[GB_GT_TM][GB_GT_TN];
    float a[GB_GT_TM], b[GB_GT_TN];
    float4 pa[GB_GT_NVA], pb[GB_GT_NVB];
    const int tid = threadIdx.x;
    const int tx = tid % (GB_GT_BN / GB_GT_TN), ty = tid / (GB_GT_BN / GB_GT_TN);
    const int m0 = blockIdx.y * GB_GT_BM, n0 = blockIdx.x * GB_GT_BN;
    const int veca = (lda % 4 == 0) && GB_ALIGNED16(A);
    const int vecb = (ldb % 4 == 0) && GB_ALIGNED16(B);
    const int ntiles = (K + GB_GT_BK - 1) / GB_GT_BK;
    int t, cur = 0;

    GB_GT_FN(zero_acc)(acc);
    GB_GT_FN(fetch_slice)(A, lda, a_kc, veca, B, ldb, b_kc, vecb, M, N, K, m0, n0, 0, tid, pa, pb);
    GB_GT_FN(stash_slice)(As, a_kc, Bs, b_kc, tid, pa, pb);
    GB_BARRIER(2); /* the first slice is complete */

    for (t = 0; t < ntiles; t++) {
        const int more = t + 1 < ntiles; /* uniform over the block: the barrier below is safe */
        if (GB_GT_PREFETCH && more)
            GB_GT_FN(fetch_slice)
            (A, lda, a_kc, veca, B, ldb, b_kc, vecb, M, N, K, m0, n0, (t + 1) * GB_GT_BK, tid, pa,
             pb);
        GB_GT_FN(compute_slice)
        (As + cur * (GB_GT_BK * GB_GT_PM), Bs + cur * (GB_GT_BK * GB_GT_PN), tx, ty, acc, a, b);
        if (more) {
            /* The other buffer was last read in the previous pass, before its barrier: free. */
            cur ^= 1;
            if (!GB_GT_PREFETCH)
                GB_GT_FN(fetch_slice)
                (A, lda, a_kc, veca, B, ldb, b_kc, vecb, M, N, K, m0, n0, (t + 1) * GB_GT_BK, tid,
                 pa, pb);
            GB_GT_FN(stash_slice)
            (As + cur * (GB_GT_BK * GB_GT_PM), a_kc, Bs + cur * (GB_GT_BK * GB_GT_PN), b_kc, tid, pa,
             pb);
            GB_BARRIER(1); /* the next slice is complete (and everyone is done with this one) */
        }
    }
    GB_GT_FN(store_tile)(C, ldc, M, N, m0, n0, tx, ty, acc);
}

/* The three entry points: C = A·B, C = Aᵀ·B (A stored K×M), C = A·Bᵀ (B stored N×K). */
#define GB_GT_ENTRY(suffix, a_kc, b_kc)                                                            \
    __global__ void GB_LAUNCH_BOUNDS_MIN(GB_GEMM_THREADS, GB_GT_MIN_BLOCKS)                        \
        GB_GT_FN(suffix)(int M, int N, int K, const float *__restrict__ A, int lda,                \
                         const float *__restrict__ B, int ldb, float *__restrict__ C, int ldc) {   \
        if (GB_ARCH > 0 && GB_ARCH < GB_GT_MIN_ARCH)                                               \
            __trap(); /* see GB_GT_MIN_ARCH: never launched here */                                \
        else                                                                                       \
            GB_GT_FN(body)(M, N, K, A, lda, a_kc, B, ldb, b_kc, C, ldc);                           \
    }                                                                                              \
    GB_SIM_KERNEL(GB_GT_FN(suffix), int, int, int, const float *, int, const float *, int,         \
                  float *, int)
#if GB_GT_HALF
/* FP16 A and B, C = A·B only (what the f16 tier runs). The body is compiled where it can run
 * (GB_HALF_BODY: a preprocessor guard, so an old card's code holds no half at all). */
__global__ void GB_LAUNCH_BOUNDS_MIN(GB_GEMM_THREADS, GB_GT_MIN_BLOCKS)
    GB_GT_FN(nn)(int M, int N, int K, const __half *__restrict__ A, int lda,
                 const __half *__restrict__ B, int ldb, float *__restrict__ C, int ldc) {
#if GB_HALF_BODY
    if (GB_ARCH > 0 && GB_ARCH < GB_GT_MIN_ARCH)
        __trap(); /* see GB_GT_MIN_ARCH: never launched here */
    else
        GB_GT_FN(body)(M, N, K, A, lda, 1, B, ldb, 0, C, ldc);
#else
    (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)C, (void)ldc;
    __trap(); /* no f16 tier below sm_53: never launched here */
#endif
}
GB_SIM_KERNEL(GB_GT_FN(nn), int, int, int, const __half *, int, const __half *, int, float *, int)
#else
GB_GT_ENTRY(nn, 1, 0)
GB_GT_ENTRY(tn, 0, 0)
GB_GT_ENTRY(nt, 1, 1)
#endif
#undef GB_GT_ENTRY

#undef GB_GT_GN
#undef GB_GT_GM
#undef GB_GT_NVB
#undef GB_GT_NVA
#undef GB_GT_PN
#undef GB_GT_PM
#undef GB_GT_FN
#undef GB_GT_CAT
#undef GB_GT_CAT2
#undef GB_GT_NAME
#undef GB_GT_BM
#undef GB_GT_BN
#undef GB_GT_BK
#undef GB_GT_TM
#undef GB_GT_TN
#undef GB_GT_MIN_ARCH
#undef GB_GT_PREFETCH
#undef GB_GT_MIN_BLOCKS
#undef GB_GT_HALF
#undef GB_GT_IN
