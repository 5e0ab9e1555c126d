/* dmma16.cuh — the FP64 GEMM on Hopper's own FP64 tensor-core shape, mma.sync m16n8k16 .f64
 * (SASS DMMA.16x8x16; PTX ISA 7.8, CUDA 11.8; sm_90 code only): C (M×N, ldc) = A (M×K, lda) ·
 * B (K×N, ldb), doubles, row-major, any M, N, K ≥ 0 and any leading dimension or alignment.
 * gemm/cuda_tc's f64 tier where the card runs this build's sm_90 code (kernels/gemm/cuda_tc.c
 * says the rule); dmma.cuh's 64×64 DMMA.8x8x4 kernel everywhere else (sm_80 to sm_89 code, and
 * sm_100/sm_120 code, where ptxas lowers m16n8k16 .f64 to eight DMMA.8x8x4 — CUDA 13.0 — so
 * the shape buys nothing there, and sm_120 has 99 KiB of shared memory a block, too few).
 *
 * SASS check: gb_dgemm_dmma16_128x128 DMMA.16x8x16 from 900 below 1000
 * (tests/gpuinfo/sass_check.py: sm_90 and sm_90a code must hold DMMA.16x8x16 in this kernel,
 * every other architecture's none: there the kernel is a trap the host never launches)
 *
 * Scheme. 128×128 block tiles of C, 8 warps (256 threads) of 64×32 each (2 down, 4 across), a
 * warp 4×4 m16n8 fragments; K in 16-deep slices, one m16n8k16 step each; 4 stages of cp.async
 * (8 bytes an element, zero-filled outside A and B: an edge tile is a padded full tile), so 3
 * slices are in flight while one is computed. The pipeline is mma.cuh's: slices 0..2 issued
 * before the loop; at slice s, wait until at most 2 groups (slices s+1, s+2) are pending, one
 * barrier (slice s is visible to every warp, and every warp is done with slice s−1, whose stage
 * the next copies overwrite), issue slice s+3, compute slice s. Every iteration commits a group,
 * empty past the last slice, so the wait's count holds for any K (also fewer slices than stages).
 * Fragments come from shared memory with plain 8-byte loads (ldmatrix moves 16-bit elements);
 * the epilogue stores straight from the accumulators, each element where it lies inside C.
 *
 * Why these sizes (arithmetic, not measurement; no GPU was lent when this was written):
 *   registers: 64×32 a warp is 16 fragments × 4 doubles = 64 accumulators a lane = 128
 *     registers; a k16 step's B fragments 4 × 4 doubles (32 registers) and one A fragment at a
 *     time, 8 doubles (16 registers): about 176, plus addresses, under the 255 that
 *     __launch_bounds__(256, 1) allows. 256 threads × ≤ 255 registers ≤ 65,536: one block, 8
 *     warps, an SM, each with 16 independent DMMAs a slice to cover the tensor cores' latency.
 *     (64×64 warps would need 128 accumulators a lane, 256 registers, before any operand.)
 *   shared memory: a stage is A 128×16 (rows padded to 20 doubles) + B 16×128 (rows padded to
 *     132) = 4,672 doubles = 37,376 bytes; 4 stages = 149,504 bytes (146 KiB) of dynamic shared
 *     memory, within Hopper's 227 KiB a block. The pads make the fragment loads conflict-free:
 *     a half-warp's 16 lanes (an 8-byte load is served a half-warp at a time) read 16 different
 *     8-byte bank pairs. An A register is rows groupID × 4 consecutive k (threadID_in_group),
 *     rows 20 ≡ 4 (mod 16) doubles apart: pairs 4g + t; a B register is k rows t × consecutive
 *     n (groupID), rows 132 ≡ 4 (mod 16) apart: pairs 4t + g. (kernels/gemm/test_emu.c checks
 *     it over every fragment register.)
 *   bandwidth: a block's slice moves (128 + 128) × 16 doubles = 32 KiB from L2 for 128·128·16
 *     = 262,144 FMAs, 0.125 bytes an FMA (the 64×64 kernel: 0.25). At H100's FP64 tensor rate
 *     (67 TFLOP/s, 128 FMA a clock an SM) that is 16 bytes a clock an SM, 4.2 TB/s over 132 SMs;
 *     0.25 would need 8.4. Shared memory: the warps read 96 KiB a slice and the copies write 32
 *     KiB, 1,024 of the 2,048 clocks the slice's DMMAs take at that rate: half of 128 bytes a
 *     clock.
 *
 * Fragment layouts, per the PTX ISA ("Matrix Fragments for mma.m16n8k16 with floating point
 * type", .f64), g = lane/4 (groupID), t = lane%4 (threadID_in_group):
 *   A a0..a7: row g + 8(i%2), column (k) t + 4(i/2);
 *   B b0..b3: row (k) t + 4i, column g;
 *   C c0..c3: row g + 8(i/2), column 2t + i%2.
 * gb_d16_frag_a, _b and kernels/common/mma.cuh's gb_mm_frag_c (C's layout is that of the FP32
 * accumulators of mma.m16n8k16) are those, and the kernel's loads and stores use nothing else; a
 * CPU model of the mma over them checks that the product comes out right
 * (kernels/gemm/test_emu_dmma16.h, d16_model_misses), and a wrong layout must fail it.
 *
 * The twin (GPUBENCH_EMU: the emulation tests and the simulated device, for any emulated
 * architecture from sm_80: the host launches it only where gb_d16_body_at says sm_90 code): the
 * same copies (plain assignments), stages, waits and barrier; each lane computes the 4 elements of
 * each of its 16 fragments (gb_mm_frag_c) with FP64 FMAs over the shared tiles, and the same
 * epilogue. C++-free: the PTX (cp.async through dmma.cuh's gb_dm_copy, mma.sync) is inline asm.
 */
