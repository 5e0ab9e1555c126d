/* cblas.h — a stand-in for OpenBLAS's header in test_blas_map.c: harness/core/blas.h includes
 * <cblas.h> first, and the test checks only the names it maps, never calls them. */
#ifndef GPUBENCH_FAKE_CBLAS_H
#define GPUBENCH_FAKE_CBLAS_H
#endif
