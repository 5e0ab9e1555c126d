/* wmma_tile.cuh — one tier of the tensor-core GEMM on the tiles of kernels/common/wmma.cuh (read
 * it first: the scheme, the twin and why C++); included once per tier by kernels/gemm/wmma.cuh,
 * as kernels/gemm/tile.cuh is per configuration by kernels/gemm/kernels.cuh, and for its pieces
 * alone by kernels/conv2d/tc.cuh. C has no templates: the element type, the fragment shape and the architecture a
 * tier needs are macros, and the body below is the same source for every tier.
 *
 * Parameters (defined by the includer, undefined at the end of this file):
 *   GB_WT_NAME      kernel name, e.g. gb_hgemm_wmma_64x64 (its helpers are named after it)
 *   GB_WT_IN        element type of A and B, in global and shared memory: __half,
 *                   __nv_bfloat16, float (tf32: FP32 operands, rounded on their way into shared
 *                   memory)
 *   GB_WT_PAIR      two of them as one load: __half2, __nv_bfloat162, float2
 *   GB_WT_ALIGNED(p)  may a pair be loaded at p (GB_ALIGNED4 for 16-bit, GB_ALIGNED8 for float)
 *   GB_WT_ZERO      zero of GB_WT_IN (the padding of edge tiles)
 *   GB_WT_ROUND(x)  the tier's rounding of an operand into the shared tile: identity for the
 *                   16-bit tiers (their operands are values of the tier), gb_wm_tf32 for tf32
 *   GB_WT_FLOAT(x)  a shared element as float (the twin's FMAs)
 *   GB_WT_FRAG      wmma's operand fragment type: __half, __nv_bfloat16, wmma::precision::tf32
 *   GB_WT_FK        the fragment's k: 16 (16-bit), 8 (tf32); m = n = 16
 *   GB_WT_HAVE      does the toolkit have these fragments (GB_HAVE_WMMA, GB_HAVE_WMMA_80)
 *   GB_WT_MIN_ARCH  smallest GB_ARCH with the real body (700, 800); below, a trap the host
 *                   never launches (gb_wm_body_at)
 *   GB_WT_TA, GB_WT_TB  optional, 0 when not defined: A is stored transposed (K×M, element
 *                   (m, k) at A[k·lda + m]) / B is (N×K, (k, n) at B[n·ldb + k]), as the
 *                   backward products of mlp_train/cuda_tc need (C = Aᵀ·B, A·Bᵀ)
 *   GB_WT_NO_KERNEL (optional) only the tier's pieces, no GEMM kernel: the fragment types
 *                   (GB_WT_NAME_acc, _fa, _fb), fetch_pair, copy_pair, zero_acc, mma_slice,
 *                   store and patch_done, for another kernel on the same tiles
 *                   (kernels/conv2d/tc.cuh)
 */
/* --- transposed operands (GB_WT_TA, GB_WT_TB): the shared tile keeps the operand's own
 * layout — a transposed slice is copied as it lies, k-major for A (BK rows of BM + 8) and
 * n-major for B (BN rows of BK + 8) — so the copy stays paired and coalesced along the
 * stored rows, and the fragments load it column-major (wmma's col_major layouts). GB_WT_AI(m, k)
 * and GB_WT_BI(k, n): where element (m, k) of the A slice and (k, n) of the B slice lie in As
 * and Bs; GB_WT_LDA, GB_WT_LDB their pitches; GB_WT_ASZ, GB_WT_BSZ their sizes. */
