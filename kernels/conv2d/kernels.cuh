/* kernels.cuh — NCHW float32 and float64 forward convolution as an implicit GEMM (C subset of CUDA
 * C), correct for any filter size, stride and padding (per axis).
 *
 * The GEMM view, never materialised: Y (k × n·p·q) = Wt (k × c·r·s) · X̂ (c·r·s × n·p·q), where
 * column (img, oh, ow) of X̂ holds, for each filter tap (ci, ri, si), the input value
 * x[img][ci][oh·stride_h − pad_h + ri][ow·stride_w − pad_w + si], or 0 in the padding. The block
 * tiling is that of the 64×64 SGEMM (kernels/gemm/tile.cuh): 64 filters × 64 output pixels per
 * block, 16-deep slices of the reduction staged in shared memory, double-buffered (one barrier a
 * slice), 4×4 outputs per thread, register prefetch of the next slice (one configuration for
 * every architecture: within 63 registers in scripts/ptxas-report's sm_20/sm_30 proxy). The
 * reduction walks filter positions outside and channels inside (gb_conv2d_walk: no integer
 * division in the loop, one window check a slice instead of one a tap). The X̂ slice is gathered
 * straight from the input: each thread owns one output pixel (its image and window origin are
 * computed once) and 4 channels of the slice; consecutive threads own consecutive pixels, which
 * makes the gathers coalesced along the input rows when the stride is 1. The f64 tier has its own
 * kernel, gb_conv2d64_kernel (below). Shared by the nvcc build (cuda.cu adds the launchers) and
 * the CPU emulation of the tests.
 */
#ifndef GPUBENCH_CONV2D_KERNELS_CUH
#define GPUBENCH_CONV2D_KERNELS_CUH

#include "bench/conv2d.h"
#include "kernels/common/kernel_common.cuh"

#define GB_CONV_THREADS 256
#define GB_CONV_BM 64               /* filters per block */
#define GB_CONV_BN 64               /* output pixels per block */
#define GB_CONV_BK 16               /* filter taps per slice */
#define GB_CONV_PM (GB_CONV_BM + 4) /* shared row pitches, padded as in kernels/gemm/tile.cuh */
#define GB_CONV_PN (GB_CONV_BN + 4)

/* The walk of the reduction over slices. The GEMM's reduction index runs over the filter
 * positions (ri, si) outside and the channels inside — the order of the sum does not matter —,
 * the channels padded to a multiple of GB_CONV_BK: slice t is filter position pos = t / ceil(c /
 * 16) and channels cb … cb + 15. Within a slice every tap has the same (ri, si), so a thread
 * checks its pixel's window against the image once a slice (not once an element), the taps of a
 * slice are h·w apart in the input and r·s apart in the filters (no division to find them), and
 * the next slice follows by counting (gb_conv2d_walk_next), not dividing. The padded channels
 * (cb + j ≥ c) are zeros in both operands. Costs r·s·(16 − c % 16) zero taps a filter where c is
 * not a multiple of 16. */
struct gb_conv2d_walk {
    int cb;     /* first channel of the slice */
    int ri, si; /* its filter position */
    int pos;    /* ri·s + si */
};

/* Slices of the reduction for d (r·s positions times ceil(c / 16) channel groups). */
static __device__ __forceinline__ int gb_conv2d_slices(int c, int r, int s) {
    return r * s * ((c + GB_CONV_BK - 1) / GB_CONV_BK);
}

/* The walk's next slice: the next 16 channels, or the first ones of the next filter position. */
static __device__ __forceinline__ void gb_conv2d_walk_next(struct gb_conv2d_walk *wk, int c,
                                                           int s) {
    wk->cb += GB_CONV_BK;
    if (wk->cb >= c) {
        wk->cb = 0;
        wk->pos++;
        if (++wk->si == s) {
            wk->si = 0;
            wk->ri++;
        }
    }
}

/* The kernel's pieces below are __forceinline__ and work on its register arrays through pointers:
 * inlined and unrolled, they index them with constants only, so everything stays in registers
 * (scripts/ptxas-report: no stack frame). */

/* Offsets are ints: the launcher runs only shapes whose tensors have fewer than 2^31 elements
 * (conv2d_dims_int_indexed), and 64-bit ones would cost the registers Fermi does not have. */

/* *pa = this thread's 4 filters (nf of them exist; the first at offset wrow of wt) at tap
 * (channel cb + wtap, position pos) of the slice: the filters are crs apart, zero past k or c. */
