/* emu.h — a SIMT emulation of CUDA C for the tests: the kernel sources (each workload's
 * kernels/<workload>/kernels.cuh) compiled by the host C compiler and run on the CPU. Test-only
 * code.
 *
 * Include this first, then the kernel .cuh. The model:
 *   - blocks run one at a time, so `__shared__` (a function-level `static` here) is the storage
 *     of the running block; every such variable is placed in one ELF section that the scheduler
 *     refills with NaN before each block, like the dynamic shared memory arena, so a read of
 *     shared memory that no thread of this block wrote shows up (GCC and Clang on ELF targets);
 *   - the threads of a block are cooperative contexts (ucontext fibers): each runs to its next
 *     __syncthreads() (or to its end) before the next one starts, in the order the test chose —
 *     forward, reverse, or a seeded shuffle redrawn at every barrier — so a missing barrier gives
 *     a wrong answer deterministically instead of by luck of scheduling;
 *   - a barrier that not every thread reaches (one thread returned early, or threads wait at
 *     different __syncthreads() lines) is reported as an error, as it is undefined on a GPU;
 *   - threadIdx / blockIdx / blockDim / gridDim follow the running context.
 * The blocks of the grid run in the same order as the threads (forward, reverse, shuffled), so
 * a kernel that relied on block order would also be caught.
 * No atomics are emulated: none of our kernels uses one (the reductions are shared-memory trees).
 */
#ifndef GPUBENCH_EMU_H
#define GPUBENCH_EMU_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define GPUBENCH_EMU 1

/* --- CUDA vector types, as far as the kernels use them ------------------------------------ */
typedef struct {
    unsigned x, y, z;
} uint3;
typedef uint3 dim3;
typedef struct {
    _Alignas(16) float x; /* float4 is 16-byte aligned in CUDA: keep the same contract */
    float y, z, w;
} float4;
typedef struct {
    _Alignas(16) double x; /* double2 likewise (the DGEMM's 128-bit shared loads) */
    double y;
} double2;
#include "tests/emu/emu_half.h" /* __half, __half2, float2 and their conversions */

/* --- CUDA C keywords ----------------------------------------------------------------------- */
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static __attribute__((section("gb_emu_shared")))
#define __restrict__ restrict
#define __launch_bounds__(...)
#define __align__(n) _Alignas(n)
#define GB_UNROLL
#define GB_NO_UNROLL
#define GB_EXTERN_SHARED(type, name) type *name = (type *)emu_dynamic_shared()
#define __syncthreads() emu_syncthreads(__FILE__, __LINE__)
#define __ldg(p) (*(p)) /* sm_35's read-only cache load: a plain load */
#define __trap() emu_trap(__FILE__, __LINE__)
#define clock64() emu_clock64()

/* Compile the kernels' per-architecture code paths as for this __CUDA_ARCH__ (the build sets
 * it: 750 for the paths of current cards, 200 for Fermi's). */
#ifndef GB_EMU_ARCH
#define GB_EMU_ARCH 750
#endif

/* --- the running context ------------------------------------------------------------------- */
/* Set by the scheduler before it switches to a thread; globals, so the compiler reloads them
 * after every __syncthreads() (an external call). */
extern uint3 emu_thread_idx, emu_block_idx, emu_block_dim, emu_grid_dim;
#define threadIdx emu_thread_idx
#define blockIdx emu_block_idx
#define blockDim emu_block_dim
#define gridDim emu_grid_dim

/* Park the running thread at a barrier (file:line identifies the barrier). */
void emu_syncthreads(const char *file, int line);

/* The running block's dynamic shared memory (as many bytes as the launch asked for). */
void *emu_dynamic_shared(void);

/* __trap(): the running thread stops here and the launch fails (emu_launch returns -1 after
 * reporting file:line), as a trapping kernel fails its launch on a GPU. */
void emu_trap(const char *file, int line);

/* clock64(): a per-launch cycle counter, here the monotonic clock at emu_clock_khz (1 GHz, i.e.
 * nanoseconds, unless the caller set the card's clock rate). Each call also yields the CPU: the
 * only kernel that reads it in a loop is the stream hold (kernels/common/hold.cuh), which spins
 * until another host thread writes a flag, and on a loaded 2-core machine that thread must run. */
long long emu_clock64(void);
extern long emu_clock_khz;

/* --- launching ----------------------------------------------------------------------------- */
enum emu_order { EMU_FORWARD = 0, EMU_REVERSE, EMU_SHUFFLE };
enum { EMU_ORDERS = 3 };

/* "forward", "reverse", "shuffle". */
const char *emu_order_name(enum emu_order order);

/* Run `body(args)` — a wrapper that calls one kernel with its arguments — over a grid of
 * `grid` blocks of `block` threads with `dyn_shared` bytes of dynamic shared memory, threads and
 * blocks scheduled in `order` (the shuffle drawn from `seed`). Returns 0, or -1 after printing
 * what went wrong (bad configuration, a barrier not reached by every thread, a __trap()) on
 * stderr; emu_last_failure() then says which. */
int emu_launch(dim3 grid, dim3 block, size_t dyn_shared, enum emu_order order, uint64_t seed,
               void (*body)(void *args), void *args);

/* Why the last emu_launch failed (EMU_OK after a launch that succeeded). */
enum emu_failure { EMU_OK = 0, EMU_BAD_LAUNCH, EMU_NO_MEMORY, EMU_BARRIER, EMU_TRAP };
enum emu_failure emu_last_failure(void);

/* The scheduling of every launch of a test case. */
struct emu_run {
    enum emu_order order;
    uint64_t seed;
    int sm, sms; /* the device the launchers' choices are made for (gb_arch) */
};

/* dim3 for C callers: emu_dim3(x, y, z). */
dim3 emu_dim3(unsigned x, unsigned y, unsigned z);

/* float4 for the kernels that build one. */
static inline float4 make_float4(float x, float y, float z, float w) {
    float4 v;
    v.x = x;
    v.y = y;
    v.z = z;
    v.w = w;
    return v;
}

#endif
