# harness/compare.cmake — sources of `gpubench compare` (and the CSV reader merge reuses).
list(APPEND GPUBENCH_SOURCES
  harness/csv_read.c
  harness/rankstats.c
  harness/compare_cli.c
  harness/compare_load.c
  harness/compare_out.c
  harness/compare_regress.c
  harness/compare_slowdown.c
)
