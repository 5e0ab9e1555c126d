/* wmma_f16.cuh — the FP16 tier of wmma_tile.cuh (read kernels/common/wmma.cuh first): __half operands,
 * 16×16×16 fragments, compute capability 7.0, CUDA 9. The includer names the instance first
 * (GB_WT_NAME; GB_WT_TA or GB_WT_TB where an operand is stored transposed; GB_WT_NO_KERNEL for
 * the pieces without the GEMM kernel), so every user shares one list of the tier's parameters:
 * kernels/gemm/wmma.cuh's gb_hgemm_wmma_64x64 and its transposed variants (mlp_train/cuda_tc's step), and
 * kernels/conv2d/tc.cuh's convolution on the same tiles. No include guard: included once per
 * instance.
 */
#define GB_WT_IN __half
#define GB_WT_PAIR __half2
#define GB_WT_ALIGNED(p) GB_ALIGNED4(p)
#define GB_WT_ZERO __float2half_rn(0.0f)
#define GB_WT_ROUND(x) (x)
#define GB_WT_FLOAT(x) __half2float(x)
#define GB_WT_FRAG __half
#define GB_WT_FK 16
#define GB_WT_HAVE GB_HAVE_WMMA
#define GB_WT_MIN_ARCH GB_WMMA_MIN_ARCH
#include "kernels/common/wmma_tile.cuh"
