/* registry.h — the table of workloads, and look-ups by name. */
#ifndef GPUBENCH_REGISTRY_H
#define GPUBENCH_REGISTRY_H

#include "bench/workload.h"

extern const struct workload vecadd_workload, gemm_workload, conv2d_workload, mlp_train_workload;
#ifdef GPUBENCH_HAVE_CUDA
extern const struct workload memcpy_workload;
#endif

/* NULL-terminated table of every workload this build has, in run order. */
extern const struct workload *const registry_workloads[];

/* The workload named `name`, or NULL. */
const struct workload *registry_find_workload(const char *name);

/* The implementation `name` of workload w, or NULL. */
const struct impl *registry_find_impl(const struct workload *w, const char *name);

/* 1 when some workload has an implementation called `name`. */
int registry_impl_exists(const char *name);

#endif
