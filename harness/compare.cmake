# harness/compare.cmake — sources of `gpubench compare` (and the CSV reader `gpubench merge`
# shares).
list(APPEND GPUBENCH_SOURCES
  harness/csv_read.c          # strict reader of gpubench-1 run and samples CSVs
  harness/rankstats.c         # Mann-Whitney U, bootstrap CI of a ratio of medians
  harness/compare_cli.c       # options, mode choice, all-or-nothing output
  harness/compare_load.c      # files, devices ("series"), samples per row
  harness/compare_slowdown.c  # slowdown mode: ratios, geometric means, crossover
  harness/compare_regress.c   # regression mode: verdicts, what differs
  harness/compare_out.c       # terminal/markdown tables, CSV and JSON values
)
