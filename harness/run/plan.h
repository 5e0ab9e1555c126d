/* plan.h — what a run will do: devices × workloads × shapes × implementations, all checked
 * before the first benchmark starts. */
#ifndef GPUBENCH_PLAN_H
#define GPUBENCH_PLAN_H

#include <stddef.h>

#include "harness/core/device.h"
#include "harness/run/cli.h"

/* One problem: a shape of a workload in one precision tier (inputs are made once per problem). */
struct plan_shape {
    const struct workload *w;
    struct shape s;
    enum dtype dtype;
};

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

/* Width of the longest short-form shape of the plan (for the table's shape column). */
int plan_shape_width(const struct plan *pl);

void plan_free(struct plan *pl);

#endif
