# tests/emu.cmake — the hand-written CUDA kernels: on the CPU emulation (label `emu`), and on a
# real GPU through their launchers (label `gpu`, CUDA builds; exits 77 = skipped without one).
#
# The kernel sources (kernels/cuda/*.cuh) compiled by the host C compiler with tests/emu/emu.h
# and run block by block, threads as fibers scheduled forward, in reverse and shuffled. Plain C,
# so these run in every build, CUDA or not; they need ucontext and ELF section symbols (Linux).
# Each kernel family is also built "as for" sm_20 where its code differs per architecture
# (GB_EMU_ARCH), and the tiled kernels once more with one barrier removed (GB_TEST_DROP_BARRIER):
# those builds must come out wrong, which proves the emulation catches a missing __syncthreads().
if(GPUBENCH_HAVE_CUDA)
  add_executable(test_gpu_kernels ${CMAKE_CURRENT_SOURCE_DIR}/test_gpu_kernels.c)
  target_link_libraries(test_gpu_kernels PRIVATE gpubench_core)
  add_test(NAME gpu_kernels COMMAND test_gpu_kernels)
  set_tests_properties(gpu_kernels PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()

if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  message(STATUS "gpubench: kernel emulation tests ✗ (need Linux: ucontext and ELF sections)")
  return()
endif()

add_library(gpubench_emu STATIC ${CMAKE_CURRENT_SOURCE_DIR}/emu/emu.c)
target_include_directories(gpubench_emu PUBLIC ${CMAKE_SOURCE_DIR})
target_compile_definitions(gpubench_emu PUBLIC _GNU_SOURCE)
if(MATH_LIB)
  target_link_libraries(gpubench_emu PUBLIC ${MATH_LIB})
endif()

# gpubench_emu_test(NAME SOURCE [DEFS d1 d2 …] [EXTRA src …] [LIBS lib …]): one executable, one
# CTest test.
function(gpubench_emu_test name src)
  cmake_parse_arguments(E "" "" "DEFS;EXTRA;LIBS" ${ARGN})
  add_executable(test_${name} ${CMAKE_CURRENT_SOURCE_DIR}/emu/${src} ${E_EXTRA})
  target_link_libraries(test_${name} PRIVATE gpubench_emu ${E_LIBS})
  target_compile_definitions(test_${name} PRIVATE ${E_DEFS})
  add_test(NAME ${name} COMMAND test_${name})
  set_tests_properties(${name} PROPERTIES LABELS emu TIMEOUT 120)
endfunction()

gpubench_emu_test(emu_runtime test_emu_runtime.c)
gpubench_emu_test(emu_vecadd test_emu_vecadd.c)
gpubench_emu_test(emu_conv2d test_emu_conv2d.c)
foreach(arch 750 200)
  set(sfx "")
  if(arch EQUAL 200)
    set(sfx "_sm20")
  endif()
  gpubench_emu_test(emu_gemm${sfx} test_emu_gemm.c DEFS GB_EMU_ARCH=${arch})
  # the MLP step is checked against the workload's reference (mlp_ref_step in gpubench_core)
  gpubench_emu_test(emu_mlp${sfx} test_emu_mlp.c DEFS GB_EMU_ARCH=${arch}
                    EXTRA ${CMAKE_SOURCE_DIR}/kernels/cuda/mlp_step.c LIBS gpubench_core)
  foreach(bar 1 2)
    gpubench_emu_test(emu_gemm${sfx}_missing_barrier_${bar} test_emu_gemm.c
                      DEFS GB_EMU_ARCH=${arch} GB_TEST_DROP_BARRIER=${bar})
  endforeach()
endforeach()
foreach(bar 1 2)
  gpubench_emu_test(emu_conv2d_missing_barrier_${bar} test_emu_conv2d.c
                    DEFS GB_TEST_DROP_BARRIER=${bar})
endforeach()
