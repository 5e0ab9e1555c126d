/* test_emu.c — the implicit-GEMM convolution kernel (kernels/conv2d/kernels.cuh) on
 * the CPU emulation against a direct double-precision convolution: strides, paddings (per axis,
 * including padding wider than the filter), 1×1 and 5×20 filters, more than one tile of filters
 * and of pixels, the float4 paths and the scalar ones, every thread order. The f64 kernel
 * (gb_conv2d64_kernel) on the same shapes and orders, with inputs of 53 random bits, against a
 * long-double direct convolution with the f64 row's tolerance (verify_tol, as bench/conv2d.c
 * checks an f64 row); the f32 kernel run on the same inputs must fail that check.
 *
 * The FP16 tensor-core kernel (kernels/conv2d/tc.cuh, conv2d/cuda_tc) as its twin: first its
 * plain-C pieces against division (the tap walk, one tap and one slice on, for filters 1×1 to
 * 5×20; the tap tables' entries, slice by slice, with the marker past c·r·s; the pixel's window
 * and image offset; its place in y; a lane's fragment column), then the kernel on half inputs
 * against a direct double convolution of the same halves, rounded to half as cuDNN's f16 row is
 * (FP32 accumulation): c and k not multiples of 16, c = 1, n·p·q not a multiple of the 64-pixel
 * tile, 1×1, 3×3, 5×5, 7×7 and 5×20 filters, strides, paddings (wider than the filter too),
 * misaligned filters, every thread order; nothing written outside y.
 *
 * Built again with GB_TEST_DROP_BARRIER=1 or 2: then the cases where several threads share the
 * tiles must all come out wrong, in every order (the f32 kernel is double-buffered: barrier 2
 * fences its first slice, barrier 1 each later one; the f64 kernel's barrier 2 guards the
 * overwrite of its one buffer; the tensor-core kernel with barrier 2 removed: the cases with more
 * than one 32-tap slice). The f32 kernel's walk of the reduction (channels inside filter
 * positions, gb_conv2d_walk) is checked on its own (walk_checks).
 *
 * The arch-800 builds run only the sm_80+ mma.sync kernel's checks (tc_mma.cuh, both block
 * tiles; the cases and CPU models of the layouts, the gather, the B fragments, y's pairs and the
 * tile choice: test_emu_mma.h), with the barrier
 * drops each expects; the arch-750 builds all the rest.
 *
 * Emulation builds: arch 750 800; drop-barrier 1 2
 */
#include "tests/emu/emu.h"

#include "harness/core/verify.h"
#include "kernels/conv2d/kernels.cuh"
#include "tests/emu/emu_test.h"

#include <time.h>

/* Direct convolution in double; scale[i] = Σ |x·w| + 1 of each output. */
static inline void ref_conv2d(const struct conv2d_dims *d, const float *x, const float *wt,
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
    struct conv2d_dims d;
    const float *x, *wt;
    float *y;
};

static void conv_body(void *p) {
    const struct conv_args *a = p;
    gb_conv2d_kernel(a->d, a->x, a->wt, a->y);
}

