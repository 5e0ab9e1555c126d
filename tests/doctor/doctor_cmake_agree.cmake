# doctor_cmake_agree.cmake — run with `cmake -DSRC=<source dir> -DTEST=<test_doctor> -P`:
# checks that the default CUDA architecture lists of cmake/cuda_setup.cmake agree with the facts
# table (harness/gpuinfo/cuda_facts.c) and with the manifests tests/doctor/test_doctor.c judges. The function
# gpubench_default_cuda_archs is taken from cuda_setup.cmake itself, so the two cannot drift.
file(READ "${SRC}/cmake/cuda_setup.cmake" setup)
string(REGEX MATCH "function\\(gpubench_default_cuda_archs.*endfunction\\(\\)" fn "${setup}")
if(NOT fn)
  message(FATAL_ERROR "gpubench_default_cuda_archs not found in cmake/cuda_setup.cmake")
endif()
cmake_language(EVAL CODE "${fn}")
set(failed 0)
# Every toolkit that changed the list, plus the ones the verdict table uses.
foreach(v 8.0 9.0 9.2 10.0 10.2 11.0 11.1 11.4 11.8 12.0 12.6 12.8 12.9 13.0 13.2)
  gpubench_default_cuda_archs(${v} archs)
  execute_process(COMMAND ${TEST} --agree ${v} "${archs}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    set(failed 1)
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "cmake/cuda_setup.cmake and harness/gpuinfo/cuda_facts.c disagree (see above)")
endif()
