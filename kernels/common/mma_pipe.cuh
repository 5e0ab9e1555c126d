/* mma_pipe.cuh — the block loop that the sm_80+ mma.sync kernels share, on kernels/common/mma.cuh's
 * tile: gemm/cuda_tc's GEMM (kernels/gemm/mma_tile.cuh, one kernel per tier) and conv2d/cuda_tc's
 * implicit GEMM (kernels/conv2d/tc_mma.cuh). What differs between them stays in their files: how
 * a slice's chunks are found (plain tiles of A and B; the convolution's gather), how a warp reads
 * its fragments, the epilogue. What is here: a chunk's copy, the commit and wait of the cp.async
 * groups, and the 3-stage pipeline over the slices (mma.cuh has the accumulators' zeroing and a
 * k step's mma issue: GB_MM_ACC_ZERO, GB_MM_ISSUE). The pipeline, and why every iteration
 * commits a group: kernels/gemm/mma.cuh's file comment.
 *
 * The twin (GPUBENCH_EMU; also nvcc's host pass) has the same loop: the copies are plain stores,
 * the commit and the wait nothing, the barrier the same.
 */
#ifndef GPUBENCH_COMMON_MMA_PIPE_CUH
#define GPUBENCH_COMMON_MMA_PIPE_CUH

#include "kernels/common/mma.cuh"

#if GB_HAVE_MMA && GB_MM_BODY
/* One 16-byte chunk from global src to shared dst: its first n elements of esize bytes read, the
 * rest zero (n 0: src is not read). Native: one cp.async.cg (gb_mm_cp16); the twin: byte copies
 * (zero bits are the zero of every tier's type). */
static __device__ __forceinline__ void gb_mm_chunk(void *dst, const void *src, int n, int esize) {
#if GB_MM_NATIVE
    gb_mm_cp16((unsigned)__cvta_generic_to_shared(dst), src, n * esize);
#else
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    int e;
    for (e = 0; e < GB_MM_CH; e++)
        d[e] = e < n * esize ? s[e] : 0;
#endif
}

/* Close this thread's group of copies (a slice's, or an empty one); the twin: nothing. */
static __device__ __forceinline__ void gb_mm_group(void) {
#if GB_MM_NATIVE
    gb_mm_commit();
#endif
}

/* Wait until this thread's copies of the oldest slice in flight have landed; the twin: nothing. */
static __device__ __forceinline__ void gb_mm_landed(void) {
#if GB_MM_NATIVE
    gb_mm_wait();
#endif
}

/* The pipeline over ns slices in the stages S[GB_MM_STAGES] (s: the caller's loop counter):
 * slices 0 .. STAGES−2 in flight, then for each slice s: wait for it, one barrier (everyone's
 * copies of slice s are visible, and every warp is done with slice s − 1, whose stage the next
 * copies overwrite), issue slice s + STAGES − 1 (an empty group past the last slice, so that
 * the wait's count stays one slice behind for any ns), compute slice s. The caller's macros:
 * LOAD(k, st), this thread's copies of slice k into stage st, closed by gb_mm_group; MMA(st),
 * the warp's share of stage st into its accumulators. */
#define GB_MM_PIPELINE(S, ns, s, LOAD, MMA)                                                        \
    do {                                                                                           \
        GB_UNROLL                                                                                  \
        for (s = 0; s < GB_MM_STAGES - 1; s++) {                                                   \
            if (s < (ns))                                                                          \
                LOAD(s, (S)[s]);                                                                   \
            else                                                                                   \
                gb_mm_group();                                                                     \
        }                                                                                          \
        for (s = 0; s < (ns); s++) {                                                               \
            const int gb_mm_next_ = s + GB_MM_STAGES - 1;                                          \
            gb_mm_landed();                                                                        \
            GB_BARRIER(1);                                                                         \
            if (gb_mm_next_ < (ns))                                                                \
                LOAD(gb_mm_next_, (S)[gb_mm_next_ % GB_MM_STAGES]);                                \
            else                                                                                   \
                gb_mm_group();                                                                     \
            MMA((S)[s % GB_MM_STAGES]);                                                            \
        }                                                                                          \
    } while (0)
#endif

#endif