/* Returns the number of wrong outputs, or -1 when the emulation failed. */
static long run_case(const struct conv2d_dims *d0, int misalign, enum emu_order order,
                     int report) {
    struct conv2d_dims d = *d0;
    size_t nx, nw, ny;
    float *xb, *wb, *yb;
    double *ref, *scale;
    struct conv_args a;
    dim3 grid;
    long bad;
    if (conv2d_dims_finish(&d) != 0) {
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

/* --- the f64 kernel ------------------------------------------------------------------------- */
struct conv64_args {
    struct conv2d_dims d;
    const double *x, *wt;
    double *y;
};

static void conv64_body(void *p) {
    const struct conv64_args *a = p;
    gb_conv2d64_kernel(a->d, a->x, a->wt, a->y);
}

/* Doubles in [-1, 1) with 53 random bits (as fill_uniform_dt draws an f64 row's inputs). */
static void dfill(double *x, size_t n, uint64_t seed) {
    float *hi = emu_alloc(n * sizeof *hi), *lo = emu_alloc(n * sizeof *lo);
    size_t i;
    emu_fill(hi, n, seed, -1.0f, 1.0f);
    emu_fill(lo, n, seed + 1000, 0.0f, 1.0f);
    for (i = 0; i < n; i++)
        x[i] = (double)hi[i] + (double)lo[i] * 0x1p-24;
    free(hi), free(lo);
}

/* Output o of the direct convolution, summed in long double. */
static long double ref64_at(const struct conv2d_dims *d, const double *x, const double *wt,
                            size_t o) {
    const int q = (int)(o % d->q), p = (int)(o / d->q % d->p);
    const int k = (int)(o / d->q / d->p % d->k), n = (int)(o / d->q / d->p / d->k);
    long double acc = 0;
    int c, r, s;
    for (c = 0; c < d->c; c++)
        for (r = 0; r < d->r; r++)
            for (s = 0; s < d->s; s++) {
                int h = p * d->stride_h - d->pad_h + r, w = q * d->stride_w - d->pad_w + s;
                if (h >= 0 && h < d->h && w >= 0 && w < d->w)
                    acc += (long double)x[((size_t)(n * d->c + c) * d->h + h) * d->w + w] *
                           wt[((size_t)(k * d->c + c) * d->r + r) * d->s + s];
            }
    return acc;
}

/* Outputs of y (doubles, or floats when yf is set) outside the f64 row's tolerance. */
static long wrong64(const struct conv2d_dims *d, const double *x, const double *wt,
                    const double *y, const float *yf, int report) {
    const size_t ny = (size_t)d->n * d->k * d->p * d->q;
    const struct tol tl = verify_tol(DT_F64, (double)d->c * d->r * d->s, 1.0, 0);
    long bad = 0;
    size_t o;
    for (o = 0; o < ny; o++) {
        double ref = (double)ref64_at(d, x, wt, o), got = yf ? (double)yf[o] : y[o];
        if (!(fabs(got - ref) <= tl.atol + tl.rtol * fabs(ref))) {
            if (report && bad < 3)
                fprintf(stderr, "  y[%zu] = %.17g, want %.17g (atol %.3g)\n", o, got, ref, tl.atol);
            bad++;
        }
    }
    return bad;
}

/* One f64 case: the wrong outputs of gb_conv2d64_kernel (-1: the emulation failed). With
 * as_f32, the f32 kernel runs instead on the inputs rounded to float (what an f64 row computed
 * in float32 would hand back). */
static long run_case64(const struct conv2d_dims *d0, enum emu_order order, int as_f32,
                       int report) {
    struct conv2d_dims d = *d0;
    size_t nx, nw, ny, i;
    double *xb, *wb, *yb;
    float *xf, *wf, *yf;
    dim3 grid;
    long bad;
    if (conv2d_dims_finish(&d) != 0)
        return -1;
    nx = (size_t)d.n * d.c * d.h * d.w, nw = (size_t)d.k * d.c * d.r * d.s;
    ny = (size_t)d.n * d.k * d.p * d.q;
    xb = emu_alloc(nx * sizeof *xb), wb = emu_alloc(nw * sizeof *wb);
    yb = emu_alloc((ny + 1) * sizeof *yb);
    xf = emu_alloc(nx * sizeof *xf), wf = emu_alloc(nw * sizeof *wf);
    yf = emu_alloc((ny + 1) * sizeof *yf);
    dfill(xb, nx, 41);
    dfill(wb, nw, 42);
    for (i = 0; i < nx; i++)
        xf[i] = (float)xb[i];
    for (i = 0; i < nw; i++)
        wf[i] = (float)wb[i];
    for (i = 0; i <= ny; i++)
        yb[i] = NAN, yf[i] = NAN;
    if (gb_conv2d_grid(&d, GB_EMU_ARCH / 10, &grid) != 0) {
        bad = -1;
    } else if (as_f32) {
        struct conv_args a = {d, xf, wf, yf};
        bad = emu_launch(grid, emu_dim3(GB_CONV_THREADS, 1, 1), 0, order, 77, conv_body, &a)
                  ? -1
                  : wrong64(&d, xb, wb, NULL, yf, 0);
    } else {
        struct conv64_args a = {d, xb, wb, yb};
        bad = emu_launch(grid, emu_dim3(GB_CONV_THREADS, 1, 1), 0, order, 77, conv64_body, &a)
                  ? -1
                  : wrong64(&d, xb, wb, yb, NULL, report);
        if (bad == 0 && !isnan(yb[ny]))
            bad = 1; /* wrote outside y */
    }
    free(xb), free(wb), free(yb), free(xf), free(wf), free(yf);
    return bad;
}

/* Every case in every order, as for float32 (drop: the barrier removed, see the file comment);
 * and, once per case, the f32 kernel on the same inputs must fail the f64 check. */
static int f64_cases(const struct conv2d_dims *cases, int ncases, int drop) {
    int ci, o, runs = 0;
    for (ci = 0; ci < ncases; ci++) {
        const struct conv2d_dims *c = &cases[ci];
        const int crs = c->c * c->r * c->s;
        for (o = 0; o < EMU_ORDERS; o++) {
            long bad = run_case64(c, (enum emu_order)o, 0, !drop);
            runs++;
            EMU_CHECK(bad >= 0, "emulation failed");
            if (drop == 0)
                EMU_CHECK(bad == 0, "conv2d f64 case %d %s: %ld wrong", ci,
                          emu_order_name((enum emu_order)o), bad);
            else if (c->k >= 4 && (drop == 1 || crs > GB_CONV_BK))
                EMU_CHECK(bad > 0, "conv2d f64 case %d %s: barrier %d removed, yet right", ci,
                          emu_order_name((enum emu_order)o), drop);
        }
        if (drop == 0) {
            long bad = run_case64(c, EMU_FORWARD, 1, 0);
            runs++;
            EMU_CHECK(bad > 0, "conv2d f64 case %d: the f32 kernel passes the f64 check", ci);
        }
    }
    return runs;
}

/* The reduction's walk (gb_conv2d_walk_next): over gb_conv2d_slices slices of 16 channels each,
 * every tap (channel, ri, si) of a c × r × s filter is visited exactly once, pos stays ri·s + si,
 * and the padded channels (≥ c) are the only others. */
static void walk_checks(void) {
    static const int shapes[][3] = {{1, 1, 1},  {3, 3, 3},  {16, 3, 3}, {17, 5, 20},
                                     {32, 2, 3}, {64, 3, 3}, {5, 1, 7},  {33, 7, 1}};
    int i;
    for (i = 0; i < (int)(sizeof shapes / sizeof shapes[0]); i++) {
        const int c = shapes[i][0], r = shapes[i][1], s = shapes[i][2];
        const int n = gb_conv2d_slices(c, r, s);
        int *seen = calloc((size_t)c * r * s, sizeof *seen);
        struct gb_conv2d_walk wk = {0, 0, 0, 0};
        int t, j, bad = 0;
        for (t = 0; t < n; t++) {
            bad += wk.ri < 0 || wk.ri >= r || wk.si < 0 || wk.si >= s || wk.pos != wk.ri * s + wk.si;
            for (j = 0; j < GB_CONV_BK && !bad; j++)
                if (wk.cb + j < c)
                    seen[((size_t)(wk.cb + j) * r + wk.ri) * s + wk.si]++;
            if (t + 1 < n)
                gb_conv2d_walk_next(&wk, c, s);
        }
        for (j = 0; j < c * r * s; j++)
            bad += seen[j] != 1;
        EMU_CHECK(bad == 0, "conv2d walk %dx%dx%d: %d taps missed, repeated or misplaced", c, r, s,
                  bad);
        free(seen);
    }
}


/* --- the FP16 tensor-core kernel (tc.cuh) --------------------------------------------------- */

/* The walk against division: from every thread's first tap (0 and GB_CTC_TAPS), one tap on at
 * a time across a slice and one slice on at a time, for taps well past c·r·s. */
static void tc_walk_checks(void) {
    static const int shapes[][4] = {{9, 11, 3, 3}, {12, 40, 5, 20}, {7, 7, 1, 1}, {13, 12, 5, 5},
                                    {5, 5, 2, 2},  {6, 33, 1, 7},   {4, 4, 4, 4}, {3, 50, 3, 1}};
    int si, start, sl, j;
    for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]); si++) {
        const int h = shapes[si][0], w = shapes[si][1], r = shapes[si][2], s = shapes[si][3];
        struct gb_ctc_walk k;
        gb_ctc_walk_init(h, w, r, s, &k);
        for (start = 0; start < GB_WM_BK; start += GB_CTC_TAPS) {
            struct gb_ctc_tap t;
            gb_ctc_tap_at(start, h, w, r, s, &t);
            for (sl = 0; sl < 8; sl++) {
                struct gb_ctc_tap u = t;
                for (j = 0; j < GB_CTC_TAPS; j++) {
                    const int tap = sl * GB_WM_BK + start + j;
                    const int ci = tap / (r * s), ri = tap % (r * s) / s, sc = tap % s;
                    EMU_CHECK(u.ci == ci && u.ri == ri && u.si == sc &&
                                  u.off == (ci * h + ri) * w + sc,
                              "tc walk %dx%d filter on %dx%d, tap %d: (%d %d %d %d), want "
                              "(%d %d %d %d)",
                              r, s, h, w, tap, u.ci, u.ri, u.si, u.off, ci, ri, sc,
                              (ci * h + ri) * w + sc);
                    gb_ctc_next(&k, &u);
                }
                gb_ctc_advance(&k, &t);
            }
        }
    }
}

