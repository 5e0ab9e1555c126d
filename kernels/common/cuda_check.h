/* cuda_check.h — one checked-call macro per library (host code, C or CUDA C).
 *
 * CU_TRY(expr, ctx): on failure writes "call: cudaErrorName: string (file:line)" into
 * ctx->note and returns the status gpu_error_status maps the error's name to (ST_OOM for an
 * allocation failure, ST_UNSUPPORTED for no kernel image, ST_TIMEOUT for the display watchdog,
 * ST_ERROR otherwise). CU_WARN(expr): teardown variant, reports on
 * stderr and goes on. CUBLAS_TRY / CUDNN_TRY do the same for cuBLAS and cuDNN. `call` is the
 * name of the function called ("cublasSgemm"), not the C text of its arguments.
 */
#ifndef GPUBENCH_CUDA_CHECK_H
#define GPUBENCH_CUDA_CHECK_H

#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

#include "harness/core/workload.h"
#include "kernels/common/cuda_errors.h" /* error name → row status */

/* The called function's name in a checked expression's text: "cublasSgemm" of
 * "cublasSgemm(s->h, CUBLAS_OP_N, …)" (the whole text when it holds no call). */
static inline const char *gb_call_name(const char *expr, char *buf, size_t len) {
    size_t n = strcspn(expr, "( \t\n");
    if (n >= len)
        n = len - 1;
    memcpy(buf, expr, n);
    buf[n] = '\0';
    return buf;
}

#define CU_TRY(expr, ctx)                                                                      \
    do {                                                                                       \
        cudaError_t cu_err_ = (expr);                                                          \
        if (cu_err_ != cudaSuccess) {                                                          \
            char cu_call_[64];                                                                 \
            snprintf((ctx)->note, sizeof((ctx)->note), "%s: %s: %s (%s:%d)",                   \
                     gb_call_name(#expr, cu_call_, sizeof cu_call_), cudaGetErrorName(cu_err_), \
                     cudaGetErrorString(cu_err_), __FILE__, __LINE__);                         \
            return gpu_error_status(cudaGetErrorName(cu_err_));                                \
        }                                                                                      \
    } while (0)

#define CU_WARN(expr)                                                                          \
    do {                                                                                       \
        cudaError_t cu_err_ = (expr);                                                          \
        char cu_call_[64];                                                                     \
        if (cu_err_ != cudaSuccess)                                                            \
            fprintf(stderr, "gpubench: warning: %s: %s (%s:%d)\n",                             \
                    gb_call_name(#expr, cu_call_, sizeof cu_call_), cudaGetErrorName(cu_err_), \
                    __FILE__, __LINE__);                                                       \
    } while (0)

/* cuBLAS and cuDNN variants, defined when the build has the library (GPUBENCH_HAVE_CUBLAS /
 * GPUBENCH_HAVE_CUDNN). The status comes from the error's name through gpu_error_status
 * (cuda_errors.h): ALLOC_FAILED → ST_OOM, ARCH_MISMATCH / NOT_SUPPORTED → ST_UNSUPPORTED,
 * anything else → ST_ERROR. */
#ifdef GPUBENCH_HAVE_CUBLAS
#include <cublas_v2.h>

/* The enumerator name of a cuBLAS status. cublasGetStatusName exists only from cuBLAS 11.4.2;
 * these values exist in every cuBLAS v2 since CUDA 8. */
static inline const char *gb_cublas_status_name(cublasStatus_t s) {
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "CUBLAS_STATUS_UNKNOWN";
}

#define CUBLAS_TRY(expr, ctx)                                                                  \
    do {                                                                                       \
        cublasStatus_t cb_st_ = (expr);                                                        \
        if (cb_st_ != CUBLAS_STATUS_SUCCESS) {                                                 \
            const char *cb_name_ = gb_cublas_status_name(cb_st_);                              \
            char cb_call_[64];                                                                 \
            snprintf((ctx)->note, sizeof((ctx)->note), "%s: %s (%s:%d)",                       \
                     gb_call_name(#expr, cb_call_, sizeof cb_call_), cb_name_, __FILE__,       \
                     __LINE__);                                                                \
            return gpu_error_status(cb_name_);                                                 \
        }                                                                                      \
    } while (0)

#define CUBLAS_WARN(expr)                                                                      \
    do {                                                                                       \
        cublasStatus_t cb_st_ = (expr);                                                        \
        char cb_call_[64];                                                                     \
        if (cb_st_ != CUBLAS_STATUS_SUCCESS)                                                   \
            fprintf(stderr, "gpubench: warning: %s: %s (%s:%d)\n",                             \
                    gb_call_name(#expr, cb_call_, sizeof cb_call_),                            \
                    gb_cublas_status_name(cb_st_), __FILE__, __LINE__);                        \
    } while (0)
#endif /* GPUBENCH_HAVE_CUBLAS */

#ifdef GPUBENCH_HAVE_CUDNN
#include <cudnn.h>

#define CUDNN_TRY(expr, ctx)                                                                   \
    do {                                                                                       \
        cudnnStatus_t dn_st_ = (expr);                                                         \
        if (dn_st_ != CUDNN_STATUS_SUCCESS) {                                                  \
            const char *dn_name_ = cudnnGetErrorString(dn_st_);                                \
            char dn_call_[64];                                                                 \
            snprintf((ctx)->note, sizeof((ctx)->note), "%s: %s (%s:%d)",                       \
                     gb_call_name(#expr, dn_call_, sizeof dn_call_), dn_name_, __FILE__,       \
                     __LINE__);                                                                \
            return gpu_error_status(dn_name_);                                                 \
        }                                                                                      \
    } while (0)

#define CUDNN_WARN(expr)                                                                       \
    do {                                                                                       \
        cudnnStatus_t dn_st_ = (expr);                                                         \
        char dn_call_[64];                                                                     \
        if (dn_st_ != CUDNN_STATUS_SUCCESS)                                                    \
            fprintf(stderr, "gpubench: warning: %s: %s (%s:%d)\n",                             \
                    gb_call_name(#expr, dn_call_, sizeof dn_call_),                            \
                    cudnnGetErrorString(dn_st_), __FILE__, __LINE__);                          \
    } while (0)
#endif /* GPUBENCH_HAVE_CUDNN */

#endif
