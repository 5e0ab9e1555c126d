# gpubench.cmake — gpubench_library(NAME SOURCES src... [LINK target...]): one static library per
# folder of the tree, with the settings every gpubench target shares (C11 flags come from the
# top-level file; here: include root, generated headers, definitions of what the build has).
function(gpubench_library name)
  cmake_parse_arguments(L "" "" "SOURCES;LINK" ${ARGN})
  add_library(${name} STATIC ${L_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
  target_compile_definitions(${name} PUBLIC _GNU_SOURCE GPUBENCH_VERSION="${PROJECT_VERSION}"
                                            ${GPUBENCH_CUDA_DEFS})
  target_link_libraries(${name} PUBLIC ${L_LINK})
  if(MATH_LIB)
    target_link_libraries(${name} PUBLIC ${MATH_LIB})
  endif()
endfunction()