/* The tap tables as the kernel's warp 0 writes them (lane's walk from tap 32 + lane, one slice
 * on per table) against division, for c = 1, 3 and 9 channels: off, the filter row and column
 * at the filter's edges, and the marker past c·r·s, which puts the tap outside every image that
 * gb_ctc_fits admits, from any window origin (-pad_h … h - 1) — and a missing pixel's origin
 * outside it with any entry. */
static void tc_table_checks(void) {
    static const int shapes[][4] = {{9, 11, 3, 3}, {12, 40, 5, 20}, {7, 7, 1, 1},  {13, 12, 5, 5},
                                    {6, 33, 1, 7}, {3, 50, 3, 1},   {20, 20, 7, 7}};
    static const int chans[] = {1, 3, 9};
    int si, ci, lane, sl;
    for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]); si++)
        for (ci = 0; ci < 3; ci++) {
            const int h = shapes[si][0], w = shapes[si][1], r = shapes[si][2], s = shapes[si][3];
            const int c = chans[ci], crs = c * r * s;
            struct gb_ctc_walk k;
            gb_ctc_walk_init(h, w, r, s, &k);
            for (lane = 0; lane < GB_WM_BK; lane++) {
                struct gb_ctc_tap t;
                gb_ctc_tap_at(GB_WM_BK + lane, h, w, r, s, &t);
                for (sl = 1; sl * GB_WM_BK < crs + GB_WM_BK; sl++) {
                    const int tap = sl * GB_WM_BK + lane;
                    const int tc = tap / (r * s), ri = tap % (r * s) / s, sc = tap % s;
                    const int want_dh = tap < crs ? ri : GB_CTC_NOWHERE;
                    int off, dh, dw;
                    gb_ctc_entry(&t, c, &off, &dh, &dw);
                    EMU_CHECK(off == (tc * h + ri) * w + sc && dh == want_dh && dw == sc,
                              "tc table %dx%dx%d filter on %dx%d, slice %d tap %d: (%d %d %d), "
                              "want (%d %d %d)",
                              c, r, s, h, w, sl, tap, off, dh, dw, (tc * h + ri) * w + sc, want_dh,
                              sc);
                    gb_ctc_advance(&k, &t);
                }
            }
        }
    /* the markers at gb_ctc_fits's bounds: h, padding and r just below 2^28 */
    {
        const int big = (1 << 28) - 1;
        EMU_CHECK((unsigned)(-big + GB_CTC_NOWHERE) >= (unsigned)big &&
                      (unsigned)(big - 1 + GB_CTC_NOWHERE) >= (unsigned)big &&
                      (unsigned)(GB_CTC_NO_PIXEL + big - 1) >= (unsigned)big &&
                      (unsigned)(GB_CTC_NO_PIXEL + GB_CTC_NOWHERE) >= (unsigned)big,
                  "tc table markers: a place inside an image of %d rows", big);
    }
}

