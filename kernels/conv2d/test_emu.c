/* test_emu.c — the implicit-GEMM convolution kernel (kernels/conv2d/kernels.cuh) on
 * the CPU emulation against a direct double-precision convolution: strides, paddings (per axis,
 * including padding wider than the filter), 1×1 and 5×20 filters, more than one tile of filters
 * and of pixels, the float4 paths and the scalar ones, every thread order.
 *
 * Built again with GB_TEST_DROP_BARRIER=1 or 2: then the cases where several threads share the
 * tiles must all come out wrong, in every order.
 *
 * Emulation builds: arch 750; drop-barrier 1 2
 */
#include "tests/emu/emu.h"

#include "kernels/conv2d/kernels.cuh"
#include "tests/emu/emu_test.h"

#include <time.h>

/* Direct convolution in double; scale[i] = Σ |x·w| + 1 of each output. */
static inline void ref_conv2d(const struct gb_conv2d_dims *d, const float *x, const float *wt,
                              double *ref, double *scale) {
    int n, k, p, q, c, r, s;
    for (n = 0; n < d->n; n++)
        for (k = 0; k < d->k; k++)
            for (p = 0; p < d->p; p++)
                for (q = 0; q < d->q; q++) {
                    double acc = 0, mag = 0;
                    for (c = 0; c < d->c; c++)
                        for (r = 0; r < d->r; r++)
                            for (s = 0; s < d->s; s++) {
                                int h = p * d->stride_h - d->pad_h + r;
                                int w = q * d->stride_w - d->pad_w + s;
                                double v;
                                if (h < 0 || h >= d->h || w < 0 || w >= d->w)
                                    continue;
                                v = (double)x[((size_t)(n * d->c + c) * d->h + h) * d->w + w] *
                                    wt[((size_t)(k * d->c + c) * d->r + r) * d->s + s];
                                acc += v;
                                mag += fabs(v);
                            }
                    size_t o = ((size_t)(n * d->k + k) * d->p + p) * d->q + q;
                    ref[o] = acc;
                    scale[o] = mag + 1.0;
                }
}

struct conv_args {
    struct gb_conv2d_dims d;
    const float *x, *wt;
    float *y;
};

static void conv_body(void *p) {
    const struct conv_args *a = p;
    gb_conv2d_kernel(a->d, a->x, a->wt, a->y);
}

/* Returns the number of wrong outputs, or -1 when the emulation failed. */
static long run_case(const struct gb_conv2d_dims *d0, int misalign, enum emu_order order,
                     int report) {
    struct gb_conv2d_dims d = *d0;
    size_t nx, nw, ny;
    float *xb, *wb, *yb;
    double *ref, *scale;
    struct conv_args a;
    dim3 grid;
    long bad;
    if (gb_conv2d_dims_finish(&d) != 0) {
        fprintf(stderr, "  bad test shape\n");
        return -1;
    }
    nx = (size_t)d.n * d.c * d.h * d.w;
    nw = (size_t)d.k * d.c * d.r * d.s;
    ny = (size_t)d.n * d.k * d.p * d.q;
    xb = emu_alloc((nx + 4) * sizeof(float));
    wb = emu_alloc((nw + 4) * sizeof(float));
    yb = emu_alloc((ny + 4) * sizeof(float));
    ref = emu_alloc(ny * sizeof(double));
    scale = emu_alloc(ny * sizeof(double));
    emu_fill(xb, nx + 4, 31, -1, 1);
    emu_fill(wb, nw + 4, 32, -1, 1);
    emu_poison(yb, ny + 4);
    a.d = d;
    a.x = xb + misalign, a.wt = wb + misalign, a.y = yb + misalign;
    ref_conv2d(&d, a.x, a.wt, ref, scale);
    if (gb_conv2d_grid(&d, GB_EMU_ARCH / 10, &grid) != 0 ||
        emu_launch(grid, emu_dim3(GB_CONV_THREADS, 1, 1), 0, order, 77, conv_body, &a) != 0)
        bad = -1;
    else
        bad = (long)emu_mismatches("y", a.y, ref, scale, ny, 1e-6, report);
    if (bad == 0 && (!isnan(yb[misalign + ny]) || (misalign && !isnan(yb[0])))) {
        if (report)
            fprintf(stderr, "  wrote outside y\n");
        bad = 1;
    }
    free(xb), free(wb), free(yb), free(ref), free(scale);
    return bad;
}

int main(void) {
    /* n c h w  k r s  stride_h stride_w pad_h pad_w (p, q filled in) */
    static const struct gb_conv2d_dims cases[] = {
        {2, 3, 9, 11, 5, 3, 3, 1, 1, 1, 1, 0, 0},   /* 3×3 same-padding, 2 slices of taps */
        {1, 2, 12, 40, 7, 5, 20, 2, 8, 1, 3, 0, 0}, /* speech layer: 5×20 filter, strides 2, 8 */
        {3, 5, 7, 7, 66, 1, 1, 1, 1, 0, 0, 0, 0},   /* 1×1, two tiles of filters */
        {2, 8, 6, 6, 4, 3, 3, 2, 2, 0, 0, 0, 0},    /* c·r·s and p·q multiples of 4: float4 */
        {1, 1, 5, 5, 3, 2, 2, 3, 3, 2, 2, 0, 0},    /* padding wider than the filter */
        {4, 3, 10, 9, 9, 3, 2, 1, 2, 0, 1, 0, 0},   /* 3 tiles of pixels, rectangular filter */
    };
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    const int drop = GB_TEST_DROP_BARRIER;
    int ci, o, m, runs = 0;
    clock_t t0 = clock();
    for (ci = 0; ci < ncases; ci++) {
        const struct gb_conv2d_dims *c = &cases[ci];
        const int crs = c->c * c->r * c->s;
        for (m = 0; m < 2; m++) {
            if (m == 1 && (drop || (crs % 4 != 0))) /* misaligned: only where float4 applied */
                continue;
            for (o = 0; o < EMU_ORDERS; o++) {
                long bad = run_case(c, m, (enum emu_order)o, !drop);
                runs++;
                EMU_CHECK(bad >= 0, "emulation failed");
                if (drop == 0)
                    EMU_CHECK(bad == 0, "conv2d case %d%s %s: %ld wrong", ci,
                              m ? " misaligned" : "", emu_order_name((enum emu_order)o), bad);
                else if (c->k >= 4 && (drop == 1 || crs > GB_CONV_BK))
                    EMU_CHECK(bad > 0,
                              "conv2d case %d %s: barrier %d removed, yet the result is right: "
                              "the emulation would not catch it",
                              ci, emu_order_name((enum emu_order)o), drop);
            }
        }
    }
    printf("%d emulated conv2d launches as for sm_%d (barrier removed: %d), %.0f ms, "
           "%d failures\n",
           runs, GB_EMU_ARCH / 10, drop, 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC,
           emu_failures);
    return emu_failures ? 1 : 0;
}
