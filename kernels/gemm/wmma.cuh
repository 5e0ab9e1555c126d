/* wmma.cuh — the FP16 GEMM on tensor cores (compute capability 7.0, CUDA 9): C (M×N, ldc, FP32)
 * = A (M×K, lda) · B (K×N, ldb), A and B __half, row-major, FP32 accumulation, any M, N, K ≥ 0
 * and any leading dimension and alignment of A and B. gemm/cuda_tc's f16 tier
 * (kernels/gemm/cuda_tc.c).
 *
 * SASS check: gb_hgemm_wmma_64x64 HMMA from 700
 * (tests/gpuinfo/sass_check.py: the build's machine code for sm_70 and newer must hold HMMA
 * instructions in this kernel, and none below)
 *
 * Why C++ here: warp matrix functions exist only as nvcuda::wmma's fragment templates (mma.h),
 * with no C interface. The rest of the project's kernels are the C subset of CUDA C (nvcc
 * compiles a .cu as C++ anyway); this file keeps to it except the fragment declarations and the
 * four wmma calls of gb_wm_mma_slice and gb_wm_store, which sit behind GB_WMMA_NATIVE. No class
 * or template of our own. Everything else — which block and warp covers which part of C, which
 * thread loads which operand pair, the zero padding of edge tiles, which lane copies which
 * element of a fragment out — is plain C in the gb_wm_* index functions below, which the CPU
 * tests check (kernels/gemm/test_emu.c) and the emulation's twin uses.
 *
 * The twin (GPUBENCH_EMU: the emulation tests and the simulated device): the CPU emulation has
 * no warps, so there each lane computes the 8 elements of every fragment it copies out (the ones
 * gb_wm_frag_elem gives it) with FP32 FMAs over the same shared tiles — the same result contract
 * (FP16 products, exact in FP32, summed in FP32), the same loads, padding and stores.
 *
 * Scheme: 64×64 block tiles of C, 4 warps of 32×32, each a 2×2 set of 16×16 accumulator
 * fragments; K in 32-deep slices, two 16×16×16 mma steps each. A slice of A (64×32) and B
 * (32×64) is copied to shared memory as halves, in pairs (one half2 load where the pair is
 * inside and 4-byte aligned, else one half at a time), zero outside the matrices: an edge tile
 * is a padded full tile, so every fragment is a full 16×16×16 one. Rows of the shared tiles are
 * padded by 8 halves (16 bytes: wmma's ldm must be a multiple of 8 halves, and the shift spreads
 * the fragments' rows over banks). Results go out through shared memory: each warp stores a
 * fragment to its own 16×20-float patch and its lanes copy the elements inside C, so no store
 * leaves the matrix whatever M, N and ldc are.
 */
#ifndef GPUBENCH_GEMM_WMMA_CUH
#define GPUBENCH_GEMM_WMMA_CUH

#include "kernels/common/kernel_common.cuh"
#include "kernels/gemm/half.cuh"

#define GB_WMMA_MIN_ARCH 700
#if GB_HAVE_HALF && (defined(GPUBENCH_EMU) || (defined(CUDART_VERSION) && CUDART_VERSION >= 9000))
#define GB_HAVE_WMMA 1
#else
#define GB_HAVE_WMMA 0
#endif
/* the tensor-core code itself: nvcc compiling for sm_70 and newer */
#if GB_HAVE_WMMA && defined(__CUDA_ARCH__) && GB_ARCH >= GB_WMMA_MIN_ARCH
#define GB_WMMA_NATIVE 1
#include <mma.h>
#else
#define GB_WMMA_NATIVE 0
#endif
/* where the kernel has a body (the twin, the host pass, sm_70+); a trap elsewhere */
#define GB_WMMA_BODY (GB_ARCH == 0 || GB_ARCH >= GB_WMMA_MIN_ARCH)

/* block tile and slice depth; fragment edge (m = n = k = 16); 4 warps (2×2 of 32×32); shared
 * row pitches of As and Bs (halves) and of a warp's C patch (floats); operand pairs a thread
 * loads per slice and operand (8); fragment elements a lane copies out (8) */
