# tests/gpu_host.cmake — the CUDA host logic. Label `unit`: pure functions on data from real cards
# (every build) and the backend facing the toolkit's stub driver (CUDA builds). Label `gpu`: a
# tiny cuBLAS GEMM, a copy and an oom on cuda:0 (CUDA builds with cuBLAS; exits 77 = skipped
# when no GPU is usable, so `ctest -L gpu` is safe anywhere).
add_executable(test_gpu_host ${CMAKE_CURRENT_SOURCE_DIR}/test_gpu_host.c)
target_link_libraries(test_gpu_host PRIVATE gpubench_core)
add_test(NAME gpu_host COMMAND test_gpu_host)
set_tests_properties(gpu_host PROPERTIES LABELS unit TIMEOUT 60)

if(GPUBENCH_HAVE_CUDA)
  # The stub libcuda.so the toolkit ships for linking, under the soname the runtime dlopens.
  set(stub_lib "${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so")
  if(EXISTS "${stub_lib}")
    set(stub_dir "${CMAKE_CURRENT_BINARY_DIR}/cuda_stub")
    file(MAKE_DIRECTORY "${stub_dir}")
    file(CREATE_LINK "${stub_lib}" "${stub_dir}/libcuda.so.1" SYMBOLIC)
    add_executable(test_gpu_no_driver ${CMAKE_CURRENT_SOURCE_DIR}/test_gpu_no_driver.c)
    target_link_libraries(test_gpu_no_driver PRIVATE gpubench_core)
    add_test(NAME gpu_no_driver_stub COMMAND test_gpu_no_driver cudaErrorStubLibrary)
    set_tests_properties(gpu_no_driver_stub PROPERTIES LABELS unit TIMEOUT 60
                         ENVIRONMENT "LD_LIBRARY_PATH=${stub_dir}")
  endif()
  if(GPUBENCH_HAVE_CUBLAS)
    add_executable(test_gpu_cublas ${CMAKE_CURRENT_SOURCE_DIR}/test_gpu_cublas.c)
    target_link_libraries(test_gpu_cublas PRIVATE gpubench_core)
    add_test(NAME gpu_cublas COMMAND test_gpu_cublas)
    set_tests_properties(gpu_cublas PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300)
  endif()
endif()

# Every workload × implementation on cuda:0 at the quick shapes, through the real CLI.
if(GPUBENCH_HAVE_CUDA)
  add_test(NAME gpu_quick_all
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/gpu_quick.sh $<TARGET_FILE:gpubench>)
  set_tests_properties(gpu_quick_all PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 900)
endif()
