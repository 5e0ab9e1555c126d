# cuda_setup.cmake — find the CUDA language, cuBLAS and cuDNN; choose the architectures.
#
# Sets GPUBENCH_HAVE_CUDA / _CUBLAS / _CUDNN, GPUBENCH_CUDA_LIBS, GPUBENCH_CUDA_DEFS and the
# manifest variables that cmake/build_manifest.h.in prints. Every outcome is one status line.
set(GPUBENCH_HAVE_CUDA OFF)
set(GPUBENCH_HAVE_CUBLAS OFF)
set(GPUBENCH_HAVE_CUDNN OFF)
set(GPUBENCH_CUDA_LIBS "")
set(GPUBENCH_CUDA_DEFS "")
set(GPUBENCH_CUDA_VERSION "")
set(GPUBENCH_CUDA_ARCHS "")
set(GPUBENCH_CUBLAS_VERSION "")
set(GPUBENCH_CUDNN_VERSION "")

# Default architectures per toolkit: every major real architecture the toolkit can target, plus
# PTX of the newest so that later cards can JIT. Never `native`: that is a configure error on a
# machine without a GPU (CI, and every build host of a cluster's login node).
#   CUDA 8:          20 30 35 50 60      (Fermi's last toolkit; sm_21 is not a valid value: use 20)
#   CUDA 9.x–10.x:   30 35 50 60 70 (+75 from 10.0)   (CUDA 9 dropped Fermi)
#   CUDA 11.0–11.8:  35 37 50 60 70 75 80 (+86 from 11.1, +89 90 from 11.8)  (11 dropped sm_30)
#   CUDA 12.x:       50 60 70 75 80 86 89 90 (+100 120 from 12.8)            (12 dropped Kepler)
#   CUDA 13.x:       75 80 86 89 90 100 120                               (13 dropped sm_50–72)
# Sources: the "Virtual Architecture Feature List" / "GPU feature list" tables of each toolkit's
# nvcc documentation and the CUDA 9, 11, 12 and 13 release notes (deprecated/dropped architectures).
function(gpubench_default_cuda_archs version out)
  if(version VERSION_LESS 9.0)
    set(real 20 30 35 50 60)
  elseif(version VERSION_LESS 10.0)
    set(real 30 35 50 60 70)
  elseif(version VERSION_LESS 11.0)
    set(real 30 35 50 60 70 75)
  elseif(version VERSION_LESS 11.1)
    set(real 35 50 60 70 75 80)
  elseif(version VERSION_LESS 11.8)
    set(real 35 37 50 60 70 75 80 86)
  elseif(version VERSION_LESS 12.0)
    set(real 35 37 50 60 70 75 80 86 89 90)
  elseif(version VERSION_LESS 12.8)
    set(real 50 60 70 75 80 86 89 90)
  elseif(version VERSION_LESS 13.0)
    set(real 50 60 70 75 80 86 89 90 100 120)
  else()
    set(real 75 80 86 89 90 100 120)
  endif()
  list(POP_BACK real newest)
  set(archs "")
  foreach(a IN LISTS real)
    list(APPEND archs "${a}-real")
  endforeach()
  list(APPEND archs "${newest}") # plain number: SASS and PTX
  # Hopper's SASS as sm_90a (CUDA 12.0+): the arch-specific code, which alone can hold wgmma
  # (gemm/cuda_tc's Hopper kernel, kernels/gemm/wgmma.cuh), in place of plain sm_90, not beside
  # it: sm_90a code runs on exactly compute capability 9.0 (H100, H200, GH200), as sm_90 SASS
  # does (no other card runs 9.x SASS), and the driver would pick one of the two anyway. Where 90
  # is the newest entry (12.0–12.7) it also carried the PTX newer cards JIT: that stays
  # compute_90 (90-virtual), since compute_90a PTX is for 9.0 alone. CUDA 11.8 has no sm_90a,
  # and CMake reads the "a" suffix from 3.25 (Kitware's merge request 7649): an older CMake keeps
  # plain 90, and gemm/cuda_tc's rows on Hopper say how to get the wgmma kernel.
  if(NOT version VERSION_LESS 12.0 AND NOT CMAKE_VERSION VERSION_LESS 3.25)
    list(TRANSFORM archs REPLACE "^90-real$" "90a-real")
    list(TRANSFORM archs REPLACE "^90$" "90a-real;90-virtual")
  endif()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

if(NOT GPUBENCH_CUDA)
  message(STATUS "gpubench: CUDA ✗ (disabled by -DGPUBENCH_CUDA=OFF)")
  message(STATUS "gpubench: cuBLAS ✗ (no CUDA)")
  message(STATUS "gpubench: cuDNN ✗ (no CUDA)")
  return()