enum {
    GB_WM_BM = 64,
    GB_WM_BN = 64,
    GB_WM_BK = 32,
    GB_WM_F = 16,
    GB_WM_WARPS = 4,
    GB_WM_THREADS = 128,
    GB_WM_PA = GB_WM_BK + 8,
    GB_WM_PB = GB_WM_BN + 8,
    GB_WM_PC = GB_WM_F + 4,
    GB_WM_PAIRS = GB_WM_BM * GB_WM_BK / 2 / GB_WM_THREADS,
    GB_WM_PER_LANE = GB_WM_F * GB_WM_F / 32
};

/* --- index functions: plain C, shared by the kernel, its twin and the CPU tests ------------- */
#if defined(__CUDACC__)
#define GB_WM_HD static __host__ __device__ __forceinline__
#else
#define GB_WM_HD static inline
#endif

/* Origin (row, column) within the block tile of fragment (i, j) ∈ {0,1}² of warp w: warps
 * cover the 2×2 quarters, fragments the 2×2 16×16 parts of a quarter. */
GB_WM_HD void gb_wm_frag_origin(int w, int i, int j, int *r, int *c) {
    *r = (w / 2) * 32 + i * GB_WM_F;
    *c = (w % 2) * 32 + j * GB_WM_F;
}

/* Operand pair number p (0 ≤ p < rows·cols/2) of a rows×cols slice: its row and first column
 * (even); pairs run along rows, so consecutive threads read consecutive words. */
GB_WM_HD void gb_wm_pair(int p, int cols, int *r, int *c) {
    *r = p / (cols / 2);
    *c = (p % (cols / 2)) * 2;
}

/* How many of the two elements (row, col), (row, col+1) of a rows×cols matrix are inside it:
 * 2, 1 (the pair straddles the right edge) or 0 (zero padding). */
GB_WM_HD int gb_wm_pair_inside(int row, int col, int rows, int cols) {
    return row >= rows || col >= cols ? 0 : col + 1 < cols ? 2 : 1;
}

/* Element q (0 ≤ q < 8) that lane copies out of a 16×16 fragment: (r, c). Lanes take
 * consecutive columns, so the copy to C is coalesced per row. */
GB_WM_HD void gb_wm_frag_elem(int lane, int q, int *r, int *c) {
    int e = lane + 32 * q;
    *r = e / GB_WM_F;
    *c = e % GB_WM_F;
}

/* Blocks of an M×N result: x over column tiles, y over row tiles; 0, or -1 beyond the limits
 * (gridDim.y ≤ 65535; sm_70 and newer allow 2^31 − 1 in x). */
GB_WM_HD int gb_wm_grid(int M, int N, unsigned *gx, unsigned *gy) {
    long x = ((long)N + GB_WM_BN - 1) / GB_WM_BN, y = ((long)M + GB_WM_BM - 1) / GB_WM_BM;
    if (y > 65535 || x > 2147483647L)
        return -1;
    *gx = (unsigned)x;
    *gy = (unsigned)y;
    return 0;
}

#if GB_HAVE_WMMA
#if GB_WMMA_BODY
/* Copy pair p of this slice of an operand (rows×cols matrix src, leading dimension ld; the slice
 * is sr×sc at (r0, c0)) into the shared tile dst (pitch pd), zero outside the matrix. */
static __device__ __forceinline__ void gb_wm_copy_pair(const __half *__restrict__ src, int ld,
                                                       int rows, int cols, int r0, int c0, int sc,
                                                       int p, __half *dst, int pd) {
    int r, c, inside;
    __half2 v;
    gb_wm_pair(p, sc, &r, &c);
    inside = gb_wm_pair_inside(r0 + r, c0 + c, rows, cols);
    {
        const __half *s = src + (size_t)(r0 + r) * ld + c0 + c;
        if (inside == 2 && GB_ALIGNED4(s)) {
            v = *(const __half2 *)s;
        } else {
            v.x = inside >= 1 ? s[0] : __float2half_rn(0.0f);
            v.y = inside == 2 ? s[1] : __float2half_rn(0.0f);
        }
    }
    *(__half2 *)(dst + r * pd + c) = v; /* pd and c even: a 4-byte aligned word */
}

