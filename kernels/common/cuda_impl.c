/* cuda_impl.c — the run's stream, allocation that reports out-of-memory as a row status, the
 * "does this build have code for this device" check, and the prepare/release helpers every CUDA
 * implementation shares. See the header. */
#include "kernels/common/cuda_impl.h"

#include <stdio.h>
#include <stdlib.h>

#include "build_manifest.h"
#include "harness/gpuinfo/gpu_policy.h"
#include "kernels/common/cuda_check.h"

/* The current device's stream. NULL (the legacy default stream) until the backend activates a
 * device; the runner runs one row at a time, so one current stream is enough. */
static cudaStream_t current_stream;

cudaStream_t gb_stream(void) {
    return current_stream;
}

void gb_set_stream(cudaStream_t s) {
    current_stream = s;
}

/* The device memory in use when the row's first gb_malloc came (row_started set): what is in
 * use beyond it later is what the row holds now — its buffers, and what the libraries allocated
 * for it, minus what it freed again (a cuDNN workspace trimmed to the chosen algorithm).
 * row_usable: what the card can give a process (gb_device_usable at the device's first
 * activation; 0: not known, the card's total is used). */
static size_t row_base_used, row_usable;
static int row_started;

void gb_row_begin(size_t usable) {
    row_started = 0;
    row_usable = usable;
}

static cudaError_t mem_info(size_t *free_b, size_t *total_b);

cudaError_t gb_device_usable(size_t *usable) {
    size_t free_b = 0, total_b = 0;
    cudaError_t e = mem_info(&free_b, &total_b);
    *usable = e == cudaSuccess ? free_b : 0;
    return e;
}

enum status gb_row_footprint(struct impl_ctx *ctx, size_t bytes, const char *what) {
    size_t free_b = 0, total_b = 0;
    CU_TRY(mem_info(&free_b, &total_b), ctx);
    return gpu_footprint_fit(bytes, row_usable, total_b, what, ctx->note, sizeof ctx->note);
}

/* cudaMemGetInfo, or with GPUBENCH_TEST_DEVICE_MEM_MIB set by a test, a card of that many MiB
 * (a sweep on a "512 MiB card" without one): empty at the first call, then holding what this
 * process allocated since. Read only by tests; never set it to measure. */
static cudaError_t mem_info(size_t *free_b, size_t *total_b) {
    static size_t used0; /* in use at the first call: the context, not ours to count */
    static int have_used0;
    cudaError_t e = cudaMemGetInfo(free_b, total_b);
    const char *cap = getenv("GPUBENCH_TEST_DEVICE_MEM_MIB");
    if (e != cudaSuccess || !cap || atol(cap) <= 0)
        return e;
    size_t capb = (size_t)atol(cap) << 20, used = *total_b - *free_b;
    if (!have_used0) {
        used0 = used;
        have_used0 = 1;
    }
    used = used > used0 ? used - used0 : 0;
    *total_b = capb;
    *free_b = used < capb ? capb - used : 0;
    return e;
}

enum status gb_malloc(struct impl_ctx *ctx, void **ptr, size_t bytes, const char *what) {
    size_t free_b = 0, total_b = 0;
    const double mib = 1024.0 * 1024.0;
    *ptr = NULL;
    CU_TRY(mem_info(&free_b, &total_b), ctx);
    size_t used = total_b - free_b;
    if (!row_started) {
        row_base_used = used;
        row_started = 1;
    }
    /* Checking first turns "does not fit" into a row status with numbers, rather than a failed
     * cudaMalloc that leaves the user guessing which buffer was too big; a row that cannot fit
     * what the card gives a process at all is unsupported (a --sweep on a small card is not a
     * failed run), one that does not fit now is oom. An implementation that declared its
     * footprint (gb_row_footprint) was refused before its first buffer already. */
    enum status st = gpu_memory_fit(used > row_base_used ? used - row_base_used : 0, bytes, free_b,
                                    row_usable, total_b, what, ctx->note, sizeof ctx->note);
    if (st != ST_OK)
        return st;
    cudaError_t e = cudaMalloc(ptr, bytes);
    if (e != cudaSuccess) {
        *ptr = NULL;
        snprintf(ctx->note, sizeof ctx->note, "cudaMalloc of %s (%.1f MiB, %.1f MiB free): %s: %s",
                 what, bytes / mib, free_b / mib, cudaGetErrorName(e), cudaGetErrorString(e));
        return gpu_error_status(cudaGetErrorName(e));
    }
    return ST_OK;
}

