/* startup.h — the startup problem as every implementation and test of it sees it (bench/startup.c
 * defines it). A start-up row times what it costs to begin using a library or a device in a fresh
 * process; then, so that the row is verified like any other, the process computes the dot
 * product a·b of n floats with what it just started, and the harness checks it. */
#ifndef GPUBENCH_BENCH_STARTUP_H
#define GPUBENCH_BENCH_STARTUP_H

#include "harness/core/workload.h"

enum { STARTUP_KEY_N };                /* shape keys, canonical order */
enum { STARTUP_IN_A, STARTUP_IN_B };   /* problem in[]: n floats each */
enum { STARTUP_OUT_DOT };              /* problem out[]: 1 float, a·b */

/* The workload itself (bench/startup.c). */
extern const struct workload startup_workload;

#endif
