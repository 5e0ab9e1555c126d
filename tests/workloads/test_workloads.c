/* test_workloads.c — every workload and implementation of the registry, with no workload named:
 * a new line in bench/workloads.def is tested here without editing this file.
 *
 * usage: test_workloads cpu|cuda
 *   For every workload: the registry entries agree with the implementations (device kind, unique
 *   names), every shape list parses, the FLOP and byte counts are sane, and verification can
 *   fail (poisoned outputs are `wrong`). Then every implementation that runs on the chosen kind
 *   of device, on each of the workload's test shapes (odd sizes), through the harness's own
 *   timing loop (runner_measure): it must be `ok`, or `unsupported` with a reason where the
 *   device or the build lacks something. On the CPU, a verified output with one element changed
 *   must fail verification. `cuda` exits 77 (skipped) when no GPU is usable.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/registry.h"
#include "harness/core/inputs.h"
#include "harness/core/shape.h"
#include "harness/core/verify.h"
#include "harness/run/backend.h"
#include "harness/run/runner.h"
#include "harness/run/topology.h"
#include "tests/testhelp.h"

/* Registry entries agree with the implementations they point to. */
static void check_registry(void) {
    const struct workload *w;
    CHECK(registry_workloads[0] != NULL);
    for (int wi = 0; (w = registry_workloads[wi]) != NULL; wi++) {
        const struct impl *im, *other;
        CHECK_MSG(registry_impl(w, 0) != NULL, "%s has no implementation", w->name);
        for (int i = 0; (im = registry_impl(w, i)) != NULL; i++) {
            const char *needs = registry_impl_needs(w, im);
            CHECK_MSG(needs && (strcmp(needs, "CPU") == 0) == (im->kind == DEV_CPU),
                      "%s/%s: table says %s, implementation runs on %s", w->name, im->name,
                      needs ? needs : "?", im->kind == DEV_CPU ? "the CPU" : "CUDA");
            CHECK_MSG(im->run && im->summary && im->summary[0], "%s/%s: no run or summary",
                      w->name, im->name);
            for (int j = 0; (other = registry_impl(w, j)) != NULL && j < i; j++)
                CHECK_MSG(strcmp(other->name, im->name) != 0, "%s/%s twice", w->name, im->name);
        }
    }
}

/* Every shape list parses; counts are finite, bytes positive. */
static void check_shapes(const struct workload *w) {
    const char *const *lists[] = {w->default_shapes, w->quick_shapes, w->sweep_shapes,
                                  w->test_shapes};
    const char *names[] = {"default", "quick", "sweep", "test"};
    for (int l = 0; l < 4; l++) {
        CHECK_MSG(lists[l] && lists[l][0], "%s: no %s shapes", w->name, names[l]);
        for (int i = 0; lists[l] && lists[l][i]; i++) {
            struct shape s;
            char err[256];
            int ok = shape_parse(w, lists[l][i], &s, err, sizeof err) == 0;
            CHECK_MSG(ok, "%s %s shape '%s': %s", w->name, names[l], lists[l][i], err);
            if (!ok)
                continue;
            double f = w->flops(&s), b = w->bytes(&s), h = w->host_bytes(&s);
            /* 0 FLOPs and 0 bytes: the row's figure is a time alone (start-up costs) */
            CHECK_MSG(isfinite(f) && f >= 0 && isfinite(b) && b >= 0 && isfinite(h) && h >= b,
                      "%s %s: flops %g bytes %g host bytes %g", w->name, lists[l][i], f, b, h);
        }
    }
    /* the CPU's own default, at the extremes of a cache: a shape the workload accepts (vecadd's
     * n stays within cblas_saxpy's int however large the cache) */
    size_t llcs[] = {1u << 20, 512u << 20, (size_t)64 << 30};
    for (int i = 0; w->cpu_default && i < 3; i++) {
        char text[64], why[256], err[256];
        struct shape s;
        if (w->cpu_default(llcs[i], (size_t)1 << 40, text, sizeof text, why, sizeof why) != 0)
            continue;
        CHECK_MSG(shape_parse(w, text, &s, err, sizeof err) == 0 && why[0],
                  "%s CPU default '%s' for a %zu-byte cache: %s", w->name, text, llcs[i], err);
    }
}

static int make(const struct workload *w, const char *text, enum dtype t, struct problem *p) {
    char err[256] = "";
    memset(p, 0, sizeof *p);
    p->seed = 42;
    p->dtype = t;
    if (shape_parse(w, text, &p->shape, err, sizeof err) != 0 ||
        w->make_problem(p, err, sizeof err) != 0) {
        CHECK_MSG(0, "%s:%s: %s", w->name, text, err);
        return -1;
    }
    return 0;
}

static void poison(struct problem *p) {
    for (int i = 0; i < p->nout; i++)
        for (size_t j = 0; j < p->out[i].n; j++) {
            if (p->out[i].data)
                p->out[i].data[j] = NAN;
            if (p->out[i].data64)
                p->out[i].data64[j] = NAN;
        }
}

