/* child.c — `gpubench __child WORKLOAD IMPL ORDINAL THREADS SEED V0 V1 …`: the child side of a
 * process per repetition (kernels/common/child.h). Not a user command (not in --help): the parent
 * starts it, it makes the shape's inputs from the seed as the parent did, runs the
 * implementation's `child` once in this fresh process and prints one answer line. */
#include "harness/run/run_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/registry.h"
#include "harness/core/device.h"
#include "kernels/common/child.h"

/* argv's numbers: ORDINAL THREADS SEED and the shape's values. */
static int child_numbers(int argc, char **argv, long *num, int n) {
    for (int i = 0; i < n; i++) {
        char *end;
        if (3 + i >= argc)
            return -1;
        num[i] = strtol(argv[3 + i], &end, 10);
        if (end == argv[3 + i] || *end)
            return -1;
    }
    return 0;
}

int child_main(int argc, char **argv) {
    long num[3 + SHAPE_MAX_KEYS];
    const struct workload *w = argc > 2 ? registry_find_workload(argv[1]) : NULL;
    const struct impl *im = w ? registry_find_impl(w, argv[2]) : NULL;
    if (!im || !im->child || child_numbers(argc, argv, num, 3 + SHAPE_MAX_KEYS) != 0) {
        printf("error gpubench __child: bad arguments (an internal command of gpubench run)\n");
        return 2;
    }
    struct device dev = {.kind = im->kind, .ordinal = (int)num[0], .threads = (int)num[1]};
    snprintf(dev.id, sizeof dev.id, "%s", im->kind == DEV_CPU ? "cpu" : "cuda");
    struct problem p;
    memset(&p, 0, sizeof p);
    p.seed = (uint64_t)num[2];
    for (int i = 0; i < SHAPE_MAX_KEYS; i++)
        p.shape.v[i] = num[3 + i];
    char err[256] = "";
    if (w->make_problem(&p, err, sizeof err) != 0) {
        printf("oom host inputs: %s\n", err[0] ? err : "out of host memory");
        return 0;
    }
    struct impl_ctx ctx = {.p = &p, .dev = &dev, .threads = dev.threads};
    double ms = -1;
    enum status st = im->child(&ctx, &ms);
    gb_child_report(stdout, st, ms, &p, ctx.note);
    w->free_problem(&p);
    return 0;
}