static __device__ __forceinline__ void gb_conv2d_fetch_w(const float *__restrict__ wt, int wrow,
                                                         int crs, int rs, int c, int nf, int wtap,
                                                         const struct gb_conv2d_walk *wk,
                                                         float4 *pa) {
    const int ok = wk->cb + wtap < c;
    const float *w = wt + (ok ? wrow + (wk->cb + wtap) * rs + wk->pos : 0);
    pa->x = (ok && nf > 0) ? GB_LDG(w) : 0.0f;
    pa->y = (ok && nf > 1) ? GB_LDG(w + crs) : 0.0f;
    pa->z = (ok && nf > 2) ? GB_LDG(w + 2 * crs) : 0.0f;
    pa->w = (ok && nf > 3) ? GB_LDG(w + 3 * crs) : 0.0f;
}

/* pb[0..3] = this thread's pixel (window origin h0, w0; element (0, h0, w0) of its image at
 * offset xwin of x, possibly outside it; bok: the pixel exists) at the slice's 4 taps btap …
 * btap+3: channels cb + btap + j at the slice's position, h·w apart; zero in the padding or past
 * c. One window check for the 4. */
static __device__ __forceinline__ void gb_conv2d_fetch_x(const float *__restrict__ x, int xwin,
                                                         const struct conv2d_dims *d, int hw,
                                                         int bok, int h0, int w0, int btap,
                                                         const struct gb_conv2d_walk *wk,
                                                         float *pb) {
    const int in = bok && (unsigned)(h0 + wk->ri) < (unsigned)d->h &&
                   (unsigned)(w0 + wk->si) < (unsigned)d->w;
    const int nx = in ? d->c - (wk->cb + btap) : 0; /* taps of the 4 that exist */
    const float *xp = x + (in ? xwin + (wk->cb + btap) * hw + wk->ri * d->w + wk->si : 0);
    int j;
    GB_UNROLL
    for (j = 0; j < 4; j++)
        pb[j] = j < nx ? GB_LDG(xp + j * hw) : 0.0f;
}

/* acc[i][j] += the staged slice's filter ty·4+i times pixel tx·4+j, over its 16 taps (a and b:
 * scratch for a tap's 4 filters and 4 pixels). */
static __device__ __forceinline__ void gb_conv2d_compute(const float *As, const float *Bs, int tx,
                                                         int ty, float (*acc)[4], float *a,
                                                         float *b) {
    int i, j, kk;
    GB_UNROLL
    for (kk = 0; kk < GB_CONV_BK; kk++) {
        float4 va = *(const float4 *)(As + kk * GB_CONV_PM + ty * 4);
        float4 vb = *(const float4 *)(Bs + kk * GB_CONV_PN + tx * 4);
        a[0] = va.x, a[1] = va.y, a[2] = va.z, a[3] = va.w;
        b[0] = vb.x, b[1] = vb.y, b[2] = vb.z, b[3] = vb.w;
        GB_UNROLL
        for (i = 0; i < 4; i++) {
            GB_UNROLL
            for (j = 0; j < 4; j++)
                acc[i][j] += a[i] * b[j];
        }
    }
}

/* Store this thread's fetched share (pa, pb) into one buffer of the shared slices
 * As[tap][filter] (the 4 filters: one 128-bit store) and Bs[tap][pixel]. */
static __device__ __forceinline__ void gb_conv2d_stage(float *As, float *Bs, int wtap, int wf,
                                                       int btap, int bx, float4 pa,
                                                       const float *pb) {
    int j;
    *(float4 *)(As + wtap * GB_CONV_PM + wf) = pa;
    GB_UNROLL
    for (j = 0; j < 4; j++)
        Bs[(btap + j) * GB_CONV_PN + bx] = pb[j];
}

/* Write this thread's 4 × 4 outputs (filters m0 + ty·4 …, pixels n0 + tx·4 …) to y (n × k × pq),
 * float4 (through *v) where the 4 pixels are in one image and y allows it. */
static __device__ __forceinline__ void gb_conv2d_store(float *__restrict__ y, int k, int pq,
                                                       int npq, int m0, int n0, int tx, int ty,
                                                       float (*acc)[4], float4 *v) {
    const int vecy = (pq % 4 == 0) && GB_ALIGNED16(y);
    const int col = n0 + tx * 4;
    int i, j;
    GB_UNROLL
    for (i = 0; i < 4; i++) {
        const int f = m0 + ty * 4 + i;
        if (f >= k)
            continue;
        if (vecy && col + 3 < npq) { /* pq % 4 == 0: the 4 pixels share one image */
            const int img = col / pq;
            v->x = acc[i][0], v->y = acc[i][1], v->z = acc[i][2], v->w = acc[i][3];
            *(float4 *)(y + ((size_t)img * k + f) * pq + (col - img * pq)) = *v;
        } else {
            GB_UNROLL
            for (j = 0; j < 4; j++) {
                const int pix = col + j;
                if (pix < npq) {
                    const int img = pix / pq;
                    y[((size_t)img * k + f) * pq + (pix - img * pq)] = acc[i][j];
                }
            }
        }
    }
}

