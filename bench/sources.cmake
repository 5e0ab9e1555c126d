# bench/sources.cmake — one file per workload.
list(APPEND GPUBENCH_SOURCES
  bench/inputs.c
  bench/vecadd.c
  bench/gemm.c
  bench/conv2d.c
  bench/mlp_train.c
)
