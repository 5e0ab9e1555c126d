# bench/sources.cmake — one file per workload.
list(APPEND GPUBENCH_SOURCES
  bench/inputs.c
  bench/vecadd.c
  #LEADTMP bench/gemm.c
  #LEADTMP bench/conv2d.c
  #LEADTMP bench/mlp_train.c
)
