# kernels/vecadd/test_cli.cmake — vecadd's own CLI messages (cli_case: tests/run/CMakeLists.txt;
# included by tests/workloads): its default shape as `list` shows it, and the limits of n that
# bench/vecadd.c checks (n ≥ 1; n ≤ INT_MAX, since cblas_saxpy takes an int length).
cli_case(vecadd_list_default 0 "^    default +n=16777216" ${G} list)
cli_case(vecadd_shape_zero 2 "--shape vecadd:n=0: n=0 must be positive" ${G} -w vecadd --shape vecadd:n=0)
cli_case(vecadd_too_long 2 "n=4294967296 must be in 1..2147483647" ${G} -w vecadd -s vecadd:n=2^32)
# vecadd is the memory-bound row: one above the memory peak measured at start-up measures it
# again beside the row and divides by that, and one still above it gives its true reason
# (tests/run/mem_peak_check.py; issue 32).
if(SYSTEM_PYTHON3)
  add_test(NAME vecadd_memory_peak
           COMMAND ${SYSTEM_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/run/mem_peak_check.py ${G} vecadd)
  set_tests_properties(vecadd_memory_peak PROPERTIES LABELS "cli;host" TIMEOUT 300)
endif()
# --sweep with -s vecadd:...: the ladder and the shape given both run (it once dropped the
# ladder silently; harness/run/plan.c).
add_test(NAME vecadd_sweep_and_shape
         COMMAND sh -c "out=$(\"$0\" -w vecadd -i cpu -d cpu -D f32 --sweep -s vecadd:n=1000 --no-out --min-time 0 --reps 1 --warmup 0 --format csv) && echo \"$out\" | grep -q ',n=1000,' && echo \"$out\" | grep -q ',n=4096,' && echo \"$out\" | grep -q ',n=67108864,'"
                 ${G})
set_tests_properties(vecadd_sweep_and_shape PROPERTIES LABELS cli TIMEOUT 120)
# A peak from 10^4 up reads without an exponent in a row's note ("peak memory 66910 GB/s", not
# "6.691e+04"; an H200's FP64 peak is 66910 GFLOP/s): the memory peak mocked, a row out of cache.
cli_case(vecadd_peak_readable 0 "peak memory 66910 GB/s" env GPUBENCH_TEST_CPU_STREAM_GBPS=66914
         GPUBENCH_TEST_CPU_CLOCK_MHZ=10000000
         ${G} -w vecadd -i cpu -d cpu -D f32 -s vecadd:n=2^23 --no-out --format csv ${T})
