/* kernels.cuh — the MLP step's kernels but the GEMMs: the step's per tier (step_kernels.cuh), the
 * own DGEMM's operand transpose, the mixed-precision step's (amp.cuh). C subset of CUDA C, for the
 * emulation and nvcc (cuda.cu, which also gets the launchers, under __CUDACC__; contracts: cuda.h).
 * Row-major, rows × cols; reductions are shared-memory trees: sm_20 on, the same bits every run. */
#ifndef GPUBENCH_MLP_KERNELS_CUH
#define GPUBENCH_MLP_KERNELS_CUH

#include <float.h>

#include "kernels/common/kernel_common.cuh"

#define GB_SMX_THREADS 128 /* threads of a softmax block: a power of two (the tree halves it) */
#define GB_COLSUM_X 32     /* column-sum blocks: 32 columns (a warp-wide, coalesced row segment) */
#define GB_COLSUM_Y 8      /* × 8 row lanes */

/* Blocks of `per` items (a softmax row, a column group, a tile) over n: 1 … 65535 (grid-stride). */
static inline unsigned gb_grid_of(int n, int per) {
    long b = ((long)n + per - 1) / per;
    return (unsigned)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

#define GB_MLP_F64 0
#include "kernels/mlp_train/step_kernels.cuh"
#define GB_MLP_F64 1
#include "kernels/mlp_train/step_kernels.cuh"

/* out (cols × rows) = inᵀ (rows × cols, leading dimension ld) for the own DGEMM (no transposed
 * operands): tiles through shared memory so that reads and writes are whole rows, each padded by
 * a double against bank conflicts; grid-stride in both directions. */
enum { GB_TR_TILE = 32, GB_TR_ROWS = 8 };
__global__ void gb_transpose64_kernel(const double *__restrict__ in, int rows, int cols, int ld,
                                      double *__restrict__ out) {
    __shared__ double tile[GB_TR_TILE][GB_TR_TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    int r0, c0, k;
    for (r0 = blockIdx.y * GB_TR_TILE; r0 < rows; r0 += gridDim.y * GB_TR_TILE)
        for (c0 = blockIdx.x * GB_TR_TILE; c0 < cols; c0 += gridDim.x * GB_TR_TILE) {
            for (k = ty; k < GB_TR_TILE; k += GB_TR_ROWS) /* uniform over the block */
                if (r0 + k < rows && c0 + tx < cols)
                    tile[k][tx] = in[(size_t)(r0 + k) * ld + c0 + tx];
            __syncthreads();
            for (k = ty; k < GB_TR_TILE; k += GB_TR_ROWS)
                if (c0 + k < cols && r0 + tx < rows)
                    out[(size_t)(c0 + k) * rows + r0 + tx] = tile[tx][k];
            __syncthreads(); /* the tile is read before the next one overwrites it */
        }
}
GB_SIM_KERNEL(gb_transpose64_kernel, const double *, int, int, int, double *)
#ifdef __CUDACC__
int gb_transpose64(void *ctx, const double *in, int rows, int cols, int ld, double *out) {
    if (rows > 0 && cols > 0)
        gb_transpose64_kernel<<<dim3(gb_grid_of(cols, GB_TR_TILE), gb_grid_of(rows, GB_TR_TILE)),
                                dim3(GB_TR_TILE, GB_TR_ROWS), 0, gb_stream()>>>(in, rows, cols, ld,
                                                                                out);
    return done(ctx, rows < 0 || cols < 0 || ld < cols ? cudaErrorInvalidValue : cudaGetLastError(),
                "gb_transpose64_kernel");
}
#endif

#include "kernels/mlp_train/amp.cuh"

#endif