/* This thread's share of slice k0 of A and B into As (64×32) and Bs (32×64). */
static __device__ __forceinline__ void gb_wm_load_slice(const __half *__restrict__ A, int lda,
                                                        const __half *__restrict__ B, int ldb,
                                                        int M, int N, int K, int m0, int n0, int k0,
                                                        int tid, __half *As, __half *Bs) {
    int q;
    GB_UNROLL
    for (q = 0; q < GB_WM_PAIRS; q++) {
        gb_wm_copy_pair(A, lda, M, K, m0, k0, GB_WM_BK, tid + q * GB_WM_THREADS, As, GB_WM_PA);
        gb_wm_copy_pair(B, ldb, K, N, k0, n0, GB_WM_BN, tid + q * GB_WM_THREADS, Bs, GB_WM_PB);
    }
}

/* Lane's elements of a fragment patch (pitch GB_WM_PC) into C where inside M×N; (gr, gc): the
 * patch's origin in C. */
static __device__ __forceinline__ void gb_wm_copy_out(const float *patch, int lane, int gr, int gc,
                                                      int M, int N, float *__restrict__ C,
                                                      int ldc) {
    int q, r, c;
    GB_UNROLL
    for (q = 0; q < GB_WM_PER_LANE; q++) {
        gb_wm_frag_elem(lane, q, &r, &c);
        if (gr + r < M && gc + c < N)
            C[(size_t)(gr + r) * ldc + gc + c] = patch[r * GB_WM_PC + c];
    }
}
#endif /* GB_WMMA_BODY */

#if GB_WMMA_NATIVE
typedef nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> gb_wm_acc;
typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major>
    gb_wm_fa;
typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::row_major>
    gb_wm_fb;
#define GB_WM_ACC(name) gb_wm_acc name[2][2]
#define GB_WM_ZERO(acc)                                                                            \
    do {                                                                                           \
        int i_, j_;                                                                                \
        for (i_ = 0; i_ < 2; i_++)                                                                 \
            for (j_ = 0; j_ < 2; j_++)                                                             \
                nvcuda::wmma::fill_fragment(acc[i_][j_], 0.0f);                                    \
    } while (0)