/* Outputs nobody wrote must fail verification. */
static void check_poison_fails(const struct workload *w, struct problem *p) {
    struct verify_report vr;
    verify_begin(&vr);
    poison(p);
    CHECK_MSG(w->verify(p, &vr) == ST_WRONG && vr.bad > 0, "%s: unwritten outputs verified",
              w->name);
}

/* A CPU implementation's verified output, with its last element changed, must fail. */
static void check_change_fails(const struct workload *w, const struct impl *im,
                               const struct device *dev, struct problem *p, const char *shape) {
    struct impl_ctx ctx = {.p = p, .dev = dev, .threads = dev->threads};
    struct verify_report vr;
    poison(p);
    enum status st = im->prepare ? im->prepare(&ctx) : ST_OK;
    if (st == ST_OK)
        st = im->run(&ctx);
    if (st == ST_OK && im->finish)
        st = im->finish(&ctx);
    verify_begin(&vr);
    if (st == ST_OK && w->verify(p, &vr) == ST_OK) {
        struct buf *o = &p->out[p->nout - 1];
        if (o->data64)
            o->data64[o->n - 1] += 1.0 + 2.0 * fabs(o->data64[o->n - 1]);
        else
            o->data[o->n - 1] += 1.0f + 2.0f * fabsf(o->data[o->n - 1]);
        verify_begin(&vr);
        CHECK_MSG(w->verify(p, &vr) == ST_WRONG, "%s/%s %s: a changed %s[%zu] still verifies",
                  w->name, im->name, shape, o->name, o->n - 1);
    }
    if (im->release)
        im->release(&ctx);
}

/* Every implementation of kind `kind` on every device of that kind, on one problem. */
static int run_problem(const struct device_list *devs, enum device_kind kind,
                       const struct workload *w, struct problem *p, const char *shape) {
    struct options o = {.min_time = 0, .max_time = 1, .min_reps = 1, .warmup = 0, .seed = 42};
    int rows = 0;
    for (int di = 0; di < devs->n; di++) {
        const struct device *dev = &devs->d[di];
        const struct impl *im;
        if (dev->kind != kind)
            continue;
        for (int i = 0; (im = registry_impl(w, i)) != NULL; i++) {
            if (im->kind != kind)
                continue;
            struct result r;
            memset(&r, 0, sizeof r);
            runner_measure(&o, dev, w, im, p, &r);
            rows++;
            int fine = r.status == ST_OK || (r.status == ST_UNSUPPORTED && r.note[0]);
            CHECK_MSG(fine, "%s/%s on %s, %s %s: %s: %s", w->name, im->name, dev->id, shape,
                      dtype_flag(p->dtype), status_name(r.status), r.note);
            printf("%-10s %-12s %-7s %-4s %-50s %s\n", w->name, im->name, dev->id,
                   dtype_flag(p->dtype), shape, status_name(r.status));
            if (kind == DEV_CPU && r.status == ST_OK)
                check_change_fails(w, im, dev, p, shape);
        }
    }
    return rows;
}

/* Every implementation of kind `kind`, on every test shape in every tier of its workload. */
static int run_all(const struct device_list *devs, enum device_kind kind) {
    const struct workload *w;
    int rows = 0;
    for (int wi = 0; (w = registry_workloads[wi]) != NULL; wi++)
        for (int t = 0; t < DT_COUNT; t++) {
            if (!(dtype_mask(w->dtypes) & DT_BIT(t)))
                continue;
            for (int si = 0; w->test_shapes && w->test_shapes[si]; si++) {
                struct problem p;
                if (make(w, w->test_shapes[si], (enum dtype)t, &p) != 0)
                    continue;
                check_poison_fails(w, &p);
                rows += run_problem(devs, kind, w, &p, w->test_shapes[si]);
                w->free_problem(&p);
            }
        }
    return rows;
}

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "cpu") != 0 && strcmp(argv[1], "cuda") != 0)) {
        fprintf(stderr, "usage: test_workloads cpu|cuda\n");
        return 2;
    }
    enum device_kind kind = strcmp(argv[1], "cpu") == 0 ? DEV_CPU : DEV_CUDA;
    char err[256], why[512] = "";
    if (topology_load(err, sizeof err) != 0)
        fprintf(stderr, "warning: %s\n", err);
    struct device_list devs;
    memset(&devs, 0, sizeof devs);
    const struct backend *be = kind == DEV_CPU ? &cpu_backend : &cuda_backend;
    if (be->discover(&devs, 2, why, sizeof why) == 0) {
        printf("SKIP: no %s device: %s\n", argv[1], why);
        topology_unload();
        return kind == DEV_CPU ? 1 : 77;
    }
    check_registry();
    const struct workload *w;
    for (int wi = 0; (w = registry_workloads[wi]) != NULL; wi++)
        check_shapes(w);
    int rows = run_all(&devs, kind);
    CHECK_MSG(rows > 0, "no %s implementation ran", argv[1]);
    printf("%d rows on %d %s device(s)\n", rows, devs.n, argv[1]);
    for (int i = 0; i < devs.n; i++)
        if (devs.d[i].be->shutdown)
            devs.d[i].be->shutdown(&devs.d[i]);
    topology_unload();
    return TEST_END();
}
