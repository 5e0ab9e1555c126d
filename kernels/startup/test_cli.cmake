# kernels/startup/test_cli.cmake — startup's own CLI cases (cli_case: tests/run/CMakeLists.txt;
# included by tests/workloads): its implementation names are the longest of any workload
# ("openblas_first"), and the table's impl column widens to them, so every column lines up.
cli_case(startup_table_header 0 "^device  workload  impl           type shape "
         ${G} -d cpu -w startup --min-time 0 --reps 1 --warmup 0 --no-out)
cli_case(startup_table_row 0 "^cpu     startup   pool_first     f32  n="
         ${G} -d cpu -w startup --min-time 0 --reps 1 --warmup 0 --no-out)
