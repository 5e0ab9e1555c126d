/* arch.cu — which architecture our kernels' code was compiled for on this device: asked of a
 * probe kernel compiled exactly like every other .cu file of the build (same architectures, same
 * SASS/PTX mix), so its answer holds for all of them. */
#include "kernels/common/cuda_impl.h"

/* Never launched: only its attributes are read. Its sm_90a code (nvcc defines
 * __CUDA_ARCH_FEAT_SM90_ALL there, CUDA 12.0+) alone has GB_ARCH_FEAT_SHARED_BYTES of static
 * shared memory, the one attribute sm_90a and sm_90 code differ in (both report binaryVersion 90):
 * the host's way to know that the card runs this build's arch-specific code (wgmma,
 * kernels/gemm/wgmma.cuh). The store is volatile so that the array is kept. */
__global__ void gb_arch_probe_kernel(void) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ int feat[GB_ARCH_FEAT_SHARED_BYTES / sizeof(int)];
    volatile int *f = feat;
    f[threadIdx.x % (GB_ARCH_FEAT_SHARED_BYTES / sizeof(int))] = (int)threadIdx.x;
#endif
}

cudaError_t gb_arch_code_level(struct gb_arch *arch) {
    struct cudaFuncAttributes fa;
    cudaError_t err = cudaFuncGetAttributes(&fa, (const void *)gb_arch_probe_kernel);
    if (err != cudaSuccess)
        return err;
    if (fa.ptxVersion > 0 && fa.ptxVersion < arch->sm)
        arch->sm = fa.ptxVersion; /* ptxVersion is 10·major + minor, like arch->sm */
    arch->arch_specific = fa.sharedSizeBytes >= GB_ARCH_FEAT_SHARED_BYTES;
    return cudaSuccess;
}
