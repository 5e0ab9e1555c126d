/* dmma.cuh — the FP64 GEMM on the FP64 tensor cores (DMMA; compute capability 8.0, CUDA 11.0):
 * C (M×N, ldc) = A (M×K, lda) · B (K×N, ldb), doubles, row-major, any M, N, K ≥ 0 and any
 * leading dimension. gemm/cuda_tc's f64 tier (kernels/gemm/cuda_tc.c).
 *
 * Written as wmma.cuh is (read it first): C++ only in the fragment declarations and the wmma
 * calls of gb_dm_mma_slice and gb_dm_store, behind GB_DMMA_NATIVE; which warp covers which part
 * of C, which thread copies which operand element, the zero padding of edge tiles and which lane
 * copies which fragment element out are plain C in the gb_dm_* index functions, which the CPU
 * tests check (kernels/gemm/test_emu.c) and the emulation's twin uses.
 *
 * The twin (GPUBENCH_EMU: the emulation tests and the simulated device): each lane computes the
 * 2 elements of every fragment it copies out (gb_dm_frag_elem) with FP64 FMAs over the same
 * shared tiles — the same result contract (FP64 products and sums, in some order), the same
 * copies, padding and stores; the asynchronous copies are plain assignments there.
 *
 * Scheme: 64×64 block tiles of C, 4 warps of 32×32, each a 4×4 set of 8×8 accumulator fragments
 * (nvcuda::wmma m8n8k4 double: 2 doubles per lane); K in 16-deep slices, four 8×8×4 mma steps
 * each. Each slice of A (64×16) and B (16×64) goes to shared memory element by element with
 * cp.async (8 bytes, zero-filled outside the matrices: an edge tile is a padded full tile, so
 * every fragment is a full one), into two buffers: the next slice is in flight while this one is
 * computed, and one barrier a slice suffices (after it, everyone has finished the slice before,
 * whose buffer the next copies overwrite). Shared rows are padded (A by 4, B by 8 doubles: wmma's
 * ldm must be a multiple of 2 doubles, and the shift spreads a fragment's rows over banks).
 * Results go out through shared memory as wmma.cuh's: each warp stores a fragment to its own 8×8
 * patch and its lanes copy the elements inside C.
 *
 * SASS check: gb_dgemm_dmma_64x64 DMMA from 800
 * (tests/gpuinfo/sass_check.py: the build's machine code for sm_80 and newer must hold DMMA
 * instructions in this kernel, and none below)
 */
#ifndef GPUBENCH_GEMM_DMMA_CUH
#define GPUBENCH_GEMM_DMMA_CUH

#include "kernels/common/kernel_common.cuh"

#define GB_DMMA_MIN_ARCH 800
#if defined(GPUBENCH_EMU) || (defined(CUDART_VERSION) && CUDART_VERSION >= 11000)
#define GB_HAVE_DMMA 1
#else
#define GB_HAVE_DMMA 0
#endif
/* the tensor-core code itself: nvcc compiling for sm_80 and newer */
#if GB_HAVE_DMMA && defined(__CUDA_ARCH__) && GB_ARCH >= GB_DMMA_MIN_ARCH
#define GB_DMMA_NATIVE 1
#include <mma.h>
#else
#define GB_DMMA_NATIVE 0
#endif
/* where the kernel has a body (the twin, the host pass, sm_80+); a trap elsewhere */
#define GB_DMMA_BODY (GB_ARCH == 0 || GB_ARCH >= GB_DMMA_MIN_ARCH)

/* block tile and slice depth; fragment edges (m = n = 8, k = 4); 4 warps (2×2 of 32×32, each 4×4
 * fragments); shared row pitches of As, Bs (doubles) and of a warp's C patch; operand elements a
 * thread copies per slice and operand (8); fragment elements a lane copies out (2) */
