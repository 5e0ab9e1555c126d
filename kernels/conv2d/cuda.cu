/* cuda.cu — launchers of the implicit-GEMM convolution kernels (kernels.cuh): float32, float64,
 * and conv2d/cuda_tc's FP16 tensor-core kernels (tc.cuh: WMMA; tc_mma.cuh: mma.sync). */
#include "kernels/conv2d/cuda.h"
#include "kernels/conv2d/kernels.cuh"

int gb_conv2d_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_conv2d_kernel, "gb_conv2d_kernel"},
        {(const void *)gb_conv2d64_kernel, "gb_conv2d64_kernel"}};
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

/* 1 when the caller's p and q are what the other fields of d imply and int indexes it all. */
static int conv2d_dims_valid(const struct conv2d_dims *d) {
    struct conv2d_dims chk = *d;
    return conv2d_dims_finish(&chk) == 0 && chk.p == d->p && chk.q == d->q &&
           conv2d_dims_int_indexed(d);
}

/* The grid of a launch for d: cudaSuccess, or the error the launchers return. */
static cudaError_t conv2d_grid(const struct gb_arch *arch, const struct conv2d_dims *d,
                               dim3 *grid) {
    if (!conv2d_dims_valid(d))
        return cudaErrorInvalidValue;
    if (gb_conv2d_grid(d, arch->sm, grid) != 0)
        return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

cudaError_t gb_conv2d(cudaStream_t stream, const struct gb_arch *arch,
                      const struct conv2d_dims *d, const float *x, const float *wt, float *y) {
    dim3 grid;
    cudaError_t e = conv2d_grid(arch, d, &grid);
    if (e != cudaSuccess)
        return e;
    gb_conv2d_kernel<<<grid, GB_CONV_THREADS, 0, stream>>>(*d, x, wt, y);
    return cudaGetLastError();
}

cudaError_t gb_conv2d64(cudaStream_t stream, const struct gb_arch *arch,
                        const struct conv2d_dims *d, const double *x, const double *wt,
                        double *y) {
    dim3 grid;
    cudaError_t e = conv2d_grid(arch, d, &grid);
    if (e != cudaSuccess)
        return e;
    gb_conv2d64_kernel<<<grid, GB_CONV_THREADS, 0, stream>>>(*d, x, wt, y);
    return cudaGetLastError();
}

/* --- tensor cores -------------------------------------------------------------------------- */

int gb_conv2d_wmma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_WMMA
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_conv2d_wmma_f16, "gb_conv2d_wmma_f16"}};
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_conv2d_wmma_runs(const struct gb_arch *arch) {
    return gb_wm_body_at(GB_HAVE_WMMA, GB_WMMA_MIN_ARCH, arch->sm);
}

int gb_conv2d_wmma_fits(const struct conv2d_dims *d) {
    return gb_ctc_fits(d);
}

cudaError_t gb_conv2d_wmma(cudaStream_t stream, const struct gb_arch *arch,
                           const struct conv2d_dims *d, const void *x, const void *wt, void *y) {
#if GB_HAVE_WMMA
    dim3 grid(1, 1, 1);
    struct gb_ctc_walk walk;
    if (!conv2d_dims_valid(d) || !gb_ctc_fits(d))
        return cudaErrorInvalidValue;
    if (gb_wm_grid(d->k, d->n * d->p * d->q, &grid.x, &grid.y) != 0)
        return cudaErrorInvalidConfiguration;
    if (!gb_conv2d_wmma_runs(arch))
        return cudaErrorNoKernelImageForDevice; /* the body here is a trap: never launch */
    gb_ctc_walk_init(d->h, d->w, d->r, d->s, &walk); /* the kernel's walk, a parameter */
    gb_conv2d_wmma_f16<<<grid, GB_WM_THREADS, 0, stream>>>(*d, walk, (const __half *)x,
                                                           (const __half *)wt, (__half *)y);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)d, (void)x, (void)wt, (void)y;
    return cudaErrorInvalidValue; /* no WMMA in this toolkit: conv2d/cuda_tc refuses first */
#endif
}

/* --- tensor cores from sm_80: mma.sync ----------------------------------------------------- */

/* cuda.h's tile numbers are tc_mma.cuh's */
static_assert((int)GB_CONV2D_MMA_128X128 == (int)GB_CMM_T128 &&
                  (int)GB_CONV2D_MMA_64X256 == (int)GB_CMM_T64 &&
                  (int)GB_CONV2D_MMA_TILES == (int)GB_CMM_TILES,
              "conv2d mma tiles");

int gb_conv2d_mma_kernels(const struct gb_kernel_ref **refs) {
#if GB_HAVE_MMA
    static const struct gb_kernel_ref k[] = {
        {(const void *)gb_conv2d_mma_f16, "gb_conv2d_mma_f16"},
        {(const void *)gb_conv2d_mma_f16_64x256, "gb_conv2d_mma_f16_64x256"}};
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
#else
    *refs = NULL;
    return 0;
#endif
}

