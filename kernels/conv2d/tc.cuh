/* tc.cuh — conv2d/cuda_tc's kernel (kernels/conv2d/cuda_tc.c): NCHW forward convolution on the
 * FP16 tensor cores through nvcuda::wmma, as an implicit GEMM, for any filter size, stride and
 * padding (per axis). x (n×c×h×w), the filters (k×c×r×s) and y (n×k×p×q) are __half; the
 * products (exact in FP32) are summed in FP32 and rounded to half once, on their way into y: the
 * contract of conv2d/cudnn's f16 tier (half tensors, FP32 compute, kernels/conv2d/cudnn.c), so
 * both rows verify against the same reference and compare like with like.
 *
 *   gb_conv2d_wmma_f16  16×16×16 f16 fragments, compute capability 7.0, CUDA 9; below sm_70 a
 *                       trap the host never launches (gb_conv2d_wmma_runs, kernels/conv2d/cuda.cu)
 *
 * SASS check: gb_conv2d_wmma_f16 HMMA from 700
 * (tests/gpuinfo/sass_check.py: HMMA in the build's code for sm_70 and newer, none below)
 *
 * The GEMM view is kernels.cuh's: Y (k × n·p·q) = Wt (k × c·r·s) · X̂ (c·r·s × n·p·q) — rows are
 * filters, columns the output pixels of the whole batch, the depth the filter taps; X̂ is never
 * materialised. The block tiling, the fragments and the warps are the FP16 WMMA GEMM's
 * (kernels/common/wmma.cuh: 64×64 block tiles of 4 warps of 32×32, 32-deep slices, shared tiles As
 * (filters × taps) and Bs (taps × pixels) padded by 8 halves a row), and so is the code: its tier
 * pieces are instantiated here without its kernel (kernels/common/wmma_tile.cuh with GB_WT_NO_KERNEL, named
 * gb_conv2d_hwm_*): Wt is a row-major k × c·r·s matrix, so its pairs come from fetch_pair; the
 * mma steps are mma_slice, the accumulators leave through store, and the emulation's twin (each
 * lane computes its fragment elements with FP32 FMAs over the same shared tiles) is that file's.
 * Why C++ fragments at all: kernels/common/wmma.cuh's file comment.
 *
 * The convolution's own parts:
 * - the im2col gather, in the load of the Bs slice: thread t owns pixel t % 64 of the block's
 *   tile (its image and window origin computed once, gb_ctc_pixel) and taps 16·(t / 64) … +15 of
 *   every slice, so the 32 lanes of a warp read one tap of 32 consecutive output pixels
 *   (consecutive input where the stride is 1). Slice 0's taps come from a walk (a tap's channel,
 *   filter row and column and its offset in the image found by division once, gb_ctc_tap_at,
 *   then one tap on at a time, gb_ctc_next); every later slice's from a tap table in shared
 *   memory: 32 entries (off, filter row dh, column dw: gb_ctc_entry) that warp 0 writes a slice
 *   ahead, each lane walking its tap one slice on at a time (gb_ctc_advance: adds and compares
 *   only). A thread's element is then two adds, two unsigned compares and the load
 *   (gb_ctc_gather1), where the walk per element cost the carries' branches: 689 → 472 SASS
 *   instructions per 16 HMMA in the loop on sm_80 (CUDA 13), registers unchanged.
 * - zero padding: a tap past c·r·s, a pixel past n·p·q, or a window place outside the image (the
 *   convolution's padding) is a zero in Bs — the first two through markers that put the place
 *   outside every image (GB_CTC_NOWHERE as the tap's row, GB_CTC_NO_PIXEL as the pixel's); a
 *   filter past k or a tap past c·r·s a zero in As. An edge tile is a padded full tile, so
 *   every fragment is a full one.
 * - register prefetch into two shared buffers: slice s+1 is fetched into registers (8 filter
 *   pairs and 16 input halves a thread) before the mma steps on slice s and stored into the other
 *   buffer after them, so one barrier a slice suffices; it also fences the two tap tables.
 * - the epilogue: each warp stores a fragment to its own 16×20-float patch, and its lanes round
 *   the elements to half and write those inside y (filter < k, pixel < n·p·q): no store leaves
 *   y. A lane's column in a fragment is the same for all its elements (gb_wm_frag_elem), so the
 *   places in y of its two pixels are computed once (gb_ctc_y_at).
 * The plain-C pieces (the walk, the tap table's entries, the pixel and y places) are checked on
 * the CPU against division by kernels/conv2d/test_emu.c, which runs the kernel's twin against a
 * direct convolution.
 */
