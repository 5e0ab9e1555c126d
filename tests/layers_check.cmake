# layers_check.cmake — cmake/layers.cmake's rules hold on this tree, and they catch a wrong
# include: bench/ reaching into kernels/<w>/ (the workloads' definitions and their
# implementations must not circle), and kernels/<w>/ reaching into another workload's header.
#   cmake -DROOT=<source tree> -DWORK=<scratch folder> -P layers_check.cmake
# Each check runs this script again with CHECK_TREE set, because the rules end in FATAL_ERROR.
if(DEFINED CHECK_TREE)
  set(PROJECT_SOURCE_DIR "${CHECK_TREE}")
  include("${ROOT}/cmake/layers.cmake")
  gpubench_check_layers()
  return()
endif()

# Run the rules on `tree`; want "ok", or the text the failure must show.
function(expect tree want)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DROOT=${ROOT}" "-DCHECK_TREE=${tree}"
                          -P "${CMAKE_CURRENT_LIST_FILE}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(want STREQUAL "ok")
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "layers: ${tree} should pass the rules, got:\n${err}")
    endif()
  else()
    string(FIND "${err}" "${want}" at)
    if(rc EQUAL 0 OR at EQUAL -1)
      message(FATAL_ERROR "layers: ${tree} should fail naming '${want}', got rc ${rc}:\n${err}")
    endif()
  endif()
endfunction()

# A tree of one workload `w` (and a second, `v`): bench/w.c and kernels/w/cpu.c each include
# one more header, the one given.
function(make_tree dir bench_inc kernel_inc)
  file(REMOVE_RECURSE "${dir}")
  file(WRITE "${dir}/bench/w.h" "#include \"harness/core/workload.h\"\n")
  file(WRITE "${dir}/bench/v.h" "\n")
  file(WRITE "${dir}/bench/w.c" "#include \"bench/w.h\"\n#include \"${bench_inc}\"\n")
  file(WRITE "${dir}/kernels/w/cpu.c" "#include \"bench/w.h\"\n#include \"${kernel_inc}\"\n")
  file(WRITE "${dir}/kernels/w/cpu.h" "\n")
endfunction()

expect("${ROOT}" ok)
make_tree("${WORK}/good" "harness/core/inputs.h" "kernels/w/cpu.h")
expect("${WORK}/good" ok)
make_tree("${WORK}/circle" "kernels/w/cpu.h" "kernels/w/cpu.h")
expect("${WORK}/circle" "bench/w.c includes \"kernels/w/cpu.h\"")
make_tree("${WORK}/other" "harness/core/inputs.h" "bench/v.h")
expect("${WORK}/other" "kernels/w/cpu.c includes \"bench/v.h\"")
message(STATUS "layers: the tree passes; a bench/ → kernels/ include and a foreign workload "
               "header are refused")
