/* memcpy.h — the memcpy problem as every implementation of it sees it: one buffer of `bytes`
 * bytes (float32 elements) copied in one direction (bench/memcpy.c defines it). */
#ifndef GPUBENCH_BENCH_MEMCPY_H
#define GPUBENCH_BENCH_MEMCPY_H

#include "harness/core/workload.h"

enum { MEMCPY_KEY_BYTES }; /* shape keys, canonical order */
enum { MEMCPY_IN_SRC };    /* problem in[]: what is copied */
enum { MEMCPY_OUT_DST };   /* problem out[]: where the copy lands on the host, for verification */

/* The workload itself (bench/memcpy.c). */
extern const struct workload memcpy_workload;

#endif