#ifndef GPUBENCH_CONV2D_TC_CUH
#define GPUBENCH_CONV2D_TC_CUH

#include "bench/conv2d.h"
#include "kernels/common/wmma.cuh"

/* Taps a thread gathers a slice (16): the Bs slice's 32 × 64 halves over the block's threads. */
enum { GB_CTC_TAPS = GB_WM_BK * GB_WM_BN / GB_WM_THREADS };

/* The walk over a filter's taps in order, tap = (ci·r + ri)·s + si, and where each lies in an
 * image of h × w: off = (ci·h + ri)·w + si, from the window origin. */
struct gb_ctc_tap {
    int ci, ri, si, off;
};

/* The walk's constant steps for an r × s filter on an h × w image. */
struct gb_ctc_walk {
    int r, s;
    int row_wrap;  /* w − s: off from filter column s − 1 to column 0 of the next row */
    int chan_wrap; /* h·w − r·w: off from filter row r − 1 to row 0 of the next channel */
    int dc, dr, ds, doff; /* GB_WM_BK taps (one slice) as channel, row, column and off steps */
};

/* Tap number tap as channel, filter row and column, and off (two divisions). */
GB_WM_HD void gb_ctc_tap_at(int tap, int h, int w, int r, int s, struct gb_ctc_tap *t) {
    const int rs = r * s;
    t->ci = tap / rs;
    t->ri = (tap - t->ci * rs) / s;
    t->si = tap - t->ci * rs - t->ri * s;
    t->off = (t->ci * h + t->ri) * w + t->si;
}

GB_WM_HD void gb_ctc_walk_init(int h, int w, int r, int s, struct gb_ctc_walk *k) {
    struct gb_ctc_tap d;
    gb_ctc_tap_at(GB_WM_BK, h, w, r, s, &d);
    k->r = r;
    k->s = s;
    k->row_wrap = w - s;
    k->chan_wrap = h * w - r * w;
    k->dc = d.ci;
    k->dr = d.ri;
    k->ds = d.si;
    k->doff = d.off;
}

/* *t one tap on. */
GB_WM_HD void gb_ctc_next(const struct gb_ctc_walk *k, struct gb_ctc_tap *t) {
    t->si++;
    t->off++;
    if (t->si == k->s) {
        t->si = 0;
        t->ri++;
        t->off += k->row_wrap;
        if (t->ri == k->r) {
            t->ri = 0;
            t->ci++;
            t->off += k->chan_wrap;
        }
    }
}

/* *t one slice (GB_WM_BK taps) on: the slice's steps plus at most one carry each (ds < s and
 * dr < r, so si + ds < 2s and ri + dr + 1 < 2r). */
GB_WM_HD void gb_ctc_advance(const struct gb_ctc_walk *k, struct gb_ctc_tap *t) {
    t->si += k->ds;
    t->ri += k->dr;
    t->ci += k->dc;
    t->off += k->doff;
    if (t->si >= k->s) {
        t->si -= k->s;
        t->ri++;
        t->off += k->row_wrap;
    }
    if (t->ri >= k->r) {
        t->ri -= k->r;
        t->ci++;
        t->off += k->chan_wrap;
    }
}

/* A tap's entry in the tap table: off; dh, dw the filter row and column, except that dh is
 * GB_CTC_NOWHERE for a tap past c·r·s (channel c or more), so that its place h0 + dh lies below
 * no image row (gb_ctc_fits bounds h and the padding) and it gathers a zero. */
enum { GB_CTC_NOWHERE = 1 << 30 };
GB_WM_HD void gb_ctc_entry(const struct gb_ctc_tap *t, int c, int *off, int *dh, int *dw) {
    *off = t->off;
    *dh = t->ci < c ? t->ri : GB_CTC_NOWHERE;
    *dw = t->si;
}

/* The window origin row of a pixel past n·p·q: with any dh (below r, or GB_CTC_NOWHERE) it lies
 * outside the image, so the pixel gathers zeros. */
enum { GB_CTC_NO_PIXEL = -(1 << 29) };

