/* openblas.h — conv2d/openblas (openblas.c) as functions, for the workload's host-memory
 * accounting and the tests. Shapes: bench/conv2d.h. */
#ifndef GPUBENCH_CONV2D_OPENBLAS_H
#define GPUBENCH_CONV2D_OPENBLAS_H

#include <stddef.h>

#include "bench/conv2d.h"

/* Floats of scratch conv2d/openblas (kernels/conv2d/openblas.c) needs (0 for a 1×1 filter with
 * stride 1 and no padding, which reads the input as it is): one chunk of the im2col matrix plus,
 * when there is padding, a zero-padded copy of one image. Allocate it once, before timing. */
size_t conv2d_cpu_scratch_floats(const struct conv2d_dims *d);

/* y = conv(x, wt) for the whole batch. Per image: a zero-padded copy, then, for chunks of output
 * rows, im2col of the chunk (a (c·r·s) × (rows·q) matrix whose row (ci, ri, si) holds the input
 * value that filter tap meets at each output pixel) and y_img[:, chunk] (k × rows·q) = wt
 * (k × c·r·s) · col with cblas_sgemm. The copies run on the CPU pool, each thread writing whole
 * contiguous rows. `scratch` holds conv2d_cpu_scratch_floats floats (may be NULL when that is
 * 0). The sizes fed to cblas must fit in an int (the workload checks). */
void conv2d_cpu_forward(const struct conv2d_dims *d, const float *x, const float *wt, float *y,
                        float *scratch);

/* The f64 path: doubles of scratch (one image's whole c·r·s × p·q col matrix), and y = conv(x, wt)
 * for the batch with a bounds-tested im2col on the pool and one cblas_dgemm per image. */
size_t conv2d_cpu_scratch_doubles(const struct conv2d_dims *d);
void conv2d_cpu_forward64(const struct conv2d_dims *d, const double *x, const double *wt,
                          double *y, double *col);

#endif
