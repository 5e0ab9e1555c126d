/* test_plan_cpu_default.c — the CPU's own default vecadd shape (issue 37 item 4): on a CPU whose
 * last-level cache (injected: a device list made here, not the machine's topology) holds the
 * common n = 2^24 arrays, the plan gives the CPU's rows arrays at least 4× that cache (STREAM's
 * rule: each array n × 4 bytes ≥ 4 × LLC, so n ≥ LLC bytes, past 4 × LLC / 12 for the three)
 * and the GPU's rows the common shape; a small cache keeps the common shape for every device; a
 * small host memory caps the CPU's shape and the reason says so; --quick is never changed.
 */
#include <stdio.h>
#include <string.h>

#include "bench/registry.h"
#include "harness/run/cli.h"
#include "harness/run/plan.h"
#include "tests/testhelp.h"

#define HAS(s, sub) (strstr((s), (sub)) != NULL)

static struct device_list machine(size_t llc, size_t mem) {
    struct device_list l;
    memset(&l, 0, sizeof l);
    l.n = 2;
    snprintf(l.d[0].id, sizeof l.d[0].id, "cpu");
    l.d[0].kind = DEV_CPU;
    l.d[0].cache_bytes = llc;
    l.d[0].mem_bytes = mem;
    snprintf(l.d[1].id, sizeof l.d[1].id, "cuda:0");
    l.d[1].kind = DEV_CUDA;
    l.d[1].cache_bytes = 50u << 20;
    return l;
}

/* The n of the rows of device kind k (0 when it has none; -1 when its rows have two shapes). */
static long rows_n(const struct plan *pl, enum device_kind k) {
    long n = 0;
    for (int i = 0; i < pl->total_rows; i++) {
        if (pl->rows[i].dev->kind != k)
            continue;
        long v = pl->shapes[pl->rows[i].shape].s.v[0];
        n = n == 0 || n == v ? v : -1;
    }
    return n;
}

static void plan_of(struct device_list *l, int quick, struct plan *pl) {
    char *argv[] = {"gpubench", "-w", "vecadd", "-D", "f32", quick ? "--quick" : NULL, NULL};
    static struct options o;
    memset(&o, 0, sizeof o);
    CHECK(cli_parse_run(quick ? 6 : 5, argv, &o) == 0);
    CHECK(plan_build(&o, l, "", pl) == 0);
}

/* GPU rows need a CUDA implementation of vecadd: a CPU-only build has none, so there the GPU
 * device gets no rows and only the CPU's side is checked. */
static long gpu_expect(long n) {
    const struct workload *w = registry_find_workload("vecadd");
    const struct impl *im;
    for (int i = 0; w && (im = registry_impl(w, i)) != NULL; i++)
        if (im->kind == DEV_CUDA)
            return n;
    return 0;
}

int main(void) {
    struct plan pl;
    /* a 100 MiB L3 (a 2^24 vecadd's 192 MiB is within 2× of it): CPU n = 2^27 ≥ 100 Mi */
    struct device_list l = machine(100u << 20, 64ull << 30);
    plan_of(&l, 0, &pl);
    long cpu = rows_n(&pl, DEV_CPU), gpu = rows_n(&pl, DEV_CUDA);
    CHECK_MSG(cpu == 1L << 27 && cpu >= (long)(100u << 20) && 12.0 * cpu > 4.0 * (100u << 20),
              "CPU n %ld", cpu);
    CHECK_MSG(gpu == gpu_expect(1L << 24), "GPU n %ld: the common default", gpu);
    char shape[64], why[256];
    CHECK(plan_cpu_default(&pl, pl.shapes[0].w, shape, sizeof shape, why, sizeof why));
    CHECK_MSG(strcmp(shape, "n=134217728") == 0 && HAS(why, "4x the 100 MiB last-level cache") &&
                  HAS(why, "STREAM") && HAS(why, "GPUs keep n=16777216"),
              "%s: %s", shape, why);
    plan_free(&pl);
    /* --quick shapes are the same everywhere */
    plan_of(&l, 1, &pl);
    CHECK_MSG(gpu_expect(rows_n(&pl, DEV_CPU)) == rows_n(&pl, DEV_CUDA) && rows_n(&pl, DEV_CPU) > 0,
              "quick: CPU %ld, GPU %ld", rows_n(&pl, DEV_CPU), rows_n(&pl, DEV_CUDA));
    plan_free(&pl);
    /* a 4 MiB cache: the common shape serves the CPU too, one problem for both */
    l = machine(4u << 20, 64ull << 30);
    plan_of(&l, 0, &pl);
    CHECK_MSG(rows_n(&pl, DEV_CPU) == 1L << 24 && rows_n(&pl, DEV_CUDA) == gpu_expect(1L << 24) &&
                  pl.nshapes == 1,
              "small cache: CPU %ld, GPU %ld, %d shapes", rows_n(&pl, DEV_CPU),
              rows_n(&pl, DEV_CUDA), pl.nshapes);
    plan_free(&pl);
    /* 4 GiB of host memory under a 512 MiB L3: n ≤ 4 GiB / 64 = 2^26, and the reason says so */
    l = machine(512u << 20, 4ull << 30);
    plan_of(&l, 0, &pl);
    CHECK_MSG(rows_n(&pl, DEV_CPU) == 1L << 26, "capped: CPU %ld", rows_n(&pl, DEV_CPU));
    CHECK(plan_cpu_default(&pl, pl.shapes[0].w, shape, sizeof shape, why, sizeof why));
    CHECK_MSG(HAS(why, "capped by host memory"), "%s", why);
    plan_free(&pl);
    /* a CPU-only run has no GPU shape at all */
    l = machine(100u << 20, 64ull << 30);
    l.n = 1;
    plan_of(&l, 0, &pl);
    CHECK_MSG(pl.nshapes == 1 && rows_n(&pl, DEV_CPU) == 1L << 27, "CPU only: %d shapes",
              pl.nshapes);
    plan_free(&pl);
    return TEST_END();
}
