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

# The facts cmake/cuda_archs.cmake reads out of cuda_facts.c are the compiled tables: every
# architecture's first and last toolkit, and the host compiler of every toolkit 7.0 to 13.9.
set(PROJECT_SOURCE_DIR "${SRC}")
include(${SRC}/cmake/cuda_archs.cmake)
gpubench_read_cuda_facts(${SRC}/harness/gpuinfo/cuda_facts.c)
execute_process(COMMAND ${TEST} --facts OUTPUT_VARIABLE facts RESULT_VARIABLE rc)
string(REPLACE "\n" ";" facts "${facts}")
set(narch 0)
foreach(line IN LISTS facts)
  if(line MATCHES "^arch ([0-9]+) ([0-9.]+) ([0-9.]+)$")
    math(EXPR narch "${narch} + 1")
    set(sm ${CMAKE_MATCH_1})
    set(want "${CMAKE_MATCH_2};${CMAKE_MATCH_3}")
    if(NOT "${GPUBENCH_ARCH_${sm}}" STREQUAL "${want}")
      message(SEND_ERROR "sm_${sm}: cmake/cuda_archs.cmake read \"${GPUBENCH_ARCH_${sm}}\", "
                         "cuda_facts.c has \"${want}\"")
    endif()
  elseif(line MATCHES "^gcc ([0-9.]+) ([0-9]+)$")
    set(want ${CMAKE_MATCH_2})
    set(v ${CMAKE_MATCH_1})
    gpubench_host_gcc(${v} got)
    if(NOT got EQUAL want)
      message(SEND_ERROR "CUDA ${v}: cmake/cuda_archs.cmake reads GCC ${got}, cuda_facts.c ${want}")
    endif()
  endif()
endforeach()
list(LENGTH GPUBENCH_ARCHS_KNOWN nread)
if(NOT rc EQUAL 0 OR narch EQUAL 0 OR NOT nread EQUAL narch)
  message(FATAL_ERROR "test_doctor --facts: exit ${rc}, ${narch} architectures; CMake read ${nread}")
endif()

# The configure-time check: each case is TOOLKIT ARCHS and what its lines must say ("" = none).
function(arch_case version archs want)
  gpubench_arch_problems(${version} /opt/nvcc "${archs}" got)
  if((want STREQUAL "" AND NOT got STREQUAL "") OR (NOT want STREQUAL "" AND NOT got MATCHES "${want}"))
    message(SEND_ERROR "CUDA ${version}, CMAKE_CUDA_ARCHITECTURES=${archs}: got \"${got}\", want /${want}/")
  endif()
endfunction()
arch_case(13.0 "35" "=35: CUDA 13.0 \\(/opt/nvcc\\) cannot build sm_35, CUDA 11.8 is the last toolkit that builds it: cmake -S .* -B build-cuda11.8 -DCMAKE_CUDA_COMPILER=/usr/local/cuda-11.8/bin/nvcc -DCMAKE_CUDA_HOST_COMPILER=g\\+\\+-11 -DCMAKE_CUDA_ARCHITECTURES=35\n$")
arch_case(13.0 "75-real;90;all-major;999" "")
arch_case(11.8 "35;37-real;90" "")
arch_case(11.8 "100-real" "predates sm_100, CUDA 12.8 is the first toolkit that builds it: .*g\\+\\+-13 -DCMAKE_CUDA_ARCHITECTURES=100-real")
arch_case(10.2 "20" "CUDA 8.0 is the last .*cuda-8.0/bin/nvcc -DCMAKE_CUDA_HOST_COMPILER=g\\+\\+-5 ")
arch_case(12.6 "30;61" "^[^\n]*sm_30, CUDA 10.2 is the last [^\n]*g\\+\\+-8 [^\n]*\n$")
arch_case(8.0 "21" "no toolkit builds compute_21, use 20")
arch_case(13.0 "sm_35" "'sm_35' is not an architecture value")
# sm_90a (Hopper's arch-specific code, gemm/cuda_tc's wgmma kernel): CUDA 12.0+ builds it
arch_case(13.0 "80-real;90a-real;90a;100" "")
arch_case(11.8 "90a-real" "^CMAKE_CUDA_ARCHITECTURES=90a-real: CUDA 11.8 \\(/opt/nvcc\\) has no arch-specific sm_90a code \\(CUDA 12.0 is the first\\): use 90, or a CUDA 12.0 or newer toolkit\n$")
arch_case(13.0 "90b" "'90b' is not an architecture value")

# CMakePresets.json has a preset for the last toolkit of every retired architecture (the
# toolkits doctor's fix lines name) and for the current one: cuda-X.Y builds into build-cudaX.Y
# (the folder of the fix lines' command) with /usr/local/cuda-X.Y/bin/nvcc, and, before CUDA 12,
# with the host compiler cuda_facts.c gives that toolkit.
file(READ ${SRC}/CMakePresets.json presets)
set(toolkits 13.0)
foreach(sm IN LISTS GPUBENCH_ARCHS_KNOWN)
  list(GET GPUBENCH_ARCH_${sm} 1 last)
  if(NOT last STREQUAL "0")
    list(APPEND toolkits ${last})
  endif()
endforeach()
list(REMOVE_DUPLICATES toolkits)
string(JSON n LENGTH "${presets}" configurePresets)
math(EXPR last_index "${n} - 1")
foreach(v IN LISTS toolkits)
  set(found "")
  foreach(i RANGE ${last_index})
    string(JSON name GET "${presets}" configurePresets ${i} name)
    if(name STREQUAL "cuda-${v}")
      set(found ${i})
    endif()
  endforeach()
  if(found STREQUAL "")
    message(SEND_ERROR "CMakePresets.json: no preset cuda-${v}")
    continue()
  endif()
  string(JSON dir GET "${presets}" configurePresets ${found} binaryDir)
  string(JSON nvcc GET "${presets}" configurePresets ${found} cacheVariables CMAKE_CUDA_COMPILER)
  string(JSON host ERROR_VARIABLE none GET "${presets}" configurePresets ${found} cacheVariables
         CMAKE_CUDA_HOST_COMPILER)
  gpubench_host_gcc(${v} gcc)
  if(NOT dir STREQUAL "\${sourceDir}/build-cuda${v}" OR
     NOT nvcc STREQUAL "/usr/local/cuda-${v}/bin/nvcc" OR
     (v VERSION_LESS 12.0 AND NOT host STREQUAL "g++-${gcc}") OR
     (host AND NOT host MATCHES "-NOTFOUND$" AND NOT host STREQUAL "g++-${gcc}"))
    message(SEND_ERROR "CMakePresets.json, cuda-${v}: ${dir}, ${nvcc}, host ${host}; want "
                       "build-cuda${v}, /usr/local/cuda-${v}/bin/nvcc, g++-${gcc}")
  endif()
endforeach()
