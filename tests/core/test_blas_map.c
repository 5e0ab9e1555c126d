/* test_blas_map.c — harness/core/blas.h maps each plain cblas_/openblas_ name onto the prefixed
 * one when GPUBENCH_BLAS_PREFIX is set, and leaves it alone otherwise. Built three times
 * (tests/core/CMakeLists.txt) against a stand-in cblas.h: with the prefix gbtest_, with it and
 * an unprefixed openblas_setaffinity (as PyPI's scipy-openblas32 exports it), and with none.
 * EXPECT_PREFIX and EXPECT_AFFINITY are what each build must give. */
#include <stdio.h>
#include <string.h>

#include "harness/core/blas.h"
#include "tests/testhelp.h"

#define STR_(x) #x
#define STR(x) STR_(x) /* the name after macro expansion, as the compiler sees it */

int main(void) {
    /* every name blas.h maps; tests/core/blas_one_door.sh checks the tree uses no other */
    const char *const mapped[][2] = {
        {"cblas_sgemm", STR(cblas_sgemm)},
        {"cblas_dgemm", STR(cblas_dgemm)},
        {"cblas_sbgemm", STR(cblas_sbgemm)},
        {"cblas_sgemv", STR(cblas_sgemv)},
        {"cblas_dgemv", STR(cblas_dgemv)},
        {"cblas_saxpy", STR(cblas_saxpy)},
        {"cblas_daxpy", STR(cblas_daxpy)},
        {"cblas_sdot", STR(cblas_sdot)},
        {"cblas_ddot", STR(cblas_ddot)},
        {"openblas_set_num_threads", STR(openblas_set_num_threads)},
        {"openblas_get_num_threads", STR(openblas_get_num_threads)},
        {"openblas_get_num_procs", STR(openblas_get_num_procs)},
        {"openblas_get_config", STR(openblas_get_config)},
        {"openblas_get_corename", STR(openblas_get_corename)},
    };
    for (size_t i = 0; i < sizeof mapped / sizeof mapped[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "%s%s", EXPECT_PREFIX, mapped[i][0]);
        CHECK_MSG(strcmp(mapped[i][1], want) == 0, "%s became %s, want %s", mapped[i][0],
                  mapped[i][1], want);
    }
    CHECK_MSG(strcmp(STR(openblas_setaffinity), EXPECT_AFFINITY) == 0,
              "openblas_setaffinity became %s, want %s", STR(openblas_setaffinity),
              EXPECT_AFFINITY);
    /* a name blas.h does not list is never renamed: the prefixed build then fails to compile */
    CHECK(strcmp(STR(cblas_cgemm), "cblas_cgemm") == 0);
    CHECK(strcmp(GPUBENCH_BLAS_ORIGIN, "") == 0); /* no origin given: the system's, unnamed */
    return TEST_END();
}