#ifndef GB_WT_TA
#define GB_WT_TA 0
#endif
#ifndef GB_WT_TB
#define GB_WT_TB 0
#endif
#if GB_WT_TA
#define GB_WT_LDA (GB_WM_BM + 8)
#define GB_WT_AI(m, k) ((k) * GB_WT_LDA + (m))
#define GB_WT_ASZ (GB_WM_BK * GB_WT_LDA)
#define GB_WT_LAYA nvcuda::wmma::col_major
#else
#define GB_WT_LDA GB_WM_PA
#define GB_WT_AI(m, k) ((m) * GB_WT_LDA + (k))
#define GB_WT_ASZ (GB_WM_BM * GB_WT_LDA)
#define GB_WT_LAYA nvcuda::wmma::row_major
#endif
#if GB_WT_TB
#define GB_WT_LDB (GB_WM_BK + 8)
#define GB_WT_BI(k, n) ((n) * GB_WT_LDB + (k))
#define GB_WT_BSZ (GB_WM_BN * GB_WT_LDB)
#define GB_WT_LAYB nvcuda::wmma::col_major
#else
#define GB_WT_LDB GB_WM_PB
#define GB_WT_BI(k, n) ((k) * GB_WT_LDB + (n))
#define GB_WT_BSZ (GB_WM_BK * GB_WT_LDB)
#define GB_WT_LAYB nvcuda::wmma::row_major
#endif
/* --- end of the transposed operands' block */
#define GB_WT_CAT2(a, b) a##_##b
#define GB_WT_CAT(a, b) GB_WT_CAT2(a, b)
#define GB_WT_FN(suffix) GB_WT_CAT(GB_WT_NAME, suffix)
/* where the kernel has a body (the twin, the host pass, GB_WT_MIN_ARCH and newer) */
#define GB_WT_BODY (GB_ARCH == 0 || GB_ARCH >= GB_WT_MIN_ARCH)

#if GB_WT_HAVE
#if GB_WT_BODY
/* Pair p of this slice of an operand (rows×cols matrix src, leading dimension ld; the slice is
 * sr×sc at (r0, c0)), rounded to the tier, zero outside the matrix: one pair load where both are
 * inside and aligned. Apart from copy_pair's store so that a kernel can hold it in registers
 * while the tile in shared memory is in use (kernels/conv2d/tc.cuh's prefetch). */
static __device__ __forceinline__ GB_WT_PAIR GB_WT_FN(fetch_pair)(const GB_WT_IN *__restrict__ src,
                                                                  int ld, int rows, int cols,
                                                                  int r0, int c0, int sc, int p) {
    int r, c, inside;
    GB_WT_PAIR v;
    gb_wm_pair(p, sc, &r, &c);
    inside = gb_wm_pair_inside(r0 + r, c0 + c, rows, cols);
    {
        const GB_WT_IN *s = src + (size_t)(r0 + r) * ld + c0 + c;
        if (inside == 2 && GB_WT_ALIGNED(s)) {
            v = *(const GB_WT_PAIR *)s;
        } else {
            v.x = inside >= 1 ? s[0] : GB_WT_ZERO;
            v.y = inside == 2 ? s[1] : GB_WT_ZERO;
        }
    }
    v.x = GB_WT_ROUND(v.x);
    v.y = GB_WT_ROUND(v.y);
    return v;
}

/* Copy pair p of the slice (fetch_pair) into the shared tile dst (pitch pd). */
static __device__ __forceinline__ void GB_WT_FN(copy_pair)(const GB_WT_IN *__restrict__ src,
                                                           int ld, int rows, int cols, int r0,
                                                           int c0, int sc, int p, GB_WT_IN *dst,
                                                           int pd) {
    int r, c;
    gb_wm_pair(p, sc, &r, &c);
    /* pd and c even: an aligned pair */
    *(GB_WT_PAIR *)(dst + r * pd + c) = GB_WT_FN(fetch_pair)(src, ld, rows, cols, r0, c0, sc, p);
}

/* This thread's share of slice k0 of A and B into As (64×32) and Bs (32×64). */
static __device__ __forceinline__ void GB_WT_FN(load_slice)(const GB_WT_IN *__restrict__ A,
                                                            int lda,
                                                            const GB_WT_IN *__restrict__ B,
                                                            int ldb, int M, int N, int K, int m0,
                                                            int n0, int k0, int tid, GB_WT_IN *As,
                                                            GB_WT_IN *Bs) {
    int q;
    GB_UNROLL
    for (q = 0; q < GB_WM_PAIRS; q++) {
#if GB_WT_TA /* the BK×BM slice of the stored K×M */
        GB_WT_FN(copy_pair)(A, lda, K, M, k0, m0, GB_WM_BM, tid + q * GB_WM_THREADS, As,
                            GB_WT_LDA);
#else
        GB_WT_FN(copy_pair)(A, lda, M, K, m0, k0, GB_WM_BK, tid + q * GB_WM_THREADS, As,
                            GB_WM_PA);
#endif
#if GB_WT_TB /* the BN×BK slice of the stored N×K */
        GB_WT_FN(copy_pair)(B, ldb, N, K, n0, k0, GB_WM_BK, tid + q * GB_WM_THREADS, Bs,
                            GB_WT_LDB);
#else
        GB_WT_FN(copy_pair)(B, ldb, K, N, k0, n0, GB_WM_BN, tid + q * GB_WM_THREADS, Bs,
                            GB_WM_PB);
#endif
    }
}
#endif /* GB_WT_BODY */

