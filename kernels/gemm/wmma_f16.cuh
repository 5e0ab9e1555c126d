/* wmma_f16.cuh — wmma_tile.cuh's f16 tier: __half A and B, 16×16×16 __half fragments, sm_70 and
 * CUDA 9 (wmma.cuh). Included by wmma.cuh once per f16 kernel after its GB_WT_NAME (and
 * GB_WT_TA or GB_WT_TB where an operand is stored transposed), so the variants share one list
 * of the tier's parameters; no include guard. */
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
#include "kernels/gemm/wmma_tile.cuh"