/* Output pixel pix (< n·p·q) of the batch: its window origin (h0, w0) in its image, negative in
 * the padding, and xoff, the offset in x of the image's element 0 plus h0·w + w0 (so that x[xoff
 * + tap's off] is the tap's input, where it is inside the image). */
GB_WM_HD void gb_ctc_pixel(const struct conv2d_dims *d, int pix, int *xoff, int *h0, int *w0) {
    const int pq = d->p * d->q, img = pix / pq, rem = pix - img * pq;
    const int oh = rem / d->q, ow = rem - oh * d->q;
    *h0 = oh * d->stride_h - d->pad_h;
    *w0 = ow * d->stride_w - d->pad_w;
    *xoff = img * d->c * d->h * d->w + *h0 * d->w + *w0;
}

/* Where output pixel pix of filter 0 sits in y (n × k × p·q; filter f: + f·p·q), or -1 past the
 * n·p·q pixels. */
GB_WM_HD int gb_ctc_y_at(const struct conv2d_dims *d, int pix) {
    const int pq = d->p * d->q, img = pix / pq;
    return pix < d->n * pq ? img * d->k * pq + (pix - img * pq) : -1;
}

/* Does the kernel's int arithmetic reach every index of d? conv2d_dims_int_indexed, and the
 * walk's offsets, which run up to a slice past the last channel: (c + GB_WM_BK + 1)·h·w; and
 * the tap table's markers (h and the padding below 2^28: GB_CTC_NOWHERE, GB_CTC_NO_PIXEL). */
static inline int gb_ctc_fits(const struct conv2d_dims *d) {
    return conv2d_dims_int_indexed(d) && d->h < (1 << 28) && d->pad_h < (1 << 28) &&
           d->r < (1 << 28) &&
           ((long long)d->c + GB_WM_BK + 1) * d->h * d->w + d->w <= 2147483647LL;
}

#if GB_HAVE_WMMA
/* --- the FP16 tier's pieces of the WMMA GEMM, as gb_conv2d_hwm_*, without its kernel ------- */
#define GB_WT_NAME gb_conv2d_hwm
#define GB_WT_NO_KERNEL
#include "kernels/common/wmma_f16.cuh"

#if GB_WMMA_BODY
/* This thread's filter pairs of slice k0 into registers: a[q], pair tid + q·128 of the 64 × 32
 * filter slice from filter m0. */
static __device__ __forceinline__ void gb_ctc_fetch_a(const __half *__restrict__ wt, int k, int crs,
                                                      int m0, int k0, int tid, __half2 *a) {
    int q;
    GB_UNROLL
    for (q = 0; q < GB_WM_PAIRS; q++)
        a[q] = gb_conv2d_hwm_fetch_pair(wt, crs, k, crs, m0, k0, GB_WM_BK, tid + q * GB_WM_THREADS);
}

/* One input half: the tap (off, dh, dw: gb_ctc_entry) of the pixel (xoff, h0, w0), zero where
 * its place is outside the h × w image (which a tap past c·r·s or a missing pixel always is). */
static __device__ __forceinline__ __half gb_ctc_gather1(const __half *__restrict__ x, int h, int w,
                                                        int xoff, int h0, int w0, int off, int dh,
                                                        int dw) {
    return (unsigned)(h0 + dh) < (unsigned)h && (unsigned)(w0 + dw) < (unsigned)w
               ? x[xoff + off]
               : __float2half_rn(0.0f);
}

/* Slice 0's input halves v[j] of this thread's taps t, t+1, … (the walk, once, before the loop). */
static __device__ __forceinline__ void gb_ctc_gather_walk(const __half *__restrict__ x,
                                                          const struct conv2d_dims *d,
                                                          const struct gb_ctc_walk *k,
                                                          struct gb_ctc_tap t, int xoff, int h0,
                                                          int w0, __half *v) {
    int j, off, dh, dw;
    GB_UNROLL
    for (j = 0; j < GB_CTC_TAPS; j++) {
        gb_ctc_entry(&t, d->c, &off, &dh, &dw);
        v[j] = gb_ctc_gather1(x, d->h, d->w, xoff, h0, w0, off, dh, dw);
        gb_ctc_next(k, &t);
    }
}