/* A pixel's window origin, its input offset and its place in y against the direct formulas;
 * and a lane's column, the same in all its fragment elements (what the epilogue relies on). */
static void tc_place_checks(void) {
    struct conv2d_dims d = {3, 5, 10, 9, 7, 3, 2, 2, 3, 1, 2, 0, 0};
    int pix, lane, q, r, c, r0, c0;
    EMU_CHECK(conv2d_dims_finish(&d) == 0, "tc place: bad shape");
    for (pix = 0; pix < d.n * d.p * d.q + 70; pix++) {
        const int img = pix / (d.p * d.q), oh = pix % (d.p * d.q) / d.q, ow = pix % d.q;
        const int h0 = oh * d.stride_h - d.pad_h, w0 = ow * d.stride_w - d.pad_w;
        const int want_y = pix < d.n * d.p * d.q ? (img * d.k * d.p + oh) * d.q + ow : -1;
        int xoff, gh0, gw0;
        if (pix < d.n * d.p * d.q) {
            gb_ctc_pixel(&d, pix, &xoff, &gh0, &gw0);
            EMU_CHECK(gh0 == h0 && gw0 == w0 && xoff == img * d.c * d.h * d.w + h0 * d.w + w0,
                      "tc pixel %d: origin (%d, %d) offset %d", pix, gh0, gw0, xoff);
        }
        EMU_CHECK(gb_ctc_y_at(&d, pix) == want_y, "tc pixel %d: at %d in y, want %d", pix,
                  gb_ctc_y_at(&d, pix), want_y);
    }
    for (lane = 0; lane < 32; lane++) {
        gb_wm_frag_elem(lane, 0, &r0, &c0);
        for (q = 1; q < GB_WM_PER_LANE; q++) {
            gb_wm_frag_elem(lane, q, &r, &c);
            EMU_CHECK(c == c0, "lane %d: fragment element %d in column %d, element 0 in %d", lane,
                      q, c, c0);
        }
    }
}

