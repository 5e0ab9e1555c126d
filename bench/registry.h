/* registry.h — every workload and implementation this build has, from the one table
 * (bench/workloads.def), and look-ups by name. */
#ifndef GPUBENCH_REGISTRY_H
#define GPUBENCH_REGISTRY_H

#include "harness/core/workload.h"

/* NULL-terminated table of every workload this build has, in table order (the run order). */
extern const struct workload *const registry_workloads[];

/* The i-th implementation of workload w in table order (i from 0), or NULL past the last:
 *   for (int i = 0; (im = registry_impl(w, i)) != NULL; i++) … */
const struct impl *registry_impl(const struct workload *w, int i);

/* The workload named `name`, or NULL. */
const struct workload *registry_find_workload(const char *name);

/* The implementation `name` of workload w, or NULL. */
const struct impl *registry_find_impl(const struct workload *w, const char *name);

/* 1 when some workload has an implementation called `name`. */
int registry_impl_exists(const char *name);

/* What a table entry needs from the build, as written in workloads.def ("CPU", "CUDA",
 * "CUBLAS", "CUDNN") for implementation im of w; NULL when im is not in the table. */
const char *registry_impl_needs(const struct workload *w, const struct impl *im);

#endif
