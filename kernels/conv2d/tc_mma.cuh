/* tc_mma.cuh — conv2d/cuda_tc's kernel for sm_80 and newer (kernels/conv2d/cuda_tc.c; tc.cuh's
 * WMMA kernel stays the one for sm_70/75): forward convolution on the FP16 tensor cores through
 * PTX mma.sync m16n8k16 with ldmatrix and a 3-stage cp.async pipeline, as an implicit GEMM on the
 * pieces of gemm/cuda_tc's mma.sync kernel (kernels/common/mma.cuh: 8 warps a block, 32-deep
 * slices of 16-byte chunks, XOR-swizzled; kernels/common/mma_pipe.cuh: the chunk copies and the
 * pipeline loop, this file giving it the gather and the fragment reads; kernels/gemm/mma.cuh's
 * file comment has the scheme), in two block tiles (filters × pixels, kernels/conv2d/
 * tc_mma_tile.cuh once for each). FP32 accumulation, y rounded to half once, as tc.cuh's and
 * conv2d/cudnn's f16.
 *
 *   gb_conv2d_mma_f16          128×128, 8 warps of 64×32 (2 × 4), gemm's tile
 *   gb_conv2d_mma_f16_64x256   64×256, 8 warps of 32×64 (2 × 4): for k ≤ 64 filters
 *   both compute capability 8.0, CUDA 11.0; below sm_80 a trap the host never launches
 *   (gb_conv2d_mma_runs, kernels/conv2d/cuda.cu)
 *
 * SASS check: gb_conv2d_mma_f16 HMMA.16816 from 800
 * SASS check: gb_conv2d_mma_f16 LDSM from 800
 * SASS check: gb_conv2d_mma_f16 LDGSTS.E.BYPASS.128 from 800
 * SASS check: gb_conv2d_mma_f16 STG.E x96 from 800
 * SASS check: gb_conv2d_mma_f16_64x256 HMMA.16816 from 800
 * SASS check: gb_conv2d_mma_f16_64x256 LDSM from 800
 * SASS check: gb_conv2d_mma_f16_64x256 LDGSTS.E.BYPASS.128 from 800
 * SASS check: gb_conv2d_mma_f16_64x256 STG.E x96 from 800
 * SASS check: gb_conv2d_mma_f16_64x256 no LDL from 800
 * SASS check: gb_conv2d_mma_f16_64x256 no STL from 800
 * (tests/gpuinfo/sass_check.py: from sm_80 each kernel holds the m16n8k16 mma, ldmatrix and the
 * 16-byte cp.async gathers — the claims' modifiers must lead the opcode's; below, none. The
 * epilogue's stores, 96 a lane: each of the 32 pixel pairs (FM·NF·2) as one 32-bit STG.E where
 * p·q is even and as two 16-bit STG.E.U16 where it is odd — 32 + 64; a half at a time alone
 * would be 64. The 64×256 kernel, at 128 registers, the cap of two blocks an SM, uses no local
 * memory: no spills.)
 *
 * The tiles, and the choice (gb_cmm_pick; the host's note says which and why,
 * kernels/conv2d/cuda_tc.c; GPUBENCH_CONV_KERNEL=128x128 or 64x256 forces one). A 128-filter
 * tile on k = 64 filters — the default layer's, bench/conv2d.c — computes 64 zero filter rows:
 * half of every mma. The 64×256 tile computes the same 16384 outputs a block (FM·NF = 2·8 = 16
 * mma a warp a k16 step, as 4·4) with 2 A ldmatrix.x4 and 4 B ones a step (6, as 4 + 2), and
 * copies 1 filter chunk and 4 pixel chunks a thread a slice (2 and 2). The rule: the smaller
 * modelled mma work, filter rows and pixels each padded to the tile, below k = 128; ties to
 * 128×128, which gathers each pixel's taps once per 128 filters, not once per 64. That is:
 * k ≤ 64 beyond 128 pixels, 64×256; 65 ≤ k ≤ 127, 128×128 (both pad to 128 filter rows, and
 * 64×256 would gather x twice); k ≥ 128, 128×128. A model, no card measured it: on the default
 * layer (100352 pixels) 392 blocks of 64×256 against 784 of 128×128, each block the same mma
 * count; at two blocks an SM, 2 rounds against 3 on an H100's 132 SMs, 2 against 4 on an
 * A100's 108.
 *
 * Occupancy: both tiles 256 threads, up to 128 registers (GB_LAUNCH_BOUNDS_MIN 2), dynamic shared
 * memory GB_MM_STAGES × (bm + bn) × 64 bytes: 48 KiB (128×128, as the static array it was) and
 * 60 KiB (64×256, opted in past 48 KiB by gb_conv2d_mma_setup). Two blocks an SM, 16 warps, where
 * an SM has 120 KiB for blocks (sm_80: 164 KiB, sm_90: 228 KiB); on the 100 KiB SMs of sm_86,
 * sm_89 and sm_120 one 64×256 block fits (8 warps), against two 128×128 ones, so gb_cmm_pick
 * keeps 128×128 there (the note says why) — whether 8 warps that compute no zero rows beat 16
 * that half do is for a card to say (GPUBENCH_CONV_KERNEL=64x256 runs it).
 *
 * Layouts: the kernel reads x as NHWC with the channels padded with zeros to cp, a multiple of 8
 * (gb_cmm_x_place), and the filters as k rows of r·s·cp (filter, row, column, channel: KRSC,
 * padded likewise, gb_cmm_w_place); y stays the problem's NCHW. The host places both when it
 * converts them to half in prepare (kernels/common/dev_bufs.h's place), never timed, as it places
 * conv2d/cudnn's f16 NHWC tensors: the two rows compare like with like. A chunk of 8 channels of
 * one filter tap at one input place is then 16 contiguous, 16-byte aligned bytes, so the im2col
 * gather is one 16-byte cp.async a chunk, zero-filled (src-size 0) where the place is padding.
 *
 * The GEMM: Y (k × n·p·q) = W (k × r·s·cp) · X̂ (r·s·cp × n·p·q). A slice of W is mma.cuh's A
 * (filters × taps); a slice of X̂ is stored as its transpose, pixels × taps — a pixel's taps are
 * contiguous in NHWC — in the same 128 rows × 4 chunks as A (gb_mm_swz width 4), and read with
 * the non-transposed ldmatrix.x4, whose four matrices are (pixels 0-7: taps 0-7, 8-15), then
 * (pixels 8-15: taps 0-7, 8-15), so that its registers are the col operands b0b1, b2b3 of two n8
 * fragments in turn (gb_cmm_ldsm_b; the CPU model of kernels/conv2d/test_emu_mma.h checks them
 * against the PTX ISA's layout). Each lane's ldmatrix offsets are computed once
 * (gb_cmm_lane_offsets): the loop adds constants.
 *
 * The gather: thread t copies chunk column t % 4 of every slice for the pixels (t / 4) and
 * (t / 4) + 64 of the tile (mma.cuh's copy order, gb_mm_copy), so it keeps, for the whole loop,
 * two pixels (window origin h0, w0 and the NHWC offset of that origin, gb_cmm_pixel) and one walk
 * over the filter (gb_cmm_tap: filter row ri, column si, channel chunk cc and the offset of that
 * tap from the origin), stepped 4 chunks a slice with adds and compares (gb_cmm_step). In NHWC a
 * step across a filter column adds nothing beyond the 8 channels (the next column's channel 0
 * follows channel cp − 1); only a filter row adds (w − s)·cp. A chunk is inside where ri < r,
 * h0 + ri < h and w0 + si < w (unsigned compares: the padding is negative), which also zeroes
 * the taps past r·s·cp of the last slice; a pixel past n·p·q has h0 = GB_CMM_NO_PIXEL.
 *
 * Epilogue: from the accumulators (mma.cuh's gb_mm_frag_c) into NCHW y as halves, each element
 * where its filter is below k and its pixel exists; a lane's pixels' places in y are computed
 * once (gb_cmm_y_at). An accumulator row of a fragment holds two adjacent pixels of one filter
 * (columns 2t, 2t + 1): where p·q is even they are adjacent in y and the first is at an even
 * place, so the pair is one 32-bit store (gb_cmm_pairs, gb_cmm_store2); where it is odd, a half
 * at a time. Wider stores would take shuffles across lanes (the next pixels are another lane's).
 *
 * The twin (GPUBENCH_EMU) copies the inside chunks and zeroes the rest, and each lane computes its
 * fragment elements with FP32 FMAs over the shared slices read through the swizzle, as mma.cuh's.
 *
 * What the SASS says (no GPU measured it): the 128×128 kernel's main loop issues 143-161
 * instructions per 32 HMMA.16816 (scripts/sass-loop-mix; sm_80 149, sm_90 161; tc.cuh's WMMA
 * loop 472-526 per 16 HMMA), with 12 LDGSTS.E.BYPASS.128 and 12 LDSM a slice. ptxas (scripts/
 * ptxas-report; CUDA 11.8's nvcc -Xptxas -v for sm_80, 86, 90) gives the 128×128 kernel 125-126
 * registers and the 64×256 one 124-128, no spills, no stack, in CUDA 13 (sm_80 to sm_120) and
 * 11.8 (sm_80 to sm_90): two 256-thread blocks an SM, 16 warps — as many as four of tc.cuh's
 * 128-thread blocks, where that kernel fits three. A third block would need 85 registers a
 * thread: not with 64 accumulators a lane (either tile: 4·4·4, 2·8·4).
 */
