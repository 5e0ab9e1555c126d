/* testhelp.h — the whole test framework: CHECK counts failures and says where, TEST_END
 * prints "N passed, N failed" and returns the exit code. */
#ifndef GPUBENCH_TESTHELP_H
#define GPUBENCH_TESTHELP_H

#include <stdio.h>

static int test_passed, test_failed;

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (cond) {                                                                            \
            test_passed++;                                                                     \
        } else {                                                                               \
            test_failed++;                                                                     \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                    \
        }                                                                                      \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                   \
    do {                                                                                       \
        if (cond) {                                                                            \
            test_passed++;                                                                     \
        } else {                                                                               \
            test_failed++;                                                                     \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                    \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
        }                                                                                      \
    } while (0)

#define TEST_END()                                                                             \
    (printf("%d passed, %d failed\n", test_passed, test_failed), test_failed ? 1 : 0)

#endif
