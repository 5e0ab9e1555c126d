# harness/merge.cmake — sources of `gpubench merge` (fleet runs: scripts/slurm/).
list(APPEND GPUBENCH_SOURCES harness/merge.c)