enum status gb_check_kernel_image(struct impl_ctx *ctx, const void *func, const char *kernel_name) {
    struct cudaFuncAttributes fa;
    cudaError_t e = cudaFuncGetAttributes(&fa, func);
    if (e == cudaSuccess)
        return ST_OK;
    const char *name = cudaGetErrorName(e);
    (void)cudaGetLastError(); /* a missing image is not sticky: clear it for the next rows */
    enum status st = gpu_error_status(name);
    if (st != ST_UNSUPPORTED) {
        snprintf(ctx->note, sizeof ctx->note, "cudaFuncGetAttributes(%s): %s: %s", kernel_name,
                 name, cudaGetErrorString(e));
        return st;
    }
    int dev = 0, major = 0, minor = 0;
    CU_TRY(cudaGetDevice(&dev), ctx);
    CU_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), ctx);
    CU_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev), ctx);
    char why[NOTE_LEN - 128];
    gpu_no_image_note(major, minor, GPUBENCH_BUILD_CUDA_ARCHS, GPUBENCH_BUILD_CUDA_VERSION, why,
                      sizeof why);
    snprintf(ctx->note, sizeof ctx->note, "%s [%.60s: %.60s]", why, kernel_name, name);
    return ST_UNSUPPORTED;
}

void gb_free_device(void *const *bufs, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (bufs[i])
            CU_WARN(cudaFree(bufs[i]));
}

enum status gb_check_kernels(struct impl_ctx *ctx, gb_kernel_family family) {
    const struct gb_kernel_ref *refs;
    int n = family(&refs), i;
    for (i = 0; i < n; i++) {
        enum status st = gb_check_kernel_image(ctx, refs[i].fn, refs[i].name);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

enum status gb_impl_arch(struct impl_ctx *ctx, struct gb_arch *arch) {
    CU_TRY(gb_arch_query(arch), ctx);
    CU_TRY(gb_arch_code_level(arch), ctx);
    return ST_OK;
}

enum status gb_tc_body(struct impl_ctx *ctx, const char *impl, const char *what, int min_sm,
                       int runs, const struct gb_arch *arch) {
    struct gb_arch dev;
    if (runs)
        return ST_OK;
    CU_TRY(gb_arch_query(&dev), ctx);
    if (dev.sm < min_sm)
        snprintf(ctx->note, sizeof ctx->note,
                 "%s runs on %s, from compute capability %d.%d; this is %d.%d", impl, what,
                 min_sm / 10, min_sm % 10, dev.sm / 10, dev.sm % 10);
    else
        snprintf(ctx->note, sizeof ctx->note,
                 "this sm_%d device runs this build's code for sm_%d, where the kernel for %s "
                 "has no body (it starts at sm_%d; below, a trap): rebuild with "
                 "-DCMAKE_CUDA_ARCHITECTURES=%d",
                 dev.sm, arch->sm, what, min_sm, dev.sm);
    return ST_UNSUPPORTED;
}

enum status gb_impl_state(struct impl_ctx *ctx, size_t bytes) {
    if (!(ctx->state = calloc(1, bytes))) {
        snprintf(ctx->note, sizeof ctx->note, "out of host memory");
        return ST_OOM;
    }
    return ST_OK;
}

cudaError_t gb_arch_query(struct gb_arch *arch) {
    int dev, major, minor, sms;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess)
        return err;
    arch->sm = 10 * major + minor;
    arch->sms = sms;
    return cudaSuccess;
}
