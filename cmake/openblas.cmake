# openblas.cmake — which OpenBLAS gpubench links, as one imported target, gb::openblas:
#   -DGPUBENCH_OPENBLAS=system (default)  the system's, found by pkg-config (Debian: 0.3.21)
#   -DGPUBENCH_OPENBLAS=pypi              PyPI's scipy-openblas32 wheel (a current OpenBLAS),
#                                         downloaded once into ~/.cache/gpubench/ by
#                                         scripts/lib/setup.sh (gpubench_openblas_pypi, pinned)
#   -DGPUBENCH_OPENBLAS_ROOT=DIR          an OpenBLAS installed in DIR (DIR/include/cblas.h,
#                                         DIR/lib/libopenblas.so), e.g. one built from source
# A library outside the system's paths is found at run time through the binary's RPATH, and such
# a build refuses `cmake --install` and cpack (no package provides the library). Its
# symbol prefix (scipy_ for the wheel) is read from its cblas.h and handed to harness/core/blas.h,
# which maps the plain names onto it. Sets OPENBLAS_VERSION ("0.3.34") and
# GPUBENCH_OPENBLAS_ORIGIN (what -V and doctor print after it; empty for the system's) and
# GPUBENCH_BLAS_PREFIX.
set(GPUBENCH_OPENBLAS system CACHE STRING
    "Which OpenBLAS: system (pkg-config) or pypi (PyPI scipy-openblas32, downloaded once)")
set_property(CACHE GPUBENCH_OPENBLAS PROPERTY STRINGS system pypi)
set(GPUBENCH_OPENBLAS_ROOT "" CACHE PATH
    "An OpenBLAS installed in this folder (include/cblas.h, lib/libopenblas.so), not the system's")
add_library(gb::openblas INTERFACE IMPORTED GLOBAL)
set(GPUBENCH_OPENBLAS_ORIGIN "")
set(GPUBENCH_BLAS_PREFIX "") # what the library's names start with (bench/CMakeLists.txt's checks)

if(GPUBENCH_OPENBLAS STREQUAL "pypi")
  if(GPUBENCH_OPENBLAS_ROOT)
    message(FATAL_ERROR "-DGPUBENCH_OPENBLAS=pypi and -DGPUBENCH_OPENBLAS_ROOT: name one of them")
  endif()
  set(fetch ". '${PROJECT_SOURCE_DIR}/scripts/lib/setup.sh' && gpubench_openblas_pypi")
  execute_process(COMMAND bash -c "${fetch}"
                  OUTPUT_VARIABLE blas_root OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT blas_root)
    message(FATAL_ERROR "-DGPUBENCH_OPENBLAS=pypi: could not fetch PyPI's scipy-openblas32 (see "
                        "above); build with the system's OpenBLAS: -DGPUBENCH_OPENBLAS=system")
  endif()
  file(GLOB blas_dist "${blas_root}/../scipy_openblas32-*.dist-info")
  get_filename_component(blas_dist "${blas_dist}" NAME)
  string(REGEX REPLACE "^scipy_openblas32-(.*)\\.dist-info$" "\\1" blas_wheel "${blas_dist}")
  set(GPUBENCH_OPENBLAS_ORIGIN "PyPI scipy-openblas32 ${blas_wheel}")
elseif(GPUBENCH_OPENBLAS STREQUAL "system")
  set(blas_root "${GPUBENCH_OPENBLAS_ROOT}")
  if(blas_root)
    get_filename_component(blas_root "${blas_root}" ABSOLUTE)
    set(GPUBENCH_OPENBLAS_ORIGIN "${blas_root}")
  endif()
else()
  message(FATAL_ERROR "-DGPUBENCH_OPENBLAS=${GPUBENCH_OPENBLAS}: system or pypi")
endif()

if(NOT blas_root) # the system's
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(OPENBLAS IMPORTED_TARGET openblas)
  endif()
  if(NOT OPENBLAS_FOUND)
    message(FATAL_ERROR "OpenBLAS not found: install it with "
                        "`apt-get install libopenblas-dev pkg-config`"
                        " (or run ./scripts/bench, which installs what is missing)")
  endif()
  target_link_libraries(gb::openblas INTERFACE PkgConfig::OPENBLAS)
  message(STATUS "gpubench: OpenBLAS ${OPENBLAS_VERSION} ✓")
  return()
endif()

