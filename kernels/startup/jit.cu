/* jit.cu — the ptx_jit rows' module: gb_startup_jit_kernel (kernels.cuh) and its launcher,
 * compiled as PTX only, for the build's lowest architecture (bench/CMakeLists.txt: an object
 * library of its own with CUDA_ARCHITECTURES <lowest>-virtual), so that every card this build
 * supports loads it by JIT-compiling it, and nothing else of the binary needs a JIT. */
#define GB_STARTUP_JIT_ONLY 1
#include "kernels/startup/cuda.h"
#include "kernels/startup/kernels.cuh"

cudaError_t gb_startup_jit(cudaStream_t stream, const float *a, const float *b, int n, float *out) {
    gb_startup_jit_kernel<<<1, GB_STARTUP_THREADS, 0, stream>>>(a, b, n, out);
    return cudaGetLastError();
}
