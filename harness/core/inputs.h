/* inputs.h — deterministic inputs and aligned host buffers shared by every workload. */
#ifndef GPUBENCH_INPUTS_H
#define GPUBENCH_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/workload.h"

/* x[i] = uniform in [lo, hi), a pure function of (seed, stream, i): the same data whatever the
 * thread count or order of generation. Never all zeros. Stops early, the rest unset, once
 * gb_interrupted is set (harness/core/interrupt.h); so does fill_uniform_dt. */
void fill_uniform(float *x, size_t n, uint64_t seed, uint64_t stream, float lo, float hi);

/* Allocate b->data as n floats, 64-byte aligned. Returns 0, or -1 when out of memory. */
int buf_alloc(struct buf *b, const char *name, size_t n);

/* Allocate a buffer for a problem of tier t: n doubles in b->data64 for f64, else n floats in
 * b->data. Returns 0, or -1 when out of memory. */
int buf_alloc_dt(struct buf *b, const char *name, size_t n, enum dtype t);

/* Fill buffer b (allocated by buf_alloc_dt for tier t) with inputs in [lo, hi) from (seed,
 * stream): f32 and tf32 as fill_uniform; f64 with 53 random bits per value, so that an
 * implementation that computes in float32 is caught; f16 and bf16 rounded to values the tier
 * stores, and no value below 2^-6 in magnitude (it becomes ±2^-6), so that a product of two
 * inputs stays a normal f16 number and none of them vanishes. */
void fill_uniform_dt(struct buf *b, enum dtype t, uint64_t seed, uint64_t stream, float lo,
                     float hi);

/* The value of element i of b as a double, whichever of data and data64 holds it. */
static inline double buf_get(const struct buf *b, size_t i) {
    return b->data64 ? b->data64[i] : (double)b->data[i];
}

/* Free every in/out buffer of p and zero the counts (the workload frees p->ref itself). */
void problem_free_bufs(struct problem *p);

/* splitmix64: the generator behind fill_uniform, exposed for sampled verification indices. */
uint64_t splitmix64(uint64_t x);

/* `count` distinct-enough deterministic indices in [0, n), sorted, for sampled references of
 * large outputs. Returns a malloc'ed array (NULL when out of memory). */
size_t *sample_indices(size_t n, size_t count, uint64_t seed);

/* Whether a workload's reference checks a sample of `count` entries rather than all `total`
 * entries of the output, whose full reference costs `macs` multiply-adds: only above
 * `full_macs`, and only when the sample is the smaller — a sample never checks more entries than
 * the output has, so the reference never costs more than the row's own work. */
static inline int ref_sampled(double macs, double full_macs, size_t count, size_t total) {
    return macs > full_macs && count < total;
}

/* Sort indices ascending, as sample_indices returns them (for a workload that appends its own
 * edge indices to the sample). */
void sort_indices(size_t *idx, size_t count);

/* The checked output entries and their reference values, kept in problem->ref: idx sorted, or
 * NULL for all of them (outputs small enough to recompute whole); val the reference at each. */
struct sampled_ref {
    size_t count;
    size_t *idx;
    double *val;
};

/* A workload's free_problem when its p->ref is a struct sampled_ref or NULL: free that, then
 * the buffers (problem_free_bufs). */
void problem_free_sampled(struct problem *p);

#endif