# --- an OpenBLAS in a folder (the wheel's, or the user's) -----------------------------------
set(blas_header "${blas_root}/include/cblas.h")
file(GLOB blas_lib "${blas_root}/lib/lib*openblas*.so")
if(NOT EXISTS "${blas_header}" OR NOT blas_lib)
  message(FATAL_ERROR "OpenBLAS in ${blas_root}: expected include/cblas.h and lib/lib*openblas*.so "
                      "(an OpenBLAS `make install PREFIX=${blas_root}` puts them there)")
endif()
list(GET blas_lib 0 blas_lib)
# The prefix is what stands before cblas_sgemm in its declaration ("void scipy_cblas_sgemm(").
file(STRINGS "${blas_header}" sgemm_decl REGEX "[ \t*]([A-Za-z0-9_]*)cblas_sgemm[ \t]*\\(")
string(REGEX REPLACE ".*[ \t*]([A-Za-z0-9_]*)cblas_sgemm[ \t]*\\(.*" "\\1" blas_prefix
       "${sgemm_decl}")
file(STRINGS "${blas_root}/include/openblas_config.h" version_line REGEX "define OPENBLAS_VERSION")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" OPENBLAS_VERSION "${version_line}")
if(NOT OPENBLAS_VERSION)
  set(OPENBLAS_VERSION "unknown")
endif()
set_target_properties(gb::openblas PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${blas_root}/include"
  INTERFACE_LINK_LIBRARIES "${blas_lib}"
  INTERFACE_COMPILE_DEFINITIONS "GPUBENCH_BLAS_ORIGIN=\" (${GPUBENCH_OPENBLAS_ORIGIN})\"")
get_filename_component(blas_libdir "${blas_lib}" DIRECTORY)
list(APPEND CMAKE_BUILD_RPATH "${blas_libdir}")

# What this library exports under which name: the prefix must link, and openblas_setaffinity is
# exported without it by scipy-openblas32 0.3.34.481.3 (its cblas.h says otherwise).
include(CheckFunctionExists)
include(CMakePushCheckState)
cmake_push_check_state(RESET)
set(CMAKE_REQUIRED_LIBRARIES "${blas_lib}")
set(CMAKE_REQUIRED_QUIET ON)
unset(GB_BLAS_SGEMM_LINKS CACHE)
unset(GB_BLAS_AFFINITY_PREFIXED CACHE)
unset(GB_BLAS_AFFINITY_PLAIN CACHE)
check_function_exists(${blas_prefix}cblas_sgemm GB_BLAS_SGEMM_LINKS)
check_function_exists(${blas_prefix}openblas_setaffinity GB_BLAS_AFFINITY_PREFIXED)
check_function_exists(openblas_setaffinity GB_BLAS_AFFINITY_PLAIN)
cmake_pop_check_state()
if(NOT GB_BLAS_SGEMM_LINKS)
  message(FATAL_ERROR "OpenBLAS in ${blas_root}: ${blas_lib} does not export "
                      "${blas_prefix}cblas_sgemm, "
                      "which its include/cblas.h declares")
endif()
if(blas_prefix)
  set_property(TARGET gb::openblas APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS
               GPUBENCH_BLAS_PREFIX=${blas_prefix})
  if(NOT GB_BLAS_AFFINITY_PREFIXED AND GB_BLAS_AFFINITY_PLAIN)
    set_property(TARGET gb::openblas APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS
                 GPUBENCH_BLAS_SETAFFINITY_UNPREFIXED=1)
  endif()
  set(blas_names ", symbols ${blas_prefix}*")
  set(GPUBENCH_BLAS_PREFIX ${blas_prefix})
endif()
message(STATUS "gpubench: OpenBLAS ${OPENBLAS_VERSION} ✓ "
               "(${GPUBENCH_OPENBLAS_ORIGIN}${blas_names}; "
               "RPATH ${blas_libdir}; install and packages refused)")
set(OPENBLAS_VERSION "${OPENBLAS_VERSION} (${GPUBENCH_OPENBLAS_ORIGIN})")

# install and cpack: refused, before anything is copied (this rule comes before install.cmake's).
# The installed binary would look for the library in this machine's folder, and no Debian
# package provides it: bundling it is not done (yet), so a package is made from a build with the
# system's OpenBLAS.
install(CODE "message(FATAL_ERROR \"gpubench: this build links OpenBLAS from ${blas_lib} \
(${GPUBENCH_OPENBLAS_ORIGIN}), which no package provides and an installed gpubench would not \
find: install and packages are made from a build with the system's OpenBLAS (configure without \
-DGPUBENCH_OPENBLAS=pypi and -DGPUBENCH_OPENBLAS_ROOT); run this build from its folder\")")
