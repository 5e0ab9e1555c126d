# kernels/cuda/host.cmake — the host-side CUDA sources (CUDA builds only): the run's stream and
# checked allocation, the cuBLAS / cuDNN implementations, and the memcpy workload with its copies.
# Included from kernels/cuda/sources.cmake.
list(APPEND GPUBENCH_SOURCES
  kernels/cuda/cuda_runtime_helpers.c
  kernels/cuda/vecadd_cublas.c
  kernels/cuda/gemm_cublas.c
  kernels/cuda/conv2d_cudnn.c
  kernels/cuda/mlp_train_cublas.c
  kernels/cuda/memcpy_cuda.c
  bench/memcpy.c
)
