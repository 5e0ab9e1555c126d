/* plan.h — what a run will do: devices × workloads × shapes × implementations, all checked
 * before the first benchmark starts. */
#ifndef GPUBENCH_PLAN_H
#define GPUBENCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/device.h"
#include "harness/run/cli.h"

/* One problem: a shape of a workload in one precision tier (inputs are made once per problem). */
struct plan_shape {
    const struct workload *w;
    struct shape s;
    enum dtype dtype;
    unsigned kinds; /* the device kinds with rows of it (PLAN_KIND(DEV_CPU) | …): every kind but
                       for a CPU-only default (workload.cpu_default) and the common one beside it */
};
#define PLAN_KIND(k) (1u << (k))
#define PLAN_ALL_KINDS (PLAN_KIND(DEV_CPU) | PLAN_KIND(DEV_CUDA))

/* One result row to come: an implementation of shapes[shape]'s workload on a device. */
struct plan_row {
    int shape; /* index into plan.shapes */
    const struct device *dev;
    const struct impl *im;
};

struct plan {
    const struct device *devs[DEVICE_MAX]; /* selected devices, in discovery order */
    int ndevs;
    struct plan_shape *shapes; /* grouped by workload, in registry order; each shape's tiers
                                  in tier order (f32, f64, tf32, f16, bf16) */
    int nshapes;
    struct plan_row *rows; /* by shape, then device, then implementation (table order) */
    int total_rows;
    const struct options *o;
};

/* 1 when implementation im passes the --impl filter of o. */
int plan_impl_selected(const struct options *o, const struct impl *im);

/* Build the plan from options and the discovered devices. `gpu_why` says why no CUDA device
 * was found (empty when some was). Returns 0, or 2 after printing a one-line error naming the
 * bad argument. */
int plan_build(const struct options *o, const struct device_list *found, const char *gpu_why,
               struct plan *pl);

/* 1 when the plan has a CPU whose default shape of workload w is its own (workload.cpu_default,
 * from that CPU's last-level cache and memory): the shape into shape and the reason into why. */
int plan_cpu_default(const struct plan *pl, const struct workload *w, char *shape, size_t shapelen,
                     char *why, size_t whylen);

/* Shuffle the order of the rows, seeded: the shapes in a random order, and within a shape its
 * rows (devices × implementations) in a random order. The rows of a shape stay together, so its
 * inputs and reference are still made once. With --runs each run has its own order, so a drift
 * during a run (clocks warming, a neighbour starting) does not favour the same rows each time. */
void plan_shuffle(struct plan *pl, uint64_t seed);

/* 1 when the run would want GPU rows (so "no GPU rows: why" is worth saying): no --device was
 * given, and --impl (if given) names an implementation that does not run on the CPU, or this
 * build has no CUDA implementation at all. */
int plan_wants_gpu(const struct options *o);

/* Width of the longest short-form shape of the plan (for the table's shape column). */
int plan_shape_width(const struct plan *pl);

/* The longest implementation name of the plan's rows (the table's impl column). */
int plan_impl_width(const struct plan *pl);

void plan_free(struct plan *pl);

#endif
