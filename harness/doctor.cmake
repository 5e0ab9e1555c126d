# harness/doctor.cmake — sources of `gpubench doctor`, the CUDA error explanations and the CUDA
# facts tables. Included by harness/sources.cmake. Everything is pure C and built in every build
# except the probe, which talks to the CUDA runtime only in CUDA builds.
list(APPEND GPUBENCH_SOURCES
  harness/cuda_explain.c   # CUDA/cuBLAS/cuDNN error name -> cause and fix (used by every command)
  harness/cuda_facts.c     # toolkits, drivers, cuDNN per architecture, with sources
  harness/doctor_verdict.c # can this build use this GPU: the pure decision
  harness/doctor_spec.c    # --assume / --assume-build SPEC parsing
  harness/doctor_report.c  # text and JSON writers
  harness/doctor.c         # doctor_main: options, probe, exit code
)
if(GPUBENCH_HAVE_CUDA)
  list(APPEND GPUBENCH_SOURCES harness/doctor_probe_cuda.c)
else()
  list(APPEND GPUBENCH_SOURCES harness/doctor_probe_none.c)
endif()