/* A later slice's input halves v[j]: this thread's taps from the slice's tap table in shared
 * memory (tab: its GB_CTC_TAPS entries of off, dh, dw; one table, read by all 64 pixels). */
static __device__ __forceinline__ void
gb_ctc_gather_tab(const __half *__restrict__ x, const struct conv2d_dims *d, const int *toff,
                  const int *tdh, const int *tdw, int xoff, int h0, int w0, __half *v) {
    int j;
    GB_UNROLL
    for (j = 0; j < GB_CTC_TAPS; j++)
        v[j] = gb_ctc_gather1(x, d->h, d->w, xoff, h0, w0, toff[j], tdh[j], tdw[j]);
}

/* The fetched share into the shared slices As (64 × 32) and Bs (32 × 64; this thread's column
 * bx, rows btap …); the caller's barrier fences it. */
static __device__ __forceinline__ void gb_ctc_stage(__half *As, __half *Bs, int tid, int bx,
                                                    int btap, const __half2 *a, const __half *v) {
    int q, j, r, c;
    GB_UNROLL
    for (q = 0; q < GB_WM_PAIRS; q++) {
        gb_wm_pair(tid + q * GB_WM_THREADS, GB_WM_BK, &r, &c);
        *(__half2 *)(As + r * GB_WM_PA + c) = a[q]; /* GB_WM_PA and c even: an aligned pair */
    }
    GB_UNROLL
    for (j = 0; j < GB_CTC_TAPS; j++)
        Bs[(btap + j) * GB_WM_PB + bx] = v[j];
}

/* Lane's elements of a fragment patch (filters f0 …, the lane's pixel at yo: gb_ctc_y_at) into
 * y as halves, where the filter is below k and the pixel exists. */
static __device__ __forceinline__ void gb_ctc_copy_out(const float *patch, int lane, int f0, int k,
                                                       int pq, int yo, __half *__restrict__ y) {
    int q, r, c;
    GB_UNROLL
    for (q = 0; q < GB_WM_PER_LANE; q++) {
        gb_wm_frag_elem(lane, q, &r, &c);
        if (yo >= 0 && f0 + r < k)
            y[yo + (f0 + r) * pq] = __float2half_rn(patch[r * GB_WM_PC + c]);
    }
}
#endif /* GB_WMMA_BODY */

/* y = conv(x, wt) (see the file comment). Grid: gb_wm_grid(k, n·p·q) — x over 64-pixel tiles,
 * y over 64-filter tiles; GB_WM_THREADS threads; d as filled by conv2d_dims_finish, gb_ctc_fits;
 * walk = gb_ctc_walk_init(d.h, d.w, d.r, d.s), made by the launcher: as a parameter it is read
 * from the constant bank, not held in registers (in registers, CUDA 11.8 spilled 8 bytes on
 * sm_70). Three blocks an SM, as the WMMA GEMM's (up to 170 registers; 4 spill). */
