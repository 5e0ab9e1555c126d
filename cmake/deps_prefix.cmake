# deps_prefix.cmake — build from a folder of unpacked Debian packages (scripts/offline-deps DIR)
# instead of the system's: -DGPUBENCH_DEPS_PREFIX=DIR. For machines with a GPU and a toolkit but
# no package access (cluster compute nodes, lab machines).
#
# pkg-config then reads only DIR's .pc files (PKG_CONFIG_LIBDIR, so the system's are hidden) and
# maps their /usr paths into DIR (PKG_CONFIG_SYSROOT_DIR), which keeps DIR relocatable until the
# build. The binary gets DIR's library folders as an old-style RPATH (DT_RPATH, not RUNPATH): only
# DT_RPATH also applies to the libraries' own dependencies, and OpenBLAS needs DIR's libgfortran.
# cuDNN is looked for in DIR too (cmake/cuda_setup.cmake), for a toolkit without it.
if(NOT GPUBENCH_DEPS_PREFIX)
  return()
endif()
get_filename_component(GPUBENCH_DEPS_PREFIX "${GPUBENCH_DEPS_PREFIX}" ABSOLUTE)
file(GLOB deps_libdirs LIST_DIRECTORIES true "${GPUBENCH_DEPS_PREFIX}/usr/lib/*-linux-gnu*")
if(NOT deps_libdirs)
  message(FATAL_ERROR "GPUBENCH_DEPS_PREFIX=${GPUBENCH_DEPS_PREFIX}: no usr/lib/<multiarch> "
                      "folder: make it with scripts/offline-deps ${GPUBENCH_DEPS_PREFIX}")
endif()
list(GET deps_libdirs 0 deps_libdir)
file(RELATIVE_PATH deps_rel "${GPUBENCH_DEPS_PREFIX}" "${deps_libdir}")
set(ENV{PKG_CONFIG_LIBDIR} "/${deps_rel}/pkgconfig:/${deps_rel}/openblas-pthread/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${GPUBENCH_DEPS_PREFIX}")
# A machine with no pkg-config of its own uses the folder's pkgconf (its wrapper finds the
# library pkgconf needs in the folder).
find_program(GPUBENCH_SYSTEM_PKG_CONFIG NAMES pkg-config pkgconf)
if(NOT GPUBENCH_SYSTEM_PKG_CONFIG AND EXISTS "${GPUBENCH_DEPS_PREFIX}/usr/bin/pkg-config-prefix")
  set(PKG_CONFIG_EXECUTABLE "${GPUBENCH_DEPS_PREFIX}/usr/bin/pkg-config-prefix" CACHE FILEPATH
      "pkg-config (the deps folder's pkgconf: the system has none)" FORCE)
  message(STATUS "gpubench: pkg-config ✓ (the deps folder's pkgconf; the system has none)")
endif()
list(PREPEND CMAKE_PREFIX_PATH "${GPUBENCH_DEPS_PREFIX}/usr" "${GPUBENCH_DEPS_PREFIX}")
set(GPUBENCH_DEPS_RPATH "${deps_libdir}/openblas-pthread;${deps_libdir}")
list(APPEND CMAKE_BUILD_RPATH ${GPUBENCH_DEPS_RPATH})
add_link_options("LINKER:--disable-new-dtags")
message(STATUS "gpubench: dependencies from ${GPUBENCH_DEPS_PREFIX} ✓ (rpath ${deps_libdir})")
