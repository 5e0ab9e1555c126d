/* conv2d.h — the conv2d problem as every implementation and test of it sees it (bench/conv2d.c
 * defines it): NCHW float32 forward convolution.
 *
 * Shapes: input x is n×c×h×w, filters wt are k×c×r×s (k filters of r rows × s columns), output
 * y is n×k×p×q with p = (h + 2·pad_h − r) / stride_h + 1 and q likewise. All row-major, dense.
 * This is cross-correlation, as in every deep-learning library (cuDNN's CUDNN_CROSS_CORRELATION).
 */
#ifndef GPUBENCH_BENCH_CONV2D_H
#define GPUBENCH_BENCH_CONV2D_H

#include <limits.h>
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

/* The shape of one convolution, as the workload, every implementation and the CUDA kernel take
 * it: int, because the kernel indexes with int (it keeps Fermi's 63-register budget) and cuDNN
 * and cblas take int sizes; conv2d's `complete` keeps every key, p, q, p·q and c·r·s within
 * int, and whoever multiplies sizes does it in long, size_t or double. */
struct conv2d_dims {
    int n, c, h, w;         /* input */
    int k, r, s;            /* filters */
    int stride_h, stride_w; /* >= 1 */
    int pad_h, pad_w;       /* >= 0 */
    int p, q;               /* output height and width, from conv2d_dims_finish */
};

/* The shape's dimensions, p and q filled (bench/conv2d.c); the shape passed `complete`. */
void conv2d_dims_of(const struct shape *s, struct conv2d_dims *d);

/* Output size along one axis, (in + 2·pad − filt) / stride + 1; <= 0 when the filter does not
 * fit the padded input. */
static inline long long conv2d_out_size(long long in, long long filt, long long stride,
                                        long long pad) {
    long long span = in + 2 * pad - filt;
    return span < 0 || stride < 1 ? 0 : span / stride + 1;
}

/* Fill d->p and d->q. Returns 0, or -1 when a size is out of range (below 1, padding below 0)
 * or the output is empty or wider than int. */
static inline int conv2d_dims_finish(struct conv2d_dims *d) {
    if (d->n < 1 || d->c < 1 || d->h < 1 || d->w < 1 || d->k < 1 || d->r < 1 || d->s < 1 ||
        d->stride_h < 1 || d->stride_w < 1 || d->pad_h < 0 || d->pad_w < 0)
        return -1;
    long long p = conv2d_out_size(d->h, d->r, d->stride_h, d->pad_h);
    long long q = conv2d_out_size(d->w, d->s, d->stride_w, d->pad_w);
    if (p <= 0 || q <= 0 || p > INT_MAX || q > INT_MAX)
        return -1;
    d->p = (int)p;
    d->q = (int)q;
    return 0;
}

/* 1 when every tensor (x, the filters, y) and the implicit GEMM's columns (n·p·q) have fewer
 * than 2^31 elements, so the CUDA kernel's int indexing and cuDNN's int sizes reach them all. */
static inline int conv2d_dims_int_indexed(const struct conv2d_dims *d) {
    return (long long)d->n * d->c * d->h * d->w <= INT_MAX &&
           (long long)d->k * d->c * d->r * d->s <= INT_MAX &&
           (long long)d->n * d->k * d->p * d->q <= INT_MAX;
}

/* The reference (bench/conv2d.c): ref[j] = the direct convolution in double at output entry idx[j]
 * (flat index into n×k×p×q), j in [0, count); idx NULL means every entry. Independent of the im2col
 * path on purpose. Stops early, the rest of ref unset, once gb_interrupted is set. */
void conv2d_ref(const struct conv2d_dims *d, const float *x, const float *wt, const size_t *idx,
                size_t count, double *ref);

/* The workload itself (bench/conv2d.c). */
extern const struct workload conv2d_workload;

#endif
