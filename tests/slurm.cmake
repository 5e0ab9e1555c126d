# tests/slurm.cmake — fleet runs: `gpubench merge`, scripts/slurm/fleet without Slurm, and the
# whole fleet against a real one-node Slurm started by the test (label `slurm`).

# gpubench merge: good merges, bad input, missing and failed tasks of hand-made fleet folders.
add_test(NAME merge_cli
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/slurm/merge_test.sh $<TARGET_FILE:gpubench>)
set_tests_properties(merge_cli PROPERTIES LABELS cli TIMEOUT 120)

# scripts/slurm/fleet --local and --dry-run, and its refusals.
add_test(NAME fleet_local
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/slurm/fleet_local_test.sh
                 $<TARGET_FILE:gpubench> ${CMAKE_SOURCE_DIR})
set_tests_properties(fleet_local PROPERTIES LABELS cli TIMEOUT 180)

# The real thing: installs slurm-wlm and munge when missing (skipped, 77, only when they cannot
# be installed), starts munged/slurmctld/slurmd in a temporary folder, runs three fleets (all
# good; a crashing task merged around with --afterany; the same with afterok: no merge) and
# stops exactly the daemons it started. About a minute once the packages are installed.
add_test(NAME slurm_fleet
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/slurm/fleet_test.sh
                 $<TARGET_FILE:gpubench> ${CMAKE_SOURCE_DIR})
set_tests_properties(slurm_fleet PROPERTIES LABELS slurm SKIP_RETURN_CODE 77 TIMEOUT 1800)