/* y = conv(x, wt) (see the file comment). Grid: x over ceil(n·p·q / 64) pixel tiles, y over
 * ceil(k / 64) filter tiles; GB_CONV_THREADS threads; d as filled by conv2d_dims_finish. */
__global__ void GB_LAUNCH_BOUNDS(GB_CONV_THREADS)
    gb_conv2d_kernel(struct conv2d_dims d, const float *__restrict__ x,
                     const float *__restrict__ wt, float *__restrict__ y) {
    /* two buffers of each slice: slice t is read from one while t+1 is stored into the other */
    __shared__ __align__(16) float As[2 * GB_CONV_BK * GB_CONV_PM]; /* As[tap][filter] */
    __shared__ __align__(16) float Bs[2 * GB_CONV_BK * GB_CONV_PN]; /* Bs[tap][pixel] */
    float acc[4][4], a[4], b[4], pb[4];
    float4 pa, v; /* the kernel's, as a, b: see the note above gb_conv2d_fetch_w */
    const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    const int m0 = blockIdx.y * GB_CONV_BM, n0 = blockIdx.x * GB_CONV_BN;
    const int rs = d.r * d.s, crs = d.c * rs, pq = d.p * d.q, npq = d.n * pq;
    const int ntiles = gb_conv2d_slices(d.c, d.r, d.s);
    const int hw = d.h * d.w;
    /* Filters: this thread stages filters m0 + wf … +3 at tap wtap of every slice. */
    const int wtap = tid / 16, wf = (tid % 16) * 4, nf = d.k - (m0 + wf);
    const int wrow = nf > 0 ? (m0 + wf) * crs : 0;
    /* Input: this thread gathers pixel bpix, taps btap … btap+3 of every slice. */
    const int bx = tid % GB_CONV_BN, btap = (tid / GB_CONV_BN) * 4, bpix = n0 + bx;
    const int bok = bpix < npq;
    const int bimg = bok ? bpix / pq : 0, brem = bok ? bpix - bimg * pq : 0;
    const int oh = brem / d.q, ow = brem - oh * d.q;
    const int h0 = oh * d.stride_h - d.pad_h, w0 = ow * d.stride_w - d.pad_w;
    const int xwin = bimg * d.c * hw + h0 * d.w + w0;
    struct gb_conv2d_walk wk = {0, 0, 0, 0};
    int i, j, t, cur = 0;

    GB_UNROLL
    for (i = 0; i < 4; i++) {
        GB_UNROLL
        for (j = 0; j < 4; j++)
            acc[i][j] = 0.0f;
    }
    gb_conv2d_fetch_w(wt, wrow, crs, rs, d.c, nf, wtap, &wk, &pa);
    gb_conv2d_fetch_x(x, xwin, &d, hw, bok, h0, w0, btap, &wk, pb);
    gb_conv2d_stage(As, Bs, wtap, wf, btap, bx, pa, pb);
    GB_BARRIER(2); /* the first slice is complete */
    for (t = 0; t < ntiles; t++) {
        const int more = t + 1 < ntiles; /* uniform over the block: the barrier below is safe */
        if (more) { /* fetch slice t+1 into registers while slice t is used */
            gb_conv2d_walk_next(&wk, d.c, d.s);
            gb_conv2d_fetch_w(wt, wrow, crs, rs, d.c, nf, wtap, &wk, &pa);
            gb_conv2d_fetch_x(x, xwin, &d, hw, bok, h0, w0, btap, &wk, pb);
        }
        gb_conv2d_compute(As + cur * (GB_CONV_BK * GB_CONV_PM), Bs + cur * (GB_CONV_BK * GB_CONV_PN),
                          tx, ty, acc, a, b);
        if (more) {
            /* The other buffer was last read in the previous pass, before its barrier: free. */
            cur ^= 1;
            gb_conv2d_stage(As + cur * (GB_CONV_BK * GB_CONV_PM),
                            Bs + cur * (GB_CONV_BK * GB_CONV_PN), wtap, wf, btap, bx, pa, pb);
            GB_BARRIER(1); /* the next slice is complete (and everyone is done with this one) */
        }
    }

    gb_conv2d_store(y, d.k, pq, npq, m0, n0, tx, ty, acc, &v);
}

