/* vecadd.h — the vecadd problem as every implementation and test of it sees it: c = a + b,
 * float32, n elements (bench/vecadd.c defines it). */
#ifndef GPUBENCH_BENCH_VECADD_H
#define GPUBENCH_BENCH_VECADD_H

#include "harness/core/workload.h"

enum { VECADD_KEY_N };               /* shape keys, canonical order */
enum { VECADD_IN_A, VECADD_IN_B };   /* problem in[]: n floats each */
enum { VECADD_OUT_C };               /* problem out[]: n floats */

/* The workload itself (bench/vecadd.c). */
extern const struct workload vecadd_workload;

#endif