#ifndef GPUBENCH_CONV2D_TC_MMA_CUH
#define GPUBENCH_CONV2D_TC_MMA_CUH

#include "bench/conv2d.h"
#include "kernels/common/mma_pipe.cuh"

/* the walk's constants for a shape (gb_cmm_geom_init, made by the launcher: a kernel parameter,
 * read from the constant bank) */
struct gb_cmm_geom {
    int cp;      /* channels padded to a multiple of 8 */
    int c8;      /* chunks of 8 channels a filter tap: cp / 8 */
    int K;       /* the GEMM's depth, r·s·cp */
    int rowwrap; /* (w − s)·cp: from filter column s − 1 to column 0 of the next row */
    int pair;    /* 1: y's pixel pairs are stored as one 32-bit word (gb_cmm_pairs) */
};

/* The window origin of a pixel past n·p·q: h0 + ri lies outside every image for any ri < 2^28. */
enum { GB_CMM_NO_PIXEL = -(1 << 29) };

/* One thread's walk over the filter: chunk (ri, si, cc) and its offset from a pixel's origin in
 * NHWC, off = (ri·w + si)·cp + 8·cc. */
struct gb_cmm_tap {
    int ri, si, cc, off;
};

GB_MM_HD int gb_cmm_pad8(int c) {
    return (c + 7) / 8 * 8;
}