GB_SIM_KERNEL(gb_conv2d_kernel, struct conv2d_dims, const float *, const float *, float *)

/* --- The f64 tier ------------------------------------------------------------------------------
 * The same implicit GEMM in doubles (gb_conv2d64_kernel): the same 64 × 64 block tile and grid
 * (gb_conv2d_grid serves both), 16-deep slices, 4 × 4 outputs per thread, the same gather of the
 * input (each thread owns one output pixel and 4 consecutive taps of a slice). What differs is
 * what doubles make worth it, as in the DGEMM (kernels/gemm/dgemm.cuh): no vector loads (a double
 * is an 8-byte access already, and the FP64 rate, not the loads, bounds every card but the FP64
 * Teslas), no register prefetch of the next slice (a slice in flight would cost 16 more registers
 * for latency the FMA rate hides anyway), shared rows padded by one double, and a thread's 4
 * filters and 4 pixels 16 apart, so that the threads of a warp read consecutive doubles of a
 * shared row. The filter slice is fetched along the taps of a filter row: coalesced. */

/* The staging loops: unrolled (loads in flight together), except where 63 registers are all a
 * thread has (Fermi, sm_30): there the 16 accumulators leave no room for 8 loads in flight. */
#if defined(__CUDA_ARCH__) && GB_ARCH < 350
#define GB_CONV64_STAGE_UNROLL _Pragma("unroll 1")
#else
#define GB_CONV64_STAGE_UNROLL GB_UNROLL
#endif

/* Element (ci, hi, wi) of one input image (c × h × w) of doubles, 0 outside it. */
static __device__ __forceinline__ double gb_conv2d_at64(const double *__restrict__ xim, int h,
                                                        int w, int ci, int hi, int wi) {
    if ((unsigned)hi >= (unsigned)h || (unsigned)wi >= (unsigned)w)
        return 0.0;
    return GB_LDG(xim + ((size_t)ci * h + hi) * w + wi);
}

/* Stage the filter slice at tap k0: Ws[tap][filter] for the block's 64 filters from m0, zero
 * outside the k × crs filter matrix; element q of the slice is filter q / 16, tap q % 16. */
static __device__ __forceinline__ void gb_conv2d64_stage_w(const double *__restrict__ wt, int k,
                                                           int crs, int m0, int k0, int tid,
                                                           double (*Ws)[GB_CONV_BM + 1]) {
    int q;
    GB_CONV64_STAGE_UNROLL
    for (q = tid; q < GB_CONV_BM * GB_CONV_BK; q += GB_CONV_THREADS) {
        const int f = q / GB_CONV_BK, kk = q % GB_CONV_BK;
        Ws[kk][f] =
            (m0 + f < k && k0 + kk < crs) ? GB_LDG(wt + (size_t)(m0 + f) * crs + k0 + kk) : 0.0;
    }
}

/* Stage taps tap … tap+3 of this thread's pixel (window origin h0, w0 of image xim; bok: the
 * pixel exists) into Xs[btap + j][bx], zero past crs or in the padding. */
static __device__ __forceinline__ void gb_conv2d64_stage_x(const double *__restrict__ xim,
                                                           const struct conv2d_dims *d, int rs,
                                                           int crs, int bok, int h0, int w0,
                                                           int tap, int btap, int bx,
                                                           double (*Xs)[GB_CONV_BN + 1]) {
    int j, ci, ri, si;
    ci = tap / rs;
    ri = (tap - ci * rs) / d->s;
    si = tap - ci * rs - ri * d->s;
    GB_CONV64_STAGE_UNROLL
    for (j = 0; j < 4; j++) {
        Xs[btap + j][bx] =
            (bok && tap + j < crs) ? gb_conv2d_at64(xim, d->h, d->w, ci, h0 + ri, w0 + si) : 0.0;
        if (++si == d->s) {
            si = 0;
            if (++ri == d->r) {
                ri = 0;
                ci++;
            }
        }
    }
}

