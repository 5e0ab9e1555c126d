# tests/compare.cmake — `gpubench compare` and scripts/plot: the CSV reader and the rank
# statistics, both modes end to end on synthetic and hand-made CSVs, every kind of bad input,
# the plots, CLI cases through the real binary, and the libFuzzer target of the reader.
# Hand-made data: tests/data/compare/ (written by its make_data.py).
set(COMPARE_DATA ${CMAKE_CURRENT_SOURCE_DIR}/data/compare)

add_executable(test_compare_units ${CMAKE_CURRENT_SOURCE_DIR}/test_compare_units.c)
target_link_libraries(test_compare_units PRIVATE gpubench_core)
add_test(NAME compare_units COMMAND test_compare_units ${COMPARE_DATA})
set_tests_properties(compare_units PROPERTIES LABELS unit TIMEOUT 60)

add_executable(test_compare ${CMAKE_CURRENT_SOURCE_DIR}/test_compare.c)
target_link_libraries(test_compare PRIVATE gpubench_core)
add_test(NAME compare_modes COMMAND test_compare ${COMPARE_DATA})
set_tests_properties(compare_modes PROPERTIES LABELS unit TIMEOUT 180)

# Plots: Debian's python3-matplotlib lives with the system interpreter (a pyenv python3 first on
# PATH does not see it), so the plots always run /usr/bin/python3; skipped (77) without it.
set(COMPARE_PYTHON /usr/bin/python3)
add_executable(test_compare_plot ${CMAKE_CURRENT_SOURCE_DIR}/test_compare_plot.c)
target_include_directories(test_compare_plot PRIVATE ${CMAKE_SOURCE_DIR})
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/compare_plot)
add_test(NAME compare_plot
         COMMAND test_compare_plot ${COMPARE_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/plot
                 ${CMAKE_CURRENT_BINARY_DIR}/compare_plot ${COMPARE_DATA}/sd_a.csv
                 ${COMPARE_DATA}/sd_b.csv)
set_tests_properties(compare_plot PROPERTIES LABELS unit TIMEOUT 120 SKIP_RETURN_CODE 77)

# Through the binary: two real CPU runs compared and plotted, then table-driven cases
# (cli_case from core.cmake: exit code, output pattern, one line for exit 2).
add_test(NAME compare_real
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/compare_real.sh $<TARGET_FILE:gpubench>
                 ${COMPARE_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/plot
                 $<TARGET_FILE:test_compare_plot>)
set_tests_properties(compare_real PROPERTIES LABELS cli TIMEOUT 300 SKIP_RETURN_CODE 77)
set(GB $<TARGET_FILE:gpubench>)
set(CD ${COMPARE_DATA})
cli_case(compare_help 0 "^examples:" ${GB} compare --help)
cli_case(compare_slowdown 0 "A100-TEST \\(cc 8\\.0\\) +Tesla K40m \\(cc 3\\.5\\)" ${GB} compare
         --baseline cpu ${CD}/sd_a.csv ${CD}/sd_b.csv)
cli_case(compare_regression 1 "^REGRESSION: 1 slower, 1 broken" ${GB} compare ${CD}/reg_base.csv
         ${CD}/reg_new.csv)
cli_case(compare_no_regression 0 "^no regression" ${GB} compare ${CD}/reg_base.csv
         ${CD}/reg_same.csv)
cli_case(compare_ragged 2 "ragged\\.csv:3: column gbps: missing" ${GB} compare ${CD}/sd_a.csv
         ${CD}/bad/ragged.csv)
cli_case(compare_schema 2 "schema2\\.csv:2: column schema: 'gpubench-2' is not gpubench-1" ${GB}
         compare ${CD}/reg_base.csv ${CD}/bad/schema2.csv)
cli_case(compare_missing 2 "nothere\\.csv: cannot open" ${GB} compare ${CD}/nothere.csv)

# libFuzzer target of the CSV reader (and of compare on what it accepts). Built with clang
# whatever the C compiler is, when -DGPUBENCH_FUZZ=ON; run for a bounded time on a seed corpus
# of the hand-made and real CSVs (label `fuzz`). Otherwise the test says how to get it (skip).
set(FUZZ_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_csv_read.c ${CMAKE_SOURCE_DIR}/harness/csv_read.c
    ${CMAKE_SOURCE_DIR}/harness/rankstats.c ${CMAKE_SOURCE_DIR}/harness/status.c
    ${CMAKE_SOURCE_DIR}/harness/compare_cli.c ${CMAKE_SOURCE_DIR}/harness/compare_load.c
    ${CMAKE_SOURCE_DIR}/harness/compare_slowdown.c ${CMAKE_SOURCE_DIR}/harness/compare_regress.c
    ${CMAKE_SOURCE_DIR}/harness/compare_out.c)
set(fuzz_why "configure with -DGPUBENCH_FUZZ=ON")
if(GPUBENCH_FUZZ)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    set(GPUBENCH_FUZZ_CC ${CMAKE_C_COMPILER})
  else()
    find_program(GPUBENCH_FUZZ_CC NAMES clang clang-14 clang-15 clang-16)
  endif()
  set(fuzz_why "no clang found: apt-get install clang libclang-rt-14-dev")
  if(GPUBENCH_FUZZ_CC)
    # Does clang link a fuzzer here? (Debian ships the runtime in libclang-rt-14-dev.)
    set(probe ${CMAKE_CURRENT_BINARY_DIR}/fuzz_probe.c)
    file(WRITE ${probe} "#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput("
                        "const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
    execute_process(COMMAND ${GPUBENCH_FUZZ_CC} -fsanitize=fuzzer ${probe} -o
                            ${CMAKE_CURRENT_BINARY_DIR}/fuzz_probe
                    RESULT_VARIABLE probe_rc OUTPUT_QUIET ERROR_QUIET)
    set(fuzz_why "${GPUBENCH_FUZZ_CC} cannot link -fsanitize=fuzzer: apt-get install "
                 "libclang-rt-14-dev")
    if(probe_rc EQUAL 0)
      set(fuzz_why "")
    endif()
  endif()
endif()
if(fuzz_why STREQUAL "")
  message(STATUS "gpubench: fuzz target fuzz_csv_read ✓ (${GPUBENCH_FUZZ_CC})")
  set(fuzz_bin ${CMAKE_CURRENT_BINARY_DIR}/fuzz_csv_read)
  add_custom_command(
    OUTPUT ${fuzz_bin}
    COMMAND ${GPUBENCH_FUZZ_CC} -g -O1 -fsanitize=fuzzer,address,undefined
            -fno-sanitize-recover=all -std=c11 -D_GNU_SOURCE -I${CMAKE_SOURCE_DIR}
            ${FUZZ_SOURCES} -lm -o ${fuzz_bin}
    DEPENDS ${FUZZ_SOURCES} ${CMAKE_SOURCE_DIR}/harness/csv_read.h
            ${CMAKE_SOURCE_DIR}/harness/compare_int.h ${CMAKE_SOURCE_DIR}/harness/rankstats.h
    COMMENT "Building libFuzzer target fuzz_csv_read with ${GPUBENCH_FUZZ_CC}"
    VERBATIM)
  add_custom_target(fuzz_csv_read ALL DEPENDS ${fuzz_bin})
  set(fuzz_dir ${CMAKE_CURRENT_BINARY_DIR}/fuzz_csv_read.d)
  file(MAKE_DIRECTORY ${fuzz_dir}/corpus)
  # New inputs go to the build tree's corpus; the committed files are read-only seeds.
  add_test(NAME compare_fuzz
           COMMAND ${fuzz_bin} -max_total_time=20 -timeout=10 -rss_limit_mb=2048
                   -artifact_prefix=${fuzz_dir}/ ${fuzz_dir}/corpus ${COMPARE_DATA}
                   ${COMPARE_DATA}/bad ${COMPARE_DATA}/real
           WORKING_DIRECTORY ${fuzz_dir})
  set_tests_properties(compare_fuzz PROPERTIES LABELS fuzz TIMEOUT 120)
else()
  message(STATUS "gpubench: fuzz target fuzz_csv_read ✗ (${fuzz_why})")
  add_test(NAME compare_fuzz COMMAND sh -c "echo 'SKIP: fuzz target not built: ${fuzz_why}'; exit 77")
  set_tests_properties(compare_fuzz PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77)
endif()
