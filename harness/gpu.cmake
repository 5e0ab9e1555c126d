# harness/gpu.cmake — the CUDA device logic that is pure C (peaks, tags, error/cuDNN policy),
# built in every build so that tests/gpu_host.cmake checks it without a GPU. The CUDA backend
# itself (device_cuda.c / device_cuda_none.c) is listed in harness/sources.cmake.
list(APPEND GPUBENCH_SOURCES
  harness/gpu_peak.c
  harness/gpu_tag.c
  harness/gpu_policy.c
)