enum {
    GB_DM_BM = 64,
    GB_DM_BN = 64,
    GB_DM_BK = 16,
    GB_DM_F = 8,
    GB_DM_FK = 4,
    GB_DM_WARPS = 4,
    GB_DM_THREADS = 128,
    GB_DM_WF = 4,
    GB_DM_PA = GB_DM_BK + 4,
    GB_DM_PB = GB_DM_BN + 8,
    GB_DM_PC = GB_DM_F,
    GB_DM_PER_THREAD = GB_DM_BM * GB_DM_BK / GB_DM_THREADS,
    GB_DM_PER_LANE = GB_DM_F * GB_DM_F / 32
};

/* --- index functions: plain C, shared by the kernel, its twin and the CPU tests ------------- */
#if defined(__CUDACC__)
#define GB_DM_HD static __host__ __device__ __forceinline__
#else
#define GB_DM_HD static inline
#endif

/* Origin (row, column) within the block tile of fragment (i, j) ∈ {0..3}² of warp w: warps
 * cover the 2×2 quarters, fragments the 4×4 8×8 parts of a quarter. */
GB_DM_HD void gb_dm_frag_origin(int w, int i, int j, int *r, int *c) {
    *r = (w / 2) * 32 + i * GB_DM_F;
    *c = (w % 2) * 32 + j * GB_DM_F;
}

/* Element p (0 ≤ p < rows·cols) of a rows×cols slice: its row and column; elements run along
 * rows, so consecutive threads copy consecutive doubles. */
GB_DM_HD void gb_dm_elem(int p, int cols, int *r, int *c) {
    *r = p / cols;
    *c = p % cols;
}

/* Element q (0 ≤ q < 2) that lane copies out of an 8×8 fragment: (r, c). Lanes take
 * consecutive columns, so the copy to C is 8 doubles a row. */
GB_DM_HD void gb_dm_frag_elem(int lane, int q, int *r, int *c) {
    int e = lane + 32 * q;
    *r = e / GB_DM_F;
    *c = e % GB_DM_F;
}

#if GB_HAVE_DMMA
#if GB_DMMA_BODY
/* dst = *src, or 0 when !inside (src is then not read). Native: an asynchronous 8-byte copy
 * (cp.async, zero fill: a source size of 0 reads nothing); the twin: an assignment. */
static __device__ __forceinline__ void gb_dm_copy(double *dst, const double *src, int inside) {
#if GB_DMMA_NATIVE
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(s), "l"(src),
                 "r"(inside ? 8 : 0));
#else
    *dst = inside ? *src : 0.0;
#endif
}