#ifndef GPUBENCH_GEMM_DMMA16_CUH
#define GPUBENCH_GEMM_DMMA16_CUH

#include "kernels/common/kernel_common.cuh"
#include "kernels/common/mma.cuh" /* the block tile and warps (GB_MM_*, gb_mm_warp_origin) */
#include "kernels/gemm/dmma.cuh"  /* GB_HAVE_DMMA, gb_dm_copy, gb_dm_commit, gb_dm_elem */

#define GB_DMMA16_MIN_ARCH 900
#define GB_DMMA16_END_ARCH 1000 /* sm_90 code only (the file comment says why) */
/* the toolkit: CUDA 11.8 (PTX ISA 7.8 has mma.m16n8k16 .f64) */
#if defined(GPUBENCH_EMU) || (defined(CUDART_VERSION) && CUDART_VERSION >= 11080)
#define GB_HAVE_DMMA16 1
#else
#define GB_HAVE_DMMA16 0
#endif
/* the PTX itself: nvcc compiling for sm_90 or sm_90a (ptxas refuses the shape below sm_90) */
#if GB_HAVE_DMMA16 && defined(__CUDA_ARCH__) && GB_ARCH >= GB_DMMA16_MIN_ARCH &&                   \
    GB_ARCH < GB_DMMA16_END_ARCH
#define GB_D16_NATIVE 1
#else
#define GB_D16_NATIVE 0
#endif
/* where the kernel has a body: sm_90 code, the twin (every emulated architecture that has
 * dmma.cuh's copies: from sm_80), the host pass; a trap elsewhere */
#if GB_D16_NATIVE || (defined(GPUBENCH_EMU) && GB_DMMA_BODY) || GB_ARCH == 0
#define GB_D16_BODY 1
#else
#define GB_D16_BODY 0
#endif

/* The block tile, its 8 warps (2×4 of 64×32, 256 threads) and the 4×4 m16n8 fragments a warp
 * holds (4 accumulators a lane each) are kernels/common/mma.cuh's (GB_MM_BM, GB_MM_BN, GB_MM_WM,
 * GB_MM_WN, GB_MM_FM, GB_MM_FN, GB_MM_THREADS, GB_MM_PER_FRAG; gb_mm_warp_origin). Here: slice
 * depth, stages; shared row pitches of A's and B's slices (doubles); doubles of a stage (A's part
 * first); elements of A and of B a thread copies a slice; a lane's registers of an A and a B
 * fragment */
enum {
    GB_D16_BK = 16,
    GB_D16_STAGES = 4,
    GB_D16_PA = GB_D16_BK + 4,
    GB_D16_PB = GB_MM_BN + 4,
    GB_D16_A_STAGE = GB_MM_BM * GB_D16_PA,
    GB_D16_STAGE = GB_D16_A_STAGE + GB_D16_BK * GB_D16_PB,
    GB_D16_COPIES = GB_MM_BM * GB_D16_BK / GB_MM_THREADS,
    GB_D16_AREGS = 8,
    GB_D16_BREGS = 4
};
/* dynamic shared memory a block asks for, bytes (149,504) */
#define GB_D16_SMEM ((unsigned)(GB_D16_STAGES * GB_D16_STAGE * sizeof(double)))

