/* arch.cu — which architecture our kernels' code was compiled for on this device: asked of a
 * probe kernel compiled exactly like every other .cu file of the build (same architectures, same
 * SASS/PTX mix), so its answer holds for all of them. */
#include "kernels/common/cuda_impl.h"

/* Never launched: only its attributes are read. */
__global__ void gb_arch_probe_kernel(void) {}

cudaError_t gb_arch_code_level(struct gb_arch *arch) {
    struct cudaFuncAttributes fa;
    cudaError_t err = cudaFuncGetAttributes(&fa, (const void *)gb_arch_probe_kernel);
    if (err != cudaSuccess)
        return err;
    if (fa.ptxVersion > 0 && fa.ptxVersion < arch->sm)
        arch->sm = fa.ptxVersion; /* ptxVersion is 10·major + minor, like arch->sm */
    return cudaSuccess;
}
