/* kernel_common.cuh — what every hand-written kernel file shares: portability macros and small
 * grid helpers.
 *
 * The kernel .cuh files are compiled twice: by nvcc (through the .cu file that includes them and
 * adds the <<<>>> launchers) and by the host C compiler for the CPU emulation of the tests
 * (tests/emu/emu.h, included first, defines the CUDA keywords for C). So everything here and in
 * the kernel .cuh files is the C subset of CUDA C: no templates, no classes, no references, no
 * overloading, no C++ casts. Features newer than sm_20 sit behind __CUDA_ARCH__ with a plain
 * fallback (the emulation and the host pass of nvcc see neither).
 */
#ifndef GPUBENCH_KERNEL_COMMON_CUH
#define GPUBENCH_KERNEL_COMMON_CUH

#include <stddef.h>

/* The architecture the device code is being compiled for, in __CUDA_ARCH__ units (200 = sm_20),
 * for per-architecture choices (tile shapes, prefetch, __ldg). The emulation compiles the
 * kernels "as for" GB_EMU_ARCH so that the tests run the code paths of old and new cards alike.
 * 0 in the host pass of nvcc, which compiles no kernel body. */
#if defined(__CUDA_ARCH__)
#define GB_ARCH __CUDA_ARCH__
#elif defined(GB_EMU_ARCH)
#define GB_ARCH GB_EMU_ARCH
#else
#define GB_ARCH 0
#endif

/* Register-pressure proxy, for scripts/ptxas-report only: this toolkit cannot target sm_20 or
 * sm_30, so the report also compiles for its oldest target "as if" for GB_PROXY_ARCH, with
 * launch bounds dropped so that -maxrregcount=63 (the Fermi and sm_30 limit) applies. */
#if defined(GB_PROXY_ARCH) && defined(__CUDA_ARCH__)
#undef GB_ARCH
#define GB_ARCH GB_PROXY_ARCH
#define GB_LAUNCH_BOUNDS(threads)
#define GB_LAUNCH_BOUNDS_MIN(threads, min_blocks)
#else
#define GB_LAUNCH_BOUNDS(threads) __launch_bounds__(threads)
#define GB_LAUNCH_BOUNDS_MIN(threads, min_blocks) __launch_bounds__(threads, min_blocks)
#endif

/* Dynamically sized shared memory: `extern __shared__ T name[]` in CUDA; the emulation defines
 * its own version (a pointer into the block's dynamic shared arena) before including us. */
#ifndef GB_EXTERN_SHARED
#define GB_EXTERN_SHARED(type, name) extern __shared__ type name[]
#endif

/* Full unrolling of loops with a constant trip count (tile loops), so that per-thread arrays
 * live in registers. The emulation defines it empty. */
#ifndef GB_UNROLL
#define GB_UNROLL _Pragma("unroll")
#endif
/* No unrolling: for a runtime-strided loop whose unrolled form costs more registers than it
 * saves (kernels/mlp_train/step_kernels.cuh, the f64 softmax). The emulation defines it empty. */
#ifndef GB_NO_UNROLL
#define GB_NO_UNROLL _Pragma("unroll 1")
#endif

/* Read-only global load: through the texture/read-only cache (__ldg) from sm_35, where it
 * exists; a plain load elsewhere (Fermi, sm_30, the emulation). */
#if GB_ARCH >= 350
#define GB_LDG(p) __ldg(p)
#else
#define GB_LDG(p) (*(p))
#endif

/* Test hook, zero cost otherwise: the emulation test that proves a missing __syncthreads() is
 * caught compiles the tiled kernels with GB_TEST_DROP_BARRIER=N, which removes barrier number N of
 * the tiled GEMM and convolution kernels (single-buffered ones: 1 "tile stored, before compute",
 * 2 "compute done, before the next store"; double-buffered ones — kernels/gemm/tile.cuh,
 * dgemm.cuh, the FP32 kernel of kernels/conv2d/kernels.cuh —: 1 "next slice stored", the one
 * barrier of the loop, 2 "first slice stored", before it). Never set in the real build. */
#ifndef GB_TEST_DROP_BARRIER
#define GB_TEST_DROP_BARRIER 0
#endif
#define GB_BARRIER(id)                                                                             \
    do {                                                                                           \
        if (GB_TEST_DROP_BARRIER != (id))                                                          \
            __syncthreads();                                                                       \
    } while (0)

/* One line after each __global__ function: GB_SIM_KERNEL(kernel, its parameter types…). The
 * simulated CUDA device of the tests (tests/sim/) runs launches on the CPU emulation and needs
 * the types to call the kernel from a launch's `void **args`; tests/sim/sim_kernel.h defines it
 * there as a type-checked adapter (a mismatch with the kernel is a compile error). Nothing for
 * nvcc and for the emulation tests. */
#ifndef GB_SIM_KERNEL
#define GB_SIM_KERNEL(kernel, ...)
#endif

/* Grid-stride loops: Fermi limits gridDim.x to 65535 and later cards gain nothing from more
 * blocks than a few waves, so element-wise launchers cap the grid here and loop. */
enum { GB_EW_THREADS = 256, GB_EW_MAX_BLOCKS = 4096 };

/* Blocks for an element-wise launch over n items with GB_EW_THREADS threads each. */
static inline unsigned gb_ew_blocks(size_t n) {
    size_t b = (n + GB_EW_THREADS - 1) / GB_EW_THREADS;
    if (b < 1)
        b = 1;
    return (unsigned)(b < GB_EW_MAX_BLOCKS ? b : GB_EW_MAX_BLOCKS);
}

/* Is p aligned for a 16-byte (float4), 8-byte (four halves) or 4-byte (half2) access? */
#define GB_ALIGNED16(p) ((((size_t)(p)) & 15u) == 0)
#define GB_ALIGNED8(p) ((((size_t)(p)) & 7u) == 0)
#define GB_ALIGNED4(p) ((((size_t)(p)) & 3u) == 0)

#endif