/* --- index functions: plain C, shared by the kernel, its twin and the CPU tests ------------- */
#if defined(__CUDACC__)
#define GB_D16_HD static __host__ __device__ __forceinline__
#else
#define GB_D16_HD static inline
#endif

/* The PTX ISA's m16n8k16 .f64 fragments (the file comment): A register i of lane: (row, k) in
 * the 16×16 A block; B register i: (k, n) in the 16×8 B block. C register i's (row, n) is the
 * FP32 m16n8 accumulator's: kernels/common/mma.cuh's gb_mm_frag_c. */
GB_D16_HD void gb_d16_frag_a(int lane, int i, int *r, int *k) {
    *r = (lane >> 2) + 8 * (i & 1);
    *k = (lane & 3) + 4 * (i >> 1);
}
GB_D16_HD void gb_d16_frag_b(int lane, int i, int *k, int *n) {
    *k = (lane & 3) + 4 * i;
    *n = lane >> 2;
}

/* Where element (r, c) of A's slice and of B's slice lies in a stage, in doubles (the copies'
 * destinations; the fragment loads read them back). */
GB_D16_HD int gb_d16_a_place(int r, int c) {
    return r * GB_D16_PA + c;
}
GB_D16_HD int gb_d16_b_place(int r, int c) {
    return GB_D16_A_STAGE + r * GB_D16_PB + c;
}

/* Where register v of lane's A fragment i (the warp's m16 block i; warp origin row wr) and B
 * fragment j (n8 block j; warp origin column wc) lie in a stage, in doubles. */
GB_D16_HD int gb_d16_a_at(int wr, int i, int lane, int v) {
    int r, k;
    gb_d16_frag_a(lane, v, &r, &k);
    return gb_d16_a_place(wr + 16 * i + r, k);
}
GB_D16_HD int gb_d16_b_at(int wc, int j, int lane, int v) {
    int k, n;
    gb_d16_frag_b(lane, v, &k, &n);
    return gb_d16_b_place(k, wc + 8 * j + n);
}

/* Does code compiled for compute capability code_sm have the real body (a CUDA 11.8+ build,
 * sm_90 code)? Elsewhere a trap the host never launches (kernels/gemm/cuda.cu). */
GB_D16_HD int gb_d16_body_at(int have, int code_sm) {
    return have && code_sm * 10 >= GB_DMMA16_MIN_ARCH && code_sm * 10 < GB_DMMA16_END_ARCH;
}

#if GB_HAVE_DMMA16
#if GB_D16_BODY
/* every group but this thread's newest GB_D16_STAGES − 2 has landed */
static __device__ __forceinline__ void gb_d16_wait(void) {
#if GB_D16_NATIVE
    asm volatile("cp.async.wait_group %0;\n" ::"n"(GB_D16_STAGES - 2));
#endif
}

/* This thread's share of slice k0 into stage st (A's 128×16 part, then B's 16×128), zero outside
 * the matrices; commits the group (empty when the slice is past K: `load` 0). */
static __device__ __forceinline__ void gb_d16_load(const double *__restrict__ A, int lda,
                                                   const double *__restrict__ B, int ldb, int M,
                                                   int N, int K, int m0, int n0, int k0, int tid,
                                                   int load, double *st) {
    int q, r, c, in;
    if (load) {
        GB_UNROLL
        for (q = 0; q < GB_D16_COPIES; q++) {
            gb_dm_elem(tid + q * GB_MM_THREADS, GB_D16_BK, &r, &c);
            in = m0 + r < M && k0 + c < K;
            gb_dm_copy(st + gb_d16_a_place(r, c), in ? A + (size_t)(m0 + r) * lda + k0 + c : A, in);
            gb_dm_elem(tid + q * GB_MM_THREADS, GB_MM_BN, &r, &c);
            in = k0 + r < K && n0 + c < N;
            gb_dm_copy(st + gb_d16_b_place(r, c), in ? B + (size_t)(k0 + r) * ldb + n0 + c : B, in);
        }
    }
    gb_dm_commit();
}

#if GB_D16_NATIVE
static __device__ __forceinline__ void gb_d16_mma(double *d, const double *a, const double *b) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, "
                 "{%0, %1, %2, %3};\n"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]),
                   "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
}

