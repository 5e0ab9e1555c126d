/* dgemm.cuh — one tile configuration of the DGEMM kernel (C subset of CUDA C), included once
 * per configuration by kernels.cuh: C (M×N, ldc) = A (M×K, lda) · B (K×N, ldb), all row-major
 * doubles, correct for any M, N, K ≥ 0.
 *
 * Parameters (defined by the includer, undefined at the end of this file):
 *   GB_DG_NAME      kernel name, e.g. gb_dgemm_128x128
 *   GB_DG_BM/BN/BK  block tile: BM rows × BN columns of C, BK-deep slices of A and B
 *   GB_DG_TM/TN     thread tile: TM × TN elements of C per thread (even)
 *   GB_DG_TRAP      1 (a preprocessor expression of GB_ARCH) where the launcher never picks this
 *                   configuration: its body is a trap there, with nothing to spill
 *   GB_DG_PREFETCH  1: load the next slice into registers before computing the current one
 *                   (hides global latency, 2 registers per double in flight); 0: after it
 * Threads per block: (BM/TM)·(BN/TN) = GB_GEMM_THREADS (256).
 *
 * Scheme (the SGEMM's, tile.cuh, in doubles): the block walks K in BK-deep slices, each copied to
 * shared memory k-major (As[k][m], Bs[k][n]) and double-buffered — slice t+1 is stored into the
 * buffer slice t is not in, so one barrier (1) a slice; barrier 2 fences the first slice. A
 * thread's rows are TM/2 pairs of consecutive rows, BM/(TM/2) apart (likewise its columns), so
 * each pair is one 128-bit shared load (double2) and the 16 threads of a half-warp read 16
 * consecutive double2s (rows padded by 2 doubles: 16-byte aligned). The thread tile is what
 * keeps the FP64 units, not shared memory, the limit: an 8×8 tile does 64 FMAs per 8 double2
 * loads of a k step (the 4×4 tile it replaced: 16 FMAs per 8 scalar loads). The global loads
 * are element by element with zero fill at the edges (any M, N, K, any leading dimension or
 * alignment): 8 doubles a thread a slice next to 512 FMAs, their cost is latency, which the
 * register prefetch hides.
 */

#define GB_DG_CAT2(a, b) a##_##b
#define GB_DG_CAT(a, b) GB_DG_CAT2(a, b)
#define GB_DG_FN(suffix) GB_DG_CAT(GB_DG_NAME, suffix)
#define GB_DG_PM (GB_DG_BM + 2)                             /* shared row pitch of As */
#define GB_DG_PN (GB_DG_BN + 2)                             /* shared row pitch of Bs */
#define GB_DG_NA (GB_DG_BM * GB_DG_BK / GB_GEMM_THREADS)    /* doubles of A per thread */
#define GB_DG_NB (GB_DG_BN * GB_DG_BK / GB_GEMM_THREADS)    /* doubles of B per thread */
#define GB_DG_GM (GB_DG_TM / 2)                             /* row pairs of a thread */
#define GB_DG_GN (GB_DG_TN / 2)                             /* column pairs of a thread */

/* This thread's share of slice k0 into registers: element q = tid + i·256 of the A slice is
 * row q / BK, tap q % BK (consecutive threads along a row of A: coalesced); of the B slice,
 * tap q / BN, column q % BN. Zero outside the matrices. */
static __device__ __forceinline__ void GB_DG_FN(fetch)(const double *__restrict__ A, int lda,
                                                       const double *__restrict__ B, int ldb,
                                                       int M, int N, int K, int m0, int n0,
                                                       int k0, int tid, double *pa, double *pb) {
    int i;
    GB_UNROLL
    for (i = 0; i < GB_DG_NA; i++) {
        const int q = tid + i * GB_GEMM_THREADS, x = q / GB_DG_BK, kk = q % GB_DG_BK;
        pa[i] = (m0 + x < M && k0 + kk < K) ? GB_LDG(A + (size_t)(m0 + x) * lda + k0 + kk) : 0.0;
    }
    GB_UNROLL
    for (i = 0; i < GB_DG_NB; i++) {
        const int q = tid + i * GB_GEMM_THREADS, kk = q / GB_DG_BN, x = q % GB_DG_BN;
        pb[i] = (k0 + kk < K && n0 + x < N) ? GB_LDG(B + (size_t)(k0 + kk) * ldb + n0 + x) : 0.0;
    }
}

/* The fetched share into the k-major shared slices As, Bs (one buffer). */
static __device__ __forceinline__ void GB_DG_FN(stash)(double *As, double *Bs, int tid,
                                                       const double *pa, const double *pb) {
    int i;
    GB_UNROLL
    for (i = 0; i < GB_DG_NA; i++) {
        const int q = tid + i * GB_GEMM_THREADS;
        As[(q % GB_DG_BK) * GB_DG_PM + q / GB_DG_BK] = pa[i];
    }
    GB_UNROLL
    for (i = 0; i < GB_DG_NB; i++) {
        const int q = tid + i * GB_GEMM_THREADS;
        Bs[(q / GB_DG_BN) * GB_DG_PN + q % GB_DG_BN] = pb[i];
    }
}

/* acc += this thread's rows of the A slice times its columns of the B slice (a, b: scratch for
 * a k step's TM and TN values; the body's arrays, as in tile.cuh). */