GB_MM_HD void gb_cmm_geom_init(const struct conv2d_dims *d, struct gb_cmm_geom *g) {
    g->cp = gb_cmm_pad8(d->c);
    g->c8 = g->cp / 8;
    g->K = d->r * d->s * g->cp;
    g->rowwrap = (d->w - d->s) * g->cp;
    g->pair = 0; /* the launcher's: gb_cmm_pairs */
}

/* May the epilogue store the lane's two adjacent pixels (columns 2t, 2t + 1 of an n8 fragment:
 * the first even) of one filter as one 32-bit word of y at address y_addr? Where p·q is even:
 * an even pixel's place in NCHW y, img·k·p·q + f·p·q + (pix − img·p·q), is then even for every
 * filter and image, and its pair is in the same image (an odd p·q shifts the parity from one
 * filter or image to the next: then a half at a time). y must be 4-byte aligned. */
GB_MM_HD int gb_cmm_pairs(const struct conv2d_dims *d, size_t y_addr) {
    return (long long)d->p * d->q % 2 == 0 && y_addr % 4 == 0;
}

/* Where element i of the problem's NCHW x sits in the padded NHWC one (n × h × w × cp). */
GB_MM_HD size_t gb_cmm_x_place(size_t i, int c, int h, int w) {
    const size_t hw = (size_t)h * w, img = i / (c * hw), ch = i / hw % c, pos = i % hw;
    return (img * hw + pos) * gb_cmm_pad8(c) + ch;
}

