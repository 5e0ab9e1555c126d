# tests/gpu_host.cmake — the CUDA host logic as plain functions on data from real cards (label
# `unit`, every build), and a tiny cuBLAS GEMM on a real GPU (label `gpu`, CUDA builds; exits 77
# = skipped when no usable GPU).
add_executable(test_gpu_host ${CMAKE_CURRENT_SOURCE_DIR}/test_gpu_host.c)
target_link_libraries(test_gpu_host PRIVATE gpubench_core)
add_test(NAME gpu_host COMMAND test_gpu_host)
set_tests_properties(gpu_host PROPERTIES LABELS unit TIMEOUT 60)
