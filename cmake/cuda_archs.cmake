# cuda_archs.cmake — check CMAKE_CUDA_ARCHITECTURES (and the host compiler) against the CUDA
# toolkit found, before nvcc compiles anything: a toolkit that cannot build an architecture
# otherwise ends the configure in CMake's compiler-test dump ("nvcc fatal : Unsupported gpu
# architecture 'compute_35'"). Each rejected choice is one line naming the toolkit that can
# build it and the complete configure command for it.
#
# The facts come from harness/gpuinfo/cuda_facts.c, the one source (doctor's verdicts use the
# same tables); doctor_cmake_agree checks this file's reading of them against the compiled C.

# gpubench_read_cuda_facts(FILE): read cuda_facts.c's architecture table and host compiler table
# into GPUBENCH_ARCH_<sm> = "FIRST;LAST" (toolkits, LAST 0 = current ones still build it),
# GPUBENCH_ARCHS_KNOWN (the sm numbers) and GPUBENCH_HOST_GCC ("CUDA;GCC;CUDA;GCC;…", oldest
# first), in the caller's scope.
function(gpubench_read_cuda_facts file)
  file(READ "${file}" text)
  set(ver "CUDA_VER\\(([0-9]+), ([0-9]+)\\)")
  set(row "\n    {([0-9]+), \"[^\"]*\", \"[^\"]*\", ${ver}, (${ver}|0),")
  string(REGEX MATCHALL "${row}" rows "${text}")
  set(known "")
  foreach(r IN LISTS rows)
    string(REGEX MATCH "${row}" _ "${r}")
    set(sm ${CMAKE_MATCH_1})
    set(first "${CMAKE_MATCH_2}.${CMAKE_MATCH_3}")
    set(last 0)
    if(CMAKE_MATCH_5) # (an if() with MATCHES would reset CMAKE_MATCH_*)
      set(last "${CMAKE_MATCH_5}.${CMAKE_MATCH_6}")
    endif()
    set(GPUBENCH_ARCH_${sm} "${first};${last}" PARENT_SCOPE)
    list(APPEND known ${sm})
  endforeach()
  string(REGEX MATCHALL "{${ver}, ([0-9]+)}" gccs "${text}")
  set(gcc "")
  foreach(g IN LISTS gccs)
    string(REGEX MATCH "{${ver}, ([0-9]+)}" _ "${g}")
    list(APPEND gcc "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}" ${CMAKE_MATCH_3})
  endforeach()
  if(NOT known OR NOT gcc)
    message(FATAL_ERROR "gpubench: cannot read the architecture and host compiler tables of "
                        "${file} (rows must keep their one-line form)")
  endif()
  set(GPUBENCH_ARCHS_KNOWN "${known}" PARENT_SCOPE)
  set(GPUBENCH_HOST_GCC "${gcc}" PARENT_SCOPE)
endfunction()

# gpubench_host_gcc(VERSION OUT): the newest GCC major toolkit VERSION accepts (0: unknown).
function(gpubench_host_gcc version out)
  set(best 0)
  set(pairs ${GPUBENCH_HOST_GCC})
  while(pairs)
    list(POP_FRONT pairs cuda gcc)
    if(NOT version VERSION_LESS cuda)
      set(best ${gcc})
    endif()
  endwhile()
  set(${out} ${best} PARENT_SCOPE)
endfunction()

# gpubench_rebuild_cmd(VERSION ARCHS OUT): the complete configure command for toolkit VERSION
# (where NVIDIA's installer puts it) with a host compiler it accepts — what doctor's fix lines
# print too (cuda_facts_rebuild_cmd).
function(gpubench_rebuild_cmd version archs out)
  gpubench_host_gcc(${version} gcc)
  set(cmd "cmake -S ${PROJECT_SOURCE_DIR} -B build-cuda${version}")
  string(APPEND cmd " -DCMAKE_CUDA_COMPILER=/usr/local/cuda-${version}/bin/nvcc")
  if(gcc)
    string(APPEND cmd " -DCMAKE_CUDA_HOST_COMPILER=g++-${gcc}")
  endif()
  set(${out} "${cmd} -DCMAKE_CUDA_ARCHITECTURES=${archs}" PARENT_SCOPE)
endfunction()

