/* backend_cuda_none.c — the CUDA backend of a CPU-only build: it finds no device and says why. */
#include <stdio.h>

#include "harness/run/backend.h"

static int none_discover(struct device_list *list, int threads, char *why, size_t whylen) {
    (void)list, (void)threads;
    snprintf(why, whylen,
             "this gpubench was built without CUDA (-DGPUBENCH_CUDA=OFF or no nvcc found at "
             "configure time)");
    return 0;
}

const struct backend cuda_backend = {.kind_name = "cuda", .discover = none_discover};
