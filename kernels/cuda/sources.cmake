# kernels/cuda/sources.cmake — hand-written .cu kernels, cuBLAS and cuDNN wrappers (CUDA builds).

# --- host-side CUDA files (runtime helpers, cuBLAS/cuDNN implementations, memcpy): one list ---
include(kernels/cuda/host.cmake)

# --- hand-written kernels (.cu, compiled by nvcc for CMAKE_CUDA_ARCHITECTURES) and their rows ---
# The kernel bodies live in *_kernels.cuh, which the CPU emulation tests compile too (tests/emu).
list(APPEND GPUBENCH_SOURCES
  kernels/cuda/vecadd.cu
  kernels/cuda/gemm.cu
  kernels/cuda/conv2d.cu
  kernels/cuda/mlp.cu
  kernels/cuda/mlp_step.c
  kernels/cuda/kernel_rows.c
  kernels/cuda/vecadd_cuda.c
  kernels/cuda/gemm_cuda.c
  kernels/cuda/conv2d_cuda.c
  kernels/cuda/mlp_train_cuda.c
)