struct tc_args {
    struct conv2d_dims d;
    struct gb_ctc_walk walk;
    const __half *x, *wt;
    __half *y;
};

static void tc_body(void *p) {
    const struct tc_args *a = p;
    gb_conv2d_wmma_f16(a->d, a->walk, a->x, a->wt, a->y);
}

/* n halves from floats uniform in [-1, 1) (seed), and the same values as floats. */
static void tc_fill(__half *h, float *f, size_t n, uint64_t seed) {
    size_t i;
    emu_fill(f, n, seed, -1.0f, 1.0f);
    for (i = 0; i < n; i++) {
        h[i] = __float2half_rn(f[i]);
        f[i] = __half2float(h[i]);
    }
}

/* The wrong outputs of a tensor-core kernel's half y (ny elements, y[ny] a NaN it must not
 * write): right within its half rounding (2^-11 of it, 2^-10 here), the FP32 sums' error (1e-5
 * of Σ|x·w|) and a half subnormal; a lost or doubled product is far outside that. */
static long tc_bad(const __half *yh, const double *ref, const double *scale, size_t ny,
                   int report) {
    size_t i;
    long bad = 0;
    for (i = 0; i < ny; i++) {
        const double got = (double)__half2float(yh[i]);
        const double tol = fabs(ref[i]) * 0x1p-10 + 1e-5 * scale[i] + 0x1p-24;
        if (!(fabs(got - ref[i]) <= tol)) {
            if (report && bad < 3)
                fprintf(stderr, "  y[%zu] = %.8g, want %.8g\n", i, got, ref[i]);
            bad++;
        }
    }
    if (bad == 0 && !isnan(__half2float(yh[ny]))) {
        if (report)
            fprintf(stderr, "  wrote outside y\n");
        bad = 1;
    }
    return bad;
}

/* One case of the tensor-core kernel: the wrong outputs (-1: the emulation failed). misalign:
 * x and the filters one half past an aligned address (the filter pairs' single-half path); the
 * tolerance: tc_bad. */
