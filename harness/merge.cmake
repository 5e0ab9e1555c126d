# harness/merge.cmake — sources of `gpubench merge` (fleet runs: scripts/slurm/).
list(APPEND GPUBENCH_SOURCES
  harness/merge.c        # options, inputs, duplicate runs, the merged CSV
  harness/merge_fleet.c  # fleet folders: expected tasks, exit records, why a task failed
)
