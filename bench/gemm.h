/* gemm.h — the gemm problem as every implementation and test of it sees it (bench/gemm.c
 * defines it): C = A·B, A is m×k, B is k×n, C is m×n, all row-major and dense (leading
 * dimensions k, n and n). f64 problems hold A, B and C as doubles (buf.data64); every other
 * tier holds float32 (buf.data): f16 and bf16 operands are values of the tier, C is FP32.
 */
#ifndef GPUBENCH_BENCH_GEMM_H
#define GPUBENCH_BENCH_GEMM_H

#include "harness/core/workload.h"

#include <stddef.h>

enum { GEMM_KEY_M, GEMM_KEY_N, GEMM_KEY_K }; /* shape keys, canonical order (shape.v[]) */
enum { GEMM_IN_A, GEMM_IN_B };               /* problem in[] */
enum { GEMM_OUT_C };                         /* problem out[] */

/* C = A·B with cblas_sgemm (kernels/gemm/openblas.c). OpenBLAS's thread count is the caller's
 * business (the harness sets it once per run). m, n, k >= 1 and each of m·k, k·n, m·n must fit
 * in an int (cblas takes int). */
void gemm_cpu_sgemm(int m, int n, int k, const float *a, const float *b, float *c);

/* C = A·B in float64 with cblas_dgemm (kernels/gemm/openblas.c); as gemm_cpu_sgemm. */
void gemm_cpu_dgemm(int m, int n, int k, const double *a, const double *b, double *c);

/* The reference (bench/gemm.c): ref[j] = Σ_l a[i·k + l] · b[l·n + col] in double, for the output
 * entry idx[j] = i·n + col, j in [0, count); idx NULL means every entry (count must then be m·n).
 * The sum runs over a transposed copy of B so each entry is one contiguous dot product even when
 * the sample is scattered over a large output. Returns 0, or -1 when the scratch copy cannot be
 * allocated. Stops early, the rest of ref unset, once gb_interrupted is set. */
int gemm_ref(size_t m, size_t n, size_t k, const float *a, const float *b, const size_t *idx,
             size_t count, double *ref);

/* Bytes of scratch gemm_ref allocates (the transposed B), for host-memory accounting. */
size_t gemm_ref_scratch_bytes(size_t m, size_t n, size_t k);

/* The workload itself (bench/gemm.c). */
extern const struct workload gemm_workload;

#endif
