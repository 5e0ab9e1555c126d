/* blas.h — the one door to OpenBLAS: every file that calls cblas_* or openblas_* includes this
 * instead of <cblas.h>, and keeps the plain names (cblas_sgemm, openblas_get_corename).
 *
 * Why: an OpenBLAS may prefix its symbols. PyPI's scipy-openblas32 wheel (-DGPUBENCH_OPENBLAS=pypi,
 * cmake/openblas.cmake) declares and exports scipy_cblas_sgemm, scipy_openblas_get_config, …
 * so that it never clashes with another BLAS in one Python process. cmake/openblas.cmake reads
 * the prefix from the library's cblas.h and defines GPUBENCH_BLAS_PREFIX to it; here each name
 * gpubench uses becomes the prefixed one. Without a prefix (Debian's OpenBLAS, a plain build in a
 * folder) nothing is renamed. A name used but missing here fails the prefixed build (no
 * declaration, then no such symbol to link), never silently at run time; the test
 * blas_one_door (tests/core/) finds it in any build.
 *
 * GPUBENCH_BLAS_ORIGIN (a string, "" for the system's OpenBLAS) says where the library came
 * from, for the row's blas_lib (harness/run/backend_cpu.c). */
#ifndef GPUBENCH_BLAS_H
#define GPUBENCH_BLAS_H

#include <cblas.h>

#ifndef GPUBENCH_BLAS_ORIGIN
#define GPUBENCH_BLAS_ORIGIN ""
#endif

#ifdef GPUBENCH_BLAS_PREFIX
/* Two levels, so that GPUBENCH_BLAS_PREFIX is expanded before it is pasted; the name itself is
 * not expanded again (a macro is not re-expanded inside its own expansion). */
#define GB_BLAS_PASTE_(a, b) a##b
#define GB_BLAS_PASTE(a, b) GB_BLAS_PASTE_(a, b)
#define GB_BLAS_NAME(name) GB_BLAS_PASTE(GPUBENCH_BLAS_PREFIX, name)

#define cblas_sgemm GB_BLAS_NAME(cblas_sgemm)
#define cblas_dgemm GB_BLAS_NAME(cblas_dgemm)
#define cblas_sbgemm GB_BLAS_NAME(cblas_sbgemm)
#define cblas_sgemv GB_BLAS_NAME(cblas_sgemv)
#define cblas_dgemv GB_BLAS_NAME(cblas_dgemv)
#define cblas_saxpy GB_BLAS_NAME(cblas_saxpy)
#define cblas_daxpy GB_BLAS_NAME(cblas_daxpy)
#define cblas_sdot GB_BLAS_NAME(cblas_sdot)
#define cblas_ddot GB_BLAS_NAME(cblas_ddot)
#define openblas_set_num_threads GB_BLAS_NAME(openblas_set_num_threads)
#define openblas_get_num_threads GB_BLAS_NAME(openblas_get_num_threads)
#define openblas_get_num_procs GB_BLAS_NAME(openblas_get_num_procs)
#define openblas_get_config GB_BLAS_NAME(openblas_get_config)
#define openblas_get_corename GB_BLAS_NAME(openblas_get_corename)

/* scipy-openblas32 0.3.34.481.3 declares scipy_openblas_setaffinity but exports
 * openblas_setaffinity unprefixed; cmake/openblas.cmake links both names and defines
 * GPUBENCH_BLAS_SETAFFINITY_UNPREFIXED where only the plain one exists. */
#ifdef GPUBENCH_BLAS_SETAFFINITY_UNPREFIXED
#ifdef OPENBLAS_OS_LINUX /* as cblas.h declares it: its openblas_config.h includes <sched.h> */
int openblas_setaffinity(int thread_idx, size_t cpusetsize, cpu_set_t *cpu_set);
#endif
#else
#define openblas_setaffinity GB_BLAS_NAME(openblas_setaffinity)
#endif
#endif /* GPUBENCH_BLAS_PREFIX */

#endif