/* The copies issued so far form a group; wait until every group of this thread has landed. */
static __device__ __forceinline__ void gb_dm_commit(void) {
#if GB_DMMA_NATIVE
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
static __device__ __forceinline__ void gb_dm_wait_all(void) {
#if GB_DMMA_NATIVE
    asm volatile("cp.async.wait_group 0;\n" ::);
#endif
}

/* This thread's share of slice k0 of A and B into As (64×16) and Bs (16×64), zero outside the
 * matrices (an element outside copies from A or B itself, reading nothing). */
static __device__ __forceinline__ void gb_dm_load_slice(const double *__restrict__ A, int lda,
                                                        const double *__restrict__ B, int ldb,
                                                        int M, int N, int K, int m0, int n0, int k0,
                                                        int tid, double *As, double *Bs) {
    int q, r, c, in;
    GB_UNROLL
    for (q = 0; q < GB_DM_PER_THREAD; q++) {
        gb_dm_elem(tid + q * GB_DM_THREADS, GB_DM_BK, &r, &c);
        in = m0 + r < M && k0 + c < K;
        gb_dm_copy(As + r * GB_DM_PA + c, in ? A + (size_t)(m0 + r) * lda + k0 + c : A, in);
        gb_dm_elem(tid + q * GB_DM_THREADS, GB_DM_BN, &r, &c);
        in = k0 + r < K && n0 + c < N;
        gb_dm_copy(Bs + r * GB_DM_PB + c, in ? B + (size_t)(k0 + r) * ldb + n0 + c : B, in);
    }
    gb_dm_commit();
}

/* Lane's elements of a fragment patch (pitch GB_DM_PC) into C where inside M×N; (gr, gc): the
 * patch's origin in C. */
static __device__ __forceinline__ void gb_dm_copy_out(const double *patch, int lane, int gr,
                                                      int gc, int M, int N, double *__restrict__ C,
                                                      int ldc) {
    int q, r, c;
    GB_UNROLL
    for (q = 0; q < GB_DM_PER_LANE; q++) {
        gb_dm_frag_elem(lane, q, &r, &c);
        if (gr + r < M && gc + c < N)
            C[(size_t)(gr + r) * ldc + gc + c] = patch[r * GB_DM_PC + c];
    }
}
#endif /* GB_DMMA_BODY */

#if GB_DMMA_NATIVE
typedef nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 8, 8, 4, double> gb_dm_acc;
typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 8, 8, 4, double, nvcuda::wmma::row_major>
    gb_dm_fa;
typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 8, 8, 4, double, nvcuda::wmma::row_major>
    gb_dm_fb;
#define GB_DM_ACC(name) gb_dm_acc name[GB_DM_WF][GB_DM_WF]
#define GB_DM_ZERO(acc)                                                                            \
    do {                                                                                           \
        int i_, j_;                                                                                \
        GB_UNROLL                                                                                  \
        for (i_ = 0; i_ < GB_DM_WF; i_++)                                                          \
            GB_UNROLL                                                                              \
            for (j_ = 0; j_ < GB_DM_WF; j_++)                                                      \
                nvcuda::wmma::fill_fragment(acc[i_][j_], 0.0);                                     \
    } while (0)

/* acc += the warp's 32×32 share of As·Bs, four 4-deep mma steps. */
static __device__ __forceinline__ void gb_dm_mma_slice(const double *As, const double *Bs, int w,
                                                       int lane, gb_dm_acc (*acc)[GB_DM_WF]) {
    int kk, i, j, r, c;
    (void)lane;
    GB_UNROLL
    for (kk = 0; kk < GB_DM_BK; kk += GB_DM_FK) {
        gb_dm_fa fa[GB_DM_WF];
        gb_dm_fb fb[GB_DM_WF];
        GB_UNROLL
        for (i = 0; i < GB_DM_WF; i++) {
            gb_dm_frag_origin(w, i, 0, &r, &c);
            nvcuda::wmma::load_matrix_sync(fa[i], As + r * GB_DM_PA + kk, GB_DM_PA);
        }
        GB_UNROLL
        for (j = 0; j < GB_DM_WF; j++) {
            gb_dm_frag_origin(w, 0, j, &r, &c);
            nvcuda::wmma::load_matrix_sync(fb[j], Bs + kk * GB_DM_PB + c, GB_DM_PB);
        }
        GB_UNROLL
        for (i = 0; i < GB_DM_WF; i++) {
            GB_UNROLL
            for (j = 0; j < GB_DM_WF; j++)
                nvcuda::wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
    }
}

/* Fragment (i, j) of acc into the warp's patch; the lanes then read what others wrote. */
static __device__ __forceinline__ void gb_dm_store(double *patch, int lane,
                                                   gb_dm_acc (*acc)[GB_DM_WF], int i, int j) {
    (void)lane;
    nvcuda::wmma::store_matrix_sync(patch, acc[i][j], GB_DM_PC, nvcuda::wmma::mem_row_major);
    __syncwarp();
}
#define GB_DM_PATCH_DONE() __syncwarp() /* all lanes have read the patch before it is reused */
#elif GB_DMMA_BODY
/* The twin: acc[i][j][q] is element q of fragment (i, j) as lane copies it out. */
#define GB_DM_ACC(name) double name[GB_DM_WF][GB_DM_WF][GB_DM_PER_LANE]
#define GB_DM_ZERO(acc)                                                                            \
    do {                                                                                           \
        int i_, j_, q_;                                                                            \
        for (i_ = 0; i_ < GB_DM_WF; i_++)                                                          \
            for (j_ = 0; j_ < GB_DM_WF; j_++)                                                      \
                for (q_ = 0; q_ < GB_DM_PER_LANE; q_++)                                            \
                    acc[i_][j_][q_] = 0.0;                                                         \
    } while (0)

static __device__ __forceinline__ void gb_dm_mma_slice(const double *As, const double *Bs, int w,
                                                       int lane,
                                                       double (*acc)[GB_DM_WF][GB_DM_PER_LANE]) {
    int i, j, q, k, r0, c0, r, c;
    for (i = 0; i < GB_DM_WF; i++)
        for (j = 0; j < GB_DM_WF; j++) {
            gb_dm_frag_origin(w, i, j, &r0, &c0);
            for (q = 0; q < GB_DM_PER_LANE; q++) {
                gb_dm_frag_elem(lane, q, &r, &c);
                for (k = 0; k < GB_DM_BK; k++)
                    acc[i][j][q] += As[(r0 + r) * GB_DM_PA + k] * Bs[k * GB_DM_PB + c0 + c];
            }
        }
}

/* The lane's own elements into the patch (it reads back only those). */
static __device__ __forceinline__ void gb_dm_store(double *patch, int lane,
                                                   double (*acc)[GB_DM_WF][GB_DM_PER_LANE], int i,
                                                   int j) {
    int q, r, c;
    for (q = 0; q < GB_DM_PER_LANE; q++) {
        gb_dm_frag_elem(lane, q, &r, &c);
        patch[r * GB_DM_PC + c] = acc[i][j][q];
    }
}
#define GB_DM_PATCH_DONE() ((void)0)
#endif

/* two blocks an SM: up to 255 registers a thread (without it, CUDA 11.8's ptxas gave sm_90 168
 * registers and a 16-byte spill) */
GB_LAUNCH_BOUNDS_MIN(GB_DM_THREADS, 2)
__global__ void gb_dgemm_dmma_64x64(int M, int N, int K, const double *__restrict__ A, int lda,
                                    const double *__restrict__ B, int ldb, double *__restrict__ C,
                                    int ldc) {
#if GB_DMMA_BODY
    /* two stages of the A and B slices; the warps' C patches */
    __shared__ __align__(32) double As[2][GB_DM_BM * GB_DM_PA];
    __shared__ __align__(32) double Bs[2][GB_DM_BK * GB_DM_PB];
    __shared__ __align__(32) double Cs[GB_DM_WARPS * GB_DM_F * GB_DM_PC];
    const int tid = (int)threadIdx.x, w = tid / 32, lane = tid % 32;
    const int m0 = (int)blockIdx.y * GB_DM_BM, n0 = (int)blockIdx.x * GB_DM_BN;
    double *patch = Cs + w * GB_DM_F * GB_DM_PC;
    GB_DM_ACC(acc);
    int s, ns = (K + GB_DM_BK - 1) / GB_DM_BK, i, j, r, c;
    GB_DM_ZERO(acc);
    if (ns > 0)
        gb_dm_load_slice(A, lda, B, ldb, M, N, K, m0, n0, 0, tid, As[0], Bs[0]);
    for (s = 0; s < ns; s++) {
        gb_dm_wait_all();
        /* slice s is in shared memory, and every warp is done with slice s − 1, whose buffer
         * the next copies overwrite */
        GB_BARRIER(1);
        if (s + 1 < ns)
            gb_dm_load_slice(A, lda, B, ldb, M, N, K, m0, n0, (s + 1) * GB_DM_BK, tid,
                             As[(s + 1) & 1], Bs[(s + 1) & 1]);
        gb_dm_mma_slice(As[s & 1], Bs[s & 1], w, lane, acc);
    }
    GB_UNROLL /* fragments are registers: indexed by constants only */
    for (i = 0; i < GB_DM_WF; i++)
        GB_UNROLL
        for (j = 0; j < GB_DM_WF; j++) {
            gb_dm_frag_origin(w, i, j, &r, &c);
            gb_dm_store(patch, lane, acc, i, j);
            gb_dm_copy_out(patch, lane, m0 + r, n0 + c, M, N, C, ldc);
            GB_DM_PATCH_DONE();
        }
#else
    (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)C, (void)ldc;
    __trap(); /* no FP64 tensor cores below sm_80: never launched here */
#endif
}
GB_SIM_KERNEL(gb_dgemm_dmma_64x64, int, int, int, const double *, int, const double *, int,
              double *, int)
#endif /* GB_HAVE_DMMA */

#endif