endif()

include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(STATUS "gpubench: CUDA ✗ (no nvcc found; CPU-only build. Put nvcc on PATH or set CUDACXX)")
  message(STATUS "gpubench: cuBLAS ✗ (no CUDA)")
  message(STATUS "gpubench: cuDNN ✗ (no CUDA)")
  return()
endif()

# What the user chose: a CMAKE_CUDA_ARCHITECTURES that is not the default list this file wrote
# into the cache on an earlier run (enable_language caches the compiler's own default, so a
# plain re-run must not mistake that, or our list, for a choice).
set(user_archs "")
if(DEFINED CMAKE_CUDA_ARCHITECTURES AND
   NOT "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "${GPUBENCH_DEFAULT_CUDA_ARCHS}")
  set(user_archs "${CMAKE_CUDA_ARCHITECTURES}")
endif()
# A host compiler named without a path (g++-11, as doctor's fix lines and the presets name it) is
# looked up on PATH, then beside nvcc (a toolkit folder that carries its own, as the one
# scripts/old-toolkit assembles does), and given to nvcc with its path: nvcc would look on PATH
# only, and say no more than "g++-11: No such file or directory".
if(CMAKE_CUDA_HOST_COMPILER AND NOT IS_ABSOLUTE "${CMAKE_CUDA_HOST_COMPILER}")
  get_filename_component(nvcc_dir "${CMAKE_CUDA_COMPILER}" DIRECTORY)
  find_program(host_path NAMES ${CMAKE_CUDA_HOST_COMPILER} PATHS ${nvcc_dir} NO_CACHE)
  if(NOT host_path)
    message(FATAL_ERROR " gpubench: CMAKE_CUDA_HOST_COMPILER=${CMAKE_CUDA_HOST_COMPILER}: not "
                        "found on PATH or beside ${CMAKE_CUDA_COMPILER} (on Debian or Ubuntu: "
                        "apt-get install ${CMAKE_CUDA_HOST_COMPILER}, or give its path)")
  endif()
  set(CMAKE_CUDA_HOST_COMPILER "${host_path}" CACHE FILEPATH "host compiler of nvcc" FORCE)
endif()
# Before nvcc compiles anything: can this toolkit build the architectures asked for, with this
# host compiler? (One line per problem, with the configure command that works.)
include(${CMAKE_CURRENT_LIST_DIR}/cuda_archs.cmake)
gpubench_check_cuda_toolkit("${CMAKE_CUDA_COMPILER}" "${user_archs}" "${CMAKE_CUDA_HOST_COMPILER}")
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)
set(GPUBENCH_CUDA_VERSION "${CUDAToolkit_VERSION_MAJOR}.${CUDAToolkit_VERSION_MINOR}")
# The toolkit's libraries at run time, from the build tree and installed: a toolkit the loader
# does not know (/usr/local/cuda-11.8 beside a current one, NVIDIA's .run installer adds no
# ld.so.conf entry; or the folder scripts/old-toolkit assembles) would leave gpubench and its
# tests unable to start. (RUNPATH: LD_LIBRARY_PATH, as tests/sim's launcher sets it, still comes
# first.)
list(APPEND CMAKE_BUILD_RPATH ${CUDAToolkit_LIBRARY_DIR})
list(APPEND CMAKE_INSTALL_RPATH ${CUDAToolkit_LIBRARY_DIR})
if(user_archs)
  set(CMAKE_CUDA_ARCHITECTURES "${user_archs}")
else()
  gpubench_default_cuda_archs(${CUDAToolkit_VERSION} default_archs)
  set(CMAKE_CUDA_ARCHITECTURES "${default_archs}" CACHE STRING
      "CUDA architectures (default: every major one the toolkit supports, plus PTX)" FORCE)
  set(GPUBENCH_DEFAULT_CUDA_ARCHS "${default_archs}" CACHE INTERNAL "default list written last")
endif()
if(CMAKE_CUDA_ARCHITECTURES MATCHES "native")
  message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES=native needs a GPU at configure time; name the "
                      "architectures, e.g. -DCMAKE_CUDA_ARCHITECTURES=35")
endif()
set(GPUBENCH_CUDA_ARCHS "${CMAKE_CUDA_ARCHITECTURES}")
set(GPUBENCH_HAVE_CUDA ON)
list(APPEND GPUBENCH_CUDA_LIBS CUDA::cudart)
list(APPEND GPUBENCH_CUDA_DEFS GPUBENCH_HAVE_CUDA=1)
message(STATUS "gpubench: CUDA ✓ ${CUDAToolkit_VERSION} (architectures ${GPUBENCH_CUDA_ARCHS})")

