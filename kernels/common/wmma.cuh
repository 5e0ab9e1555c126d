/* wmma.cuh — the tensor-core tiles on nvcuda::wmma, FP32 accumulation, shared by the GEMM
 * (kernels/gemm/wmma.cuh: its kernels, one per tier) and conv2d's implicit GEMM
 * (kernels/conv2d/tc.cuh): which toolkit and architecture have the fragments, the tile geometry,
 * and the plain-C index functions; one tier's kernel source is wmma_tile.cuh (its FP16 parameters:
 * wmma_f16.cuh), instantiated by the includer.
 *
 * Why C++ here: warp matrix functions exist only as nvcuda::wmma's fragment templates (mma.h),
 * with no C interface. The rest of the project's kernels are the C subset of CUDA C (nvcc
 * compiles a .cu as C++ anyway); these files keep to it except the fragment declarations and the
 * four wmma calls of wmma_tile.cuh's mma_slice and store, which sit behind the native guard. No
 * class or template of our own. Everything else — which block and warp covers which part of C,
 * which thread loads which operand pair, the zero padding of edge tiles, which lane copies which
 * element of a fragment out — is plain C in the gb_wm_* index functions below, which the CPU
 * tests check (kernels/gemm/test_emu.c) and the emulation's twin uses.
 *
 * The twin (GPUBENCH_EMU: the emulation tests and the simulated device): the CPU emulation has
 * no warps, so there each lane computes the 8 elements of every fragment it copies out (the ones
 * gb_wm_frag_elem gives it) with FP32 FMAs over the same shared tiles — the same result contract
 * (products of two values of the tier, exact in FP32, summed in FP32; tf32 operands rounded by
 * gb_wm_tf32 as the hardware's cvt.rna.tf32.f32 does), the same loads, padding and stores.
 *
 * Scheme: 64×64 block tiles of C, 4 warps of 32×32, each a 2×2 set of 16×16 accumulator
 * fragments; K in 32-deep slices, two 16-deep (four 8-deep for tf32) mma steps each. A slice of
 * A (64×32) and B (32×64) is copied to shared memory in pairs (one 4-byte — 8-byte for floats —
 * load where the pair is inside and aligned, else one element at a time), zero outside the
 * matrices: an edge tile is a padded full tile, so every fragment is a full one. Rows of the
 * shared tiles are padded by 8 elements (wmma's ldm must be a multiple of 16 bytes, and the shift
 * spreads the fragments' rows over banks). Results go out through shared memory: each warp stores
 * a fragment to its own 16×20-float patch and its lanes copy the elements inside C, so no store
 * leaves the matrix whatever M, N and ldc are.
 */
#ifndef GPUBENCH_COMMON_WMMA_CUH
#define GPUBENCH_COMMON_WMMA_CUH

#include "kernels/common/kernel_common.cuh"
#include "kernels/common/half.cuh"

#define GB_WMMA_MIN_ARCH 700    /* f16 fragments */
#define GB_WMMA_80_MIN_ARCH 800 /* bf16 and tf32 fragments */
#if GB_HAVE_HALF && (defined(GPUBENCH_EMU) || (defined(CUDART_VERSION) && CUDART_VERSION >= 9000))
#define GB_HAVE_WMMA 1
#else
#define GB_HAVE_WMMA 0
#endif
/* bf16 and tf32 fragments: CUDA 11.0 (cuda_bf16.h; the emulation's in tests/emu/emu_half.h) */
#if GB_HAVE_WMMA && (defined(GPUBENCH_EMU) || (defined(CUDART_VERSION) && CUDART_VERSION >= 11000))
#define GB_HAVE_WMMA_80 1
#if !defined(GPUBENCH_EMU)
#include <cuda_bf16.h>
#endif
#else
#define GB_HAVE_WMMA_80 0
#endif
#if defined(__CUDA_ARCH__)
#define GB_WM_DEVICE 1 /* nvcc's device pass (the guards of the fragment code) */
#else
#define GB_WM_DEVICE 0
#endif
/* the tensor-core code itself: nvcc compiling for sm_70 and newer */
#if GB_HAVE_WMMA && GB_WM_DEVICE && GB_ARCH >= GB_WMMA_MIN_ARCH
#include <mma.h>
#endif
/* where the f16 kernel, the lowest tier, has a body (the twin, the host pass, sm_70+) */
#define GB_WMMA_BODY (GB_ARCH == 0 || GB_ARCH >= GB_WMMA_MIN_ARCH)

/* block tile and slice depth; fragment edge (m = n = 16; k: the tier's, wmma_tile.cuh's
 * GB_WT_FK); 4 warps (2×2 of 32×32); shared row pitches of As and Bs (elements of the tier) and
 * of a warp's C patch (floats); operand pairs a thread loads per slice and operand (8); fragment
 * elements a lane copies out (8) */
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

/* Does tier code compiled for compute capability code_sm have its real body, for a tier whose
 * kernel starts at min_arch (GB_WMMA_MIN_ARCH, GB_WMMA_80_MIN_ARCH) in a toolkit that has it
 * (have)? Below, the kernel is a trap the host never launches (kernels/gemm/cuda.cu). */
GB_WM_HD int gb_wm_body_at(int have, int min_arch, int code_sm) {
    return have && code_sm * 10 >= min_arch;
}

/* x cut to TF32 (10 mantissa bits) after `half` is added to its bits: 0x1000 (half a TF32 unit)
 * rounds to nearest, ties away from zero, as the hardware's cvt.rna.tf32.f32; 0 truncates
 * toward zero, as wgmma reads an FP32 tf32 operand (kernels/gemm/wgmma_tf32.cuh). Infinities
 * and NaN unchanged. */
GB_WM_HD float gb_wm_tf32_cut(float x, unsigned half) {
    union {
        float f;
        unsigned u;
    } v;
    v.f = x;
    if ((v.u & 0x7f800000u) != 0x7f800000u)
        v.u = (v.u + half) & 0xffffe000u;
    return v.f;
}
/* x rounded as cvt.rna.tf32.f32: the twin's __float_to_tf32, and the tests'. */
GB_WM_HD float gb_wm_tf32_bits(float x) {
    return gb_wm_tf32_cut(x, 0x1000u);
}

#if GB_HAVE_WMMA && GB_WMMA_BODY
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
#endif

#if GB_HAVE_WMMA_80 && GB_WM_DEVICE && GB_ARCH >= GB_WMMA_80_MIN_ARCH
#define gb_wm_tf32(x) nvcuda::wmma::__float_to_tf32(x)
#else
#define gb_wm_tf32(x) gb_wm_tf32_bits(x)
#endif

#endif
