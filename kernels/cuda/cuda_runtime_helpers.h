/* cuda_runtime_helpers.h — what every CUDA implementation shares: the run's stream, checked
 * allocation with an out-of-memory status, and the "does this build have code for this
 * device" check. Implemented in kernels/cuda/cuda_runtime_helpers.c. */
#ifndef GPUBENCH_CUDA_RUNTIME_HELPERS_H
#define GPUBENCH_CUDA_RUNTIME_HELPERS_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "bench/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stream of the current device, created when the CUDA backend activated it. Every launch
 * and copy of an implementation goes on it; the backend records its timing events on it. */
cudaStream_t gb_stream(void);

/* Make `s` what gb_stream returns. Called only by the CUDA backend (harness/device_cuda.c) when
 * it activates a device. */
void gb_set_stream(cudaStream_t s);

/* cudaMalloc `bytes` into *ptr after checking cudaMemGetInfo: ST_OOM with a note naming the
 * buffer, the bytes asked and the bytes free when it does not fit; ST_ERROR on other errors. */
enum status gb_malloc(struct impl_ctx *ctx, void **ptr, size_t bytes, const char *what);

/* ST_OK when the current device can run `func` (cudaFuncGetAttributes succeeds); otherwise
 * ST_UNSUPPORTED with a note naming the device's architecture, what this build was compiled
 * for, and how to rebuild. `func` is the kernel's address, as passed to cudaFuncGetAttributes. */
enum status gb_check_kernel_image(struct impl_ctx *ctx, const void *func, const char *kernel_name);

/* cudaFree every non-NULL pointer of bufs[0..n), reporting failures on stderr and going on
 * (for release functions, after they have synchronized the stream). */
void gb_free_device(void *const *bufs, size_t n);

/* The row of a cuBLAS implementation in a build without cuBLAS: ST_UNSUPPORTED, saying so, so
 * that the configuration stays in the results instead of vanishing. */
enum status gb_no_cublas(struct impl_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif
