/* test_util_cpu.h — what the CPU correctness tests share: make a problem from a shape string,
 * and run one implementation the way the harness's verified run does (poison the outputs,
 * prepare, run once, verify, release). Header-only, like testhelp.h. */
#ifndef GPUBENCH_TEST_UTIL_CPU_H
#define GPUBENCH_TEST_UTIL_CPU_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/registry.h"
#include "harness/core/workload.h"
#include "harness/core/shape.h"
#include "harness/core/verify.h"

/* Parse `shape` for w and make its problem with `seed`. Returns 0, or -1 after printing why. */
static int tu_make(const struct workload *w, const char *shape, uint64_t seed, struct problem *p) {
    char err[256];
    memset(p, 0, sizeof *p);
    p->seed = seed;
    if (shape_parse(w, shape, &p->shape, err, sizeof err) != 0) {
        fprintf(stderr, "shape %s:%s: %s\n", w->name, shape, err);
        return -1;
    }
    if (w->make_problem(p, err, sizeof err) != 0) {
        fprintf(stderr, "make_problem %s:%s: %s\n", w->name, shape, err);
        return -1;
    }
    return 0;
}

static void tu_poison(struct problem *p) {
    for (int i = 0; i < p->nout; i++)
        for (size_t j = 0; j < p->out[i].n; j++) {
            if (p->out[i].data)
                p->out[i].data[j] = NAN;
            if (p->out[i].data64)
                p->out[i].data64[j] = NAN;
        }
}

/* The harness's verified run of implementation `im` on a CPU: poison, prepare, run, verify,
 * release. Returns the status (ST_OK when verified) and leaves the report in *vr. */
static enum status tu_run_verify(const struct workload *w, const struct impl *im, struct problem *p,
                                 struct verify_report *vr) {
    struct impl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.p = p;
    ctx.threads = 2;
    verify_begin(vr);
    tu_poison(p);
    enum status st = im->prepare ? im->prepare(&ctx) : ST_OK;
    if (st == ST_OK)
        st = im->run(&ctx);
    if (st == ST_OK && im->finish)
        st = im->finish(&ctx);
    if (st == ST_OK)
        st = w->verify(p, vr);
    if (im->release)
        im->release(&ctx);
    if (ctx.note[0])
        fprintf(stderr, "  note: %s\n", ctx.note);
    return st;
}

/* The implementation of w called `name`, or NULL. */
static const struct impl *tu_impl(const struct workload *w, const char *name) {
    return registry_find_impl(w, name);
}

#endif