/* Where element i of the problem's k × c × r × s filters sits in the padded k × r × s × cp ones. */
GB_MM_HD size_t gb_cmm_w_place(size_t i, int c, int r, int s) {
    const size_t rs = (size_t)r * s, f = i / (c * rs), ch = i / rs % c, pos = i % rs;
    return (f * rs + pos) * gb_cmm_pad8(c) + ch;
}

/* Chunk q of the GEMM's depth (taps 8q … 8q + 7) as the walk holds it (two divisions). */
GB_MM_HD void gb_cmm_tap_at(int q, const struct conv2d_dims *d, const struct gb_cmm_geom *g,
                            struct gb_cmm_tap *t) {
    const int rs = q / g->c8;
    t->cc = q - rs * g->c8;
    t->ri = rs / d->s;
    t->si = rs - t->ri * d->s;
    t->off = (t->ri * d->w + t->si) * g->cp + 8 * t->cc;
}

/* *t GB_MM_AC chunks (one slice) on: a carry into the filter column per c8 chunks, and into the
 * row per s columns; past the last tap ri only grows (≥ r: outside). */
GB_MM_HD void gb_cmm_step(const struct conv2d_dims *d, const struct gb_cmm_geom *g,
                          struct gb_cmm_tap *t) {
    t->cc += GB_MM_AC;
    t->off += GB_MM_AC * 8;
    while (t->cc >= g->c8) {
        t->cc -= g->c8;
        if (++t->si == d->s) {
            t->si = 0;
            t->ri++;
            t->off += g->rowwrap;
        }
    }
}

/* Output pixel pix of the batch: its window origin (h0, w0), negative in the padding, and xoff,
 * the NHWC offset of that origin ((img·h + h0)·w + w0)·cp; a pixel past n·p·q gets the marker. */
GB_MM_HD void gb_cmm_pixel(const struct conv2d_dims *d, const struct gb_cmm_geom *g, int pix,
                           int *xoff, int *h0, int *w0) {
    const int pq = d->p * d->q, img = pix / pq, rem = pix - img * pq;
    const int oh = rem / d->q, ow = rem - oh * d->q;
    if (pix >= d->n * pq) {
        *xoff = 0, *h0 = GB_CMM_NO_PIXEL, *w0 = 0;
        return;
    }
    *h0 = oh * d->stride_h - d->pad_h;
    *w0 = ow * d->stride_w - d->pad_w;
    *xoff = ((img * d->h + *h0) * d->w + *w0) * g->cp;
}

/* Is the walk's chunk inside the image for the pixel at origin (h0, w0)? (0: zero-filled) */
GB_MM_HD int gb_cmm_inside(const struct conv2d_dims *d, const struct gb_cmm_tap *t, int h0,
                           int w0) {
    return t->ri < d->r && (unsigned)(h0 + t->ri) < (unsigned)d->h &&
           (unsigned)(w0 + t->si) < (unsigned)d->w;
}

/* Where output pixel pix of filter 0 sits in NCHW y (filter f: + f·p·q), or -1 past n·p·q. */
GB_MM_HD int gb_cmm_y_at(const struct conv2d_dims *d, int pix) {
    const int pq = d->p * d->q, img = pix / pq;
    return pix < d->n * pq ? img * d->k * pq + (pix - img * pq) : -1;
}

/* The row (pixel) and logical chunk of the pixel slice whose address lane gives to ldmatrix.x4
 * for the n16 pair jj (n8 fragments 2jj, 2jj+1) of a warp at column wc, k16 step ks: matrix j
 * is pixels wc + 16jj + 8(j/2) … +7, chunk 2ks + j%2, so that the registers come out as the col
 * operands b0b1, b2b3 of fragment 2jj, then of 2jj + 1 — adjacent, as mma.sync takes them. */