static long run_tc_case(const struct conv2d_dims *d0, int misalign, enum emu_order order,
                        int report) {
    struct conv2d_dims d = *d0;
    size_t nx, nw, ny, i;
    __half *xh, *wh, *yh;
    float *xf, *wf;
    double *ref, *scale;
    struct tc_args a;
    dim3 grid = emu_dim3(1, 1, 1);
    long bad = 0;
    if (conv2d_dims_finish(&d) != 0 || !gb_ctc_fits(&d))
        return -1;
    nx = (size_t)d.n * d.c * d.h * d.w;
    nw = (size_t)d.k * d.c * d.r * d.s;
    ny = (size_t)d.n * d.k * d.p * d.q;
    xh = emu_alloc((nx + 1) * sizeof *xh), wh = emu_alloc((nw + 1) * sizeof *wh);
    yh = emu_alloc((ny + 1) * sizeof *yh);
    xf = emu_alloc(nx * sizeof *xf), wf = emu_alloc(nw * sizeof *wf);
    ref = emu_alloc(ny * sizeof *ref), scale = emu_alloc(ny * sizeof *scale);
    tc_fill(xh + misalign, xf, nx, 51);
    tc_fill(wh + misalign, wf, nw, 52);
    for (i = 0; i <= ny; i++)
        yh[i].bits = 0x7e00; /* NaN */
    ref_conv2d(&d, xf, wf, ref, scale);
    a.d = d, a.x = xh + misalign, a.wt = wh + misalign, a.y = yh;
    gb_ctc_walk_init(d.h, d.w, d.r, d.s, &a.walk); /* as kernels/conv2d/cuda.cu's launcher */
    if (gb_wm_grid(d.k, d.n * d.p * d.q, &grid.x, &grid.y) != 0 ||
        emu_launch(grid, emu_dim3(GB_WM_THREADS, 1, 1), 0, order, 77, tc_body, &a) != 0) {
        bad = -1;
    } else {
        bad = tc_bad(yh, ref, scale, ny, report);
    }
    free(xh), free(wh), free(yh), free(xf), free(wf), free(ref), free(scale);
    return bad;
}

/* Every case in every order (misaligned too where drop is 0); with a barrier dropped, every case
 * the barrier guards must come out wrong: barrier 1 (slice 0 stored) all, barrier 2 (the slice's
 * mma steps done, the next slice stored) those with more than one slice. */
static int tc_cases(int drop) {
    /* n c h w  k r s  stride_h stride_w pad_h pad_w */
    static const struct conv2d_dims cases[] = {
        {2, 1, 9, 11, 5, 3, 3, 1, 1, 1, 1, 0, 0},   /* c = 1, 3×3 same padding */
        {3, 5, 7, 7, 66, 1, 1, 1, 1, 0, 0, 0, 0},   /* 1×1, two tiles of filters, 147 pixels */
        {2, 19, 10, 9, 33, 3, 3, 1, 1, 1, 1, 0, 0}, /* 3×3, 6 slices, 180 pixels */
        {1, 7, 13, 12, 17, 5, 5, 2, 2, 2, 2, 0, 0}, /* 5×5, stride 2, padding 2 */
        {1, 2, 12, 40, 7, 5, 20, 2, 8, 1, 3, 0, 0}, /* speech layer: 5×20, strides 2, 8 */
        {1, 1, 5, 5, 3, 2, 2, 3, 3, 2, 2, 0, 0},    /* padding wider than the filter */
        {4, 3, 10, 9, 9, 3, 2, 1, 2, 0, 1, 0, 0},   /* rectangular filter, strides 1, 2 */
        {1, 16, 8, 8, 64, 3, 3, 1, 1, 1, 1, 0, 0},  /* one full tile, 4.5 slices */
        {2, 33, 6, 5, 70, 1, 1, 1, 1, 0, 0, 0, 0},  /* 1×1, c·r·s = 33: a slice of one tap */
        {2, 9, 11, 10, 20, 3, 3, 2, 2, 1, 1, 0, 0}, /* c = 9, 3×3 stride 2: 3 slice tables */
        {1, 3, 20, 19, 8, 7, 7, 2, 2, 3, 3, 0, 0},  /* 7×7 stride 2 padding 3: 5 slices, 100 px */
    };
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    int ci, o, m, runs = 0;
    for (ci = 0; ci < ncases; ci++) {
        const struct conv2d_dims *c = &cases[ci];
        const int crs = c->c * c->r * c->s;
        for (m = 0; m < (drop ? 1 : 2); m++)
            for (o = 0; o < EMU_ORDERS; o++) {
                long bad = run_tc_case(c, m, (enum emu_order)o, !drop);
                runs++;
                EMU_CHECK(bad >= 0, "emulation failed");
                if (drop == 0)
                    EMU_CHECK(bad == 0, "conv2d tc case %d%s %s: %ld wrong", ci,
                              m ? " misaligned" : "", emu_order_name((enum emu_order)o), bad);
                else if (drop == 1 || crs > GB_WM_BK)
                    EMU_CHECK(bad > 0, "conv2d tc case %d %s: barrier %d removed, yet right", ci,
                              emu_order_name((enum emu_order)o), drop);
            }
    }
    return runs;
}

