# kernels/cpu/sources.cmake — CPU implementations: threaded C loops and OpenBLAS calls.
list(APPEND GPUBENCH_SOURCES
  kernels/cpu/cpu_pool.c
  kernels/cpu/vecadd_cpu.c
  kernels/cpu/gemm_cpu.c
  kernels/cpu/conv2d_cpu.c
  kernels/cpu/mlp_cpu.c
)