static __device__ __forceinline__ void GB_DG_FN(compute)(const double *As, const double *Bs,
                                                         int tx, int ty,
                                                         double (*acc)[GB_DG_TN], double *a,
                                                         double *b) {
    int i, j, g, kk;
    GB_UNROLL
    for (kk = 0; kk < GB_DG_BK; kk++) {
        GB_UNROLL
        for (g = 0; g < GB_DG_GM; g++) {
            double2 v = *(const double2 *)(As + kk * GB_DG_PM + g * (GB_DG_BM / GB_DG_GM) + ty * 2);
            a[2 * g] = v.x;
            a[2 * g + 1] = v.y;
        }
        GB_UNROLL
        for (g = 0; g < GB_DG_GN; g++) {
            double2 v = *(const double2 *)(Bs + kk * GB_DG_PN + g * (GB_DG_BN / GB_DG_GN) + tx * 2);
            b[2 * g] = v.x;
            b[2 * g + 1] = v.y;
        }
        GB_UNROLL
        for (i = 0; i < GB_DG_TM; i++) {
            GB_UNROLL
            for (j = 0; j < GB_DG_TN; j++)
                acc[i][j] += a[i] * b[j];
        }
    }
}

GB_LAUNCH_BOUNDS(GB_GEMM_THREADS)
__global__ void GB_DG_NAME(int M, int N, int K, const double *__restrict__ A, int lda,
                           const double *__restrict__ B, int ldb, double *__restrict__ C,
                           int ldc) {
    /* two buffers of each slice (see the file comment) */
    __shared__ __align__(16) double As[2 * GB_DG_BK * GB_DG_PM];
    __shared__ __align__(16) double Bs[2 * GB_DG_BK * GB_DG_PN];
    const int tid = (int)threadIdx.x;
    const int tx = tid % (GB_DG_BN / GB_DG_TN), ty = tid / (GB_DG_BN / GB_DG_TN);
    const int m0 = (int)blockIdx.y * GB_DG_BM, n0 = (int)blockIdx.x * GB_DG_BN;
    const int ntiles = (K + GB_DG_BK - 1) / GB_DG_BK;
    double acc[GB_DG_TM][GB_DG_TN], a[GB_DG_TM], b[GB_DG_TN], pa[GB_DG_NA], pb[GB_DG_NB];
    int i, j, t, cur = 0;
    if (GB_DG_TRAP) {
        /* the launcher never picks this configuration here: nothing left to spill (the return:
         * CUDA 11.8's __trap is not noreturn, and its ptxas kept, and spilled, the body below) */
        __trap();
        return;
    }
    GB_UNROLL
    for (i = 0; i < GB_DG_TM; i++)
        GB_UNROLL
        for (j = 0; j < GB_DG_TN; j++)
            acc[i][j] = 0.0;
    GB_DG_FN(fetch)(A, lda, B, ldb, M, N, K, m0, n0, 0, tid, pa, pb);
    GB_DG_FN(stash)(As, Bs, tid, pa, pb);
    GB_BARRIER(2); /* the first slice is complete */
    for (t = 0; t < ntiles; t++) {
        const int more = t + 1 < ntiles; /* uniform over the block: the barrier below is safe */
        if (GB_DG_PREFETCH && more)
            GB_DG_FN(fetch)(A, lda, B, ldb, M, N, K, m0, n0, (t + 1) * GB_DG_BK, tid, pa, pb);
        GB_DG_FN(compute)
        (As + cur * (GB_DG_BK * GB_DG_PM), Bs + cur * (GB_DG_BK * GB_DG_PN), tx, ty, acc, a, b);
        if (more) {
            /* The other buffer was last read in the previous pass, before its barrier: free. */
            cur ^= 1;
            if (!GB_DG_PREFETCH)
                GB_DG_FN(fetch)(A, lda, B, ldb, M, N, K, m0, n0, (t + 1) * GB_DG_BK, tid, pa, pb);
            GB_DG_FN(stash)
            (As + cur * (GB_DG_BK * GB_DG_PM), Bs + cur * (GB_DG_BK * GB_DG_PN), tid, pa, pb);
            GB_BARRIER(1); /* the next slice is complete (and everyone is done with this one) */
        }
    }
    GB_UNROLL
    for (i = 0; i < GB_DG_TM; i++) {
        const int m = m0 + (i / 2) * (GB_DG_BM / GB_DG_GM) + ty * 2 + i % 2;
        GB_UNROLL
        for (j = 0; j < GB_DG_TN; j++) {
            const int n = n0 + (j / 2) * (GB_DG_BN / GB_DG_GN) + tx * 2 + j % 2;
            if (m < M && n < N)
                C[(size_t)m * ldc + n] = acc[i][j];
        }
    }
}
GB_SIM_KERNEL(GB_DG_NAME, int, int, int, const double *, int, const double *, int, double *, int)

#undef GB_DG_GN
#undef GB_DG_GM
#undef GB_DG_NB
#undef GB_DG_NA
#undef GB_DG_PN
#undef GB_DG_PM
#undef GB_DG_FN
#undef GB_DG_CAT
#undef GB_DG_CAT2
#undef GB_DG_NAME
#undef GB_DG_BM
#undef GB_DG_BN
#undef GB_DG_BK
#undef GB_DG_TM
#undef GB_DG_TN
#undef GB_DG_TRAP
#undef GB_DG_PREFETCH
