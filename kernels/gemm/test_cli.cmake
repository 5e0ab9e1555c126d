# kernels/gemm/test_cli.cmake — gemm's own CLI messages (cli_case: tests/run/CMakeLists.txt;
# included by tests/workloads): a shape whose three matrices do not fit in this machine's memory
# is refused before anything is allocated (bench/gemm.c's host_bytes, checked by the plan).
cli_case(gemm_shape_too_big 2 "needs [0-9.]+ GiB of host memory" ${G} -w gemm --shape gemm:m=100000,n=100000,k=100000)
# gemm is the FMA-bound row: over its whole --sweep its `peak` stays at or below 100% of the FP32
# peak measured at start-up (the calibration mocked, then real), or the note says the clock
# changed (tests/run/peak_check.py; issue 18).
if(SYSTEM_PYTHON3)
  add_test(NAME gemm_sweep_peak
           COMMAND ${SYSTEM_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/run/peak_check.py ${G} gemm)
  set_tests_properties(gemm_sweep_peak PROPERTIES LABELS "cli;host" TIMEOUT 300)
endif()