if(TARGET CUDA::cublas)
  set(GPUBENCH_HAVE_CUBLAS ON)
  list(APPEND GPUBENCH_CUDA_LIBS CUDA::cublas)
  list(APPEND GPUBENCH_CUDA_DEFS GPUBENCH_HAVE_CUBLAS=1)
  # cuBLAS has its own version (13.1 in toolkit 13.0): read it from the header.
  find_file(CUBLAS_API_H cublas_api.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  set(GPUBENCH_CUBLAS_VERSION "${CUDAToolkit_VERSION}")
  if(CUBLAS_API_H)
    file(STRINGS "${CUBLAS_API_H}" cublas_defs REGEX "#define CUBLAS_VER_(MAJOR|MINOR|PATCH) ")
    if(cublas_defs MATCHES "CUBLAS_VER_MAJOR ([0-9]+).*CUBLAS_VER_MINOR ([0-9]+).*CUBLAS_VER_PATCH ([0-9]+)")
      set(GPUBENCH_CUBLAS_VERSION "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.${CMAKE_MATCH_3}")
    endif()
  endif()
  message(STATUS "gpubench: cuBLAS ✓ ${GPUBENCH_CUBLAS_VERSION}")
else()
  message(STATUS "gpubench: cuBLAS ✗ (not in the toolkit at ${CUDAToolkit_LIBRARY_DIR})")
endif()

# cuDNN: CUDNN_ROOT's, the toolkit's, or GPUBENCH_DEPS_PREFIX's (on CMAKE_PREFIX_PATH). Python
# wheels (nvidia-cudnn-cu12) ship only the versioned libcudnn.so.N: accept those names too.
find_path(CUDNN_INCLUDE_DIR cudnn.h HINTS ENV CUDNN_ROOT ${CUDAToolkit_INCLUDE_DIRS}
          PATH_SUFFIXES include)
# NAMES_PER_DIR: the first folder that has any of the names wins (CUDNN_ROOT's, then the
# toolkit's), so that a cuDNN 8 there is not passed over for another folder's libcudnn.so (9).
find_library(CUDNN_LIBRARY NAMES cudnn libcudnn.so.9 libcudnn.so.8 libcudnn.so.7 NAMES_PER_DIR
             HINTS ENV CUDNN_ROOT ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib64 lib)
if(CUDNN_INCLUDE_DIR AND CUDNN_LIBRARY)
  # cuDNN 8+ keeps the version in cudnn_version.h; cuDNN 7 in cudnn.h.
  set(cudnn_hdr "${CUDNN_INCLUDE_DIR}/cudnn_version.h")
  if(NOT EXISTS "${cudnn_hdr}")
    set(cudnn_hdr "${CUDNN_INCLUDE_DIR}/cudnn.h")
  endif()
  file(STRINGS "${cudnn_hdr}" cudnn_defs REGEX "#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) ")
  string(REGEX REPLACE ".*CUDNN_MAJOR ([0-9]+).*" "\\1" cudnn_major "${cudnn_defs}")
  string(REGEX REPLACE ".*CUDNN_MINOR ([0-9]+).*" "\\1" cudnn_minor "${cudnn_defs}")
  string(REGEX REPLACE ".*CUDNN_PATCHLEVEL ([0-9]+).*" "\\1" cudnn_patch "${cudnn_defs}")
  set(GPUBENCH_CUDNN_VERSION "${cudnn_major}.${cudnn_minor}.${cudnn_patch}")
  set(GPUBENCH_HAVE_CUDNN ON)
  add_library(gpubench_cudnn INTERFACE)
  target_include_directories(gpubench_cudnn INTERFACE ${CUDNN_INCLUDE_DIR})
  target_link_libraries(gpubench_cudnn INTERFACE ${CUDNN_LIBRARY})
  list(APPEND GPUBENCH_CUDA_LIBS gpubench_cudnn)
  get_filename_component(cudnn_dir "${CUDNN_LIBRARY}" DIRECTORY)
  list(APPEND CMAKE_BUILD_RPATH ${cudnn_dir})
  list(APPEND CMAKE_INSTALL_RPATH ${cudnn_dir})
  list(APPEND GPUBENCH_CUDA_DEFS GPUBENCH_HAVE_CUDNN=1)
  message(STATUS "gpubench: cuDNN ✓ ${GPUBENCH_CUDNN_VERSION} (${CUDNN_LIBRARY})")
else()
  message(STATUS "gpubench: cuDNN ✗ (cudnn.h or libcudnn not found; set CUDNN_ROOT)")
endif()