GB_MM_HD void gb_cmm_ldsm_b(int lane, int wc, int jj, int ks, int *r, int *c) {
    *r = wc + 16 * jj + (lane & 7) + ((lane >> 4) & 1) * 8;
    *c = 2 * ks + ((lane >> 3) & 1);
}

/* Byte offsets in a stage of lane's ldmatrix addresses for k step 0: A's fragment 0
 * (gb_mm_lane_a, kernels/common/mma.cuh, which says why the steps are constants) and B's pair 0
 * (gb_cmm_ldsm_b). Pair jj is GB_MM_ROW16 bytes on per step (16 pixel rows, like A's fragments)
 * and k step 1 is the offset XOR GB_MM_X2, as A's, so the loop adds constants and XORs one bit:
 * two registers a lane, where the addresses computed anew would cost some 30 instructions a
 * slice (ptxas rematerialises them, not keeping 4). */
GB_MM_HD void gb_cmm_lane_offsets(int lane, int wr, int wc, int a_chunks, unsigned *la,
                                   unsigned *lb) {
    int r, c;
    *la = gb_mm_lane_a(lane, wr);
    gb_cmm_ldsm_b(lane, wc, 0, 0, &r, &c);
    *lb = (unsigned)((a_chunks + gb_mm_swz(r, c, GB_MM_AC)) * GB_MM_CH);
}

/* Does the kernel's int arithmetic reach every index of d? conv2d_dims_int_indexed; the padded
 * NHWC x with the walk's offsets up to a slice past its last tap (a row: (r + 1)·w·cp, beyond the
 * image's h·w·cp); the padded filters; the marker (h, r below 2^28). */
static inline int gb_cmm_fits(const struct conv2d_dims *d) {
    const long long cp = gb_cmm_pad8(d->c);
    return conv2d_dims_int_indexed(d) && d->h < (1 << 28) && d->r < (1 << 28) &&
           ((long long)d->n * d->h + d->r + 1) * d->w * cp <= 2147483647LL &&
           (long long)d->k * d->r * d->s * cp <= 2147483647LL;
}

/* The two block tiles (filters × pixels) and their warps (see the file comment): 128×128 of
 * 64×32 warps, gb_conv2d_mma_f16; 64×256 of 32×64 warps, gb_conv2d_mma_f16_64x256. Both 8 warps,
 * GB_MM_THREADS threads, GB_MM_STAGES stages of (bm + bn) rows of GB_MM_AC chunks. */
enum { GB_CMM_T128, GB_CMM_T64, GB_CMM_TILES };
struct gb_cmm_tile {
    int bm, bn, wm, wn;
    const char *name; /* GPUBENCH_CONV_KERNEL's value and the row note's words */
};
GB_MM_HD struct gb_cmm_tile gb_cmm_tile_of(int t) {
    struct gb_cmm_tile x;
    const int t64 = t == GB_CMM_T64;
    x.bm = t64 ? 64 : 128;
    x.bn = t64 ? 256 : 128;
    x.wm = t64 ? 32 : 64;
    x.wn = t64 ? 64 : 32;
    x.name = t64 ? "64x256" : "128x128";
    return x;
}

/* Bytes of dynamic shared memory a block of tile t takes: 48 KiB (128×128), 60 KiB (64×256). */
GB_MM_HD int gb_cmm_smem(int bm, int bn) {
    return GB_MM_STAGES * (bm + bn) * GB_MM_AC * GB_MM_CH;
}

/* The modelled mma work of tile t on k filters and npq pixels: the filter rows and the pixels
 * the tile's blocks compute, padded to the tile, multiplied (the mma.sync count over r·s·cp). */
GB_MM_HD long long gb_cmm_work(int t, int k, long long npq) {
    const struct gb_cmm_tile x = gb_cmm_tile_of(t);
    return ((long long)k + x.bm - 1) / x.bm * x.bm * ((npq + x.bn - 1) / x.bn * x.bn);
}