#if GB_EMU_ARCH >= 800
#include "kernels/conv2d/test_emu_mma.h"

int main(void) {
    const int drop = GB_TEST_DROP_BARRIER;
    int runs;
    clock_t t0 = clock();
    /* the arch-750 build's checks: compiled here too, run there */
    (void)run_case, (void)f64_cases, (void)walk_checks, (void)tc_walk_checks;
    (void)tc_table_checks, (void)tc_place_checks, (void)tc_cases, (void)run_tc_case;
    cmm_layout_checks();
    cmm_gather_checks();
    cmm_ldsm_checks();
    cmm_pair_checks();
    cmm_pick_checks();
    runs = cmm_cases(drop);
    printf("%d emulated conv2d mma.sync launches as for sm_%d (barrier removed: %d), %.0f ms, "
           "%d failures\n",
           runs, GB_EMU_ARCH / 10, drop, 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC,
           emu_failures);
    return emu_failures ? 1 : 0;
}
#else
int main(void) {
    /* n c h w  k r s  stride_h stride_w pad_h pad_w (p, q filled in) */
    static const struct conv2d_dims cases[] = {
        {2, 3, 9, 11, 5, 3, 3, 1, 1, 1, 1, 0, 0},   /* 3×3 same-padding, 2 slices of taps */
        {1, 2, 12, 40, 7, 5, 20, 2, 8, 1, 3, 0, 0}, /* speech layer: 5×20 filter, strides 2, 8 */
        {3, 5, 7, 7, 66, 1, 1, 1, 1, 0, 0, 0, 0},   /* 1×1, two tiles of filters */
        {2, 8, 6, 6, 4, 3, 3, 2, 2, 0, 0, 0, 0},    /* c·r·s and p·q multiples of 4: float4 */
        {1, 1, 5, 5, 3, 2, 2, 3, 3, 2, 2, 0, 0},    /* padding wider than the filter */
        {4, 3, 10, 9, 9, 3, 2, 1, 2, 0, 1, 0, 0},   /* 3 tiles of pixels, rectangular filter */
        {2, 17, 6, 7, 9, 3, 3, 1, 1, 1, 1, 0, 0},   /* 17 channels: a group of 16 and of 1 */
        {1, 32, 5, 5, 70, 2, 3, 1, 1, 0, 1, 0, 0},  /* 2 full groups of 16, 2 tiles of filters */
    };
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    const int drop = GB_TEST_DROP_BARRIER;
    int ci, o, m, runs = 0;
    clock_t t0 = clock();
    for (ci = 0; ci < ncases; ci++) {
        const struct conv2d_dims *c = &cases[ci];
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
                else if (c->k >= 4 && (drop == 2 || gb_conv2d_slices(c->c, c->r, c->s) > 1))
                    EMU_CHECK(bad > 0,
                              "conv2d case %d %s: barrier %d removed, yet the result is right: "
                              "the emulation would not catch it",
                              ci, emu_order_name((enum emu_order)o), drop);
            }
        }
    }
    runs += f64_cases(cases, ncases, drop);
    walk_checks();
    tc_walk_checks();
    tc_table_checks();
    tc_place_checks();
    runs += tc_cases(drop);
    printf("%d emulated conv2d launches as for sm_%d (barrier removed: %d), %.0f ms, "
           "%d failures\n",
           runs, GB_EMU_ARCH / 10, drop, 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC,
           emu_failures);
    return emu_failures ? 1 : 0;
}
#endif