#if GB_WT_HAVE && GB_WM_DEVICE && GB_ARCH >= GB_WT_MIN_ARCH
typedef nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, GB_WT_FK, float> GB_WT_FN(acc);
typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, GB_WT_FK, GB_WT_FRAG, GB_WT_LAYA>
    GB_WT_FN(fa);
typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, GB_WT_FK, GB_WT_FRAG, GB_WT_LAYB>
    GB_WT_FN(fb);

/* All four accumulators of a warp to zero. */
static __device__ __forceinline__ void GB_WT_FN(zero_acc)(GB_WT_FN(acc) (*acc)[2]) {
    int i, j;
    GB_UNROLL
    for (i = 0; i < 2; i++) {
        GB_UNROLL
        for (j = 0; j < 2; j++)
            nvcuda::wmma::fill_fragment(acc[i][j], 0.0f);
    }
}

/* acc += the warp's 32×32 share of As·Bs, in GB_WM_BK / GB_WT_FK mma steps. */
static __device__ __forceinline__ void GB_WT_FN(mma_slice)(const GB_WT_IN *As, const GB_WT_IN *Bs,
                                                           int w, int lane,
                                                           GB_WT_FN(acc) (*acc)[2]) {
    int kk, i, j, r, c;
    (void)lane;
    GB_UNROLL
    for (kk = 0; kk < GB_WM_BK; kk += GB_WT_FK) {
        GB_WT_FN(fa) fa[2];
        GB_WT_FN(fb) fb[2];
        GB_UNROLL
        for (i = 0; i < 2; i++) {
            gb_wm_frag_origin(w, i, 0, &r, &c);
            nvcuda::wmma::load_matrix_sync(fa[i], As + GB_WT_AI(r, kk), GB_WT_LDA);
        }
        GB_UNROLL
        for (j = 0; j < 2; j++) {
            gb_wm_frag_origin(w, 0, j, &r, &c);
            nvcuda::wmma::load_matrix_sync(fb[j], Bs + GB_WT_BI(kk, c), GB_WT_LDB);
        }
        GB_UNROLL
        for (i = 0; i < 2; i++) {
            GB_UNROLL
            for (j = 0; j < 2; j++)
                nvcuda::wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
    }
}

/* Fragment (i, j) of acc into the warp's patch; the lanes then read what others wrote. */
static __device__ __forceinline__ void GB_WT_FN(store)(float *patch, int lane,
                                                       GB_WT_FN(acc) (*acc)[2], int i, int j) {
    (void)lane;
    nvcuda::wmma::store_matrix_sync(patch, acc[i][j], GB_WM_PC, nvcuda::wmma::mem_row_major);
    __syncwarp();
}

/* All lanes have read the patch before it is reused. */
static __device__ __forceinline__ void GB_WT_FN(patch_done)(void) {
    __syncwarp();
}
#elif GB_WT_BODY
/* The twin: acc[i][j][q] is element q of fragment (i, j) as lane copies it out; products of
 * two values of the tier are exact in FP32, so FP32 FMAs over the same tiles keep the
 * fragments' contract (products exact, sums in FP32). */
typedef float GB_WT_FN(acc)[GB_WM_PER_LANE];

static __device__ __forceinline__ void GB_WT_FN(zero_acc)(GB_WT_FN(acc) (*acc)[2]) {
    int i, j, q;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++)
            for (q = 0; q < GB_WM_PER_LANE; q++)
                acc[i][j][q] = 0.0f;
}

static __device__ __forceinline__ void GB_WT_FN(mma_slice)(const GB_WT_IN *As, const GB_WT_IN *Bs,
                                                           int w, int lane,
                                                           GB_WT_FN(acc) (*acc)[2]) {
    int i, j, q, k, r0, c0, r, c;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            gb_wm_frag_origin(w, i, j, &r0, &c0);
            for (q = 0; q < GB_WM_PER_LANE; q++) {
                gb_wm_frag_elem(lane, q, &r, &c);
                for (k = 0; k < GB_WM_BK; k++)
                    acc[i][j][q] += GB_WT_FLOAT(As[GB_WT_AI(r0 + r, k)]) *
                                    GB_WT_FLOAT(Bs[GB_WT_BI(k, c0 + c)]);
            }
        }
}