/* Blocks of tile t an SM holds by shared memory, smem_sm bytes an SM (cudaDevAttrMaxShared-
 * MemoryPerMultiprocessor) with 1 KiB the system keeps a block from sm_80, at most the 2 its
 * registers allow (GB_LAUNCH_BOUNDS_MIN 2: 128 a thread): 2 of either tile on sm_80 (164 KiB)
 * and sm_90 (228 KiB); on the 100 KiB SMs of sm_86, sm_89 and sm_120, 2 of 128×128 (2 × 49 KiB)
 * but 1 of 64×256 (61 KiB). */
GB_MM_HD int gb_cmm_blocks_an_sm(int t, int smem_sm) {
    const struct gb_cmm_tile x = gb_cmm_tile_of(t);
    const int n = smem_sm / (gb_cmm_smem(x.bm, x.bn) + 1024);
    return n < 2 ? n : 2;
}

/* Which tile for k filters and npq pixels on an SM of smem_sm bytes: 64×256 where k < 128, its
 * modelled work is below 128×128's, and two of its blocks fit an SM as two of 128×128's do; else
 * 128×128 — ties to 128×128, which gathers each pixel's taps once per 128 filters rather than
 * once per 64. So, where both tiles hold two blocks an SM: k ≤ 64 at more than 128 pixels,
 * 64×256 (half the mma work: the 128-filter tile's upper half is zero rows); 65 ≤ k ≤ 127,
 * 128×128 (both pad to 128 filter rows, and 64×256 gathers x twice); k ≥ 128, 128×128. On a
 * 100 KiB SM always 128×128: one 64×256 block (8 warps) against two of 128×128 (16) trades the
 * zero rows for half the warps to hide latency with, which no card has measured. */
GB_MM_HD int gb_cmm_pick(int k, long long npq, int smem_sm) {
    return k < 128 && gb_cmm_work(GB_CMM_T64, k, npq) < gb_cmm_work(GB_CMM_T128, k, npq) &&
                   gb_cmm_blocks_an_sm(GB_CMM_T64, smem_sm) >= 2
               ? GB_CMM_T64
               : GB_CMM_T128;
}

#if GB_HAVE_MMA && GB_MM_BODY
/* Filter row off = f·p·q of the lane's pixel pair, whose places in y are yo[0], yo[1]
 * (gb_cmm_y_at of columns 2t, 2t + 1 of an n8 fragment; -1 past n·p·q): a and b rounded to half,
 * one 32-bit store where pair (gb_cmm_pairs: then yo[1] = yo[0] + 1, and yo[0] + off is even),
 * else a half at a time. The twin stores the word's two halves at yo[0] + off and the next, as
 * the card does: a pairing where the pixels are not adjacent in y puts a value in the wrong
 * place, which its cases see. */
static __device__ __forceinline__ void gb_cmm_store2(__half *y, int pair, const int *yo, int off,
                                                     float a, float b) {
    if (pair) {
        if (yo[0] >= 0) {
#if GB_MM_NATIVE
            __half2 h;
            h.x = __float2half_rn(a);
            h.y = __float2half_rn(b);
            *(__half2 *)(y + yo[0] + off) = h;
#else
            y[yo[0] + off] = __float2half_rn(a);
            y[yo[0] + off + 1] = __float2half_rn(b);
#endif
        }
        return;
    }
    if (yo[0] >= 0)
        y[yo[0] + off] = __float2half_rn(a);
    if (yo[1] >= 0)
        y[yo[1] + off] = __float2half_rn(b);
}
#endif

/* the kernels of the two tiles (kernels/conv2d/tc_mma_tile.cuh) */
#define GB_CT_NAME gb_conv2d_mma_f16
#define GB_CT_BM 128
#define GB_CT_BN 128
#define GB_CT_WM 64
#define GB_CT_WN 32
#include "kernels/conv2d/tc_mma_tile.cuh"
#define GB_CT_NAME gb_conv2d_mma_f16_64x256
#define GB_CT_BM 64
#define GB_CT_BN 256
#define GB_CT_WM 32
#define GB_CT_WN 64
#include "kernels/conv2d/tc_mma_tile.cuh"

#endif
