/* cuda_impl.h — what every CUDA implementation shares: the run's stream, checked allocation
 * with an out-of-memory status, the "does this build have code for this device" check, the
 * device facts the launchers choose by, and small helpers of prepare and release.
 * Implemented in kernels/common/cuda_impl.c and arch.cu; C11 and CUDA C alike. */
#ifndef GPUBENCH_CUDA_IMPL_H
#define GPUBENCH_CUDA_IMPL_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "harness/core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the launchers need to know about the device they launch on. */
struct gb_arch {
    int sm;  /* compute capability as 10·major + minor: 20, 35, 86, 120 */
    int sms; /* multiprocessors */
    /* 1 when the code our kernels run here is arch-specific sm_90a code (wgmma, TMA
     * multicast: CUDA 12.0+, built only for 90a: cmake/cuda_setup.cmake's default list), 0 for
     * plain code (a build with 90 in CMAKE_CUDA_ARCHITECTURES, or any other card). Set by
     * gb_arch_code_level; gb_arch_query leaves 0. */
    int arch_specific;
};

/* Static shared memory (bytes) of the probe kernel's sm_90a code only (kernels/common/arch.cu):
 * cudaFuncGetAttributes' sharedSizeBytes is how the host tells sm_90a code from sm_90 code, which
 * report the same binaryVersion and ptxVersion (90). tests/sim reports it the same way. */
#define GB_ARCH_FEAT_SHARED_BYTES 16

/* Fill *arch for the current device (cudaGetDevice + cudaDeviceGetAttribute, no context work
 * beyond what the runtime already did). Call once, in prepare. */
cudaError_t gb_arch_query(struct gb_arch *arch);

/* Lower arch->sm to the architecture our kernels' code was compiled for when that is older, and
 * set arch->arch_specific (sm_90a code: the probe's static shared memory, above):
 * a card that JIT-compiles old PTX (e.g. a build for sm_20 on a K40m) runs kernels whose
 * per-architecture choices (__CUDA_ARCH__) are the old card's, so the launchers must choose as
 * for that card too (cudaFuncGetAttributes ptxVersion of a probe kernel built like all of ours,
 * kernels/common/arch.cu). Call after gb_arch_query. */
cudaError_t gb_arch_code_level(struct gb_arch *arch);

/* A kernel of ours, for the image check: its host-side address and its name. */
struct gb_kernel_ref {
    const void *fn;
    const char *name;
};

/* The kernels a launcher family may launch, as a static array; returns its length. An
 * implementation checks all of them in prepare (gb_check_kernels) so that a device this build
 * has no code for gives an `unsupported` row rather than a failed launch. */
typedef int (*gb_kernel_family)(const struct gb_kernel_ref **refs);

/* Enqueue on `stream` a one-thread kernel that spins until the host sets *release (both flags
 * in host-mapped memory, device pointers here), or until `timeout` clock cycles have passed —
 * then it sets *timed_out (kernels/common/hold.cu). The CUDA backend holds its stream with it
 * while it enqueues the work it times. */
cudaError_t gb_hold(cudaStream_t stream, const int *release, int *timed_out, long long timeout);

/* The hold kernel, for the kernel-image check. */
int gb_hold_kernels(const struct gb_kernel_ref **refs);

/* The stream of the current device, created when the CUDA backend activated it. Every launch
 * and copy of an implementation goes on it; the backend records its timing events on it. */
cudaStream_t gb_stream(void);

/* Make `s` what gb_stream returns. Called only by the CUDA backend (harness/run/backend_cuda.c)
 * when it activates a device. */
void gb_set_stream(cudaStream_t s);

/* cudaMalloc `bytes` into *ptr after checking cudaMemGetInfo: ST_UNSUPPORTED when the row's
 * allocations so far plus this one exceed what the card can give a process (gb_row_begin's
 * `usable`: it can never fit: "needs at least N MiB; the card has M MiB, U MiB of it for a
 * process"), ST_OOM with a note naming the buffer, the bytes asked and the bytes free when it
 * does not fit now; ST_ERROR on other errors. */
enum status gb_malloc(struct impl_ctx *ctx, void **ptr, size_t bytes, const char *what);

/* Called at the start of prepare, before any gb_malloc, with the row's whole device footprint
 * (every buffer; library workspaces where known; `what` names them): ST_UNSUPPORTED with a note
 * giving the footprint and what the card can give a process when it can never fit, so nothing
 * is allocated for a row that cannot run (gpu_footprint_fit). */
enum status gb_row_footprint(struct impl_ctx *ctx, size_t bytes, const char *what);

/* What the card can give a process: the free device memory right after the context was created
 * (its total less what the context itself takes). The CUDA backend measures it at a device's
 * first activation (harness/run/backend_cuda.c) and passes it to gb_row_begin. */
cudaError_t gb_device_usable(size_t *usable);

/* A new row begins: gb_malloc's tally of the row's device memory starts at zero, and `usable`
 * (gb_device_usable; 0: unknown, the card's total) is what the row's memory is checked against.
 * Called by the CUDA backend when it activates a device for a row (harness/run/backend_cuda.c). */
void gb_row_begin(size_t usable);

/* ST_OK when the current device can run `func` (cudaFuncGetAttributes succeeds); otherwise
 * ST_UNSUPPORTED with a note naming the device's architecture, what this build was compiled
 * for, and how to rebuild. `func` is the kernel's address, as passed to cudaFuncGetAttributes. */
enum status gb_check_kernel_image(struct impl_ctx *ctx, const void *func, const char *kernel_name);

/* ST_OK when the current device can run every kernel `family` lists (gb_check_kernel_image on
 * each); otherwise that check's status and note (ST_UNSUPPORTED: no image for this device). */
enum status gb_check_kernels(struct impl_ctx *ctx, gb_kernel_family family);

/* Fill *arch for the current device (gb_arch_query, then gb_arch_code_level); ST_ERROR (or the
 * mapped status) with a note on failure. */
enum status gb_impl_arch(struct impl_ctx *ctx, struct gb_arch *arch);

/* A tensor-core implementation's gate, after gb_impl_arch: ST_OK when `runs` (the device runs
 * the kernel's real body at arch's code level: the kernel family's *_runs); otherwise
 * ST_UNSUPPORTED with why in ctx->note: the card is older than min_sm (10·major + minor), where
 * `impl` ("gemm/cuda_tc") has none of `what` ("the FP16 tensor cores (WMMA)"), or it runs this
 * build's code for an older architecture (arch->sm), where the kernel is a trap — then the note
 * names the -DCMAKE_CUDA_ARCHITECTURES that would give it a body. */
enum status gb_tc_body(struct impl_ctx *ctx, const char *impl, const char *what, int min_sm,
                       int runs, const struct gb_arch *arch);

/* Allocate the zeroed private state of a row into ctx->state; ST_OOM with a note when out of
 * host memory. */
enum status gb_impl_state(struct impl_ctx *ctx, size_t bytes);

/* cudaFree every non-NULL pointer of bufs[0..n), reporting failures on stderr and going on
 * (for release functions, after they have synchronized the stream). */
void gb_free_device(void *const *bufs, size_t n);

#ifdef __cplusplus
}
#endif

#endif
