/* cuda_explain.h — CUDA errors a user can meet, in plain words: one sentence of cause and one of
 * fix, by error name (cudaGetErrorName), never by number (the numbers changed between toolkits).
 * Pure C: no CUDA headers, so it builds and is tested in every build. */
#ifndef GPUBENCH_CUDA_EXPLAIN_H
#define GPUBENCH_CUDA_EXPLAIN_H

#include <stddef.h>

/* Write "cause. fix." for the error named `err_name` (e.g. "cudaErrorInsufficientDriver") into
 * out. driver_version and runtime_version are as cudaDriverGetVersion / cudaRuntimeGetVersion
 * return them (12080 = 12.8; 0 = no driver). Returns 1 when the error is known, 0 when only a
 * generic sentence was written. */
int cuda_explain(const char *err_name, int driver_version, int runtime_version, char *out,
                 size_t outlen);

#endif
