/* dims.h — the shape of one NCHW convolution as the CUDA conv2d kernel takes it (plain C,
 * shared by the kernel source, its launcher, the `cuda` implementation row and the emulation
 * tests, none of which may depend on the others' headers). */
#ifndef GPUBENCH_CONV2D_DIMS_H
#define GPUBENCH_CONV2D_DIMS_H

/* x is n×c×h×w, filters are k×c×r×s, y is n×k×p×q; cross-correlation, as in cuDNN. */
struct gb_conv2d_dims {
    int n, c, h, w;
    int k, r, s;
    int stride_h, stride_w; /* >= 1 */
    int pad_h, pad_w;       /* >= 0 */
    int p, q;               /* output height and width: filled by gb_conv2d_dims_finish */
};

/* Fill d->p and d->q. Returns 0, or -1 when a size is out of range, the filter does not fit the
 * padded input, or a tensor or the implicit GEMM (c·r·s, n·p·q) has 2^31 elements or more: the
 * kernel indexes with int, which keeps Fermi's 63-register budget. */
static inline int gb_conv2d_dims_finish(struct gb_conv2d_dims *d) {
    const long long lim = 2147483647LL;
    if (d->n < 1 || d->c < 1 || d->h < 1 || d->w < 1 || d->k < 1 || d->r < 1 || d->s < 1 ||
        d->stride_h < 1 || d->stride_w < 1 || d->pad_h < 0 || d->pad_w < 0)
        return -1;
    if ((long long)d->h + 2LL * d->pad_h < d->r || (long long)d->w + 2LL * d->pad_w < d->s)
        return -1;
    d->p = (int)(((long long)d->h + 2LL * d->pad_h - d->r) / d->stride_h + 1);
    d->q = (int)(((long long)d->w + 2LL * d->pad_w - d->s) / d->stride_w + 1);
    if ((long long)d->n * d->c * d->h * d->w > lim || (long long)d->k * d->c * d->r * d->s > lim ||
        (long long)d->n * d->k * d->p * d->q > lim)
        return -1;
    return 0;
}

#endif
