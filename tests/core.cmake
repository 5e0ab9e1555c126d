# tests/core.cmake — the harness: unit tests, table-driven CLI tests, end-to-end runs.
add_executable(test_core_units ${CMAKE_CURRENT_SOURCE_DIR}/test_core_units.c)
target_link_libraries(test_core_units PRIVATE gpubench_core)
add_test(NAME core_units COMMAND test_core_units)
set_tests_properties(core_units PROPERTIES LABELS unit)

# CLI cases: name | expected exit code | regex the output must match | arguments.
# Usage errors (exit 2) must print exactly one line and leave no result file behind.
set(G $<TARGET_FILE:gpubench>)
set(T "--min-time;0;--reps;1;--warmup;0")
function(cli_case name rc regex)
  add_test(NAME cli_${name}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli_case.sh ${rc} ${regex} ${ARGN})
  set_tests_properties(cli_${name} PROPERTIES LABELS cli TIMEOUT 120)
endfunction()
cli_case(help 0 "^examples:" ${G} --help)
cli_case(version 0 "gpubench [0-9]+\\.[0-9]+" ${G} --version)
cli_case(list 0 "^    default +n=16777216" ${G} list)
cli_case(list_devices 0 "^  cpu +[^ ]" ${G} list)
cli_case(unknown_command 2 "unknown command 'frobnicate'" ${G} frobnicate)
cli_case(unknown_option 2 "unknown option '--bogus'" ${G} --bogus)
cli_case(missing_value 2 "--reps: missing value" ${G} --reps)
cli_case(unknown_workload 2 "--workload: unknown workload 'gemmm'" ${G} -w gemmm)
cli_case(unknown_impl 2 "--impl: unknown implementation 'fast'" ${G} -i fast)
cli_case(unknown_device 2 "--device: unknown device 'tpu'" ${G} -d tpu)
cli_case(missing_gpu 2 "--device: cuda:7: no such CUDA device" ${G} -d cuda:7)
cli_case(shape_zero 2 "--shape vecadd:n=0: n=0 must be positive" ${G} -w vecadd --shape vecadd:n=0)
cli_case(shape_negative 2 "negative" ${G} -w vecadd --shape vecadd:n=-4)
cli_case(shape_malformed 2 "is not key=value" ${G} -w vecadd --shape vecadd:n)
cli_case(shape_unknown_key 2 "unknown key 'q' for vecadd" ${G} -w vecadd --shape vecadd:q=3)
cli_case(shape_no_workload 2 "--shape: 'n=5' is not WORKLOAD:key=value" ${G} --shape n=5)
cli_case(shape_bad_workload 2 "--shape: unknown workload 'nope'" ${G} --shape nope:n=5)
cli_case(shape_not_selected 2 "--shape: vecadd is not among --workload" ${G} -w gemm --shape vecadd:n=5)
cli_case(shape_too_big 2 "needs [0-9.]+ GiB of host memory" ${G} -w vecadd --shape vecadd:n=2^40)
cli_case(reps_zero 2 "--reps: 0 is out of range" ${G} --reps 0)
cli_case(reps_text 2 "--reps: 'ten' is not a whole number" ${G} --reps ten)
cli_case(threads_bad 2 "--threads: 0 is out of range" ${G} --threads 0)
cli_case(min_time_bad 2 "--min-time: 'soon' is not" ${G} --min-time soon)
cli_case(max_below_min 2 "--max-time is shorter than --min-time" ${G} --min-time 2 --max-time 1)
cli_case(format_bad 2 "--format: 'xml' is not one of" ${G} --format xml)
cli_case(out_missing_dir 2 "--out: .*no/such/dir/r.csv: cannot write" ${G} -w vecadd -q --out no/such/dir/r.csv)
cli_case(out_unwritable 2 "--out: /proc/r.csv: cannot write" ${G} -w vecadd -q --out /proc/r.csv)
cli_case(samples_unwritable 2 "--samples: .*cannot write" ${G} -w vecadd -q --out r.csv --samples no/dir/s.csv)
cli_case(extra_arg 2 "unexpected argument 'extra'" ${G} -q extra)
cli_case(run_vecadd_table 0 "vecadd +cpu +n=4096 .* ok" ${G} -w vecadd -s vecadd:n=4096 ${T} --out r.csv)
cli_case(run_markdown 0 "\\| cpu \\| vecadd \\| openblas \\|" ${G} -w vecadd -s vecadd:n=4096 ${T} -f markdown --out r.csv)
cli_case(run_json 0 "\"schema\": \"gpubench-1\"" ${G} -w vecadd -s vecadd:n=4096 ${T} -f json --out r.csv)
cli_case(run_csv 0 "^schema,run_id,utc" ${G} -w vecadd -s vecadd:n=4096 ${T} -f csv --out r.csv)
cli_case(run_impl_filter 0 "vecadd +openblas" ${G} -w vecadd -i openblas -s vecadd:n=4096 ${T} --out r.csv)
cli_case(run_default_out 0 "wrote results/.*-[0-9]{8}T[0-9]{6}Z\\.csv" ${G} -w vecadd -s vecadd:n=4096 ${T})
cli_case(run_no_gpu_why 0 "no GPU rows: " ${G} -w vecadd -s vecadd:n=4096 ${T} --out r.csv)

# End to end: the whole quick suite, its CSV and samples parsed and checked.
find_program(SYSTEM_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(SYSTEM_PYTHON3)
  add_test(NAME e2e_quick
           COMMAND ${SYSTEM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/e2e_check.py $<TARGET_FILE:gpubench>)
  set_tests_properties(e2e_quick PROPERTIES LABELS cli TIMEOUT 300)
  add_test(NAME e2e_interrupt
           COMMAND ${SYSTEM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/e2e_interrupt.py $<TARGET_FILE:gpubench>)
  set_tests_properties(e2e_interrupt PROPERTIES LABELS cli TIMEOUT 300)
endif()

# The README documents every option and every workload/implementation the binary has.
if(SYSTEM_PYTHON3)
  add_test(NAME readme_agrees
           COMMAND ${SYSTEM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/readme_check.py
                   $<TARGET_FILE:gpubench> ${CMAKE_SOURCE_DIR}/README.md)
  set_tests_properties(readme_agrees PROPERTIES LABELS cli)
endif()

# The timing loop on a fake workload: ok, wrong, oom and error rows, and the exit code.
add_executable(test_runner ${CMAKE_CURRENT_SOURCE_DIR}/test_runner.c)
target_link_libraries(test_runner PRIVATE gpubench_core)
add_test(NAME runner_rows COMMAND test_runner)
set_tests_properties(runner_rows PROPERTIES LABELS unit)
