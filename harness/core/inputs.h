/* inputs.h — deterministic inputs and aligned host buffers shared by every workload. */
#ifndef GPUBENCH_INPUTS_H
#define GPUBENCH_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/workload.h"

/* x[i] = uniform in [lo, hi), a pure function of (seed, stream, i): the same data whatever the
 * thread count or order of generation. Never all zeros. */
void fill_uniform(float *x, size_t n, uint64_t seed, uint64_t stream, float lo, float hi);

/* Allocate b->data as n floats, 64-byte aligned. Returns 0, or -1 when out of memory. */
int buf_alloc(struct buf *b, const char *name, size_t n);

/* Free every in/out buffer of p and zero the counts (the workload frees p->ref itself). */
void problem_free_bufs(struct problem *p);

/* splitmix64: the generator behind fill_uniform, exposed for sampled verification indices. */
uint64_t splitmix64(uint64_t x);

/* `count` distinct-enough deterministic indices in [0, n), sorted, for sampled references of
 * large outputs. Returns a malloc'ed array (NULL when out of memory). */
size_t *sample_indices(size_t n, size_t count, uint64_t seed);

#endif
