/* test_gpu_backend.c — the CUDA backend on a real GPU (CTest label `gpu`): it finds cuda:0 with
 * its provenance and peaks, activates it with a stream, times a row of the registry through the
 * harness's own loop (a kernel-only median above zero), turns an allocation larger than the
 * device into an `unsupported` status with both sizes — not a crash — and leaves the device
 * usable after it (tests/sim runs it on a simulated H100 too: gpu_backend_sim). Exits 77 (skipped) when there is no usable GPU, after checking that the backend said why
 * in one line. Every implementation's correctness on the GPU is tests/workloads (workloads_gpu).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/registry.h"
#include "harness/core/shape.h"
#include "harness/run/backend.h"
#include "harness/run/runner.h"
#include "kernels/common/cuda_impl.h"
#include "tests/testhelp.h"

enum { SKIP = 77 };

/* The first CUDA implementation of the registry on its workload's first test shape. */
static void time_one_row(const struct device *dev) {
    struct options o = {.min_time = 0, .max_time = 1, .min_reps = 3, .warmup = 1, .seed = 42};
    const struct workload *w;
    for (int wi = 0; (w = registry_workloads[wi]) != NULL; wi++) {
        const struct impl *im;
        for (int i = 0; (im = registry_impl(w, i)) != NULL; i++) {
            if (im->kind != DEV_CUDA)
                continue;
            struct problem p;
            char err[256] = "";
            memset(&p, 0, sizeof p);
            p.seed = 42;
            if (shape_parse(w, w->test_shapes[0], &p.shape, err, sizeof err) != 0 ||
                w->make_problem(&p, err, sizeof err) != 0) {
                CHECK_MSG(0, "%s: %s", w->name, err);
                return;
            }
            struct result r;
            memset(&r, 0, sizeof r);
            runner_measure(&o, dev, w, im, &p, &r);
            printf("%s/%s %s: %s, median %.4f ms over %zu reps: %s\n", w->name, im->name,
                   w->test_shapes[0], status_name(r.status), r.st.median, r.st.n, r.note);
            CHECK_MSG(r.status == ST_OK && r.st.n >= 3 && r.st.median > 0, "%s/%s: %s: %s",
                      w->name, im->name, status_name(r.status), r.note);
            w->free_problem(&p);
            return;
        }
    }
    CHECK_MSG(0, "no CUDA implementation in the registry");
}

int main(void) {
    struct device_list list;
    memset(&list, 0, sizeof list);
    char why[600] = "";
    int n = cuda_backend.discover(&list, 1, why, sizeof why);
    if (n == 0) {
        /* No GPU is not a failure, but the reason must be there, in one line. */
        CHECK_MSG(why[0] != '\0' && strchr(why, '\n') == NULL, "why: \"%s\"", why);
        printf("no usable GPU: %s\n", why);
        return test_failed ? 1 : SKIP;
    }
    const struct device *dev = &list.d[0];
    printf("%s %s cc=%s driver=%s runtime=%s\n  %s\n  %s\n  %s\n  peak %.0f GFLOP/s %.0f GB/s\n",
           dev->id, dev->name, dev->cc, dev->driver, dev->runtime, dev->blas_lib, dev->dnn_lib,
           dev->extra, dev->peak_gflops, dev->peak_gbps);
    CHECK(strcmp(dev->id, "cuda:0") == 0 && dev->kind == DEV_CUDA && dev->cc[0] && dev->name[0]);
    CHECK_MSG(dev->peak_gflops > 0 && dev->peak_gbps > 0, "peaks %.1f %.1f", dev->peak_gflops,
              dev->peak_gbps);
    char note[NOTE_LEN] = "";
    enum status st = dev->be->activate(dev, note, sizeof note);
    if (st != ST_OK) {
        printf("cuda:0 cannot be used: %s %s\n", status_name(st), note);
        return SKIP;
    }
    CHECK(gb_stream() != NULL);
    time_one_row(dev);

    /* More than the device has: it can never fit this card, so `unsupported` with both sizes
     * (gpu_policy.c's wording), not `oom`; nothing allocated. */
    struct problem p;
    memset(&p, 0, sizeof p);
    struct impl_ctx ctx = {.p = &p, .dev = dev, .threads = 1};
    void *big = NULL;
    st = gb_malloc(&ctx, &big, dev->mem_bytes + ((size_t)1 << 30), "too big");
    CHECK_MSG(st == ST_UNSUPPORTED && big == NULL && strstr(ctx.note, "too big") &&
                  strstr(ctx.note, "does not fit this card"),
              "%s: %s", status_name(st), ctx.note);
    /* The device is still fine for the next row. */
    CHECK_MSG(dev->be->activate(dev, note, sizeof note) == ST_OK, "%s", note);
    time_one_row(dev);
    dev->be->shutdown(dev);
    return TEST_END();
}
