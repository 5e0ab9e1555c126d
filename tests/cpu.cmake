# tests/cpu.cmake — the CPU implementations against their double-precision references, on odd
# shapes, plus the checks that verification itself can fail (unwritten NaN outputs, wrong
# results, an MLP step that skips its update). Label `cpu`.
set(GPUBENCH_CPU_TESTS gemm conv2d mlp)
foreach(name ${GPUBENCH_CPU_TESTS})
  add_executable(test_${name}_cpu ${CMAKE_CURRENT_SOURCE_DIR}/test_${name}_cpu.c)
  target_link_libraries(test_${name}_cpu PRIVATE gpubench_core)
  add_test(NAME cpu_${name} COMMAND test_${name}_cpu)
  set_tests_properties(cpu_${name} PROPERTIES LABELS cpu TIMEOUT 300)
endforeach()
