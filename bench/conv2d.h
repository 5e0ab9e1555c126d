/* conv2d.h — the conv2d problem as every implementation and test of it sees it (bench/conv2d.c
 * defines it): NCHW float32 forward convolution.
 *
 * Shapes: input x is n×c×h×w, filters wt are k×c×r×s (k filters of r rows × s columns), output
 * y is n×k×p×q with p = (h + 2·pad_h − r) / stride_h + 1 and q likewise. All row-major, dense.
 * This is cross-correlation, as in every deep-learning library (cuDNN's CUDNN_CROSS_CORRELATION).
 */
#ifndef GPUBENCH_BENCH_CONV2D_H
#define GPUBENCH_BENCH_CONV2D_H

#include <stddef.h>

#include "harness/core/workload.h"

/* Shape keys in canonical order (shape.v[]), inputs x and filters (problem in[]) and the output
 * y (problem out[]). */
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

/* The shape's dimensions, p and q filled (bench/conv2d.c). */
void conv2d_dims_of(const struct shape *s, struct conv2d_dims *d);

/* Output size along one axis; <= 0 when the filter does not fit the padded input. */
long conv2d_out_size(long in, long filt, long stride, long pad);

/* Fill d->p and d->q. Returns 0, or -1 when either is <= 0. */
int conv2d_dims_finish(struct conv2d_dims *d);

/* The reference (bench/conv2d.c): ref[j] = the direct convolution in double at output entry idx[j]
 * (flat index into n×k×p×q), j in [0, count); idx NULL means every entry. Independent of the im2col
 * path on purpose. */
void conv2d_ref(const struct conv2d_dims *d, const float *x, const float *wt, const size_t *idx,
                size_t count, double *ref);

/* The workload itself (bench/conv2d.c). */
extern const struct workload conv2d_workload;

#endif
