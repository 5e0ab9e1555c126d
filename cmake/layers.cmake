# layers.cmake — which folder may include which, checked at configure time, so that a wrong
# include across layers is a configure error and not a slow tangle (docs/ARCHITECTURE.md draws
# the same graph). Each rule: a folder (its own files, not its subfolders) and the include
# prefixes its files may use; system headers (<...>) are not checked. Test files (test_*) in a
# workload folder are tests and may include anything of the tree (bench/, harness/, tests/).
# @DIR@ stands for the folder's own name: kernels/<w>/ may include its workload's definition,
# bench/<w>.h (and conv2d's, whose default shape startup's cudnn_find searches), and nothing
# else of bench/; bench/ never includes kernels/ (an implementation declares what the plan needs
# of it, e.g. impl.host_bytes), so the two never circle.
set(GB_LAYER_RULES
  "harness/core|harness/core/"
  "harness/io|harness/core/ harness/io/"
  "harness/gpuinfo|harness/core/ harness/gpuinfo/ build_manifest.h"
  "harness/telemetry|harness/core/ harness/telemetry/"
  "kernels/common|harness/core/ harness/gpuinfo/ kernels/common/ build_manifest.h"
  "bench|harness/core/ bench/"
  "kernels/*|harness/core/ harness/gpuinfo/ kernels/ bench/@DIR@.h bench/conv2d.h"
  "harness/run|harness/core/ harness/io/ harness/gpuinfo/ harness/telemetry/ harness/run/ kernels/common/ bench/registry.h build_manifest.h"
  "harness/compare|harness/core/ harness/io/ harness/compare/"
  "harness/doctor|harness/core/ harness/io/ harness/gpuinfo/ harness/run/topology.h harness/run/blas_core.h harness/telemetry/nvml.h harness/doctor/ build_manifest.h"
  "harness/merge|harness/core/ harness/io/ harness/merge/")

function(gpubench_check_layers)
  set(bad "")
  foreach(rule IN LISTS GB_LAYER_RULES)
    string(REPLACE "|" ";" parts "${rule}")
    list(GET parts 0 folder)
    list(GET parts 1 allowed)
    separate_arguments(allowed)
    file(GLOB dirs LIST_DIRECTORIES true "${PROJECT_SOURCE_DIR}/${folder}")
    foreach(dir IN LISTS dirs)
      if(NOT IS_DIRECTORY "${dir}" OR dir MATCHES "/kernels/common$" AND folder STREQUAL "kernels/*")
        continue()
      endif()
      file(GLOB files "${dir}/*.c" "${dir}/*.h" "${dir}/*.cu" "${dir}/*.cuh")
      foreach(f IN LISTS files)
        get_filename_component(fname "${f}" NAME)
        get_filename_component(dname "${dir}" NAME)
        string(REPLACE "@DIR@" "${dname}" ok_prefixes "${allowed}")
        if(fname MATCHES "^test_")
          list(APPEND ok_prefixes "tests/" "bench/" "harness/")
        endif()
        file(STRINGS "${f}" incs REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
        foreach(inc IN LISTS incs)
          string(REGEX REPLACE ".*#[ \t]*include[ \t]+\"([^\"]+)\".*" "\\1" path "${inc}")
          set(ok FALSE)
          foreach(prefix IN LISTS ok_prefixes)
            string(FIND "${path}" "${prefix}" at)
            if(at EQUAL 0)
              set(ok TRUE)
            endif()
          endforeach()
          if(NOT ok)
            file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${f}")
            list(JOIN allowed " " may)
            list(APPEND bad "${rel} includes \"${path}\" (${folder} may include: ${may})")
          endif()
        endforeach()
      endforeach()
    endforeach()
  endforeach()
  if(bad)
    list(JOIN bad "\n  " text)
    message(FATAL_ERROR "gpubench: include across layers (see docs/ARCHITECTURE.md):\n  ${text}")
  endif()
endfunction()