# gpubench_arch_problems(VERSION NVCC ARCHS OUT): one line per value of ARCHS that toolkit
# VERSION (at NVCC) cannot build, each ending in a newline; "" when every value can be built.
# Values gpubench's table does not know are left to nvcc (a card newer than the table), as are
# all and all-major.
function(gpubench_arch_problems version nvcc archs out)
  set(lines "")
  foreach(a IN LISTS archs)
    if(a MATCHES "^(all|all-major)$")
      continue()
    elseif(NOT a MATCHES "^([0-9]+)(a?)(-real|-virtual)?$")
      string(APPEND lines "CMAKE_CUDA_ARCHITECTURES: '${a}' is not an architecture value (35, "
                          "35-real, 35-virtual, or 90a-real for sm_90a's arch-specific code)\n")
      continue()
    endif()
    set(sm ${CMAKE_MATCH_1})
    set(specific "${CMAKE_MATCH_2}") # "a" or "" (a test against the quoted "a" would read the
                                     # loop variable a under an old CMP0054)
    # "90a": sm_90a, the arch-specific code of compute capability 9.0 (wgmma, setmaxnreg: the
    # Hopper kernel of gemm/cuda_tc, kernels/gemm/wgmma.cuh), from CUDA 12.0.
    if(specific AND version VERSION_LESS 12.0)
      string(APPEND lines "CMAKE_CUDA_ARCHITECTURES=${a}: CUDA ${version} (${nvcc}) has no "
                          "arch-specific sm_${sm}a code (CUDA 12.0 is the first): use ${sm}, or "
                          "a CUDA 12.0 or newer toolkit\n")
      continue()
    elseif(specific AND CMAKE_VERSION VERSION_LESS 3.25)
      string(APPEND lines "CMAKE_CUDA_ARCHITECTURES=${a}: CMake ${CMAKE_VERSION} does not read "
                          "the 'a' suffix (CMake 3.25 is the first): use ${sm}, or a newer "
                          "CMake\n")
      continue()
    endif()
    if(sm EQUAL 21)
      string(APPEND lines "CMAKE_CUDA_ARCHITECTURES=${a}: no toolkit builds compute_21, use 20 "
                          "(sm_20 code runs on sm_21 cards such as the NVS 310)\n")
      continue()
    elseif(NOT DEFINED GPUBENCH_ARCH_${sm})
      continue()
    endif()
    list(GET GPUBENCH_ARCH_${sm} 0 first)
    list(GET GPUBENCH_ARCH_${sm} 1 last)
    if(version VERSION_LESS first)
      gpubench_rebuild_cmd(${first} ${a} cmd)
      string(APPEND lines "CMAKE_CUDA_ARCHITECTURES=${a}: CUDA ${version} (${nvcc}) predates "
                          "sm_${sm}, CUDA ${first} is the first toolkit that builds it: ${cmd}\n")
    elseif(NOT last STREQUAL "0" AND version VERSION_GREATER last)
      gpubench_rebuild_cmd(${last} ${a} cmd)
      string(APPEND lines "CMAKE_CUDA_ARCHITECTURES=${a}: CUDA ${version} (${nvcc}) cannot "
                          "build sm_${sm}, CUDA ${last} is the last toolkit that builds it: "
                          "${cmd}\n")
    endif()
  endforeach()
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

# gpubench_host_problem(VERSION HOST OUT): one line when HOST (a g++, the compiler nvcc will use)
# is a GCC newer than toolkit VERSION accepts; "" otherwise (or when HOST is not GCC).
function(gpubench_host_problem version host out)
  set(${out} "" PARENT_SCOPE)
  gpubench_host_gcc(${version} max)
  execute_process(COMMAND ${host} --version OUTPUT_VARIABLE text ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT max OR NOT text MATCHES "Free Software Foundation")
    return()
  endif()
  execute_process(COMMAND ${host} -dumpversion OUTPUT_VARIABLE v OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REGEX MATCH "^[0-9]+" major "${v}")
  if(major GREATER max)
    # One string: set() given two would join them as a list, with a ';' between.
    string(CONCAT line "CMAKE_CUDA_HOST_COMPILER: CUDA ${version} accepts GCC ${max} and older, "
                  "and ${host} is GCC ${major}: add -DCMAKE_CUDA_HOST_COMPILER=g++-${max}\n")
    set(${out} "${line}" PARENT_SCOPE)
  endif()
endfunction()

# gpubench_check_cuda_toolkit(NVCC ARCHS HOST): stop the configure, one line per problem, when
# the toolkit at NVCC cannot build ARCHS (the user's choice; "" for the default list) or will
# refuse HOST ("" = g++ on PATH). Sets GPUBENCH_NVCC_VERSION in the caller's scope.
function(gpubench_check_cuda_toolkit nvcc archs host)
  if(IS_ABSOLUTE "${nvcc}" AND NOT EXISTS "${nvcc}")
    message(FATAL_ERROR " gpubench: CMAKE_CUDA_COMPILER=${nvcc}: no such file (install that "
                        "toolkit there, or give the path of its nvcc)")
  endif()
  execute_process(COMMAND ${nvcc} --version OUTPUT_VARIABLE text ERROR_QUIET)
  if(NOT text MATCHES "release ([0-9]+\\.[0-9]+)")
    return() # not an nvcc we can read: enable_language says what is wrong
  endif()
  set(version ${CMAKE_MATCH_1})
  set(GPUBENCH_NVCC_VERSION ${version} PARENT_SCOPE)
  gpubench_read_cuda_facts(${PROJECT_SOURCE_DIR}/harness/gpuinfo/cuda_facts.c)
  gpubench_arch_problems(${version} ${nvcc} "${archs}" problems)
  if(NOT host)
    find_program(GPUBENCH_DEFAULT_HOST_CXX NAMES g++ c++)
    set(host "${GPUBENCH_DEFAULT_HOST_CXX}")
  endif()
  if(host)
    gpubench_host_problem(${version} ${host} host_line)
    string(APPEND problems "${host_line}")
  endif()
  if(problems)
    # A leading space keeps CMake from re-wrapping each line: one line per problem.
    string(REGEX REPLACE "([^\n]+)\n" " gpubench: \\1\n" problems "${problems}")
    message(FATAL_ERROR "${problems}")
  endif()
endfunction()
