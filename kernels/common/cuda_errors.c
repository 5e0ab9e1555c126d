/* cuda_errors.c — CUDA, cuBLAS and cuDNN error names → row status, and which errors are sticky.
 * Plain C on names, no CUDA header: built and tested in every build. See cuda_errors.h. */
#include "kernels/common/cuda_errors.h"

#include <string.h>

static int name_in(const char *name, const char *const *list) {
    for (int i = 0; list[i]; i++)
        if (strcmp(name, list[i]) == 0)
            return 1;
    return 0;
}

static int starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Errors that mean "this device or driver cannot run this code", not "something broke":
 * a missing SASS/PTX image (named cudaErrorInvalidDeviceFunction before CUDA 8 made it
 * cudaErrorNoKernelImageForDevice), PTX newer than the driver can JIT, features the device
 * lacks, and the libraries' architecture-mismatch statuses. */
static const char *const unsupported_names[] = {
    "cudaErrorNoKernelImageForDevice", "cudaErrorInvalidDeviceFunction",
    "cudaErrorUnsupportedPtxVersion",  "cudaErrorInvalidPtx",
    "cudaErrorJitCompilerNotFound",    "cudaErrorJitCompilationDisabled",
    "cudaErrorNotSupported",           "cudaErrorCallRequiresNewerDriver",
    "CUBLAS_STATUS_ARCH_MISMATCH",     "CUBLAS_STATUS_NOT_SUPPORTED",
    "CUDNN_STATUS_ARCH_MISMATCH",      NULL,
};

static const char *const oom_names[] = {
    "cudaErrorMemoryAllocation",
    "CUBLAS_STATUS_ALLOC_FAILED",
    "CUDNN_STATUS_ALLOC_FAILED",
    NULL,
};

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

enum status gpu_error_status(const char *err_name) {
    if (!err_name || !err_name[0])
        return ST_ERROR;
    /* cuDNN 9 made CUDNN_STATUS_ALLOC_FAILED a deprecated alias of
     * CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, and cudnnGetErrorString names it the
     * new way; device allocations fail as …_DEVICE_ALLOCATION_FAILED (cudnn_graph.h). */
    if (name_in(err_name, oom_names) ||
        (starts_with(err_name, "CUDNN_STATUS_") && ends_with(err_name, "_ALLOCATION_FAILED")))
        return ST_OOM;
    /* cuDNN 9 split NOT_SUPPORTED into sub-statuses (CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH,
     * …_SHAPE, …); every one of them is "cannot run here". */
    if (name_in(err_name, unsupported_names) || starts_with(err_name, "CUDNN_STATUS_NOT_SUPPORTED"))
        return ST_UNSUPPORTED;
    if (strcmp(err_name, "cudaErrorLaunchTimeout") == 0)
        return ST_TIMEOUT;
    return ST_ERROR;
}

/* The errors the CUDA Runtime API reference documents as leaving the process "in an
 * inconsistent state" where "any further CUDA work will return the same error" (cudaError enum
 * documentation, CUDA 8 … 13), plus ECC-uncorrectable and a destroyed context, which behave the
 * same way in practice. */
static const char *const sticky_names[] = {
    "cudaErrorIllegalAddress",
    "cudaErrorLaunchFailure",
    "cudaErrorLaunchTimeout",
    "cudaErrorHardwareStackError",
    "cudaErrorIllegalInstruction",
    "cudaErrorMisalignedAddress",
    "cudaErrorInvalidAddressSpace",
    "cudaErrorInvalidPc",
    "cudaErrorAssert",
    "cudaErrorECCUncorrectable",
    "cudaErrorContextIsDestroyed",
    "cudaErrorTensorMemoryLeak",
    NULL,
};

int gpu_error_is_sticky(const char *err_name) {
    return err_name && name_in(err_name, sticky_names);
}
