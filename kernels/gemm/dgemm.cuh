/* dgemm.cuh — one tile configuration of the DGEMM kernel (C subset of CUDA C), included once
 * per configuration by kernels.cuh: C (M×N, ldc) = A (M×K, lda) · B (K×N, ldb), all row-major
 * doubles, correct for any M, N, K ≥ 0.
 *
 * Parameters (defined by the includer, undefined at the end of this file):
 *   GB_DG_NAME      kernel name, e.g. gb_dgemm_64x64
 *   GB_DG_BM/BN/BK  block tile: BM rows × BN columns of C, BK-deep slices of A and B
 *   GB_DG_TM/TN     thread tile: TM × TN elements of C per thread
 *   GB_DG_MIN_ARCH  smallest GB_ARCH that gets the real body (below it: a trap, never launched)
 * Threads per block: (BM/TM)·(BN/TN) = GB_GEMM_THREADS (256).
 *
 * Scheme: the block walks K in BK-deep slices; each slice of A and B is copied to shared memory
 * k-major (As[k][m], Bs[k][n], rows padded by one double so that the transposing stores of A
 * spread over banks), element by element with zero fill at the edges; a thread's rows are
 * TM rows BM/TM apart (and its columns TN columns BN/TN apart), so the threads of a warp read
 * consecutive doubles of a shared row. An FP64 FMA per term, accumulated in registers. No vector
 * loads: doubles are 8 bytes, and the old cards this tile is for (sm_2x/sm_3x, where FP64 is a
 * third to half of FP32 on the Teslas) gain little from them next to the FMA rate.
 */

#define GB_DG_TY (GB_DG_BM / GB_DG_TM) /* thread rows of a block */
#define GB_DG_TX (GB_DG_BN / GB_DG_TN) /* thread columns */

GB_LAUNCH_BOUNDS(GB_GEMM_THREADS)
__global__ void GB_DG_NAME(int M, int N, int K, const double *__restrict__ A, int lda,
                           const double *__restrict__ B, int ldb, double *__restrict__ C,
                           int ldc) {
    __shared__ double As[GB_DG_BK][GB_DG_BM + 1];
    __shared__ double Bs[GB_DG_BK][GB_DG_BN + 1];
    const int tid = (int)threadIdx.x, tx = tid % GB_DG_TX, ty = tid / GB_DG_TX;
    const int m0 = (int)blockIdx.y * GB_DG_BM, n0 = (int)blockIdx.x * GB_DG_BN;
    double acc[GB_DG_TM][GB_DG_TN];
    int i, j, k, k0, q;
    if (GB_ARCH > 0 && GB_ARCH < GB_DG_MIN_ARCH) {
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
    for (k0 = 0; k0 < K; k0 += GB_DG_BK) {
        GB_UNROLL
        for (q = tid; q < GB_DG_BM * GB_DG_BK; q += GB_GEMM_THREADS) { /* A: rows along k */
            int x = q / GB_DG_BK, kk = q % GB_DG_BK;
            As[kk][x] = (m0 + x < M && k0 + kk < K)
                            ? GB_LDG(A + (size_t)(m0 + x) * lda + k0 + kk)
                            : 0.0;
        }
        GB_UNROLL
        for (q = tid; q < GB_DG_BK * GB_DG_BN; q += GB_GEMM_THREADS) { /* B: rows along n */
            int kk = q / GB_DG_BN, x = q % GB_DG_BN;
            Bs[kk][x] = (k0 + kk < K && n0 + x < N)
                            ? GB_LDG(B + (size_t)(k0 + kk) * ldb + n0 + x)
                            : 0.0;
        }
        GB_BARRIER(1); /* the slice is in shared memory */
        GB_UNROLL
        for (k = 0; k < GB_DG_BK; k++) {
            double a[GB_DG_TM], b[GB_DG_TN];
            GB_UNROLL
            for (i = 0; i < GB_DG_TM; i++)
                a[i] = As[k][ty + i * GB_DG_TY];
            GB_UNROLL
            for (j = 0; j < GB_DG_TN; j++)
                b[j] = Bs[k][tx + j * GB_DG_TX];
            GB_UNROLL
            for (i = 0; i < GB_DG_TM; i++)
                GB_UNROLL
                for (j = 0; j < GB_DG_TN; j++)
                    acc[i][j] += a[i] * b[j];
        }
        GB_BARRIER(2); /* everyone is done with the slice before the next one is stored */
    }
    GB_UNROLL
    for (i = 0; i < GB_DG_TM; i++) {
        int m = m0 + ty + i * GB_DG_TY;
        GB_UNROLL
        for (j = 0; j < GB_DG_TN; j++) {
            int n = n0 + tx + j * GB_DG_TX;
            if (m < M && n < N)
                C[(size_t)m * ldc + n] = acc[i][j];
        }
    }
}
GB_SIM_KERNEL(GB_DG_NAME, int, int, int, const double *, int, const double *, int, double *, int)

#undef GB_DG_TY
#undef GB_DG_TX
#undef GB_DG_NAME
#undef GB_DG_BM
#undef GB_DG_BN
#undef GB_DG_BK
#undef GB_DG_TM
#undef GB_DG_TN
#undef GB_DG_MIN_ARCH
