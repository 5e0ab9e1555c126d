/* cuda_errors.h — what a CUDA, cuBLAS or cuDNN error means for a result row, from its name.
 * No CUDA headers: plain C, built and tested in every build (kernels/common/cuda_errors.c). The
 * checked-call macros (cuda_check.h) and the CUDA backend use it. */
#ifndef GPUBENCH_CUDA_ERRORS_H
#define GPUBENCH_CUDA_ERRORS_H

#include "harness/core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The row status for an error named as cudaGetErrorName, cuBLAS status names
 * ("CUBLAS_STATUS_ALLOC_FAILED") or cudnnGetErrorString ("CUDNN_STATUS_NOT_SUPPORTED") give it:
 * allocation failures → ST_OOM; no code or no support for this device → ST_UNSUPPORTED; the
 * display watchdog → ST_TIMEOUT; everything else → ST_ERROR. NULL or "" → ST_ERROR. */
enum status gpu_error_status(const char *err_name);

/* 1 when a CUDA error of this name is "sticky": the context is corrupted and every later call on
 * the device fails the same way (illegal address, launch failure, ECC, …), so the rest of the
 * device's rows must be ST_ERROR. 0 for errors that only fail the call that returned them. */
int gpu_error_is_sticky(const char *err_name);

#ifdef __cplusplus
}
#endif

#endif