/* acc += the warp's 64×32 share of the stage's A·B: B's 4 fragments, then A's one at a time. */
static __device__ __forceinline__ void gb_d16_step(const double *st, int wr, int wc, int lane,
                                                   double (*acc)[GB_MM_FN][GB_MM_PER_FRAG]) {
    double a[GB_D16_AREGS], b[GB_MM_FN][GB_D16_BREGS];
    int i, j, v;
    GB_UNROLL
    for (j = 0; j < GB_MM_FN; j++)
        GB_UNROLL
        for (v = 0; v < GB_D16_BREGS; v++)
            b[j][v] = st[gb_d16_b_at(wc, j, lane, v)];
    GB_UNROLL
    for (i = 0; i < GB_MM_FM; i++) {
        GB_UNROLL
        for (v = 0; v < GB_D16_AREGS; v++)
            a[v] = st[gb_d16_a_at(wr, i, lane, v)];
        GB_UNROLL
        for (j = 0; j < GB_MM_FN; j++)
            gb_d16_mma(acc[i][j], a, b[j]);
    }
}
#else
/* The twin: each lane's own C elements, FP64 FMAs over the stage's 16 k. */
static __device__ __forceinline__ void gb_d16_step(const double *st, int wr, int wc, int lane,
                                                   double (*acc)[GB_MM_FN][GB_MM_PER_FRAG]) {
    int i, j, v, k, r, n;
    for (i = 0; i < GB_MM_FM; i++)
        for (j = 0; j < GB_MM_FN; j++)
            for (v = 0; v < GB_MM_PER_FRAG; v++) {
                gb_mm_frag_c(lane, v, &r, &n);
                for (k = 0; k < GB_D16_BK; k++)
                    acc[i][j][v] += st[gb_d16_a_place(wr + 16 * i + r, k)] *
                                    st[gb_d16_b_place(k, wc + 8 * j + n)];
            }
}
#endif
#endif /* GB_D16_BODY */

/* one block an SM (the file comment's register arithmetic): up to 255 registers a thread */
GB_LAUNCH_BOUNDS_MIN(GB_MM_THREADS, 1)
__global__ void gb_dgemm_dmma16_128x128(int M, int N, int K, const double *__restrict__ A,
                                        int lda, const double *__restrict__ B, int ldb,
                                        double *__restrict__ C, int ldc) {
#if GB_D16_BODY
    GB_EXTERN_SHARED(double, gb_d16_smem); /* GB_D16_STAGES stages of GB_D16_STAGE doubles */
    const int tid = (int)threadIdx.x, lane = tid % 32;
    const int m0 = (int)blockIdx.y * GB_MM_BM, n0 = (int)blockIdx.x * GB_MM_BN;
    const int ns = (K + GB_D16_BK - 1) / GB_D16_BK;
    double acc[GB_MM_FM][GB_MM_FN][GB_MM_PER_FRAG];
    int s, i, j, v, wr, wc, r, n;
    gb_mm_warp_origin(tid / 32, GB_MM_WN, &wr, &wc);
    GB_MM_ACC_ZERO(acc, GB_MM_FN, i, j, v);
    for (s = 0; s < GB_D16_STAGES - 1; s++)
        gb_d16_load(A, lda, B, ldb, M, N, K, m0, n0, s * GB_D16_BK, tid, s < ns,
                    gb_d16_smem + s * GB_D16_STAGE);
    for (s = 0; s < ns; s++) {
        const int next = s + GB_D16_STAGES - 1;
        gb_d16_wait();
        /* slice s is in shared memory, and every warp is done with slice s − 1, whose stage the
         * copies below overwrite */
        GB_BARRIER(1);
        gb_d16_load(A, lda, B, ldb, M, N, K, m0, n0, next * GB_D16_BK, tid, next < ns,
                    gb_d16_smem + (next % GB_D16_STAGES) * GB_D16_STAGE);
        gb_d16_step(gb_d16_smem + (s % GB_D16_STAGES) * GB_D16_STAGE, wr, wc, lane, acc);
    }
    GB_UNROLL /* accumulators are registers: indexed by constants only */
    for (i = 0; i < GB_MM_FM; i++)
        GB_UNROLL
        for (j = 0; j < GB_MM_FN; j++)
            GB_UNROLL
            for (v = 0; v < GB_MM_PER_FRAG; v++) {
                gb_mm_frag_c(lane, v, &r, &n);
                r += m0 + wr + 16 * i;
                n += n0 + wc + 8 * j;
                if (r < M && n < N)
                    C[(size_t)r * ldc + n] = acc[i][j][v];
            }
#else
    (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)C, (void)ldc;
    __trap(); /* no DMMA.16x8x16 outside sm_90 code: never launched here */
#endif
}
GB_SIM_KERNEL(gb_dgemm_dmma16_128x128, int, int, int, const double *, int, const double *, int,
              double *, int)
#endif /* GB_HAVE_DMMA16 */

#endif
