/* test_gpu_no_driver.c — the CUDA backend with no usable driver: discover finds no device and
 * says why in one line naming the error given as argv[1]. Run with the toolkit's stub libcuda
 * first on LD_LIBRARY_PATH (tests/gpuinfo/CMakeLists.txt), which gives cudaErrorStubLibrary on every
 * machine, GPU or not: the case of a cluster node whose module file put lib64/stubs on the
 * path. */
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
    CHECK_MSG(strstr(why, argv[1]) != NULL, "why lacks %s", argv[1]);
    CHECK_MSG(strstr(why, "No NVIDIA driver is loaded") != NULL, "why: %s", why);
    CHECK(strchr(why, '\n') == NULL);
    return TEST_END();
}