/* acc += the warp's 32×32 share of As·Bs, two 16-deep mma steps. */
static __device__ __forceinline__ void gb_wm_mma_slice(const __half *As, const __half *Bs, int w,
                                                       int lane, gb_wm_acc (*acc)[2]) {
    int kk, i, j, r, c;
    (void)lane;
    GB_UNROLL
    for (kk = 0; kk < GB_WM_BK; kk += GB_WM_F) {
        gb_wm_fa fa[2];
        gb_wm_fb fb[2];
        GB_UNROLL
        for (i = 0; i < 2; i++) {
            gb_wm_frag_origin(w, i, 0, &r, &c);
            nvcuda::wmma::load_matrix_sync(fa[i], As + r * GB_WM_PA + kk, GB_WM_PA);
        }
        GB_UNROLL
        for (j = 0; j < 2; j++) {
            gb_wm_frag_origin(w, 0, j, &r, &c);
            nvcuda::wmma::load_matrix_sync(fb[j], Bs + kk * GB_WM_PB + c, GB_WM_PB);
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
static __device__ __forceinline__ void gb_wm_store(float *patch, int lane, gb_wm_acc (*acc)[2],
                                                   int i, int j) {
    (void)lane;
    nvcuda::wmma::store_matrix_sync(patch, acc[i][j], GB_WM_PC, nvcuda::wmma::mem_row_major);
    __syncwarp();
}
#define GB_WM_PATCH_DONE() __syncwarp() /* all lanes have read the patch before it is reused */
#elif GB_WMMA_BODY
/* The twin: acc[i][j][q] is element q of fragment (i, j) as lane copies it out. */
#define GB_WM_ACC(name) float name[2][2][GB_WM_PER_LANE]
#define GB_WM_ZERO(acc)                                                                            \
    do {                                                                                           \
        int i_, j_, q_;                                                                            \
        for (i_ = 0; i_ < 2; i_++)                                                                 \
            for (j_ = 0; j_ < 2; j_++)                                                             \
                for (q_ = 0; q_ < GB_WM_PER_LANE; q_++)                                            \
                    acc[i_][j_][q_] = 0.0f;                                                        \
    } while (0)

static __device__ __forceinline__ void gb_wm_mma_slice(const __half *As, const __half *Bs, int w,
                                                       int lane, float (*acc)[2][GB_WM_PER_LANE]) {
    int i, j, q, k, r0, c0, r, c;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            gb_wm_frag_origin(w, i, j, &r0, &c0);
            for (q = 0; q < GB_WM_PER_LANE; q++) {
                gb_wm_frag_elem(lane, q, &r, &c);
                for (k = 0; k < GB_WM_BK; k++)
                    acc[i][j][q] += __half2float(As[(r0 + r) * GB_WM_PA + k]) *
                                    __half2float(Bs[k * GB_WM_PB + c0 + c]);
            }
        }
}

/* The lane's own elements into the patch (it reads back only those). */
static __device__ __forceinline__ void gb_wm_store(float *patch, int lane,
                                                   float (*acc)[2][GB_WM_PER_LANE], int i, int j) {
    int q, r, c;
    for (q = 0; q < GB_WM_PER_LANE; q++) {
        gb_wm_frag_elem(lane, q, &r, &c);
        patch[r * GB_WM_PC + c] = acc[i][j][q];
    }
}
#define GB_WM_PATCH_DONE() ((void)0)
#endif

GB_LAUNCH_BOUNDS(GB_WM_THREADS)
__global__ void gb_hgemm_wmma_64x64(int M, int N, int K, const __half *__restrict__ A, int lda,
                                    const __half *__restrict__ B, int ldb, float *__restrict__ C,
                                    int ldc) {
#if GB_WMMA_BODY
    __shared__ __align__(32) __half As[GB_WM_BM * GB_WM_PA];
    __shared__ __align__(32) __half Bs[GB_WM_BK * GB_WM_PB];
    __shared__ __align__(32) float Cs[GB_WM_WARPS * GB_WM_F * GB_WM_PC];
    const int tid = (int)threadIdx.x, w = tid / 32, lane = tid % 32;
    const int m0 = (int)blockIdx.y * GB_WM_BM, n0 = (int)blockIdx.x * GB_WM_BN;
    float *patch = Cs + w * GB_WM_F * GB_WM_PC;
    GB_WM_ACC(acc);
    int k0, i, j, r, c;
    GB_WM_ZERO(acc);
    for (k0 = 0; k0 < K; k0 += GB_WM_BK) {
        gb_wm_load_slice(A, lda, B, ldb, M, N, K, m0, n0, k0, tid, As, Bs);
        GB_BARRIER(1); /* the slice is in shared memory */
        gb_wm_mma_slice(As, Bs, w, lane, acc);
        GB_BARRIER(2); /* everyone is done with it before the next one is stored */
    }
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            gb_wm_frag_origin(w, i, j, &r, &c);
            gb_wm_store(patch, lane, acc, i, j);
            gb_wm_copy_out(patch, lane, m0 + r, n0 + c, M, N, C, ldc);
            GB_WM_PATCH_DONE();
        }
#else
    (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)C, (void)ldc;
    __trap(); /* no tensor cores below sm_70: never launched here */
#endif
}
GB_SIM_KERNEL(gb_hgemm_wmma_64x64, int, int, int, const __half *, int, const __half *, int, float *,
              int)
#endif /* GB_HAVE_WMMA */

#endif
