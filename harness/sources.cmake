# harness/sources.cmake — how things are measured and reported.
list(APPEND GPUBENCH_SOURCES
  harness/status.c
  harness/stats.c
  harness/shape.c
  harness/registry.c
  harness/verify.c
  harness/cli.c
  harness/plan.c
  harness/runner.c
  harness/csv.c
  harness/sinks.c
  harness/device_cpu.c
  harness/topology.c
  harness/list.c
)
if(GPUBENCH_HAVE_CUDA)
  list(APPEND GPUBENCH_SOURCES harness/device_cuda.c)
else()
  list(APPEND GPUBENCH_SOURCES harness/device_cuda_none.c)
endif()
include(harness/compare.cmake) # gpubench compare
include(harness/doctor.cmake)  # gpubench doctor
include(harness/gpu.cmake)     # CUDA device logic as pure C (peaks, tags, policy)
include(harness/merge.cmake)   # gpubench merge (fleet runs)
