# kernels/cuda/sources.cmake — hand-written .cu kernels, cuBLAS and cuDNN wrappers (CUDA builds).

# --- host-side CUDA files (runtime helpers, cuBLAS/cuDNN implementations, memcpy): one list ---
include(kernels/cuda/host.cmake)