/* Write this thread's outputs (filters m0 + ty + 16·i, pixels n0 + tx + 16·j) to y (n × k × pq). */
static __device__ __forceinline__ void gb_conv2d64_store(double *__restrict__ y, int k, int pq,
                                                         int npq, int m0, int n0, int tx, int ty,
                                                         double (*acc)[4]) {
    int i, j;
    GB_UNROLL
    for (i = 0; i < 4; i++) {
        const int f = m0 + ty + 16 * i;
        GB_UNROLL
        for (j = 0; j < 4; j++) {
            const int pix = n0 + tx + 16 * j;
            if (f < k && pix < npq) {
                const int img = pix / pq;
                y[((size_t)img * k + f) * pq + (pix - img * pq)] = acc[i][j];
            }
        }
    }
}

/* y = conv(x, wt) in doubles (see above). Grid and block as gb_conv2d_kernel's. */
__global__ void GB_LAUNCH_BOUNDS(GB_CONV_THREADS)
    gb_conv2d64_kernel(struct conv2d_dims d, const double *__restrict__ x,
                       const double *__restrict__ wt, double *__restrict__ y) {
    __shared__ double Ws[GB_CONV_BK][GB_CONV_BM + 1]; /* Ws[tap][filter] */
    __shared__ double Xs[GB_CONV_BK][GB_CONV_BN + 1]; /* Xs[tap][pixel] */
    double acc[4][4];
    const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    const int m0 = blockIdx.y * GB_CONV_BM, n0 = blockIdx.x * GB_CONV_BN;
    const int rs = d.r * d.s, crs = d.c * rs, pq = d.p * d.q, npq = d.n * pq;
    /* Input: this thread gathers pixel bpix, taps btap … btap+3 of every slice. */
    const int bx = tid % GB_CONV_BN, btap = (tid / GB_CONV_BN) * 4, bpix = n0 + bx;
    const int bok = bpix < npq;
    const int bimg = bok ? bpix / pq : 0, brem = bok ? bpix - bimg * pq : 0;
    const int oh = brem / d.q, ow = brem - oh * d.q;
    const int h0 = oh * d.stride_h - d.pad_h, w0 = ow * d.stride_w - d.pad_w;
    const double *xim = x + (size_t)bimg * d.c * d.h * d.w;
    int i, j, kk, k0;

    GB_UNROLL
    for (i = 0; i < 4; i++) {
        GB_UNROLL
        for (j = 0; j < 4; j++)
            acc[i][j] = 0.0;
    }
    for (k0 = 0; k0 < crs; k0 += GB_CONV_BK) {
        gb_conv2d64_stage_w(wt, d.k, crs, m0, k0, tid, Ws);
        gb_conv2d64_stage_x(xim, &d, rs, crs, bok, h0, w0, k0 + btap, btap, bx, Xs);
        GB_BARRIER(1); /* the slice is in shared memory */
        GB_UNROLL
        for (kk = 0; kk < GB_CONV_BK; kk++) {
            double b[4]; /* the 4 pixels of the tap; the filters one at a time */
            GB_UNROLL
            for (j = 0; j < 4; j++)
                b[j] = Xs[kk][tx + 16 * j];
            GB_UNROLL
            for (i = 0; i < 4; i++) {
                const double a = Ws[kk][ty + 16 * i];
                GB_UNROLL
                for (j = 0; j < 4; j++)
                    acc[i][j] += a * b[j];
            }
        }
        GB_BARRIER(2); /* everyone is done with the slice before the next one is staged */
    }
    gb_conv2d64_store(y, d.k, pq, npq, m0, n0, tx, ty, acc);
}

GB_SIM_KERNEL(gb_conv2d64_kernel, struct conv2d_dims, const double *, const double *, double *)

/* Grid of the launch for d: 0, or -1 when it exceeds the device's limits (gridDim.y ≤ 65535;
 * gridDim.x ≤ 65535 before sm_30). */
static inline int gb_conv2d_grid(const struct conv2d_dims *d, int sm, dim3 *grid) {
    long long gx = ((long long)d->n * d->p * d->q + GB_CONV_BN - 1) / GB_CONV_BN;
    long long gy = ((long long)d->k + GB_CONV_BM - 1) / GB_CONV_BM;
    if (gy > 65535 || gx > (sm >= 30 ? 2147483647LL : 65535LL))
        return -1;
    grid->x = (unsigned)gx;
    grid->y = (unsigned)gy;
    grid->z = 1;
    return 0;
}

/* conv2d/cuda_tc's tensor-core kernels (WMMA from sm_70, mma.sync from sm_80): their own files,
 * included here so that the builds of this header (cuda.cu's launchers, the emulation tests, the
 * simulated device) have them too */
#include "kernels/conv2d/tc.cuh"
#include "kernels/conv2d/tc_mma.cuh"

#endif