int gb_conv2d_mma_runs(const struct gb_arch *arch) {
    return gb_mm_body_at(arch->sm);
}

int gb_conv2d_mma_fits(const struct conv2d_dims *d) {
    return gb_cmm_fits(d);
}

size_t gb_conv2d_mma_x_elems(const struct conv2d_dims *d) {
    return (size_t)d->n * d->h * d->w * gb_cmm_pad8(d->c);
}

size_t gb_conv2d_mma_w_elems(const struct conv2d_dims *d) {
    return (size_t)d->k * d->r * d->s * gb_cmm_pad8(d->c);
}

size_t gb_conv2d_mma_x_place(size_t i, const void *dims) {
    const struct conv2d_dims *d = (const struct conv2d_dims *)dims;
    return gb_cmm_x_place(i, d->c, d->h, d->w);
}

size_t gb_conv2d_mma_w_place(size_t i, const void *dims) {
    const struct conv2d_dims *d = (const struct conv2d_dims *)dims;
    return gb_cmm_w_place(i, d->c, d->r, d->s);
}

const char *gb_conv2d_mma_tile_name(int tile) {
    return gb_cmm_tile_of(tile).name;
}

int gb_conv2d_mma_pick(const struct conv2d_dims *d, int smem_sm) {
    return gb_cmm_pick(d->k, (long long)d->n * d->p * d->q, smem_sm);
}

int gb_conv2d_mma_blocks_an_sm(int tile, int smem_sm) {
    return gb_cmm_blocks_an_sm(tile, smem_sm);
}

long long gb_conv2d_mma_work(int tile, const struct conv2d_dims *d) {
    return gb_cmm_work(tile, d->k, (long long)d->n * d->p * d->q);
}

int gb_conv2d_mma_pairs(const struct conv2d_dims *d, const void *y) {
    return gb_cmm_pairs(d, (size_t)y);
}

#if GB_HAVE_MMA
/* tile's kernel (gb_conv2d_mma_kernels's order), or NULL for no such tile */
static const void *conv2d_mma_fn(int tile) {
    const struct gb_kernel_ref *refs;
    return tile >= 0 && tile < gb_conv2d_mma_kernels(&refs) ? refs[tile].fn : NULL;
}
#endif

cudaError_t gb_conv2d_mma_setup(int tile) {
#if GB_HAVE_MMA
    const struct gb_cmm_tile t = gb_cmm_tile_of(tile);
    const void *fn = conv2d_mma_fn(tile);
    if (!fn)
        return cudaErrorInvalidValue;
    return cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                gb_cmm_smem(t.bm, t.bn));
#else
    (void)tile;
    return cudaErrorInvalidValue; /* no mma.sync in this toolkit: conv2d/cuda_tc uses WMMA */
#endif
}

cudaError_t gb_conv2d_mma(cudaStream_t stream, const struct gb_arch *arch,
                          const struct conv2d_dims *d, int tile, const void *x, const void *wt,
                          void *y) {
#if GB_HAVE_MMA
    dim3 grid(1, 1, 1);
    struct gb_cmm_geom g;
    const struct gb_cmm_tile t = gb_cmm_tile_of(tile);
    if (!conv2d_dims_valid(d) || !gb_cmm_fits(d) || (size_t)x % 16 != 0 ||
        (size_t)wt % 16 != 0 || !conv2d_mma_fn(tile))
        return cudaErrorInvalidValue;
    if (gb_mm_grid_in(d->k, d->n * d->p * d->q, t.bm, t.bn, &grid.x, &grid.y) != 0)
        return cudaErrorInvalidConfiguration;
    if (!gb_conv2d_mma_runs(arch))
        return cudaErrorNoKernelImageForDevice; /* the body here is a trap: never launch */
    gb_cmm_geom_init(d, &g); /* the walk's constants, a parameter */
    g.pair = gb_cmm_pairs(d, (size_t)y);
    if (tile == GB_CMM_T64)
        gb_conv2d_mma_f16_64x256<<<grid, GB_MM_THREADS, gb_cmm_smem(t.bm, t.bn), stream>>>(
            *d, g, (const __half *)x, (const __half *)wt, (__half *)y);
    else
        gb_conv2d_mma_f16<<<grid, GB_MM_THREADS, gb_cmm_smem(t.bm, t.bn), stream>>>(
            *d, g, (const __half *)x, (const __half *)wt, (__half *)y);
    return cudaGetLastError();
#else
    (void)stream, (void)arch, (void)d, (void)tile, (void)x, (void)wt, (void)y;
    return cudaErrorInvalidValue; /* no mma.sync in this toolkit: conv2d/cuda_tc uses WMMA */
#endif
}