/* The lane's own elements into the patch (it reads back only those). */
static __device__ __forceinline__ void GB_WT_FN(store)(float *patch, int lane,
                                                       GB_WT_FN(acc) (*acc)[2], int i, int j) {
    int q, r, c;
    for (q = 0; q < GB_WM_PER_LANE; q++) {
        gb_wm_frag_elem(lane, q, &r, &c);
        patch[r * GB_WM_PC + c] = acc[i][j][q];
    }
}

static __device__ __forceinline__ void GB_WT_FN(patch_done)(void) {}
#endif

#ifndef GB_WT_NO_KERNEL
/* three blocks an SM: up to 170 registers a thread (without a bound, CUDA 13.0's ptxas gave the
 * f16 kernel 128 registers and a 4-byte spill on sm_75 once the epilogue was unrolled) */
GB_LAUNCH_BOUNDS_MIN(GB_WM_THREADS, 3)
__global__ void GB_WT_NAME(int M, int N, int K, const GB_WT_IN *__restrict__ A, int lda,
                           const GB_WT_IN *__restrict__ B, int ldb, float *__restrict__ C,
                           int ldc) {
#if GB_WT_BODY
    __shared__ __align__(32) GB_WT_IN As[GB_WT_ASZ];
    __shared__ __align__(32) GB_WT_IN Bs[GB_WT_BSZ];
    __shared__ __align__(32) float Cs[GB_WM_WARPS * GB_WM_F * GB_WM_PC];
    const int tid = (int)threadIdx.x, w = tid / 32, lane = tid % 32;
    const int m0 = (int)blockIdx.y * GB_WM_BM, n0 = (int)blockIdx.x * GB_WM_BN;
    float *patch = Cs + w * GB_WM_F * GB_WM_PC;
    GB_WT_FN(acc) acc[2][2];
    int k0, i, j, r, c;
    GB_WT_FN(zero_acc)(acc);
    for (k0 = 0; k0 < K; k0 += GB_WM_BK) {
        GB_WT_FN(load_slice)(A, lda, B, ldb, M, N, K, m0, n0, k0, tid, As, Bs);
        GB_BARRIER(1); /* the slice is in shared memory */
        GB_WT_FN(mma_slice)(As, Bs, w, lane, acc);
        GB_BARRIER(2); /* everyone is done with it before the next one is stored */
    }
    /* unrolled: the fragments are registers, indexed by constants only (a run-time index puts
     * them on the stack: 128 bytes of it before) */
    GB_UNROLL
    for (i = 0; i < 2; i++) {
        GB_UNROLL
        for (j = 0; j < 2; j++) {
            gb_wm_frag_origin(w, i, j, &r, &c);
            GB_WT_FN(store)(patch, lane, acc, i, j);
            gb_wm_copy_out(patch, lane, m0 + r, n0 + c, M, N, C, ldc);
            GB_WT_FN(patch_done)();
        }
    }
#else
    (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)C, (void)ldc;
    __trap(); /* no such tensor cores below GB_WT_MIN_ARCH: never launched here */
#endif
}
GB_SIM_KERNEL(GB_WT_NAME, int, int, int, const GB_WT_IN *, int, const GB_WT_IN *, int, float *, int)
#endif /* GB_WT_NO_KERNEL */
#endif /* GB_WT_HAVE */

#undef GB_WT_BODY
#undef GB_WT_FN
#undef GB_WT_CAT
#undef GB_WT_CAT2
#undef GB_WT_NAME
#undef GB_WT_IN
#undef GB_WT_PAIR
#undef GB_WT_ALIGNED
#undef GB_WT_ZERO
#undef GB_WT_ROUND
#undef GB_WT_FLOAT
#undef GB_WT_FRAG
#undef GB_WT_FK
#undef GB_WT_HAVE
#undef GB_WT_MIN_ARCH
#undef GB_WT_TA
#undef GB_WT_TB
#undef GB_WT_LDA
#undef GB_WT_AI
#undef GB_WT_ASZ
#undef GB_WT_LAYA
#undef GB_WT_LDB
#undef GB_WT_BI
#undef GB_WT_BSZ
#undef GB_WT_LAYB
#undef GB_WT_NO_KERNEL
