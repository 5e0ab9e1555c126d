/* test_gpu_no_driver.c — the CUDA backend with no usable driver: discover finds no device and
 * says why in one line naming one of the errors given as argv[1] ("A|B|…"). Run with the
 * toolkit's stub libcuda first on LD_LIBRARY_PATH (tests/gpuinfo/CMakeLists.txt): the case of a
 * cluster node whose module file put lib64/stubs on the path. From CUDA 11.1 that is
 * cudaErrorStubLibrary on every machine, GPU or not, explained as "no driver"; older runtimes
 * have no such error and report the stub as some other failure. */
#include <stdio.h>
#include <string.h>

#include "harness/run/backend.h"
#include "tests/testhelp.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s EXPECTED_ERROR_NAME\n", argv[0]);
        return 2;
    }
    struct device_list list;
    memset(&list, 0, sizeof list);
    char why[600] = "";
    int n = cuda_backend.discover(&list, 1, why, sizeof why);
    printf("discover: %d devices; why: %s\n", n, why);
    CHECK(n == 0 && list.n == 0);
    char names[256];
    snprintf(names, sizeof names, "%s", argv[1]);
    int named = 0;
    for (char *save = NULL, *t = strtok_r(names, "|", &save); t; t = strtok_r(NULL, "|", &save))
        named |= strstr(why, t) != NULL;
    CHECK_MSG(named, "why names none of %s", argv[1]);
    if (strcmp(argv[1], "cudaErrorStubLibrary") == 0)
        CHECK_MSG(strstr(why, "with no driver loaded") != NULL, "why: %s", why); /* fake PCI */
    CHECK(strchr(why, '\n') == NULL);
    return TEST_END();
}