GB_LAUNCH_BOUNDS_MIN(GB_WM_THREADS, 3)
__global__ void gb_conv2d_wmma_f16(struct conv2d_dims d, struct gb_ctc_walk walk,
                                   const __half *__restrict__ x, const __half *__restrict__ wt,
                                   __half *__restrict__ y) {
#if GB_WMMA_BODY
    __shared__ __align__(32) __half As[2][GB_WM_BM * GB_WM_PA]; /* As[filter][tap], 2 buffers */
    __shared__ __align__(32) __half Bs[2][GB_WM_BK * GB_WM_PB]; /* Bs[tap][pixel], 2 buffers */
    __shared__ __align__(32) float Cs[GB_WM_WARPS * GB_WM_F * GB_WM_PC];
    /* the tap tables of slices 1, 2, …: entries off, dh, dw (gb_ctc_entry) of the slice's 32
     * taps, written by warp 0 a slice ahead, slice s + 2 into buffer s & 1 */
    __shared__ __align__(16) int Toff[2][GB_WM_BK];
    __shared__ __align__(16) int Tdh[2][GB_WM_BK];
    __shared__ __align__(16) int Tdw[2][GB_WM_BK];
    const int tid = (int)threadIdx.x, w = tid / 32, lane = tid % 32;
    const int m0 = (int)blockIdx.y * GB_WM_BM, n0 = (int)blockIdx.x * GB_WM_BN;
    const int crs = d.c * d.r * d.s, pq = d.p * d.q;
    const int nslices = (crs + GB_WM_BK - 1) / GB_WM_BK;
    /* the input this thread gathers: pixel n0 + bx, taps btap … btap + 15 of every slice */
    const int bx = tid % GB_WM_BN, btap = (tid / GB_WM_BN) * GB_CTC_TAPS;
    float *patch = Cs + w * GB_WM_F * GB_WM_PC;
    struct gb_ctc_tap t;
    gb_conv2d_hwm_acc acc[2][2];
    __half2 a[GB_WM_PAIRS];
    __half v[GB_CTC_TAPS];
    int xoff = 0, h0 = GB_CTC_NO_PIXEL, w0 = 0, sl, i, j, r, c, fr, fc, yo[2];

    if (n0 + bx < d.n * pq)
        gb_ctc_pixel(&d, n0 + bx, &xoff, &h0, &w0);
    gb_conv2d_hwm_zero_acc(acc);
    /* slice 0 by the walk from this thread's first tap */
    gb_ctc_tap_at(btap, d.h, d.w, d.r, d.s, &t);
    gb_ctc_fetch_a(wt, d.k, crs, m0, 0, tid, a);
    gb_ctc_gather_walk(x, &d, &walk, t, xoff, h0, w0, v);
    gb_ctc_stage(As[0], Bs[0], tid, bx, btap, a, v);
    /* from here on t is warp 0's table walk: tap lane of slice 1, 2, … */
    if (w == 0) {
        gb_ctc_tap_at(GB_WM_BK + lane, d.h, d.w, d.r, d.s, &t);
        gb_ctc_entry(&t, d.c, &Toff[1][lane], &Tdh[1][lane], &Tdw[1][lane]);
    }
    GB_BARRIER(1); /* slice 0 and slice 1's tap table are in shared memory */
    for (sl = 0; sl < nslices; sl++) {
        const int more = sl + 1 < nslices, nb = (sl + 1) & 1; /* uniform over the block */
        if (more) {
            gb_ctc_fetch_a(wt, d.k, crs, m0, (sl + 1) * GB_WM_BK, tid, a);
            gb_ctc_gather_tab(x, &d, Toff[nb] + btap, Tdh[nb] + btap, Tdw[nb] + btap, xoff, h0, w0,
                              v);
            if (w == 0 && sl + 2 < nslices) { /* slice sl + 2's table; slice sl's was here */
                gb_ctc_advance(&walk, &t);
                gb_ctc_entry(&t, d.c, &Toff[sl & 1][lane], &Tdh[sl & 1][lane], &Tdw[sl & 1][lane]);
            }
        }
        gb_conv2d_hwm_mma_slice(As[sl & 1], Bs[sl & 1], w, lane, acc);
        if (more)
            gb_ctc_stage(As[nb], Bs[nb], tid, bx, btap, a, v);
        /* slice sl + 1 and slice sl + 2's table are stored, and everyone is done with slice sl
         * and its table, whose buffers the next pass overwrites */
        GB_BARRIER(2);
    }
    /* the lane's pixel in fragment column j: the same column for all its elements */
    gb_wm_frag_elem(lane, 0, &r, &c);
    GB_UNROLL
    for (j = 0; j < 2; j++) {
        gb_wm_frag_origin(w, 0, j, &fr, &fc);
        yo[j] = gb_ctc_y_at(&d, n0 + fc + c);
    }
    /* unrolled: the fragments stay in registers (wmma_tile.cuh's kernel says why) */
    GB_UNROLL
    for (i = 0; i < 2; i++) {
        GB_UNROLL
        for (j = 0; j < 2; j++) {
            gb_wm_frag_origin(w, i, j, &fr, &fc);
            gb_conv2d_hwm_store(patch, lane, acc, i, j);
            gb_ctc_copy_out(patch, lane, m0 + fr, d.k, pq, yo[j], y);
            gb_conv2d_hwm_patch_done();
        }
    }
#else
    (void)d, (void)walk, (void)x, (void)wt, (void)y;
    __trap(); /* no FP16 tensor cores below sm_70: never launched here */
#endif
}
GB_SIM_KERNEL(gb_conv2d_wmma_f16, struct conv2d_dims, struct gb_ctc_walk, const __half *,
              const __half *, __half *)
#endif /* GB_HAVE_WMMA */

#endif
