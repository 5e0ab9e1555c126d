/* conv2d_cpu.h — NCHW float32 forward convolution on the CPU (threaded im2col + OpenBLAS SGEMM)
 * and its double-precision direct reference.
 *
 * Shapes: input x is n×c×h×w, filters wt are k×c×r×s (k filters of r rows × s columns), output
 * y is n×k×p×q with p = (h + 2·pad_h − r) / stride_h + 1 and q likewise. All row-major, dense.
 * This is cross-correlation, as in every deep-learning library (cuDNN's CUDNN_CROSS_CORRELATION).
 */
#ifndef GPUBENCH_CONV2D_CPU_H
#define GPUBENCH_CONV2D_CPU_H

#include <stddef.h>

/* The conv2d problem (bench/conv2d.c), shared by every implementation: shape keys in canonical
 * order (shape.v[]), inputs x and filters (problem in[]) and the output y (problem out[]). */
enum {
    CONV2D_KEY_N,
    CONV2D_KEY_C,
    CONV2D_KEY_H,
    CONV2D_KEY_W,
    CONV2D_KEY_K,
    CONV2D_KEY_R,
    CONV2D_KEY_S,
    CONV2D_KEY_STRIDE_H,
    CONV2D_KEY_STRIDE_W,
    CONV2D_KEY_PAD_H,
    CONV2D_KEY_PAD_W
};
enum { CONV2D_IN_X, CONV2D_IN_W };
enum { CONV2D_OUT_Y };

struct conv2d_dims {
    long n, c, h, w;         /* input */
    long k, r, s;            /* filters */
    long stride_h, stride_w; /* >= 1 */
    long pad_h, pad_w;       /* >= 0 */
    long p, q;               /* output height and width, from conv2d_dims_finish */
};

/* Output size along one axis; <= 0 when the filter does not fit the padded input. */
long conv2d_out_size(long in, long filt, long stride, long pad);

/* Fill d->p and d->q. Returns 0, or -1 when either is <= 0. */
int conv2d_dims_finish(struct conv2d_dims *d);

/* Floats of scratch conv2d_cpu_forward needs (0 for a 1×1 filter with stride 1 and no padding,
 * which reads the input as it is): one chunk of the im2col matrix plus, when there is padding,
 * a zero-padded copy of one image. Allocate it once, before timing. */
size_t conv2d_cpu_scratch_floats(const struct conv2d_dims *d);

/* y = conv(x, wt) for the whole batch. Per image: a zero-padded copy, then, for chunks of output
 * rows, im2col of the chunk (a (c·r·s) × (rows·q) matrix whose row (ci, ri, si) holds the input
 * value that filter tap meets at each output pixel) and y_img[:, chunk] (k × rows·q) = wt
 * (k × c·r·s) · col with cblas_sgemm. The copies run on the CPU pool (cpu_pool.h), each thread
 * writing whole contiguous rows. `scratch` holds conv2d_cpu_scratch_floats floats (may be NULL
 * when that is 0). The sizes fed to cblas must fit in an int (the workload checks). */
void conv2d_cpu_forward(const struct conv2d_dims *d, const float *x, const float *wt, float *y,
                        float *scratch);

/* ref[j] = the direct convolution in double at output entry idx[j] (flat index into n×k×p×q),
 * j in [0, count); idx NULL means every entry. Independent of the im2col path on purpose. */
void conv2d_ref(const struct conv2d_dims *d, const float *x, const float *wt, const size_t *idx,
                size_t count, double *ref);

#endif
